import CGit2
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
    /// The git command, which maintains the repositories when they are due (`Maintenance`);
    /// without it a due maintenance is reported as a warning.
    public var git: GitTool?

    public init(remoteName: String? = nil, transport: TransportOptions = TransportOptions(), defaultDeviceName: String = Device.hostName,
                maxPushAttempts: Int = 5, git: GitTool? = nil, checkpoint: @escaping (SyncCheckpoint) -> Void = { _ in }) {
        self.remoteName = remoteName
        self.transport = transport
        self.defaultDeviceName = defaultDeviceName
        self.maxPushAttempts = maxPushAttempts
        self.git = git
        self.checkpoint = checkpoint
    }
}

/// `ledger sync` (SPEC §6): validate and commit local changes, fetch, fast-forward or merge
/// with each kind's rule, push, and retry when the push is refused.
public enum Sync {
    /// Syncs the ledger at `store` with its remote. Holds the writer lock throughout.
    ///
    /// Throws `.invalid` (exit 1, nothing committed) when a changed document is invalid, git
    /// is in the middle of a merge or a rebase, or HEAD is on another branch than the one
    /// the ledger syncs. An unreachable remote, or one that keeps refusing the push, is not an
    /// error here: the report's outcome is `.offline` or `.rejected` (exit 3) and the local
    /// commit is kept.
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
    /// The local branch synced, and its name on the remote (the same unless the branch's
    /// upstream says otherwise).
    let branch: String
    let remoteBranch: String
    let remoteName: String
    let remote: Remote
    /// The git directory of a remote on a path (maintained and cleared of stale locks by
    /// the sync), nil for a network remote.
    let localRemote: String?
    var report: SyncReport
    let signature: Signature
    /// Whether the repository's index (shared, in memory) holds changes not yet written: it
    /// is written once per sync, at the end — writing a large index twice costs more than the
    /// rest of a small sync. Meanwhile HEAD is ahead of the index on disk, a window marked
    /// for the next command to repair after a crash (`Housekeeping`).
    var indexUnsaved = false
    /// Paths this sync has validated as they are in HEAD, so the push does not check them again.
    var validated: Set<String> = []
    /// What this ledger knew of the remote's branch before the sync (its tracking reference):
    /// a push never replaces a branch the remote lost with a history that lacks it.
    let knownRemote: ObjectID?
    /// When the sync began (nanoseconds since 1970): what changed since is flushed at the end.
    let started = Durability.now()

    var branchRef: String { "refs/heads/\(branch)" }
    var trackingRef: String { "refs/remotes/\(remoteName)/\(remoteBranch)" }

