import Foundation
import LedgerKit

/// Named points of a sync, where tests can stop the process (`LEDGER_SYNC_KILL_AT`) to prove
/// that a crash at any of them loses nothing and the next sync finishes the job.
public enum SyncCheckpoint: String, Sendable, CaseIterable {
    /// Local changes are committed; nothing fetched yet.
    case afterCommit = "after-commit"
    /// Objects are arriving from the remote.
    case duringFetch = "during-fetch"
    /// The fetch is done; nothing merged yet.
    case afterFetch = "after-fetch"
    /// Conflicts are being resolved in memory.
    case duringMerge = "during-merge"
    /// The merge commit exists, but the work tree and the branch are not updated.
    case afterMergeCommit = "after-merge-commit"
    /// The work tree is being updated.
    case duringCheckout = "during-checkout"
    /// The branch is updated; nothing pushed yet.
    case beforePush = "before-push"
    /// Objects are being sent.
    case duringPush = "during-push"
    /// The remote is updated, but not yet this repository's record of it.
    case afterPush = "after-push"
}

/// What a sync needs besides the ledger.
public struct SyncOptions: @unchecked Sendable {
    // @unchecked: the closures are only called on the thread running the sync.

    /// The remote to sync with (default: the branch's remote, else `origin`).
    public var remoteName: String?
    public var transport: TransportOptions
    /// The name used for commits when git has no `user.name`/`user.email`.
    public var defaultDeviceName: String
    /// How many times a refused push is retried (each after another fetch and merge).
    public var maxPushAttempts: Int
    /// Called at each named point (tests stop the process there).
    public var checkpoint: (SyncCheckpoint) -> Void

    public init(remoteName: String? = nil, transport: TransportOptions = TransportOptions(), defaultDeviceName: String = Device.hostName,
                maxPushAttempts: Int = 5, checkpoint: @escaping (SyncCheckpoint) -> Void = { _ in }) {
        self.remoteName = remoteName
        self.transport = transport
        self.defaultDeviceName = defaultDeviceName
        self.maxPushAttempts = maxPushAttempts
        self.checkpoint = checkpoint
    }
}

/// `ledger sync` (SPEC §6): validate and commit local changes, fetch, fast-forward or merge
/// with each kind's rule, push, and retry when the push is refused.
public enum Sync {
    /// Syncs the ledger at `store` with its remote. Holds the writer lock throughout.
    ///
    /// Throws `.invalid` (exit 1, nothing committed) when a changed document is invalid. An
    /// unreachable remote is not an error here: the report's outcome is `.offline` (exit 3)
    /// and the local commit is kept.
    public static func run(_ store: LedgerStore, options: SyncOptions) throws -> SyncReport {
        try store.withWriterLock {
            var run = try Run(store: store, options: options)
            return try run.run()
        }
    }
}

/// One sync, step by step.
private struct Run {
    let store: LedgerStore
    let options: SyncOptions
    let repo: Repository
    let branch: String
    let remoteName: String
    let remote: Remote
    var report: SyncReport
    let signature: Signature

    var branchRef: String { "refs/heads/\(branch)" }
    var trackingRef: String { "refs/remotes/\(remoteName)/\(branch)" }

    init(store: LedgerStore, options: SyncOptions) throws {
        self.store = store
        self.options = options
        repo = try Repository.open(store.root)
        guard let head = repo.headReferenceName, head.hasPrefix("refs/heads/") else {
            throw LedgerError.failure("HEAD of \(store.root) is not on a branch (a detached checkout?); run `git -C \(store.root) switch main`, then sync again")
        }
        branch = String(head.dropFirst(11))
        remoteName = options.remoteName ?? repo.config("branch.\(branch).remote") ?? "origin"
        guard let url = repo.config("remote.\(remoteName).url") else {
            if options.remoteName != nil {
                throw LedgerError.usage("this ledger has no remote named \(remoteName); `git -C \(store.root) remote -v` lists them")
            }
            throw LedgerError.usage("this ledger has no remote to sync with; add one with `ledger init --remote URL` (or `git -C \(store.root) remote add origin URL`)")
        }
        remote = try Remote(repo, url: url)
        let device = try Device.current(in: store, defaultName: options.defaultDeviceName)
        report = SyncReport(remote: remoteName, url: Remote.redact(url), branch: branch, device: device)
        signature = repo.signature(fallback: Signature(name: "ledger on \(device.name)", email: "ledger@\(device.id)"))
    }

