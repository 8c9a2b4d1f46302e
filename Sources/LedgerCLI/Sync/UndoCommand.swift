import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// `ledger undo [COMMIT] [--dry-run] [--yes] [--json]`
struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Take back the last sync's merge (or the commit named) as a new commit.",
        discussion: """
            Restores this device's documents to what they were before the last sync (or before \
            COMMIT), keeping what changed since, with derived values recomputed. Nothing in the \
            history is rewritten: safe after the sync was pushed; the next sync publishes the \
            undo, and `ledger undo` of the undo brings back what it took back. After `ledger \
            sync --reset-to-remote`, brings back the work the reset kept. Shows what it will \
            change first and asks on a terminal; --yes answers for scripts.
            """)

    @Argument(help: ArgumentHelp("The commit to take back (an id or its start, as `ledger log` shows; default: the last sync's).", valueName: "commit"))
    var commit: String?

    @OptionGroup var change: ConfirmedChangeOptions

    @OptionGroup var global: GlobalOptions

    func run() throws { try change.reporting(perform) }

    func perform() throws {
        let env = try global.environment()
        let plan = try Undo.plan(env.store, revision: commit)
        let what = Self.describe(plan)
        let nothing = plan.changes.isEmpty
        // Nothing to take back is a refusal (exit 1): with --json, the refusal's object.
        let refusal = (plan.alreadyUndoneBy.map { "\(plan.target.id.short) was already taken back by \($0.short) (`ledger undo \($0.short)` brings it back)" }
            ?? "that changes nothing in the documents as they are now") + "; nothing was changed"
        if change.json, nothing { throw LedgerError.invalid(refusal) }
        if change.json, change.dryRun {
            Output.json(Self.json(plan, commit: nil, dryRun: true))
            return
        }
        if !change.json {
            Console.print(what + (nothing ? "." : ", which changes here:"))
            HistoryFormat.printChanges(plan.changes)
            // An undo that changes nothing merged nothing worth telling: only the refusal follows.
            for r in plan.resolutions where !nothing { Console.print("  Merged with what changed since, \(r.document.path): " + (r.notes.isEmpty ? "merged both." : r.notes.joined(separator: "; ") + ".")) }
            for r in plan.reconciled where !nothing { Console.print("  Adjusted: \(r).") }
        }
        if nothing { throw LedgerError.invalid(refusal) }
        if change.dryRun {
            Console.print(Style.dim("Dry run: nothing was changed."))
            return
        }
        guard try Console.confirm("Undo it?", action: "Undoing \(plan.target.id.short)", yes: change.yes) else {
            Console.print("Nothing was changed.")
            return
        }
        let device = try Device.current(in: env.store, defaultName: Device.hostName)
        let done = try Undo.run(env.store, revision: commit, expected: plan, device: device)
        if change.json {
            Output.json(Self.json(done.plan, commit: done.commit, dryRun: false))
            return
        }
        Console.print("Done: \(done.commit.short) " + (done.plan.keptRef.map { "brings back the work kept at \($0)" } ?? "takes back \(done.plan.target.id.short)") + "; "
            + "`ledger sync` publishes it, and `ledger undo \(done.commit.short)` takes it back.")
    }

    /// "Taking back 9f8e7d6, the last sync of 2026-11-21 23:45 +01:00 (…), restoring the documents of 1a2b3c4".
    static func describe(_ plan: Undo.Plan) -> String {
        let t = plan.target
        if let kept = plan.keptRef { return "Bringing back the work kept at \(kept) by a reset to the remote" }
        if plan.commitsTakenBack > 1 {
            // A fast-forward: this device's sync brought the commits of other devices; its last
            // one is not the sync taken back.
            return "Taking back the last sync, which brought \(plan.commitsTakenBack) commits, the last \(t.id.short) of \(HistoryFormat.time(t.time)) "
                + "(\(t.subject)), restoring the documents of \(plan.restoring.short)"
        }
        if plan.chosen == .newestMerge {
            // Not this device's sync (it has none on record): whose merge it is, and when.
            let by = History.device(in: t.message).map { "made on \($0)" } ?? "made by \(t.authorName)"
            return "Taking back \(t.id.short), the newest merge in the history (no sync of this device is on record), \(by) at \(HistoryFormat.time(t.time)) "
                + "(\(t.subject)), restoring the documents of \(plan.restoring.short)"
        }
        let which = plan.chosen == .lastSync ? "the last sync" : "the commit"
        return "Taking back \(t.id.short), \(which) of \(HistoryFormat.time(t.time)) (\(t.subject)), restoring the documents of \(plan.restoring.short)"
    }

    static func json(_ plan: Undo.Plan, commit: ObjectID?, dryRun: Bool) -> JSONValue {
        var o: JSONObject = [
            "dryRun": .bool(dryRun), "target": .string(plan.target.id.description), "restores": .string(plan.restoring.description),
            "changes": .array(plan.changes.map(HistoryFormat.json)), "reconciled": .array(plan.reconciled.map(JSONValue.string)),
            "resolved": .array(plan.resolutions.map { .object(["path": .string($0.document.path), "notes": .array($0.notes.map(JSONValue.string))]) }),
        ]
        o["commit"] = commit.map { .string($0.description) } ?? .null
        o["keptRef"] = plan.keptRef.map(JSONValue.string) ?? .null
        o["alreadyUndoneBy"] = plan.alreadyUndoneBy.map { .string($0.description) } ?? .null
        o["commitsTakenBack"] = .number(Double(plan.commitsTakenBack))
        o["chosen"] = .string(plan.chosen.rawValue)
        return .object(o)
    }
}