    init(store: LedgerStore, options: SyncOptions) throws {
        self.store = store
        self.options = options
        repo = try Repository.open(store.root)
        // What a crash or a power cut left (here and in a remote on a path) is put right first.
        let repairs = try StaleLocks.clear(in: repo.gitDirectory, repositoryName: store.root)
            + RepositoryRepair.repairLedger(repo, remote: RepositoryRepair.pathRemote(of: repo, named: options.remoteName))
        if let operation = repo.operationInProgress {
            throw LedgerError.invalid("git is in the middle of \(operation.name) in \(store.root) (`git status` says so too): \(operation.waysOut), then sync again; nothing was committed or pushed")
        }
        guard let head = repo.headReferenceName, head.hasPrefix("refs/heads/") else {
            throw LedgerError.failure("HEAD of \(store.root) is not on a branch (a detached checkout?); run `git -C \(store.root) switch main`, then sync again")
        }
        branch = String(head.dropFirst(11))
        let upstream = repo.config("branch.\(branch).merge").map { $0.hasPrefix("refs/heads/") ? String($0.dropFirst(11)) : $0 }
        try Self.checkBranch(branch, upstream: upstream, repo: repo, root: store.root)
        remoteBranch = upstream ?? branch
        remoteName = options.remoteName ?? repo.config("branch.\(branch).remote") ?? "origin"
        guard let url = repo.config("remote.\(remoteName).url") else {
            if options.remoteName != nil {
                throw LedgerError.usage("this ledger has no remote named \(remoteName); `git -C \(store.root) remote -v` lists them")
            }
            throw LedgerError.usage("this ledger has no remote to sync with; add one with `ledger init --remote URL` (or `git -C \(store.root) remote add origin URL`)")
        }
        remote = try Remote(repo, url: url, name: remoteName)
        localRemote = try Remote.localGitDirectory(url)
        let device = try Device.current(in: store, defaultName: options.defaultDeviceName)
        report = SyncReport(remote: remoteName, url: Remote.redact(url), branch: branch, device: device)
        signature = repo.signature(fallback: Signature(name: "ledger on \(device.name)", email: "ledger@\(device.id)"))
        report.housekeeping += repairs
        knownRemote = repo.resolve("refs/remotes/\(remoteName)/\(remoteBranch)")
        if let localRemote {
            let (branch, known, ledger) = (remoteBranch, knownRemote, repo)
            // (Its stale git locks are dealt with before the push, where one held is reported.)
            report.housekeeping += try LocalRemoteLock.with(in: localRemote) {
                try RepositoryRepair.repairRemote(gitDirectory: localRemote, branch: branch, known: known, ledger: ledger)
            }
        }
        report.housekeeping += WriteLeftovers.sweep(store.localStateDirectory).map { "removed \($0), left in .git/ledger by a write that was interrupted" }
    }

    /// A ledger syncs one branch: `main`, or — in a clone whose remote names its branch
    /// otherwise and that has no `main` — the branch HEAD is on, if it tracks one. Anything
    /// else (a branch made to try something) is refused: syncing it would publish it as a
    /// new branch that no other device looks at.
    static func checkBranch(_ branch: String, upstream: String?, repo: Repository, root: String) throws {
        guard branch != "main" else { return }
        let hasMain = repo.resolve("refs/heads/main") != nil
        if !hasMain, upstream != nil { return }
        let target = hasMain ? "main" : "a branch that tracks the remote's"
        throw LedgerError.invalid("""
            \(root) is on the branch \(branch), but ledger syncs \(target) (a branch of its own would reach no other \
            device); switch back with `git -C \(root) switch main`, after merging what \(branch) holds if you want it \
            synced (`git -C \(root) merge \(branch)` there); nothing was committed or pushed
            """)
    }

    mutating func run() throws -> SyncReport {
        do {
            return try steps()
        } catch {
            // A refusal after the commit or the merge leaves them in place, with an index to
            // match, on the disk.
            if indexUnsaved { try? saveIndex() }
            makeDurable()
            throw error
        }
    }

    /// Writes the index, which then matches HEAD again.
    mutating func saveIndex() throws {
        try repo.index().write()
        indexUnsaved = false
        Housekeeping.markIndexStale(store, false)
    }

