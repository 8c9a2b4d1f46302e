import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// `ledger conflicts [--json]`
struct ConflictsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "List what a sync could not merge, with both sides field by field.",
        discussion: """
            Conflict files (the other device's version of a document, kept beside it) and \
            recipes forked into "(Conflicted Copy)", each with every field that differs: its \
            JSON pointer, this device's value (mine), the other's (theirs) and the common \
            ancestor's (base, when a merge made the conflict). Mine is this device's own \
            version wherever the fork was made (here, or on the other device and pulled since). \
            `ledger resolve PATH|ID --keep mine|theirs|both` settles one.
            """)

    @OptionGroup var output: JSONOption

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let store = try global.store()
        let repo = try? Repository.open(store.root)
        let conflicts = try ConflictStore(store).list()
        let listed = conflicts.map { c -> (ConflictStore.Conflict, JSONValue?) in
            let origin = Self.origin(c, in: repo)
            let base = origin?.base.flatMap { try? JSONParser.parse($0) }
            return (c.seen(from: origin?.own), c.kind == .copy ? ConflictStore.recipeFields(base) : base)
        }
        if output.json {
            Output.json(.array(listed.map { Self.json($0.0, base: $0.1) }))
            return
        }
        guard !conflicts.isEmpty else {
            Console.print("No conflicts.")
            return
        }
        Console.print("\(Output.plural(conflicts.count, "conflict")) (`ledger resolve PATH|ID --keep mine|theirs|both` settles one; the next `ledger sync` commits it):")
        for (c, base) in listed {
            Console.print()
            let whose = c.reversed ? "this device's" : "the other device's"
            switch c.kind {
            case .file:
                Console.print(Style.bold(c.path) + " — \(whose) version of \(c.documentPath ?? "?") (\(c.subject)), kept beside it"
                    + (c.reversed ? " by the other device's merge" : ""))
            case .copy:
                let name = (c.reversed ? c.mine : c.theirs)?["name"]?.stringValue ?? c.path
                Console.print(Style.bold(c.path) + " — \"\(name)\", \(whose) version of \(c.subject)"
                    + (c.documentPath.map { " (\($0))" } ?? " (which is no longer in the ledger)")
                    + (c.reversed ? ", forked by the other device's merge" : ""))
            }
            let rows = Self.rows(c, base: base)
            guard !rows.isEmpty else {
                Console.print(c.mine == nil || c.theirs == nil ? "  (one side is not JSON, or is missing: compare the files)" : "  (no field differs)")
                continue
            }
            // Pointers are never cut (`/entries/0/alcoholMeta/standardDrinkEstimate` names a
            // field only whole); values are, to 18 characters with an ellipsis (`cell`).
            let width = max("pointer".count, rows.map { $0.pointer.count }.max() ?? 0)
            let columns = [("mine", \Row.mine), ("theirs", \Row.theirs), ("base", \Row.base)]
            Console.print(Style.dim("  " + "pointer".padded(to: width) + "  " + columns.map { $0.0.padded(to: 18) }.joined(separator: "  ")))
            for r in rows {
                let cells = columns.map { Self.cell(r[keyPath: $0.1]).padded(to: 18) }
                Console.print("  " + r.pointer.padded(to: width) + "  " + cells.joined(separator: "  "))
            }
        }
    }

    /// Where `c` came from in `repo`'s history (nil: no history, or no document to compare).
    static func origin(_ c: ConflictStore.Conflict, in repo: Repository?) -> Repository.ConflictOrigin? {
        c.documentPath.flatMap { document in try? repo?.conflictOrigin(created: c.path, document: document) }
    }

    /// One field of a conflict: its pointer, and each side's value (nil: absent).
    struct Row {
        var pointer: String
        var mine: JSONValue?
        var theirs: JSONValue?
        var base: JSONValue?
    }

    static func rows(_ c: ConflictStore.Conflict, base: JSONValue?) -> [Row] {
        c.fields.map { f in Row(pointer: f.pointer.description, mine: f.old, theirs: f.new, base: base?.value(at: f.pointer)) }
    }

    static func cell(_ v: JSONValue?) -> String {
        guard let v else { return "—" }
        let s = CanonicalJSON.compact(v)
        return s.count > 18 ? String(s.prefix(17)) + "…" : s
    }

    static func json(_ c: ConflictStore.Conflict, base: JSONValue?) -> JSONValue {
        var o: JSONObject = ["path": .string(c.path), "kind": .string(c.kind.rawValue), "subject": .string(c.subject)]
        o["document"] = c.documentPath.map(JSONValue.string) ?? .null
        o["id"] = c.id.map(JSONValue.string) ?? .null
        o["mine"] = c.mine ?? .null
        o["theirs"] = c.theirs ?? .null
        o["base"] = base ?? .null
        o["pathHolds"] = .string(c.reversed ? "mine" : "theirs")
        o["fields"] = .array(rows(c, base: base).map { r in
            .object(["pointer": .string(r.pointer), "mine": r.mine ?? .null, "theirs": r.theirs ?? .null, "base": r.base ?? .null])
        })
        return .object(o)
    }
}

