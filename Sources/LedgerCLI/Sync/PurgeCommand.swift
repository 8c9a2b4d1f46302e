import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// `ledger purge PATH|ID|APP [--dry-run] [--yes] [--json]`
struct PurgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Remove documents (and their photos) from the whole history, here, on the remote and on every device.",
        discussion: """
            Rewrites every commit without the files PATH, ID or APP names — every version of \
            them — replaces the remote's main with the rewritten history (the one command that \
            does), and removes the old objects here and from a remote on a path. A purge record \
            in the ledger (purges/<id>.json) makes every other device do the same at its next \
            `ledger sync`, keeping what it has not synced yet. Needs the ledger in step with its \
            remote (`ledger sync` first). Shows exactly what goes and asks on a terminal; --yes \
            answers for scripts.
            """)

    @Argument(help: ArgumentHelp("What to purge: an app (waterline, brew, hydrate, moments), a file or folder of the ledger, or a document's id.", valueName: "path|id|app"), completion: LiveCompletion.appsAndPaths)
    var target: String

    @OptionGroup var change: ConfirmedChangeOptions

    @OptionGroup var global: GlobalOptions

    func run() throws { try change.reporting(perform) }

    func perform() throws {
        let store = try global.store()
        let options = SyncOptions(transport: try SyncEnvironment.transport(), git: GitTool.find(in: CLIContext.current.environment))
        guard let named = try Self.target(target, store: store) else {
            throw LedgerError.usage("name what to purge inside the ledger (an app, a file or folder of it, or a document id), not the ledger itself")
        }
        let plan = try Purge.plan(store, target: named, targetText: target, options: options)
        if change.json, change.dryRun {
            Output.json(Self.json(plan, done: nil))
            return
        }
        if !change.json { Self.printPlan(plan) }
        if change.dryRun {
            Console.print(Style.dim("Dry run: nothing was changed."))
            return
        }
        if let busy = RemoteActivity.syncInProgress(store) {
            throw LedgerError.failure(busy + "; purge again once it is done (nothing was changed)")
        }
        guard try Console.confirm("Purge \(target) from the history of every device?", action: "Purging \(target)", yes: change.yes) else {
            Console.print("Nothing was changed.")
            return
        }
        let done = try Purge.run(store, expected: plan, options: options, now: try CommandClock.current().now, checkpoint: Self.checkpoint())
        // Rewritten, but not everywhere gone: said, and a failure for scripts.
        let incomplete = !done.local.found.isEmpty || done.remote?.found.isEmpty == false
        if change.json {
            Output.json(Self.json(plan, done: done))
            if incomplete { throw ExitCode(4) }
            return
        }
        Console.print("Purged \(target): \(Output.plural(done.commitsRewritten, "commit")) rewritten; record \(done.recordPath).")
        if let remote = plan.remote {
            Console.print("\(remote)'s main replaced: \(done.previousHead?.short ?? "nothing") → \(done.newHead.short).")
        }
        Console.print("This ledger's repository: " + Self.describe(done.local))
        if let scan = done.remote, let url = plan.url { Console.print("The remote \(url): " + Self.describe(scan)) }
        if incomplete { throw ExitCode(4) }
    }

    /// "34 objects scanned, purged content found: 0."
    static func describe(_ scan: ObjectRemoval.Scan) -> String {
        "\(Output.count(scan.objects)) objects scanned, purged content found: \(scan.found.count)" + (scan.keptBy.map { ", kept by \($0)" } ?? "") + "."
    }

    /// What an APP|PATH|ID argument names (`purge`, `log`): an app (its folder or its name), a
    /// file or folder of the ledger (relative to it or to where you stand), or a document id;
    /// nil for the ledger's root itself.
    static func target(_ text: String, store: LedgerStore) throws -> Purge.Target? {
        if let app = ForgetCommand.app(named: text) { return .app(app) }
        if CLIContext.current.absolutePath(text) == store.root { return nil }
        if let path = CLIContext.current.pathInLedger(text, root: store.root) { return .path(path) }
        if text.contains("/") || text.hasSuffix(".json") {
            return .path(text.hasSuffix("/") ? String(text.dropLast()) : text)
        }
        guard DocumentID.isValid(text) else {
            throw LedgerError.usage("\(text) is not an app (waterline, brew, hydrate, moments), a file or folder of the ledger, or a document id")
        }
        return .id(text)
    }

    static func printPlan(_ plan: Purge.Plan) {
        let where_ = plan.remote.map { "here and on \($0) (\(plan.url ?? ""))" } ?? "here (this ledger has no remote)"
        Console.print("Purging \(plan.targetText) removes from every commit of the history, \(where_):")
        for folder in plan.folders {
            let inside = plan.files.filter { $0.path.hasPrefix(folder + "/") }
            Console.print("  \(folder)/ — all of it: \(Output.plural(inside.count, "file")), \(Output.plural(inside.reduce(0) { $0 + $1.versions }, "version"))")
        }
        for f in plan.files where !plan.folders.contains(where: { f.path.hasPrefix($0 + "/") }) {
            Console.print("  \(f.path) (\(Output.plural(f.versions, "version")))")
        }
        for kept in plan.keptPhotos { Console.print("  (kept: \(kept.path), which \(kept.shownBy) shows too)") }
        Console.print("\(Output.plural(plan.versionCount, "version")) in \(plan.commitsHolding) of \(Output.plural(plan.commitsRead, "commit")); the commits that hold them, and every one after, are rewritten (their ids change).")
        if case .app(let app) = plan.target {
            Console.print("\(app.title) starts again from its defaults, and is forgotten: what another device recorded before now goes too when it syncs.")
        }
        if !plan.reintroduced.isEmpty {
            Console.print(Style.yellow("The remote brought back purged content") + " in \(Output.plural(plan.reintroduced.count, "commit")) (the newest \(plan.reintroduced[0].id.short) by \(plan.reintroduced[0].authorName)): they are rewritten too.")
        }
        if let remote = plan.remote {
            Console.print("This replaces \(remote)'s main with the rewritten history (only if no other device pushes meanwhile), with a purge record every other device honours at its next `ledger sync`: it rewrites its own history the same way, keeps what it has not synced yet, and removes the old objects.")
        }
        if !plan.devices.isEmpty || !plan.plainGit.isEmpty || !plan.otherRemoteReferences.isEmpty || (plan.remote != nil && !plan.remoteOnPath) {
            Console.print("Until then, what still holds it:")
        }
        printHolders(plan)
    }

    /// The copies that hold the content until someone acts: other devices, plain git clones,
    /// the server's own copies.
    static func printHolders(_ plan: Purge.Plan) {
        let now = (try? CommandClock.current().now) ?? plan.devices.first?.lastSeen
        for d in plan.devices {
            let months = now.map { Int(($0.epochMilliseconds - d.lastSeen.epochMilliseconds) / 86_400_000 / 30) } ?? 0
            Console.print("  Device \(d.name) (last synced \(HistoryFormat.time(d.lastSeen))"
                + (months >= 1 ? ", \(Output.plural(months, "month")) ago" : "") + ") holds it until its next `ledger sync`"
                + (months >= 1 ? ": sync it, or if it is gone, delete that copy." : "."))
        }
        for a in plan.plainGit {
            Console.print("  Commits by \(a.name) (the last \(HistoryFormat.time(a.lastSeen))) were made with plain git: a plain git clone does not honour a purge — delete it and `ledger clone` afresh, or its next `git pull` and `git push` bring the content back (ledger then refuses to sync and names the commit).")
        }
        if let remote = plan.remote, !plan.otherRemoteReferences.isEmpty {
            Console.print("  \(remote) also has \(plan.otherRemoteReferences.joined(separator: ", ")): ledger replaces only its main, and what those hold stays there — delete the ones that are not yours to keep (`git push \(remote) --delete NAME`).")
        }
        if plan.remote != nil, !plan.remoteOnPath {
            Console.print("  The server keeps the old objects until its own garbage collection: for a bare repository you reach by ssh, run `git reflog expire --expire=now --all && git gc --prune=now` in it; a hosting service keeps copies of its own (caches, backups, forks): ask it to purge them.")
        }
    }

    /// A testing aid: when `LEDGER_PURGE_KILL_AT` names a checkpoint (`after-journal`,
    /// `during-push`, … see `PurgeCheckpoint`), the process kills itself with SIGKILL there.
    static func checkpoint() -> (PurgeCheckpoint) -> Void { SyncEnvironment.killer(at: "LEDGER_PURGE_KILL_AT") }

    static func json(_ plan: Purge.Plan, done: Purge.Outcome?) -> JSONValue {
        func holder(_ h: Purge.Holder) -> JSONValue { .object(["name": .string(h.name), "lastSeen": .string(h.lastSeen.iso8601)]) }
        var o: JSONObject = [
            "dryRun": .bool(done == nil), "target": .string(plan.targetText), "folders": .array(plan.folders.map(JSONValue.string)),
            "files": .array(plan.files.map { .object(["path": .string($0.path), "versions": .number(Double($0.versions))]) }),
            "versions": .number(Double(plan.versionCount)), "commitsHolding": .number(Double(plan.commitsHolding)),
            "commits": .number(Double(plan.commitsRead)), "devices": .array(plan.devices.map(holder)), "plainGit": .array(plan.plainGit.map(holder)),
            "keptPhotos": .array(plan.keptPhotos.map { .object(["path": .string($0.path), "shownBy": .string($0.shownBy)]) }),
            "reintroducedBy": .array(plan.reintroduced.map { .string($0.id.description) }),
            "otherRemoteReferences": .array(plan.otherRemoteReferences.map(JSONValue.string)),
        ]
        o["remote"] = plan.remote.map(JSONValue.string) ?? .null
        o["url"] = plan.url.map(JSONValue.string) ?? .null
        if let done {
            o["record"] = .string(done.recordPath)
            o["head"] = .string(done.newHead.description)
            o["previousHead"] = done.previousHead.map { .string($0.description) } ?? .null
            o["commitsRewritten"] = .number(Double(done.commitsRewritten))
            func scan(_ s: ObjectRemoval.Scan) -> JSONValue {
                .object(["objects": .number(Double(s.objects)), "found": .number(Double(s.found.count)), "keptBy": s.keptBy.map(JSONValue.string) ?? .null])
            }
            o["local"] = scan(done.local)
            o["remoteScan"] = done.remote.map(scan) ?? .null
        }
        return .object(o)
    }
}