    mutating func steps() throws -> SyncReport {
        try commitLocalChanges()
        options.checkpoint(.afterCommit)
        let committed = repo.headCommit()
        let checkpoint = options.checkpoint
        var attempt = 0
        while true {
            attempt += 1
            do {
                try remote.fetch(["+refs/heads/\(remoteBranch):\(trackingRef)"], options: options.transport) { checkpoint(.duringFetch) }
            } catch let e as LedgerError where e.code == .unreachable {
                return try offline(e, committed: committed)
            }
            options.checkpoint(.afterFetch)
            try integrate(repo.resolve(trackingRef))
            let head = repo.headCommit()
            let upstream = repo.resolve(trackingRef)
            guard let head, head != upstream else { break }
            try refuseToDropRemoteHistory(upstream: upstream, head: head)
            try validateOutgoing(from: upstream, to: head)
            if let localRemote {
                do {
                    report.housekeeping += try LocalRemoteLock.withStaleLocksCleared(in: localRemote) {}.removed
                } catch let e as LedgerError {
                    return try rejected(e.message, committed: committed)
                }
            }
            options.checkpoint(.beforePush)
            report.pushAttempts = attempt
            let outcome: Remote.PushOutcome
            do {
                outcome = try remote.push(["\(branchRef):refs/heads/\(remoteBranch)"], options: options.transport) { checkpoint(.duringPush) }
            } catch let e as LedgerError where e.code == .unreachable {
                return try offline(e, committed: committed)
            }
            guard case .rejected(let reason) = outcome else {
                options.checkpoint(.afterPush)
                try repo.setReference(trackingRef, to: head, message: "ledger: push")
                let before = try upstream.map { try repo.treeOf(commit: $0) }
                report.pushed = try repo.diff(from: before, to: repo.treeOf(commit: head)).map(DocumentChange.init)
                break
            }
            // Moving on (another device pushed first) is worth another fetch and merge; a lock
            // in a remote on a path is cleared before the next push; anything else is not
            // going to change by trying again.
            let movedOn = Self.isNonFastForward(reason)
            guard movedOn || (localRemote != nil && reason.contains(".lock")) else {
                return try rejected("\(report.url) refused the push: \(Remote.redact(reason))", committed: committed)
            }
            guard attempt < options.maxPushAttempts else {
                let why = movedOn ? "because it kept receiving other changes (another device is syncing right now)" : "(\(Remote.redact(reason)))"
                return try rejected("\(report.url) refused the push \(attempt) times \(why)", committed: committed)
            }
        }
        let head = repo.headCommit()
        report.head = head
        if let committed, let head, committed != head {
            report.pulled = try repo.diff(from: repo.treeOf(commit: committed), to: repo.treeOf(commit: head)).map(DocumentChange.init)
        }
        report.outcome = report.committed == nil && report.pulled.isEmpty && report.pushed.isEmpty ? .upToDate : .synced
        if indexUnsaved { try saveIndex() }
        maintain()
        makeDurable()
        return report
    }

    /// Before the sync says what it did: every folder it changed, here and in a remote on a
    /// path, is on the disk (the files in them were flushed as they were written).
    func makeDurable() {
        Durability.flush(gitDirectory: repo.gitDirectory, since: started)
        if let localRemote { Durability.flush(gitDirectory: localRemote, since: started) }
    }

    /// A remote whose branch is gone (a damaged remote this sync could not repair) gets it back
    /// only with a history that holds what this ledger last fetched of it: never a history
    /// that would leave the other devices' commits behind.
    func refuseToDropRemoteHistory(upstream: ObjectID?, head: ObjectID) throws {
        guard upstream == nil, let knownRemote, knownRemote != head, !(try repo.isAncestor(knownRemote, of: head)) else { return }
        throw LedgerError.failure("""
            the branch \(remoteBranch) of \(report.remote) (\(report.url)) is gone, and this ledger's history does not hold what it \
            last fetched from there (\(knownRemote.short)), so pushing would drop commits; restore it first: `git -C \(store.root) \
            push \(remoteName) \(knownRemote):refs/heads/\(remoteBranch)`, then sync again; nothing was pushed
            """)
    }

    /// Whether a push was refused because the remote has commits this one lacks: libgit2's
    /// words when it finds out before sending, a git server's ("non-fast-forward", "fetch
    /// first") when the server does.
    static func isNonFastForward(_ reason: String) -> Bool {
        let r = reason.lowercased()
        return ["not present locally", "fast-forward", "fastforward", "fetch first"].contains { r.contains($0) }
    }