    mutating func run() throws -> SyncReport {
        try commitLocalChanges()
        options.checkpoint(.afterCommit)
        let committed = repo.headCommit()
        let checkpoint = options.checkpoint
        var attempt = 0
        while true {
            attempt += 1
            do {
                try remote.fetch(["+\(branchRef):\(trackingRef)"], options: options.transport) { checkpoint(.duringFetch) }
            } catch let e as LedgerError where e.code == .unreachable {
                return offline(e, committed: committed)
            }
            options.checkpoint(.afterFetch)
            try integrate(repo.resolve(trackingRef))
            let head = repo.headCommit()
            let upstream = repo.resolve(trackingRef)
            guard let head, head != upstream else { break }
            options.checkpoint(.beforePush)
            report.pushAttempts = attempt
            let outcome: Remote.PushOutcome
            do {
                outcome = try remote.push(["\(branchRef):\(branchRef)"], options: options.transport) { checkpoint(.duringPush) }
            } catch let e as LedgerError where e.code == .unreachable {
                return offline(e, committed: committed)
            }
            if outcome == .pushed {
                options.checkpoint(.afterPush)
                try repo.setReference(trackingRef, to: head, message: "ledger: push")
                let before = try upstream.map { try repo.treeOf(commit: $0) }
                report.pushed = try repo.diff(from: before, to: repo.treeOf(commit: head)).map(DocumentChange.init)
                break
            }
            guard attempt < options.maxPushAttempts else {
                throw LedgerError(.unreachable, "\(report.url) refused the push \(attempt) times because it kept receiving other changes; your work is committed here, sync again in a moment")
            }
        }
        let head = repo.headCommit()
        report.head = head
        if let committed, let head, committed != head {
            report.pulled = try repo.diff(from: repo.treeOf(commit: committed), to: repo.treeOf(commit: head)).map(DocumentChange.init)
        }
        report.outcome = report.committed == nil && report.pulled.isEmpty && report.pushed.isEmpty ? .upToDate : .synced
        return report
    }

    mutating func offline(_ error: LedgerError, committed: ObjectID?) -> SyncReport {
        report.outcome = .offline
        report.error = error.message
        report.head = repo.headCommit()
        if let committed, let head = report.head, committed != head {
            report.pulled = (try? repo.diff(from: repo.treeOf(commit: committed), to: repo.treeOf(commit: head)).map(DocumentChange.init)) ?? []
        }
        return report
    }

    // MARK: - Local changes

    /// Validates the changed documents and commits every change in the work tree.
    mutating func commitLocalChanges() throws {
        let changes = try repo.workTreeChanges()
        guard !changes.isEmpty else { return }
        let present = changes.filter { $0.change != .deleted }.map(\.path)
        if !present.isEmpty {
            let problems = try Checker(store: store).check(scope: present).problems.filter { p in
                guard p.severity == .error else { return false }
                if case .conflictCopy = PathRole(path: p.path) { return false }
                return true
            }
            if !problems.isEmpty {
                let files = Set(problems.map(\.path)).count
                throw LedgerError.invalid("\(files == 1 ? "a changed document is" : "\(files) changed documents are") invalid, so nothing was committed or pushed; fix \(files == 1 ? "it" : "them") (`ledger check` shows the same list) and sync again:", problems: problems)
            }
        }
        let index = try repo.index()
        for c in changes {
            if c.change == .deleted { try index.removeFromWorkTree(c.path) } else { try index.addFromWorkTree(c.path) }
        }
        try index.write()
        let tree = try index.writeTree()
        let parent = repo.headCommit()
        if let parent, try repo.treeOf(commit: parent) == tree { return }
        let documents = changes.map(DocumentChange.init)
        report.localChanges = documents
        report.committed = try repo.commit(tree: tree, parents: parent.map { [$0] } ?? [], message: commitMessage(documents),
                                           signature: signature, updating: "HEAD")
    }

