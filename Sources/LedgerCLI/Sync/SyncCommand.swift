import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// `ledger sync [--remote NAME] [--json]`
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Commit local changes, fetch, merge with each kind's rules, and push.",
        discussion: """
            Refuses (exit 1, nothing committed) when a changed document is invalid, when git is \
            in the middle of a merge or a rebase, or when HEAD is detached or on another branch \
            than the ledger's. Prints what was committed, pulled, resolved and pushed, per app and per document, and the \
            repository maintenance it ran when due. Exit 3 when the remote cannot be reached or \
            keeps refusing the push: local changes stay committed and safe.
            """)

    @Option(help: ArgumentHelp("The remote to sync with (default: the branch's remote, else origin).", valueName: "name"), completion: LiveCompletion.remotes)
    var remote: String?

    @OptionGroup var output: JSONOption

    @Flag(help: "Fetch and show what a sync would do to each document, and change nothing (work tree, index, .git, remote).")
    var dryRun = false

    @Flag(help: "Make this ledger the remote's: this device's unsynced work is kept under refs/ledger/unsynced/<time>, never dropped. Asks first (--yes answers).")
    var resetToRemote = false

    @OptionGroup var confirmation: YesOption

    @OptionGroup var global: GlobalOptions

    func run() throws {
        if dryRun, resetToRemote { throw LedgerError.usage("--dry-run and --reset-to-remote do not go together") }
        if confirmation.yes, !resetToRemote { throw LedgerError.usage("--yes answers the confirmation of --reset-to-remote; a sync asks none") }
        let store: LedgerStore
        let report: SyncReport
        do {
            store = try global.store()
            let options = SyncOptions(remoteName: remote, transport: try SyncEnvironment.transport(),
                                      git: GitTool.find(in: CLIContext.current.environment), checkpoint: SyncEnvironment.checkpoint())
            if resetToRemote { return try reset(store, options: options) }
            report = try dryRun ? Sync.preview(store, options: options) : Sync.run(store, options: options)
        } catch where output.json {
            // Scripts get one JSON value whatever happened; the sentence still goes to stderr.
            Output.json(Self.failureJSON(error))
            throw error
        }
        if output.json {
            Output.json(report.json(ledgerRoot: store.root))
        } else if dryRun {
            report.printPreview()
        } else {
            report.printText(ledgerRoot: store.root)
        }
        for warning in report.warnings { Console.error("ledger: warning: " + warning) }
        if report.outcome == .offline || report.outcome == .rejected {
            Console.error("ledger: " + (report.error ?? "the remote cannot be reached"))
            throw ExitCode(3)
        }
    }

    /// The `--json` object of a sync that stopped: `outcome` is `refused` (exit 1 or 2: the
    /// data or the request), `offline` (exit 3) or `failed` (exit 4: git, the disk, a damaged
    /// repository), with the sentence printed on stderr and the documents at fault.
    static func failureJSON(_ error: any Error) -> JSONValue {
        let e = error as? LedgerError
        let outcome = switch e?.exitStatus ?? 4 {
        case 1, 2: "refused"
        case 3: "offline"
        default: "failed"
        }
        return .object(["outcome": .string(outcome), "error": .string(e?.commandLineMessage ?? "\(error)"),
                        "problems": .array((e?.problems ?? []).map(\.json))])
    }
}

extension SyncCommand {
    /// `--reset-to-remote`: what it would do (fetched, nothing changed), a confirmation, then the reset.
    func reset(_ store: LedgerStore, options: SyncOptions) throws {
        let now = try CommandClock.current().now
        let plan = try ResetToRemote.plan(store, options: options, now: now)
        let target = "\(plan.remote) (\(plan.url)) at \(plan.upstream.short)"
        guard plan.changesSomething else {
            if output.json { Output.json(Self.json(plan, done: false)) } else { Console.print("Already in step with \(target): nothing to reset.") }
            return
        }
        if !output.json {
            Console.print("Resetting to \(target) changes here:")
            HistoryFormat.printChanges(plan.changes)
            Self.printKept(plan, future: true)
        }
        guard try Console.confirm("Reset to \(plan.remote)?", action: "Resetting this ledger to \(plan.remote)", yes: confirmation.yes) else {
            Console.print("Nothing was changed.")
            return
        }
        let done = try ResetToRemote.run(store, options: options, now: now, expected: plan)
        if output.json {
            Output.json(Self.json(done, done: true))
            return
        }
        Console.print("Reset to \(target).")
        Self.printKept(done, future: false)
    }

    static func printKept(_ r: ResetToRemote.Outcome, future: Bool) {
        guard let ref = r.keptRef else {
            Console.print("This device has no unsynced work: nothing needs keeping.")
            return
        }
        Console.print("This device's unsynced work \(future ? "will be" : "is") kept under \(ref):")
        for c in r.unsyncedCommits { Console.print("  commit \(c.id.short) \(c.subject)") }
        for c in r.uncommitted { Console.print("  uncommitted: \(c.change == .modified ? "changed" : c.change.rawValue) \(c.path)") }
        if !future {
            Console.print("`ledger undo \(ref.dropFirst("refs/ledger/".count))` brings it back (`ledger log` says so too).")
        }
    }

    static func json(_ r: ResetToRemote.Outcome, done: Bool) -> JSONValue {
        var o: JSONObject = [
            "outcome": .string(done ? "reset" : (r.changesSomething ? "would-reset" : "up-to-date")), "remote": .string(r.remote),
            "url": .string(r.url), "branch": .string(r.branch), "head": .string(r.upstream.description),
            "unsyncedCommits": .array(r.unsyncedCommits.map { .object(["commit": .string($0.id.description), "subject": .string($0.subject)]) }),
            "uncommitted": .array(r.uncommitted.map(\.json)), "changes": .array(r.changes.map(HistoryFormat.json)),
        ]
        o["previousHead"] = r.previousHead.map { .string($0.description) } ?? .null
        o["kept"] = r.keptRef.map(JSONValue.string) ?? .null
        return .object(o)
    }
}