    /// Repository maintenance when due: the remote on a path this sync pushed to, and this
    /// ledger's repository. A failure is reported, not fatal: the sync itself is done.
    mutating func maintain() {
        if let localRemote, !report.pushed.isEmpty {
            do {
                let (done, removed) = try Maintenance.runOnRemote(gitDirectory: localRemote, git: options.git, onlyIfDue: true)
                report.housekeeping += removed
                if let done { report.maintenance.append(done) }
            } catch {
                report.warnings.append("the maintenance of the remote \(localRemote) failed: \(error)")
            }
        }
        do {
            if let done = try Maintenance.run(gitDirectory: repo.gitDirectory, policy: MaintenancePolicy(repository: repo), git: options.git, onlyIfDue: true) {
                report.maintenance.append(done)
            }
        } catch {
            report.warnings.append("the maintenance of this repository failed: \(error)")
        }
    }

    mutating func offline(_ error: LedgerError, committed: ObjectID?) throws -> SyncReport {
        try stopped(.offline, error.message, committed: committed)
    }

    mutating func rejected(_ message: String, committed: ObjectID?) throws -> SyncReport {
        try stopped(.rejected, message, committed: committed)
    }

    /// The report of a sync that could not push: what it committed and merged stays here.
    mutating func stopped(_ outcome: SyncReport.Outcome, _ message: String, committed: ObjectID?) throws -> SyncReport {
        if indexUnsaved { try saveIndex() }
        report.outcome = outcome
        report.error = message
        report.head = repo.headCommit()
        if let committed, let head = report.head, committed != head {
            report.pulled = (try? repo.diff(from: repo.treeOf(commit: committed), to: repo.treeOf(commit: head)).map(DocumentChange.init)) ?? []
        }
        maintain()
        makeDurable()
        return report
    }

    // MARK: - Local changes

    /// Validates the changed documents and commits every change in the work tree.
    mutating func commitLocalChanges() throws {
        var leftovers: [String] = [], emptied: [String] = []
        let changes = try repo.workTreeChanges(leftovers: { leftovers.append($0) }, emptied: { emptied.append($0) })
        report.housekeeping += WriteLeftovers.remove(leftovers, in: store.root).map { "removed \($0), the temporary file of a write that was interrupted" }
        try restoreEmptied(emptied)
        guard !changes.isEmpty else { return }
        let present = changes.filter { $0.change != .deleted }.map(\.path)
        try refuse(blockingErrors(in: present), documents: "changed", consequence: "nothing was committed or pushed")
        validated.formUnion(present)
        // A file taken out of the index but kept (`git rm --cached`) is removed from the
        // repository and stays here, listed in .git/info/exclude: else the next sync would add
        // it again.
        for c in changes where c.change == .deleted && FileSystem.exists(store.absolute(c.path)) {
            try repo.excludeLocally(c.path)
            report.housekeeping.append("stopped tracking \(c.path), as `git rm --cached` asked: it stays on this machine, listed in .git/info/exclude")
        }
        let index = try repo.index()
        for c in changes {
            if c.change == .deleted { try index.removeFromWorkTree(c.path) } else { try index.addFromWorkTree(c.path) }
        }
        indexUnsaved = true
        let tree = try index.writeTree()
        let parent = repo.headCommit()
        if let parent, try repo.treeOf(commit: parent) == tree { return }
        if parent == nil, knownRemote != nil || RepositoryRepair.historyExisted(gitDirectory: repo.gitDirectory, branch: branchRef) {
            // Never a new first commit where history existed: it would be pushed as the whole
            // history, leaving every earlier commit behind.
            throw LedgerError.failure("the branch \(branch) of \(store.root) has no commit although its history existed (a damaged repository); nothing was committed or pushed: run `git -C \(store.root) fsck --lost-found` to find its last commit, `git -C \(store.root) update-ref \(branchRef) COMMIT` to restore it, then sync again")
        }
        Housekeeping.markIndexStale(store, true)
        let documents = changes.map(DocumentChange.init)
        report.localChanges = documents
        report.committed = try repo.commit(tree: tree, parents: parent.map { [$0] } ?? [], message: commitMessage(documents),
                                           signature: signature, updating: "HEAD")
    }