    /// "ledger sync on laptop: Waterline 1 session changed; BrewGuide 1 recipe added", then
    /// one line per file.
    func commitMessage(_ changes: [DocumentChange]) -> String {
        let summary = DocumentChange.summary(changes).map { ($0.app?.title ?? "other files") + " " + $0.text }
        var lines = ["ledger sync on \(report.device.name): " + summary.joined(separator: "; "), ""]
        for c in changes.sorted(by: { $0.path < $1.path }) {
            lines.append("\(c.change.rawValue): \(c.path)")
        }
        lines.append("")
        lines.append("Device: \(report.device.name) (\(report.device.id))")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Merging

    /// Brings the branch up to `upstream`: nothing to do, a fast-forward, or a merge.
    mutating func integrate(_ upstream: ObjectID?) throws {
        guard let upstream else { return }
        guard let local = repo.headCommit() else {
            try moveBranch(to: upstream, tree: repo.treeOf(commit: upstream), from: nil)
            return
        }
        if try repo.isAncestor(upstream, of: local) { return }
        if try repo.isAncestor(local, of: upstream) {
            try moveBranch(to: upstream, tree: repo.treeOf(commit: upstream), from: local)
            return
        }
        try merge(local: local, upstream: upstream)
    }

    /// Checks the work tree out first, then moves the branch with a compare-and-swap: a crash
    /// in between leaves the merged files as uncommitted changes, which the next sync commits
    /// and merges again to the same result.
    func moveBranch(to commit: ObjectID, tree: ObjectID, from old: ObjectID?) throws {
        var first = true
        // Only the files that differ are looked at (after a crash the next sync commits
        // whatever the work tree holds first, so HEAD's tree is the right baseline).
        let paths = try old.map { try repo.diff(from: repo.treeOf(commit: $0), to: tree).map(\.path) }
        try repo.checkout(tree: tree, paths: paths) { _ in
            if first { first = false; options.checkpoint(.duringCheckout) }
        }
        try repo.updateReference(branchRef, to: commit, expecting: old, message: "ledger: sync")
    }

    mutating func merge(local: ObjectID, upstream: ObjectID) throws {
        let index = try repo.mergeCommits(ours: local, theirs: upstream)
        let base = try repo.mergeBase(local, upstream)
        var resolutions: [Resolution] = []
        // The paths where the merge may differ from our tree: changed upstream, resolved,
        // created or repaired.
        var touched = Set(try repo.diff(from: base.map { try repo.treeOf(commit: $0) }, to: repo.treeOf(commit: upstream)).map(\.path))
        let siblings = SiblingReader(repo: repo, index: index)
        for c in try index.conflicts() {
            options.checkpoint(.duringMerge)
            let r = FileMerge.resolve(path: c.path, base: try c.ancestor.map { try repo.blob($0) },
                                      ours: try c.ours.map { try repo.blob($0) }, theirs: try c.theirs.map { try repo.blob($0) },
                                      siblings: siblings.reader(for: c.path))
            try index.removeConflict(c.path)
            if let bytes = r.result { try index.add(c.path, blob: repo.createBlob(bytes)) }
            for (path, bytes) in r.created {
                try index.add(path, blob: repo.createBlob(bytes))
                touched.insert(path)
            }
            touched.insert(c.path)
            let change: FileChange = c.ours == nil ? .added : (r.result == nil ? .deleted : .modified)
            resolutions.append(Resolution(document: DocumentChange(PathChange(c.path, change)), created: r.created.map(\.path),
                                          conflictFile: r.conflictFile, notes: r.notes))
        }
        touched.formUnion(try reconcile(index: index, base: base, local: local, upstream: upstream))
        report.resolutions += resolutions
        let tree = try repo.updatedTree(repo.treeOf(commit: local), touched.sorted().map { ($0, index.entryWithMode(at: $0)) })
        var lines = ["ledger sync on \(report.device.name): merge \(remoteName)/\(branch)"]
        if !resolutions.isEmpty {
            lines.append("")
            for r in resolutions { lines.append("resolved \(r.document.path): " + (r.notes.isEmpty ? "merged" : r.notes.joined(separator: "; "))) }
        }
        let merge = try repo.commit(tree: tree, parents: [local, upstream], message: lines.joined(separator: "\n") + "\n",
                                    signature: signature, updating: nil)
        report.mergeCommit = merge
        options.checkpoint(.afterMergeCommit)
        try moveBranch(to: merge, tree: tree, from: local)
        // Files taken whole from one side were valid there; what the resolver and the repairs
        // wrote is checked again, with the rules that span documents.
        let changed = try repo.diff(from: repo.treeOf(commit: local), to: tree).filter { $0.change != .deleted }.map(\.path)
        if !changed.isEmpty, !resolutions.isEmpty || !report.reconciled.isEmpty {
            report.problems += try Checker(store: store).check(scope: changed).problems.filter { $0.severity == .error }
        }
    }

    /// Runs the apps' cross-document repairs over the documents either side changed; returns
    /// the paths it changed.
    mutating func reconcile(index: Index, base: ObjectID?, local: ObjectID, upstream: ObjectID) throws -> [String] {
        let rules = LedgerSchema.mergeReconciliations
        guard !rules.isEmpty else { return [] }
        var changed: [String] = []
        let baseTree = try base.map { try repo.treeOf(commit: $0) }
        let touched = Set(try repo.diff(from: baseTree, to: repo.treeOf(commit: local)).map(\.path)
            + repo.diff(from: baseTree, to: repo.treeOf(commit: upstream)).map(\.path))
        for rule in rules {
            var documents: [(path: String, document: JSONValue)] = []
            for path in touched.sorted() {
                guard case .document(let t) = PathRole(path: path), t.kind.name == rule.kind,
                      let id = index.entry(at: path), let json = try? JSONParser.parse(repo.blob(id)) else { continue }
                documents.append((path, json))
            }
            guard documents.count > 1 else { continue }
            let repair = rule.reconcile(documents)
            for (path, document) in repair.changes {
                changed.append(path)
                if let document {
                    guard case .document(let t) = PathRole(path: path), !t.inspect(document).issues.contains(where: { $0.severity == .error }) else { continue }
                    try index.add(path, blob: repo.createBlob(CanonicalJSON.encode(document)))
                } else {
                    try index.remove(path)
                }
            }
            report.reconciled += repair.notes
        }
        return changed
    }
}

/// The other documents of a kind in a merge's result, read only if a kind's rule asks for them.
private final class SiblingReader: @unchecked Sendable {
    // @unchecked: used only on the thread running the merge, synchronously inside
    // `FileMerge.resolve`; the closures never outlive the merge.
    let repo: Repository
    let index: Index

    init(repo: Repository, index: Index) {
        self.repo = repo
        self.index = index
    }

    func reader(for path: String) -> @Sendable () -> [JSONValue] {
        guard case .document(let t) = PathRole(path: path), case .collection(let dir, _) = t.kind.location else { return { [] } }
        return { [self] in
            self.index.entries(under: dir).compactMap { entry in
                guard entry.path != path, let bytes = try? self.repo.blob(entry.id) else { return nil }
                return try? JSONParser.parse(bytes)
            }
        }
    }
}