/// `ledger resolve PATH|ID --keep mine|theirs|both`
struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Settle one conflict: keep this device's version, the other's, or both (recipes).",
        discussion: """
            PATH is the conflict file, the conflicted copy, or the document they are the other \
            version of; ID the document's or the copy's id. mine: the other version goes. \
            theirs: it takes the document's place (validated first; a conflicted copy's fields go \
            into the recipe it was forked from, which keeps its id and name). both: two recipes \
            — the other version becomes a recipe of its own, "<name> copy". Written atomically; \
            the next `ledger sync` commits it.
            """)

    @Argument(help: ArgumentHelp("The conflict file, conflicted copy or document (a path), or an id.", valueName: "path|id"), completion: .file())
    var reference: String

    @Option(help: ArgumentHelp("Which version to keep.", valueName: "mine|theirs|both"))
    var keep: String

    @OptionGroup var global: GlobalOptions

    func run() throws {
        guard let choice = ConflictStore.Keep(rawValue: keep.lowercased()) else {
            throw LedgerError.usage("--keep must be mine, theirs or both (found \"\(keep)\")")
        }
        let env = try global.environment()
        let absolute = CLIContext.current.absolutePath(reference)
        let ref = absolute.hasPrefix(env.store.root + "/") && FileSystem.exists(absolute) ? String(absolute.dropFirst(env.store.root.count + 1)) : reference
        let done: ConflictStore.Resolved
        do {
            let repo = try? Repository.open(env.store.root)
            done = try ConflictStore(env.store).resolve(ref, keep: choice, now: env.now, ids: env.ids) { c in
                ConflictsCommand.origin(c, in: repo)?.own
            }
        } catch let e as LedgerError where e.code == .notFound {
            // One that was there: which commit took it away, and how to bring it back.
            let gone = (try? Repository.open(env.store.root)).flatMap { try? $0.deletion(of: ref) }.map { d in
                "; \(d.path) was deleted by \(d.commit.id.short) (\(d.commit.subject)), which `ledger undo \(d.commit.id.short)` takes back"
            }
            throw LedgerError(e.code, e.sentence + "; `ledger conflicts` lists them\(gone ?? "")", problems: e.problems)
        }
        var parts: [String] = []
        if !done.written.isEmpty { parts.append("wrote " + done.written.joined(separator: ", ")) }
        if !done.removed.isEmpty { parts.append("removed " + done.removed.joined(separator: ", ")) }
        if let name = done.keptAs { parts.append("the other version is the recipe \"\(name)\"") }
        Console.print("Kept \(choice == .both ? "both" : choice.rawValue) for \(done.conflict.subject): \(parts.joined(separator: "; ")). `ledger sync` commits it.")
    }
}