    /// Writes again, from git, the files a power cut emptied after a checkout wrote them
    /// unflushed (`Repository.restoreEmptied`).
    mutating func restoreEmptied(_ paths: [String]) throws {
        guard let note = try repo.restoreEmptied(paths, in: store) else { return }
        indexUnsaved = true
        report.housekeeping.append(note)
    }

    /// Invalid documents never leave the machine: what the push would publish is validated —
    /// commits made here with plain git as well as by ledger — but for what this sync checked.
    mutating func validateOutgoing(from upstream: ObjectID?, to head: ObjectID) throws {
        let problems: [Problem]
        if let upstream {
            let paths = try repo.diff(from: repo.treeOf(commit: upstream), to: repo.treeOf(commit: head))
                .filter { $0.change != .deleted && !validated.contains($0.path) }.map(\.path)
            problems = try blockingErrors(in: paths)
            validated.formUnion(paths)
        } else {
            // A first publish sends everything: a whole check (with its record of clean files).
            problems = try blockingErrors(in: nil)
        }
        try refuse(problems, documents: "committed", consequence: "nothing was pushed (the commits stay here)")
    }

    /// Stops the sync when `problems` is not empty: "2 changed documents are invalid, so …".
    func refuse(_ problems: [Problem], documents: String, consequence: String) throws {
        guard !problems.isEmpty else { return }
        let files = Set(problems.map(\.path)).count
        let subject = files == 1 ? "a \(documents) document is" : "\(files) \(documents) documents are"
        throw LedgerError.invalid("\(subject) invalid, so \(consequence); fix \(files == 1 ? "it" : "them") (`ledger check` shows the same list) and sync again:", problems: problems)
    }

    /// The errors that keep documents from being committed or pushed, in `paths` (nil: all).
    /// A conflict file is reported by `check` but travels: the other machine may resolve it.
    func blockingErrors(in paths: [String]?) throws -> [Problem] {
        if paths?.isEmpty == true { return [] }
        return try Checker(store: store).check(scope: paths).problems.filter { p in
            guard p.severity == .error else { return false }
            if case .conflictCopy = PathRole(path: p.path) { return false }
            return true
        }
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
        guard try repo.mergeBase(local, upstream) != nil else {
            try adoptOrRefuse(local: local, upstream: upstream)
            return
        }
        try merge(local: local, upstream: upstream)
    }

    /// Histories with nothing in common are two different ledgers. Merging them would pit a
    /// new ledger's defaults against real settings ("later wins" without a common ancestor),
    /// so: a ledger still exactly as `ledger init` made it (one commit, nothing since — the
    /// usual slip of `init --remote` where `clone` was meant) takes the remote's history;
    /// anything else is refused, with the ways out.
    mutating func adoptOrRefuse(local: ObjectID, upstream: ObjectID) throws {
        if try repo.commitCount(from: local) == 1, report.committed == nil {
            try moveBranch(to: upstream, tree: repo.treeOf(commit: upstream), from: local)
            report.reconciled.append("this ledger was new and held nothing yet; it now holds the ledger of \(report.remote)")
            return
        }
        throw LedgerError.invalid("""
            this ledger and \(report.remote) (\(report.url)) have no history in common: they are two different \
            ledgers, and merging them would let one's defaults overwrite the other's settings. To use the remote's \
            ledger here, clone it into a new directory (`ledger clone \(report.url) DIR`) and move what you need; to \
            combine both on purpose, run `git -C \(store.root) pull --allow-unrelated-histories \(report.remote) \
            \(branch)` (documents go through ledger's merge driver) and then `ledger check`. Nothing was merged \
            or pushed\(report.committed == nil ? "" : "; your changes are committed here").
            """)
    }

