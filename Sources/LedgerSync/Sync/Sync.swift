import CGit2
import Foundation
import LedgerKit

/// Named points of a sync, where tests can stop the process (`LEDGER_SYNC_KILL_AT`) to prove
/// that a crash at any of them loses nothing and the next sync finishes the job.
package enum SyncCheckpoint: String, Sendable, CaseIterable {
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
    /// How many times a push refused for another reason than other devices' pushes (a lock
    /// in a remote on a path) is tried (each after another fetch and merge).
    public var maxPushAttempts: Int
    /// Seconds a sync keeps trying when its push is refused because the remote keeps
    /// receiving other devices' changes: it fetches, merges and pushes again after a random
    /// wait (`Backoff.contention`), so that devices syncing at the same moment all get through.
    public var contentionBudget: Double
    /// Waits that many seconds between two tries (tests may count them instead).
    package var pause: @Sendable (Double) -> Void
    /// Called at each named point (tests stop the process there).
    package var checkpoint: (SyncCheckpoint) -> Void
    /// The git command, which maintains the repositories when they are due (`Maintenance`);
    /// without it a due maintenance is reported as a warning.
    package var git: GitTool?

    package init(remoteName: String? = nil, transport: TransportOptions = TransportOptions(), defaultDeviceName: String = Device.hostName,
                maxPushAttempts: Int = 5, contentionBudget: Double = 120, git: GitTool? = nil,
                checkpoint: @escaping (SyncCheckpoint) -> Void = { _ in }) {
        self.remoteName = remoteName
        self.transport = transport
        self.defaultDeviceName = defaultDeviceName
        self.maxPushAttempts = maxPushAttempts
        self.contentionBudget = contentionBudget
        self.pause = { seconds in if seconds > 0 { usleep(useconds_t(min(seconds, 3600) * 1_000_000)) } }
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
            var run = try Run(store: store, options: options, preview: false)
            return try run.run()
        }
    }

    /// What a sync would do now (`ledger sync --dry-run`): the same steps — validate and
    /// commit the local changes, fetch, merge with each kind's rule — on objects kept in a
    /// temporary directory (`ScratchObjects`), without moving a reference, writing a file or
    /// the index, or pushing: the work tree, `.git` (remote-tracking branches included) and
    /// the remote stay byte for byte as they were. The report says what the sync would commit,
    /// pull, resolve and push (`SyncReport.preview`). It takes no lock (it writes nothing): a
    /// sync running meanwhile may make it stale.
    package static func preview(_ store: LedgerStore, options: SyncOptions) throws -> SyncReport {
        var run = try Run(store: store, options: options, preview: true)
        return try run.run()
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
    /// Whether this run only previews (`Sync.preview`): nothing but objects in `scratch` is written.
    let preview: Bool
    let scratch: ScratchObjects?
    /// The branch's commit as this run has moved it (in a preview, where it would be).
    var head: ObjectID?
    /// The remote branch's commit as last fetched.
    var upstream: ObjectID?
    /// Whether the repository's index (shared, in memory) holds changes not yet written: it
    /// is written once per sync, at the end — writing a large index twice costs more than the
    /// rest of a small sync. Meanwhile HEAD is ahead of the index on disk, a window marked
    /// for the next command to repair after a crash (`Housekeeping`).
    var indexUnsaved = false
    /// Paths this sync has validated as they are in HEAD, so the push does not check them again.
    var validated: Set<String> = []
    /// What this ledger knew of the remote's branch before the sync (its tracking reference):
    /// a push never replaces a branch the remote lost with a history that lacks it, and the
    /// tracking reference is put back there when the fetch brought content a purge removed,
    /// which is refused (`honourPurges`).
    let knownRemote: ObjectID?
    /// When the sync began (nanoseconds since 1970): what changed since is flushed at the end.
    let started = Durability.now()

    var branchRef: String { "refs/heads/\(branch)" }
    var trackingRef: String { "refs/remotes/\(remoteName)/\(remoteBranch)" }

    init(store: LedgerStore, options: SyncOptions, preview: Bool) throws {
        self.store = store
        self.options = options
        self.preview = preview
        repo = try Repository.open(store.root)
        // What a crash or a power cut left (here and in a remote on a path) is put right first;
        // a preview changes nothing, and works on what it finds.
        let repairs = preview ? [] : try StaleLocks.clear(in: repo.gitDirectory, repositoryName: store.root)
            + RepositoryRepair.repairLedger(repo, remote: RepositoryRepair.pathRemote(of: repo, named: options.remoteName))
        scratch = preview ? try ScratchObjects(repo) : nil
        head = repo.headCommit()
        let target = try SyncTarget(repo, root: store.root, remoteName: options.remoteName)
        (branch, remoteBranch, remoteName) = (target.branch, target.remoteBranch, target.remoteName)
        let url = target.url
        remote = try Remote(repo, url: url, name: remoteName)
        localRemote = try Remote.localGitDirectory(url)
        let device = try Device.current(in: store, defaultName: options.defaultDeviceName, record: !preview)
        report = SyncReport(remote: remoteName, url: Remote.redact(url), branch: branch, device: device)
        report.preview = preview ? SyncReport.Preview() : nil
        signature = repo.signature(fallback: Signature(name: "ledger on \(device.name)", email: "ledger@\(device.id)"))
        knownRemote = repo.resolve("refs/remotes/\(remoteName)/\(remoteBranch)")
        guard !preview else { return }
        report.housekeeping += repairs
        if let localRemote {
            let (branch, known, ledger) = (remoteBranch, knownRemote, repo)
            // (Its stale git locks are dealt with before the push, where one held is reported.)
            report.housekeeping += try LocalRemoteLock.with(in: localRemote) {
                try RepositoryRepair.repairRemote(gitDirectory: localRemote, branch: branch, known: known, ledger: ledger)
            }
        }
        report.housekeeping += WriteLeftovers.sweep(store.localStateDirectory).map { "removed \($0), left in .git/ledger by a write that was interrupted" }
    }

    mutating func run() throws -> SyncReport {
        do {
            return try steps()
        } catch {
            // A refusal after the commit or the merge leaves them in place, with an index to
            // match, on the disk.
            if !preview {
                if indexUnsaved { try? saveIndex() }
                makeDurable()
            }
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
        var committed = head
        let checkpoint = options.checkpoint
        var attempt = 0
        var contended = 0
        let contentionStart = Date()
        while true {
            attempt += 1
            do {
                if preview {
                    upstream = try remote.download(branch: remoteBranch, options: options.transport) { checkpoint(.duringFetch) }
                } else {
                    try remote.fetch(["+refs/heads/\(remoteBranch):\(trackingRef)"], options: options.transport) { checkpoint(.duringFetch) }
                    upstream = repo.resolve(trackingRef)
                }
            } catch let e as LedgerError where e.code == .unreachable {
                return try offline(e, committed: committed)
            }
            options.checkpoint(.afterFetch)
            if let fetched = upstream { try honourPurges(fetched, committed: &committed) }
            try integrate(upstream)
            guard let head, head != upstream else { break }
            try refuseToDropRemoteHistory(upstream: upstream, head: head)
            try validateOutgoing(from: upstream, to: head)
            if preview {
                try previewPush(from: upstream, to: head)
                break
            }
            if let localRemote {
                do {
                    report.housekeeping += try LocalRemoteLock.withStaleLocksCleared(in: localRemote) {}.removed
                } catch let e as LedgerError {
                    return try rejected(e.message, committed: committed)
                }
            }
            options.checkpoint(.beforePush)
            report.pushAttempts = attempt
            let outgoing = try upstream.map { try repo.aheadBehind(head, $0).ahead } ?? repo.commitCount(from: head)
            let outcome: Remote.PushOutcome
            do {
                outcome = try remote.push(["\(branchRef):refs/heads/\(remoteBranch)"], expected: upstream, options: options.transport) { checkpoint(.duringPush) }
            } catch let e as LedgerError where e.code == .unreachable {
                return try offline(e, committed: committed)
            }
            guard case .rejected(let reason) = outcome else {
                options.checkpoint(.afterPush)
                try repo.setReference(trackingRef, to: head, message: "ledger: push")
                let before = try upstream.map { try repo.treeOf(commit: $0) }
                report.pushed = try repo.diff(from: before, to: repo.treeOf(commit: head)).map(DocumentChange.init)
                report.pushedCommits = outgoing
                break
            }
            // Moving on (another device pushed first) is worth another fetch and merge; a lock
            // in a remote on a path is cleared before the next push; anything else is not
            // going to change by trying again.
            let movedOn = Self.isNonFastForward(reason)
            guard movedOn || (localRemote != nil && reason.contains(".lock")) else {
                return try rejected("\(report.url) refused the push: \(Remote.redact(reason))", committed: committed)
            }
            if movedOn {
                // Other devices are pushing at this moment: wait a random while, growing, then
                // fetch, merge and try again — for as long as the budget allows.
                contended += 1
                let wait = Backoff.contention.delay(afterFailures: contended, random: Double.random(in: 0..<1))
                guard Date().timeIntervalSince(contentionStart) + wait <= options.contentionBudget else {
                    return try rejected("\(report.url) refused the push \(attempt) times in \(Int(Date().timeIntervalSince(contentionStart).rounded())) s because it kept receiving other changes (other devices are syncing right now)", committed: committed)
                }
                options.pause(wait)
            } else if attempt >= options.maxPushAttempts {
                return try rejected("\(report.url) refused the push \(attempt) times (\(Remote.redact(reason)))", committed: committed)
            }
        }
        try recordPulled(committed: committed)
        // In step already only when no branch moved: commits exchanged count even when,
        // together, they change no file.
        report.outcome = report.committed == nil && report.pulledCommits == 0 && report.pushedCommits == 0 && report.mergeCommit == nil
            ? .upToDate : .synced
        if preview {
            try tellPreview(committed: committed)
            return report
        }
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

    /// The branch's commit at the end, and what came from the remote since `committed` (the
    /// branch after the local commit): the files it changed here, its commits, and the files
    /// they changed that the merge kept as this device had them.
    mutating func recordPulled(committed: ObjectID?) throws {
        report.head = head
        guard let committed, let head, committed != head else { return }
        report.pulled = try repo.diff(from: repo.treeOf(commit: committed), to: repo.treeOf(commit: head)).map(DocumentChange.init)
        report.pulledCommits = try upstream.map { try repo.aheadBehind(committed, $0).behind } ?? 0
        guard let upstream else { return }
        let here = Set(report.pulled.map(\.path))
        let parted = try repo.mergeBase(committed, upstream).map { try repo.treeOf(commit: $0) }
        report.pulledKept = try repo.diff(from: parted, to: repo.treeOf(commit: upstream)).filter { !here.contains($0.path) }.map(DocumentChange.init)
    }

    /// What the push would send: the files, and the commits the remote lacks.
    mutating func previewPush(from upstream: ObjectID?, to head: ObjectID) throws {
        report.pushed = try repo.diff(from: upstream.map { try repo.treeOf(commit: $0) }, to: repo.treeOf(commit: head)).map(DocumentChange.init)
        report.preview?.commitsToPush = try repo.commits(from: head, notIn: upstream).map(repo.commitInfo)
        report.pushedCommits = report.preview?.commitsToPush.count ?? 0
        report.pushAttempts = 1
    }

    /// Each document the sync would commit, and change here, in its app's words.
    mutating func tellPreview(committed: ObjectID?) throws {
        if let local = report.committed {
            let parent = try repo.commitInfo(local).parents.first
            report.preview?.committed = try repo.tellChanges(from: parent.map { try repo.treeOf(commit: $0) }, to: repo.treeOf(commit: local))
        }
        guard let committed, let head, committed != head else { return }
        let other = try upstream.map { try repo.treeOf(commit: $0) }
        report.preview?.documents = try repo.tellChanges(from: repo.treeOf(commit: committed), to: repo.treeOf(commit: head),
                                                         otherParent: head == upstream ? nil : other, includeTaken: true)
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
        if let localRemote, report.pushedCommits > 0 {
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
        if indexUnsaved, !preview { try saveIndex() }
        report.outcome = outcome
        report.error = message
        try? recordPulled(committed: committed)
        if preview {
            // The commits that would wait to be pushed: those the remote lacked when last
            // fetched (the local commit the sync would make among them), as `status` counts them.
            if outcome == .offline, let head {
                report.preview?.commitsToPush = try repo.commits(from: head, notIn: knownRemote).map(repo.commitInfo)
            }
            try tellPreview(committed: committed)
        } else {
            maintain()
            makeDurable()
        }
        return report
    }

    // MARK: - Local changes

    /// Validates the changed documents and commits every change in the work tree.
    mutating func commitLocalChanges() throws {
        // A ledger made before its .gitignore had today's patterns gets them, committed below.
        if !preview, let upgraded = LedgerSetup.upgradeGitignore(workTree: store.root) { report.housekeeping.append(upgraded) }
        var leftovers: [String] = [], emptied: [String] = []
        let changes = try repo.workTreeChanges(leftovers: { leftovers.append($0) }, emptied: { emptied.append($0) })
        try repo.refuseFilterDrivers(changes: changes, consequence: "nothing was committed or pushed")
        if !preview {
            report.housekeeping += WriteLeftovers.remove(leftovers, in: store.root).map { "removed \($0), the temporary file of a write that was interrupted" }
            try restoreEmptied(emptied)
        }
        guard !changes.isEmpty else { return }
        let present = changes.filter { $0.change != .deleted }.map(\.path)
        try refuse(blockingErrors(in: present), documents: "changed", consequence: "nothing was committed or pushed")
        validated.formUnion(present)
        // A file taken out of the index but kept (`git rm --cached`) is removed from the
        // repository and stays here, listed in .git/info/exclude: else the next sync would add
        // it again.
        for c in changes where !preview && c.change == .deleted && FileSystem.exists(store.absolute(c.path)) {
            try repo.excludeLocally(c.path)
            report.housekeeping.append("stopped tracking \(c.path), as `git rm --cached` asked: it stays on this machine, listed in .git/info/exclude")
        }
        let tree = try repo.stage(changes)
        indexUnsaved = true
        let parent = head
        if let parent, try repo.treeOf(commit: parent) == tree { return }
        if parent == nil, knownRemote != nil || RepositoryRepair.historyExisted(gitDirectory: repo.gitDirectory, branch: branchRef) {
            // Never a new first commit where history existed: it would be pushed as the whole
            // history, leaving every earlier commit behind.
            throw LedgerError.failure("the branch \(branch) of \(store.root) has no commit although its history existed (a damaged repository); nothing was committed or pushed: run `git -C \(store.root) fsck --lost-found` to find its last commit, `git -C \(store.root) update-ref \(branchRef) COMMIT` to restore it, then sync again")
        }
        if !preview { Housekeeping.markIndexStale(store, true) }
        let documents = changes.map(DocumentChange.init)
        report.localChanges = documents
        report.committed = try repo.commit(tree: tree, parents: parent.map { [$0] } ?? [], message: commitMessage(documents),
                                           signature: signature, updating: preview ? nil : "HEAD")
        head = report.committed
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
        throw LedgerError.invalid("\(subject) invalid, so \(consequence); fix \(files == 1 ? "it" : "them") (\(next: .sync(.check)) shows the same list) and sync again:", problems: problems)
    }

    /// The errors that keep documents from being committed or pushed, in `paths` (nil: all).
    /// A conflict file is reported by `check` but travels: the other machine may resolve it.
    func blockingErrors(in paths: [String]?) throws -> [Problem] {
        if paths?.isEmpty == true { return [] }
        // A preview's whole check reads the record of clean files but does not rewrite it.
        return try Checker(store: store, useCache: !(preview && paths == nil)).check(scope: paths).problems.filter { p in
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

    // MARK: - Purges

    /// Purges made on other devices are honoured before anything is merged (`PurgeApply`): this
    /// device's history is rewritten the same way — its unsynced commits moved onto the new
    /// history, what it recorded in purged files after the purge kept — and the old objects
    /// removed; this device's own purge, interrupted before it was published, is published
    /// (or given up, when the remote moved on). A remote that brings back purged content is
    /// refused (`PurgeGuard`). A preview only tells what would be done.
    mutating func honourPurges(_ fetched: ObjectID, committed: inout ObjectID?) throws {
        // This device's own purge, not finished: published here if the remote still has what
        // the purge found there, given up if it moved on.
        var own = preview ? nil : PurgeJournal.read(store)
        if !preview, own == nil { try PurgeJournal.removeAbandonedReference(store, repo) }
        if var journal = own, !journal.published {
            if fetched == journal.previousHead, fetched != journal.newHead {
                let target = try SyncTarget(repo, root: store.root, remoteName: journal.remote)
                report.housekeeping += try Purge.publish(repo, store, &journal, target: target, options: options)
                upstream = journal.newHead
                own = journal
            } else if fetched == journal.newHead {
                journal.published = true
                try journal.write(store, repo)
                own = journal
            } else {
                try PurgeJournal.remove(store, repo)
                own = nil
                report.housekeeping.append("gave up the purge of record \(journal.record), which was interrupted before it was published: \(report.remote) moved on since (another device synced); nothing of it was applied — purge again to make it")
            }
        }
        guard let upstream else { return }
        let pending = try PurgeApply.unapplied(repo, head: head, upstream: upstream)
        // Judged before anything is honoured: a purge that arrives together with the old
        // history merged back (a plain git clone's pull and push) would otherwise take this
        // ledger to that history.
        let back = try PurgeGuard.findings(repo, head: head, upstream: upstream, pending: pending)
        if !back.commits.isEmpty { try refuseBringingBack(back, pending: pending, own: own, committed: &committed) }
        if !pending.isEmpty {
            if preview {
                let rewritten = try PurgeApply.rewrite(repo, records: pending, upstream: upstream, signature: signature, device: report.device)
                head = rewritten.head
                committed = committed.map(rewritten.mapped)
                report.purges.append("would honour the purge of \(Self.purgeTargets(pending)): \(rewritten.commitsRewritten) \(rewritten.commitsRewritten == 1 ? "commit" : "commits") of this ledger rewritten, the purged objects removed" + (rewritten.kept.isEmpty ? "" : ", \(rewritten.kept.count) files this device recorded after it kept"))
            } else {
                report.purges.append(try honour(pending, newHistory: upstream, own: own, committed: &committed))
            }
        } else if let own {
            try finish(own)
        }
    }

    /// Honours `pending` here with `newHistory` as the history that holds them (`Purge.finish`):
    /// says what it did.
    mutating func honour(_ pending: [PurgeRecord], newHistory: ObjectID, own: PurgeJournal?, committed: inout ObjectID?) throws -> String {
        let journal = own ?? PurgeJournal(record: pending.map(\.id).joined(separator: ","), newHead: newHistory, previousHead: nil, remote: nil, published: true)
        if own == nil { try journal.write(store, repo) }
        let before = repo.headCommit()
        let done = try Purge.finish(repo, store, journal: journal, device: report.device, options: options).local
        head = done.head
        committed = committed.map(done.mapped)
        report.committed = report.committed.map(done.mapped)
        // The index on the disk matches only when the branch moved (its checkout writes it): a
        // purge that rewrote nothing here leaves this sync's commit still to be saved (as in
        // `finish`).
        if done.head != before { indexUnsaved = false }
        return "honoured the purge of \(Self.purgeTargets(pending)): \(done.commitsRewritten) \(done.commitsRewritten == 1 ? "commit" : "commits") of this ledger rewritten (your unsynced changes moved onto the new history), its objects removed — \(done.scan.objects) objects scanned, purged content found: \(done.scan.found.count)"
            + (done.kept.isEmpty ? "" : "; kept what this device recorded after it: " + done.kept.joined(separator: ", "))
    }

    static func purgeTargets(_ records: [PurgeRecord]) -> String {
        records.map { "\($0.target) (by \($0.deviceName), \($0.createdAt.iso8601))" }.joined(separator: ", ")
    }

    /// Refuses a remote whose branch brings back purged content (exit 1), having taken nothing
    /// of it in: the remote-tracking branch goes back where it was, and what the fetch brought
    /// is removed. A purge that came with it is honoured all the same — with the purge's own
    /// commit as the new history, which holds none of it — so that this ledger's copy of what
    /// went goes as the purge promised, whatever the remote holds.
    mutating func refuseBringingBack(_ back: PurgeGuard.Findings, pending: [PurgeRecord], own: PurgeJournal?, committed: inout ObjectID?) throws {
        var honoured: String?
        if !preview {
            if let knownRemote { try repo.setReference(trackingRef, to: knownRemote, message: "ledger: refused purged content") } else { try repo.deleteReference(trackingRef) }
            if !pending.isEmpty, let clean = back.clean {
                honoured = "this ledger " + (try honour(pending, newHistory: clean, own: own, committed: &committed))
            } else if let own {
                try finish(own)
            } else {
                let blobs = Set(back.records.flatMap { $0.blobs.compactMap(ObjectID.init(hex:)) })
                _ = try? ObjectRemoval.prune(gitDirectory: repo.gitDirectory, git: options.git, blobs: blobs)
            }
        }
        try PurgeGuard.refuse(back, remote: "\(report.remote) (\(report.url))", honoured: honoured)
    }

    /// Finishes this device's purge, published and its branch already rewritten.
    mutating func finish(_ own: PurgeJournal) throws {
        let before = repo.headCommit()
        head = try Purge.finish(repo, store, journal: own, device: report.device, options: options).local.head ?? head
        if head != before { indexUnsaved = false }
    }

    // MARK: - Merging

    /// Brings the branch up to `upstream`: nothing to do, a fast-forward, or a merge.
    mutating func integrate(_ upstream: ObjectID?) throws {
        guard let upstream else { return }
        guard let local = head else {
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
    /// anything else is refused, with the ways out. A remote that holds no ledger at all but a
    /// new repository's few files (`LedgerSetup.newRepositoryFiles`: a README, a licence, a .gitignore)
    /// has no settings to pit against: its history is merged with this one, and the ledger
    /// published on top of it; any other repository is refused.
    mutating func adoptOrRefuse(local: ObjectID, upstream: ObjectID) throws {
        let theirs = try repo.diff(from: nil, to: repo.treeOf(commit: upstream)).map(\.path)
        if !theirs.contains("ledger.json") {
            guard let files = LedgerSetup.newRepositoryFiles(theirs) else {
                throw LedgerError.invalid("""
                    \(report.remote) (\(report.url)) holds no ledger (no ledger.json on its branch \(remoteBranch)) but \
                    \(LedgerSetup.otherRepository(theirs)), so nothing was merged or pushed\
                    \(report.committed == nil ? "" : "; your changes are committed here"). Point this ledger at its own remote \
                    (`git -C \(store.root) remote set-url \(report.remote) URL`), or, to keep both in one repository on purpose, \
                    \(next: .sync(.combineHistories(root: store.root, remote: report.remote, branch: remoteBranch))).
                    """)
            }
            try merge(local: local, upstream: upstream)
            report.reconciled.append("\(report.remote) held no ledger yet, only \(files.joined(separator: ", ")); its history is merged with this ledger's, which goes on top of it")
            return
        }
        if try repo.commitCount(from: local) == 1, report.committed == nil {
            try moveBranch(to: upstream, tree: repo.treeOf(commit: upstream), from: local)
            report.reconciled.append("this ledger was new and held nothing yet; it now holds the ledger of \(report.remote)")
            return
        }
        throw LedgerError.invalid("""
            this ledger and \(report.remote) (\(report.url)) have no history in common: they are two different \
            ledgers, and merging them would let one's defaults overwrite the other's settings. To use the remote's \
            ledger here, \(next: .sync(.cloneInto(url: report.url))) and move what you need; to combine both on \
            purpose, \(next: .sync(.combineHistories(root: store.root, remote: report.remote, branch: branch))). Nothing was merged \
            or pushed\(report.committed == nil ? "" : "; your changes are committed here").
            """)
    }

    /// Moves the branch to `commit`, the work tree first (`BranchMove`); a preview only
    /// notes where the branch would be.
    mutating func moveBranch(to commit: ObjectID, tree: ObjectID, from old: ObjectID?) throws {
        if !preview {
            let checkpoint = options.checkpoint
            try BranchMove.run(repo, store, branchRef: branchRef, to: commit, tree: tree, from: old, message: "ledger: sync") {
                checkpoint(.duringCheckout)
            }
            indexUnsaved = false
        }
        head = commit
    }

    /// Merges the remote's branch into ours (`TreeMerge`) and commits the merge.
    mutating func merge(local: ObjectID, upstream: ObjectID) throws {
        let base = try repo.mergeBase(local, upstream)
        let checkpoint = options.checkpoint
        let merged = try TreeMerge(repo, base: base.map { try repo.treeOf(commit: $0) }, ours: repo.treeOf(commit: local),
                                   theirs: repo.treeOf(commit: upstream)) { checkpoint(.duringMerge) }
        report.resolutions += merged.resolutions
        report.reconciled += merged.reconciled
        var lines = ["ledger sync on \(report.device.name): merge \(remoteName)/\(branch)"]
        if !merged.resolutions.isEmpty {
            lines.append("")
            for r in merged.resolutions { lines.append("resolved \(r.document.path): " + (r.notes.isEmpty ? "merged" : r.notes.joined(separator: "; "))) }
        }
        let merge = try repo.commit(tree: merged.tree, parents: [local, upstream], message: lines.joined(separator: "\n") + "\n",
                                    signature: signature, updating: nil)
        report.mergeCommit = merge
        options.checkpoint(.afterMergeCommit)
        try moveBranch(to: merge, tree: merged.tree, from: local)
        // Files taken whole from one side were valid there; what the resolver and the repairs
        // wrote is checked again, with the rules that span documents (in a preview they are not
        // on disk: the resolver validated each).
        guard !merged.resolutions.isEmpty || !report.reconciled.isEmpty else { return }
        if preview {
            validated.formUnion(merged.written)
        } else if !merged.written.isEmpty {
            report.problems += try Checker(store: store).check(scope: merged.written).problems.filter { $0.severity == .error }
        }
    }
}
