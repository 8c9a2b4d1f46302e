import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// `ledger log [APP|PATH|ID] [--since DATE] [--device NAME] [--limit N] [--json]`
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "The ledger's history as the apps see it: each commit, and what it changed in each document.",
        discussion: """
            Newest first: each commit (a sync, a merge, an undo, or a commit made with plain git) \
            with its time, its device and, per document, what changed in the app's words — \
            field by field (JSON pointer, old → new) where the app has no words for it. A merge \
            shows what it resolved; an undo, how to bring back what it took back. APP is \
            waterline, brew, hydrate or moments; PATH a file or folder of the ledger; ID a \
            document's id. --limit defaults to 20 (0: every commit).
            """)

    @Argument(help: ArgumentHelp("Only the history of an app, a file or folder, or a document (its id).", valueName: "app|path|id"), completion: LiveCompletion.appsAndPaths)
    var target: String?

    @Option(help: ArgumentHelp("Only commits made on or after DATE (2026-11-21, 2026-11-21T22:00, or a timestamp with its offset).", valueName: "date"))
    var since: String?

    @Option(help: ArgumentHelp("Only commits made on this device (its name; for commits of plain git, the author's name).", valueName: "name"))
    var device: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("At most N commits (default 20; 0 for all).", valueName: "n"))
    var limit: Int = 20

    @OptionGroup var output: JSONOption

    @OptionGroup var global: GlobalOptions

    func run() throws {
        if limit < 0 { throw LedgerError.usage("--limit must be 0 (every commit) or more (found \(limit))") }
        let env = try global.environment()
        let repo = try Repository.open(env.store.root)
        var query = History.Query(since: try since.map { try Self.date($0, clock: env.clock) }, device: device, limit: limit == 0 ? nil : limit)
        if let target { query.filter = try Self.filter(target, store: env.store, repo: repo) }  // nil for the whole ledger
        let entries = try History.read(repo, query)
        // Nothing even without --since and --device: the target may name nothing at all.
        if entries.isEmpty, let target, let filter = query.filter,
           try since == nil && device == nil || History.read(repo, History.Query(filter: filter, limit: 1)).isEmpty {
            try Self.refuseUnknown(target, store: env.store)
        }
        if output.json {
            Output.json(.array(entries.map(Self.json)))
            return
        }
        if entries.isEmpty { Console.print(target == nil && since == nil && device == nil ? "No commits yet." : "No commits match.") }
        for e in entries {
            Console.print(HistoryFormat.heading(e))
            HistoryFormat.printChanges(e.changes)
            if e.kind == .merge, e.changes.isEmpty, query.filter == nil {
                Console.print(Style.dim("  nothing to resolve: each device changed other documents"))
            }
            if e.kind == .undo || e.undoes != nil {  // ledger's undo, or git's revert
                Console.print(Style.dim(e.undoes == nil ? "  to take it back again: ledger undo \(e.commit.id.short)"
                                                        : "  to bring back what it took back: ledger undo \(e.commit.id.short)"))
            }
            Console.print()
        }
        for kept in try ResetToRemote.kept(repo) {
            let ahead = try repo.headCommit().map { try repo.commits(from: kept.commit.id, notIn: $0).count } ?? 0
            let name = String(kept.name.dropFirst("refs/ledger/".count))
            Console.print(Style.yellow("Kept by a reset to the remote") + ": \(kept.name), \(Output.plural(ahead, "commit")) the branch lacks, "
                + "the last of \(HistoryFormat.time(kept.commit.time)); bring it back with `ledger undo \(name)` (merged as a sync merges), "
                + "or drop it with `git -C \(env.store.root) update-ref -d \(kept.name)`.")
        }
    }

    /// The history of `target`: an app's folder, a file or folder of the ledger, or the
    /// document whose id it is (in the ledger now; else any file of that name in the history).
    static func filter(_ target: String, store: LedgerStore, repo: Repository) throws -> HistoryFilter? {
        guard let named = try PurgeCommand.target(target, store: store) else { return nil }
        switch named {
        case .app(let app): return HistoryFilter(paths: [app.rawValue])
        case .path(let path): return HistoryFilter(paths: [path])
        case .id(let id):
            let paths = try repo.headCommit().map { try HistoryFilter.documents(withID: id, in: repo, tree: repo.treeOf(commit: $0)) } ?? []
            return paths.isEmpty ? HistoryFilter(fileNames: [id + ".json"]) : HistoryFilter(paths: paths)
        }
    }

    /// For a `target` no commit ever touched: nothing when it is in the ledger now (not
    /// committed yet), else the error that names it — a typo is not "no commits match".
    static func refuseUnknown(_ target: String, store: LedgerStore) throws {
        switch try PurgeCommand.target(target, store: store) {
        case nil, .app: return
        case .path(let path):
            if path.hasPrefix("/") { throw LedgerError.usage("\(target) is not inside the ledger at \(store.root)") }
            if FileSystem.exists(store.absolute(path)) { return }
            throw LedgerError.notFound("\(target) names no file or folder of this ledger, now or in its history")
        case .id(let id):
            let apps = Forgetting.apps.map(\.rawValue), name = id + ".json"
            for dir in LedgerSchema.standard.appDirectories.sorted() {
                let files = FileManager.default.enumerator(atPath: store.absolute(dir))
                while let file = files?.nextObject() as? String { if file == name || file.hasSuffix("/" + name) { return } }
            }
            throw LedgerError.notFound("\"\(target)\" names no app (\(apps.joined(separator: ", "))), file, folder or document id of this ledger, "
                + "now or in its history" + Suggestion.didYouMean(target, among: apps))
        }
    }

    /// `--since`: a date (from its start, on this clock) or a time in `TimeArgument`'s forms.
    static func date(_ text: String, clock: CommandClock) throws -> Timestamp {
        if let day = LocalDate(text) { return ZonedClock.instant(LocalDateTime(date: day, hour: 0, minute: 0), in: clock.timeZone) }
        guard let t = TimeArgument.timestamp(text, now: clock.now, timeZone: clock.timeZone) else {
            throw LedgerError.usage("--since must be a date like 2026-11-21, \(TimeArgument.forms) (found \"\(text)\")")
        }
        return t
    }

    static func json(_ e: HistoryEntry) -> JSONValue {
        var o: JSONObject = [
            "commit": .string(e.commit.id.description), "time": .string(e.commit.time.iso8601), "kind": .string(e.kind.rawValue),
            "subject": .string(e.commit.subject), "author": .string(e.commit.authorName),
            "parents": .array(e.commit.parents.map { .string($0.description) }), "changes": .array(e.changes.map(HistoryFormat.json)),
        ]
        o["device"] = e.device.map(JSONValue.string) ?? .null
        o["undoes"] = e.undoes.map { .string($0.description) } ?? .null
        return .object(o)
    }
}