    /// Updates the work tree first, then moves the branch with a compare-and-swap: a crash
    /// in between leaves the merged files as uncommitted changes, which the next sync commits
    /// and merges again to the same result.
    ///
    /// Only the files that differ between the old and the new tree are written, and only where
    /// the work tree still holds the old version: a hand edit made during the sync is kept
    /// (the next sync commits it). Their index entries are updated, so the cost follows the
    /// changes, not the size of the ledger.
    mutating func moveBranch(to commit: ObjectID, tree: ObjectID, from old: ObjectID?) throws {
        let oldTree = try old.map { try repo.treeOf(commit: $0) }
        let changes = try repo.diff(from: oldTree, to: tree)
        // Nothing is checked out through a symbolic link that replaced a folder of the ledger
        // (libgit2 1.5's checkout writes through one; git removes an ignored link or refuses):
        // refused before anything is written.
        try store.refuseSymbolicLinks(writing: changes.filter { $0.change != .deleted }.map(\.path),
                                      deleting: changes.filter { $0.change == .deleted }.map(\.path))
        guard let old, let oldTree else {
            let checkpoint = options.checkpoint
            try repo.checkout(tree: tree) { _ in checkpoint(.duringCheckout) }
            indexUnsaved = false
            try repo.updateReference(branchRef, to: commit, expecting: nil, message: "ledger: sync")
            return
        }
        let index = try repo.index()
        var first = true
        for change in changes {
            let path = change.path
            guard repo.workTreeBlobID(path) == (try repo.entry(at: path, inTree: oldTree))?.id else { continue }
            if first { first = false; options.checkpoint(.duringCheckout) }
            if let entry = try repo.entry(at: path, inTree: tree) {
                try store.write(path, bytes: repo.blob(entry.id), mode: entry.mode == UInt32(GIT_FILEMODE_BLOB_EXECUTABLE.rawValue) ? 0o755 : 0o644)
                try index.addFromWorkTree(path)
            } else {
                try store.remove(path)
                try index.removeFromWorkTree(path)
            }
        }
        try index.write()
        indexUnsaved = false
        try repo.updateReference(branchRef, to: commit, expecting: old, message: "ledger: sync")
        Housekeeping.markIndexStale(store, false)
    }

    /// A three-way merge along the changed paths: what changed on one side since the merge
    /// base is taken from it; what changed differently on both goes to the kind's rule
    /// (`FileMerge`); nothing is merged line by line and no rename is guessed (a moved
    /// document is a deletion and an addition). The cost follows the changes.
    mutating func merge(local: ObjectID, upstream: ObjectID) throws {
        let base = try repo.mergeBase(local, upstream)
        let baseTree = try base.map { try repo.treeOf(commit: $0) }
        let ours = try repo.treeOf(commit: local), theirs = try repo.treeOf(commit: upstream)
        let oursChanged = try repo.diff(from: baseTree, to: ours).map(\.path)
        let theirsChanged = try repo.diff(from: baseTree, to: theirs).map(\.path)
        let merged = MergedTree(repo: repo, ours: ours)
        let changedHere = Set(oursChanged)
        var resolutions: [Resolution] = []
        // First what changed on their side only, so that the rules below see every other
        // document as merged (a recipe's conflicted copy must pick a name no other has).
        for path in theirsChanged where !changedHere.contains(path) {
            merged.set(path, try repo.entry(at: path, inTree: theirs))
        }
        for path in theirsChanged where changedHere.contains(path) {
            let t = try repo.entry(at: path, inTree: theirs)
            let o = try repo.entry(at: path, inTree: ours)
            if o == t { continue }
            options.checkpoint(.duringMerge)
            let b = try baseTree.flatMap { try repo.entry(at: path, inTree: $0) }
            let r = FileMerge.resolve(path: path, base: try b.map { try repo.blob($0.id) },
                                      ours: try o.map { try repo.blob($0.id) }, theirs: try t.map { try repo.blob($0.id) },
                                      siblings: merged.siblings(of: path))
            merged.set(path, try r.result.map { TreeEntry(id: try repo.createBlob($0), mode: o?.mode ?? t?.mode ?? 0o100644) })
            for (created, bytes) in r.created { merged.set(created, TreeEntry(id: try repo.createBlob(bytes))) }
            let change: FileChange = o == nil ? .added : (r.result == nil ? .deleted : .modified)
            resolutions.append(Resolution(document: DocumentChange(PathChange(path, change)), created: r.created.map(\.path),
                                          conflictFile: r.conflictFile, notes: r.notes))
        }
        try reconcile(merged, paths: Set(oursChanged + theirsChanged))
        report.resolutions += resolutions
        let tree = try repo.updatedTree(ours, merged.changes.map { ($0.path, $0.entry.map { ($0.id, $0.mode) }) })
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
        if !resolutions.isEmpty || !report.reconciled.isEmpty {
            let changed = merged.changes.filter { $0.entry != nil }.map(\.path)
            if !changed.isEmpty {
                report.problems += try Checker(store: store).check(scope: changed).problems.filter { $0.severity == .error }
            }
        }
    }

    /// Runs the apps' cross-document repairs over the documents either side changed, as merged.
    mutating func reconcile(_ merged: MergedTree, paths: Set<String>) throws {
        for rule in LedgerSchema.mergeReconciliations {
            var documents: [(path: String, document: JSONValue)] = []
            for path in paths.sorted() {
                guard case .document(let t) = PathRole(path: path), t.kind.name == rule.kind,
                      let entry = try merged.entry(at: path), let json = try? JSONParser.parse(repo.blob(entry.id)) else { continue }
                documents.append((path, json))
            }
            guard documents.count > 1 else { continue }
            let repair = rule.reconcile(documents)
            for (path, document) in repair.changes {
                if let document {
                    guard case .document(let t) = PathRole(path: path), !t.inspect(document).issues.contains(where: { $0.severity == .error })
                    else { continue }
                    merged.set(path, TreeEntry(id: try repo.createBlob(CanonicalJSON.encode(document))))
                } else {
                    merged.set(path, nil)
                }
            }
            report.reconciled += repair.notes
        }
    }
}

/// A merge's result as changes on top of our tree, read through for the rules that look at
/// other documents (a recipe's conflicted copy needs the names of the others).
private final class MergedTree: @unchecked Sendable {
    // @unchecked: used only on the thread running the merge, synchronously inside
    // `FileMerge.resolve`; the closures never outlive the merge.
    let repo: Repository
    let ours: ObjectID
    /// Files replaced (an entry) or removed (nil), in the order they were set.
    private(set) var changes: [(path: String, entry: TreeEntry?)] = []
    private var byPath: [String: Int] = [:]

    init(repo: Repository, ours: ObjectID) {
        self.repo = repo
        self.ours = ours
    }

    func set(_ path: String, _ entry: TreeEntry?) {
        if let i = byPath[path] { changes[i].entry = entry } else {
            byPath[path] = changes.count
            changes.append((path, entry))
        }
    }

    func entry(at path: String) throws -> TreeEntry? {
        if let i = byPath[path] { return changes[i].entry }
        return try repo.entry(at: path, inTree: ours)
    }

    /// The other documents of `path`'s kind in the merged tree, read when a rule asks.
    func siblings(of path: String) -> @Sendable () -> [JSONValue] {
        guard case .document(let t) = PathRole(path: path), case .collection(let dir, _) = t.kind.location else { return { [] } }
        return { [self] in
            var ids: [String: ObjectID] = [:]
            for (p, id) in (try? self.repo.files(under: dir, inTree: self.ours)) ?? [] { ids[p] = id }
            for (p, e) in self.changes where p.hasPrefix(dir + "/") { ids[p] = e?.id }
            return ids.filter { $0.key != path }.sorted { $0.key < $1.key }.compactMap { _, id in
                (try? self.repo.blob(id)).flatMap { try? JSONParser.parse($0) }
            }
        }
    }
}
