import Foundation
import LedgerKit

/// Named points of a purge, where tests stop the process (`LEDGER_PURGE_KILL_AT`) to prove that
/// the next command finishes or rolls back a purge, never leaves half of one.
package enum PurgeCheckpoint: String, Sendable, CaseIterable {
    /// The new history exists as objects; nothing else has changed (rolled back: nothing to do).
    case afterRewrite = "after-rewrite"
    /// The journal is written: from here the purge is finished, never half.
    case afterJournal = "after-journal"
    /// Objects are being sent to the remote.
    case duringPush = "during-push"
    /// The remote holds the new history; this repository does not yet.
    case afterPush = "after-push"
    /// The branch is rewritten; other references and the objects are not yet.
    case afterBranch = "after-branch"
    /// Every reference is rewritten; the old objects are still there.
    case beforeRemoval = "before-removal"
    /// This repository is clean; the remote on a path is not yet.
    case afterRemoval = "after-removal"
}

/// `ledger purge PATH|ID|APP`: removes documents (and the photos they showed) from the whole
/// history, here and on the remote — the one place ledger replaces the remote's branch — with
/// a purge record (`PurgeRecord`) every other device honours at its next sync (`PurgeApply`).
///
/// The steps, holding the writer lock: the ledger must be in step with its remote (the remote's
/// history is what gets rewritten; a remote that brought back content an earlier purge removed
/// is rewritten with the rest); every commit is rewritten without what goes (`HistoryRewrite`),
/// and a commit holding the record is added on top; the journal is written (`PurgeJournal`);
/// the remote's branch is replaced, only if it is still where the purge found it
/// (`Remote.replace`); then this repository honours its own record as any other device will
/// (every reference rewritten, the reflogs deleted, the old objects removed), the remote on a
/// path has its old objects removed too, and both are scanned: none of the purged blobs may be
/// left.
package enum Purge {
    /// What to purge.
    package enum Target: Sendable, Equatable {
        /// An app's whole folder; the app is also forgotten (`Forgetting`) and starts again
        /// from its defaults.
        case app(AppID)
        /// A file or a folder, relative to the ledger's root.
        case path(String)
        /// The document(s) with this id, wherever they are or were.
        case id(String)
    }

    /// Someone whose copy of the ledger still holds what goes: a device that syncs with ledger
    /// (it honours the purge at its next sync), or the author of commits made with plain git.
    package struct Holder: Sendable {
        package var name: String
        /// Their newest commit in the history.
        package var lastSeen: Timestamp
    }

    /// What a purge would do, shown before it is confirmed.
    package struct Plan: Sendable {
        package var target: Target
        /// The target as given (recorded, and shown).
        package var targetText: String
        package var scope: PurgeScope
        /// The branch's commit and the remote's (nil: no remote, or it has no branch yet).
        package var head: ObjectID
        package var upstream: ObjectID?
        /// The remote whose branch is replaced (nil: a ledger without a remote).
        package var remote: String?
        package var url: String?
        /// Whether the remote is on a path (ledger removes its old objects too).
        package var remoteOnPath: Bool
        /// Commits of the remote whose history brings back what an earlier purge removed (a
        /// clone that does not honour purges pushed its old history), newest first: they are
        /// rewritten with the rest.
        package var reintroduced: [CommitInfo]
        package var devices: [Holder]
        package var plainGit: [Holder]
        /// The remote's references besides its branch (other branches, tags): ledger replaces
        /// only the branch, and what they hold stays there.
        package var otherRemoteReferences: [String]

        /// Every file that goes, sorted, with how many versions of it the history holds.
        package var files: [(path: String, versions: Int)] { scope.versions.keys.sorted().map { ($0, scope.versions[$0]!.count) } }
        package var folders: [String] { scope.folders }
        package var keptPhotos: [(path: String, shownBy: String)] { scope.keptPhotos }
        package var versionCount: Int { scope.blobs.count }
        package var commitsHolding: Int { scope.commitsHolding }
        package var commitsRead: Int { scope.commitsRead }
    }

    /// What a purge did.
    package struct Outcome: Sendable {
        package var record: PurgeRecord
        package var recordPath: String
        package var newHead: ObjectID
        package var previousHead: ObjectID?
        package var commitsRewritten: Int
        /// This repository, and the remote on a path, scanned after the removal.
        package var local: ObjectRemoval.Scan
        package var remote: ObjectRemoval.Scan?
    }

    // MARK: - The plan

    /// What purging `target` would do now, with the remote's branch downloaded into a
    /// temporary directory: nothing in the ledger, its `.git` or the remote changes.
    package static func plan(_ store: LedgerStore, target: Target, targetText: String, options: SyncOptions) throws -> Plan {
        let repo = try Repository.open(store.root)
        let scratch = try ScratchObjects(repo)
        return try withExtendedLifetime(scratch) {
            try plan(repo, store, target: target, targetText: targetText, options: options, fetch: { remote, branch in
                try remote.download(branch: branch, options: options.transport)
            })
        }
    }

    /// The plan, the remote's branch brought by `fetch`.
    static func plan(_ repo: Repository, _ store: LedgerStore, target: Target, targetText: String, options: SyncOptions,
                     fetch: (Remote, String) throws -> ObjectID?) throws -> Plan {
        if let journal = PurgeJournal.read(store) {
            throw LedgerError.invalid("the purge of record \(journal.record) is not finished yet: \(next: .sync(.sync)) finishes it (or gives it up if the remote moved on); purge again after it; nothing was changed")
        }
        // The purge commits and checks out its new history: like a sync, never past a filter
        // driver git would run on the files (`FilterUse`), and a preview says so as well.
        let changes = try repo.workTreeChanges()  // one walk of the work tree for both refusals
        try repo.refuseFilterDrivers(changes: changes, consequence: "nothing was changed")
        guard options.git != nil else {
            throw LedgerError.failure("purging needs the git command, which removes the objects (on Debian: `apt-get install git`); nothing was changed")
        }
        let hasRemote = repo.headReferenceName.flatMap { ref in repo.config("branch.\(ref.dropFirst(11)).remote") } != nil
            || options.remoteName != nil || repo.config("remote.origin.url") != nil
        let syncTarget = hasRemote ? try SyncTarget(repo, root: store.root, remoteName: options.remoteName) : nil
        if syncTarget == nil { _ = try Undo.branch(repo, store) }
        guard let head = repo.headCommit() else { throw LedgerError.notFound("this ledger has no commits yet: there is nothing to purge") }
        var upstream: ObjectID?
        var reintroduced: [CommitInfo] = []
        var others: [String] = []
        if let syncTarget {
            let remote = try Remote(repo, url: syncTarget.url, name: syncTarget.remoteName)
            upstream = try fetch(remote, syncTarget.remoteBranch)
            others = remote.advertised.filter { $0 != "refs/heads/" + syncTarget.remoteBranch }
            if let upstream, upstream != head {
                let named = "\(syncTarget.remoteName) (\(Remote.redact(syncTarget.url)))"
                if try repo.isAncestor(upstream, of: head) {
                    throw LedgerError.invalid("this ledger has commits \(named) lacks: a purge replaces the remote's history, so publish them first with \(next: .sync(.sync)), then purge; nothing was changed")
                }
                let pending = try PurgeApply.unapplied(repo, head: head, upstream: upstream)
                reintroduced = try PurgeGuard.findings(repo, head: head, upstream: upstream, pending: pending).commits
                guard !reintroduced.isEmpty else {
                    throw LedgerError.invalid("\(named) has changes this ledger lacks: a purge rewrites the whole history, so bring them in first with \(next: .sync(.sync)), then purge; nothing was changed")
                }
            }
        }
        var tips = try repo.allReferences().compactMap { repo.peeledCommit($0.target) } + [head]
        if let upstream { tips.append(upstream) }
        let scope = try PurgeScope.find(target, in: repo, tips: tips, head: head)
        try refuseUncommitted(changes, scope: scope, target: target)
        let (devices, plainGit) = try holders(repo, from: tips, this: try Device.current(in: store, defaultName: options.defaultDeviceName, record: false))
        return Plan(target: target, targetText: targetText, scope: scope, head: head, upstream: upstream, remote: syncTarget?.remoteName,
                    url: syncTarget.map { Remote.redact($0.url) }, remoteOnPath: try syncTarget.flatMap { try Remote.localGitDirectory($0.url) } != nil,
                    reintroduced: reintroduced, devices: devices, plainGit: plainGit, otherRemoteReferences: others)
    }

    /// Refuses when a file the purge removes or writes has uncommitted changes: the purge would
    /// leave them in the work tree, and the next sync would publish them again.
    static func refuseUncommitted(_ changes: [PathChange], scope: PurgeScope, target: Target) throws {
        let covered = Set(scope.paths)
        let touched = changes.map(\.path).filter { p in
            covered.contains(p) || scope.folders.contains { p.hasPrefix($0 + "/") } || (target.app != nil && p == LedgerManifest.kind.path())
        }
        guard !touched.isEmpty else { return }
        throw LedgerError.invalid("\(touched.count == 1 ? "a file the purge removes has" : "files the purge removes have") uncommitted changes (\(touched.sorted().prefix(5).joined(separator: ", "))): commit them with \(next: .sync(.sync)) (or put them back as they were), then purge; nothing was changed")
    }

    /// The devices (by the `Device:` line of ledger's commits) and the authors of plain git
    /// commits in the history of `tips`, with their newest commit, newest first; `this` device
    /// left out.
    static func holders(_ repo: Repository, from tips: [ObjectID], this: Device) throws -> (devices: [Holder], plainGit: [Holder]) {
        var devices: [String: Timestamp] = [:], authors: [String: Timestamp] = [:]
        try repo.walkCommits(from: tips) { id in
            let info = try repo.commitInfo(id)
            if let device = History.device(in: info.message) {
                if device != this.name { devices[device] = max(devices[device] ?? info.time, info.time) }
            } else if !(info.subject == "ledger: new ledger" && info.parents.isEmpty) {
                let author = "\(info.authorName) <\(info.authorEmail)>"
                authors[author] = max(authors[author] ?? info.time, info.time)
            }
            return true
        }
        func list(_ d: [String: Timestamp]) -> [Holder] { d.map { Holder(name: $0.key, lastSeen: $0.value) }.sorted { $0.lastSeen > $1.lastSeen } }
        return (list(devices), list(authors))
    }

    // MARK: - The purge

    /// Purges as `expected` (the plan shown) says, holding the writer lock; refuses when the
    /// ledger or the remote moved since it was shown, or another device's sync holds the
    /// remote's push lock.
    package static func run(_ store: LedgerStore, expected: Plan, options: SyncOptions, now: Timestamp,
                            checkpoint: @escaping (PurgeCheckpoint) -> Void = { _ in }) throws -> Outcome {
        try store.withWriterLock {
            let repo = try Repository.open(store.root)
            let syncTarget = expected.remote == nil ? nil : try SyncTarget(repo, root: store.root, remoteName: expected.remote)
            if let busy = RemoteActivity.syncInProgress(store, remoteName: expected.remote) {
                throw LedgerError.failure(busy + "; purge again once it is done (nothing was changed)")
            }
            let plan = try Self.plan(repo, store, target: expected.target, targetText: expected.targetText, options: options) { remote, branch in
                try remote.fetch(["+refs/heads/\(branch):\(syncTarget!.trackingRef)"], options: options.transport)
                return repo.resolve(syncTarget!.trackingRef)
            }
            guard plan.head == expected.head, plan.upstream == expected.upstream, plan.scope.blobs == expected.scope.blobs else {
                throw LedgerError.invalid("the ledger or its remote changed since the purge was shown; nothing was changed: run it again to see what it would do now")
            }
            try PurgeJournal.removeAbandonedReference(store, repo)
            let device = try Device.current(in: store, defaultName: options.defaultDeviceName)
            let signature = repo.signature(fallback: Signature(name: "ledger on \(device.name)", email: "ledger@\(device.id)"))
            var record = PurgeRecord()
            record.id = RandomIDSource().next()
            record.target = plan.targetText
            record.folders = plan.scope.folders
            record.paths = plan.scope.paths.sorted()
            record.blobs = plan.scope.blobs.map(\.description).sorted()
            record.deviceId = device.id
            record.deviceName = device.name
            record.previousHead = plan.upstream?.description
            record.createdAt = now
            record.updatedAt = now

            // The new history, as objects.
            let rewrite = HistoryRewrite(repo, record: record)
            var tips = try repo.allReferences().compactMap { repo.peeledCommit($0.target) } + [plan.head]
            if let upstream = plan.upstream { tips.append(upstream) }
            try rewrite.rewrite(tips: tips, hiding: [])
            var base = rewrite.mapped(plan.head)
            if let upstream = plan.upstream, !plan.reintroduced.isEmpty {
                base = try merged(repo, rewrite.mapped(upstream), into: base, signature: signature, device: device)
            }
            record.commitsRewritten = rewrite.rewritten
            let recordPath = record.path
            let newHead = try repo.commit(tree: recordTree(repo, record, onto: repo.treeOf(commit: base), target: plan.target),
                                          parents: [base], message: message(record, plan: plan, device: device), signature: signature, updating: nil)
            checkpoint(.afterRewrite)

            var journal = PurgeJournal(record: record.id, newHead: newHead, previousHead: plan.upstream, remote: syncTarget?.remoteName,
                                       published: syncTarget == nil)
            try journal.write(store, repo)
            checkpoint(.afterJournal)
            if let syncTarget {
                try publish(repo, store, &journal, target: syncTarget, options: options) { checkpoint(.duringPush) }
                checkpoint(.afterPush)
            }
            let (local, remote) = try finish(repo, store, journal: journal, device: device, options: options, checkpoint: checkpoint)
            return Outcome(record: record, recordPath: recordPath, newHead: newHead, previousHead: plan.upstream,
                           commitsRewritten: record.commitsRewritten, local: local.scan, remote: remote)
        }
    }

    /// Replaces the remote's branch with the journal's new history — only if it still holds
    /// what the purge found there — and marks the journal published. A remote that moved on
    /// gives the purge up (nothing of it reached the branch here); one that cannot be reached
    /// leaves it waiting for the next sync. Returns the stale git locks it removed first from a
    /// remote on a path (what a killed push left there), a sentence each.
    @discardableResult
    static func publish(_ repo: Repository, _ store: LedgerStore, _ journal: inout PurgeJournal, target: SyncTarget, options: SyncOptions,
                        onTransfer: @escaping () -> Void = {}) throws -> [String] {
        let remote = try Remote(repo, url: target.url, name: target.remoteName)
        let named = "\(target.remoteName) (\(Remote.redact(target.url)))"
        let started = Durability.now()
        let localRemote = try Remote.localGitDirectory(target.url)
        let removedLocks = try localRemote.map { try LocalRemoteLock.withStaleLocksCleared(in: $0) {}.removed } ?? []
        let outcome: Remote.Replacement
        do {
            outcome = try remote.replace(branch: target.remoteBranch, with: PurgeJournal.reference, expecting: journal.previousHead,
                                         options: options.transport, onTransfer: onTransfer)
        } catch let e as LedgerError where e.code == .unreachable {
            throw LedgerError(.unreachable, e.sentence + "; the purge is ready here, nothing of it is applied yet: \(next: .sync(.sync)) publishes it when \(target.remoteName) can be reached")
        }
        switch outcome {
        case .replaced: break
        case .moved(let now):
            if now == journal.newHead { break }  // published before (an interrupted purge)
            try PurgeJournal.remove(store, repo)
            throw LedgerError.invalid("\(named) moved on since the purge was shown (another device synced: its branch is at \(now?.short ?? "nothing")); the purge was given up and nothing was changed: \(next: .sync(.sync)), then purge again")
        case .refused(let reason):
            try PurgeJournal.remove(store, repo)
            throw LedgerError(.unreachable, "\(named) refused to replace its branch: \(Remote.redact(reason)); the purge was given up and nothing was changed (a server that forbids rewriting a branch, such as a protected branch, must allow it for this push)")
        }
        // A remote on a path has the new branch on its disk before the journal says published.
        if let localRemote { Durability.flush(gitDirectory: localRemote, since: started) }
        try repo.setReference(target.trackingRef, to: journal.newHead, message: "ledger: purge")
        journal.published = true
        try journal.write(store, repo)
        return removedLocks
    }

    /// Honours the journal's published record here (`PurgeApply`), removes the old objects from
    /// a remote on a path too, and removes the journal: the purge is done.
    static func finish(_ repo: Repository, _ store: LedgerStore, journal: PurgeJournal, device: Device, options: SyncOptions,
                       checkpoint: @escaping (PurgeCheckpoint) -> Void = { _ in }) throws -> (local: PurgeApply.Outcome, remote: ObjectRemoval.Scan?) {
        // What a killed purge (or its `git gc`) left locked is cleared first.
        _ = try StaleLocks.clear(in: repo.gitDirectory, repositoryName: store.root)
        let records = try PurgeApply.unapplied(repo, head: repo.headCommit(), upstream: journal.newHead)
        let headRecords = try repo.headCommit().map { try PurgeApply.records(repo, tree: repo.treeOf(commit: $0)) } ?? []
        let all = records.isEmpty ? headRecords.filter { $0.id == journal.record } : records
        let local = try PurgeApply.apply(repo, store, records: all, upstream: journal.newHead, device: device, git: options.git,
                                         afterBranch: { checkpoint(.afterBranch) }, beforeRemoving: { checkpoint(.beforeRemoval) })
        checkpoint(.afterRemoval)
        var remote: ObjectRemoval.Scan?
        if let name = journal.remote, let url = repo.config("remote.\(name).url"), let directory = try Remote.localGitDirectory(url) {
            let blobs = Set(all.flatMap { $0.blobs.compactMap(ObjectID.init(hex:)) })
            remote = try LocalRemoteLock.withStaleLocksCleared(in: directory) {
                try ObjectRemoval.prune(gitDirectory: directory, git: options.git, blobs: blobs)
            }.result
            if remote?.found.isEmpty == false {
                let branch = "refs/heads/" + (try SyncTarget(repo, root: store.root, remoteName: name).remoteBranch)
                let others = try Repository.open(directory).allReferences().map(\.name).filter { $0 != branch }
                remote?.keptBy = others.isEmpty ? "something outside its references: a .keep pack or an alternate object store"
                    : "its other references, which ledger does not rewrite: " + others.joined(separator: ", ")
            }
        }
        try PurgeJournal.remove(store, repo)
        return (local, remote)
    }

    /// The tree of the purge's own commit: `tree` with the record, and for an app its
    /// defaults and its forget (the instant the merge honours for what other devices recorded
    /// offline before it).
    static func recordTree(_ repo: Repository, _ record: PurgeRecord, onto tree: ObjectID, target: Target) throws -> ObjectID {
        var files: [(path: String, document: JSONValue)] = [(record.path, record.json)]
        if case .app(let app) = target {
            files += LedgerSchema.apps.first { $0.app == app }?.initialDocuments(now: record.createdAt) ?? []
            var manifest = LedgerManifest(createdAt: record.createdAt)
            if let bytes = try repo.file(at: LedgerManifest.kind.path(), inTree: tree), let decoded = try? LedgerStore.decode(LedgerManifest.self, from: bytes, path: LedgerManifest.kind.path()) {
                manifest = decoded
            }
            var forgotten = manifest.forgotten ?? ForgottenApps()
            forgotten[app] = record.createdAt
            manifest.forgotten = forgotten
            manifest.updatedAt = max(manifest.updatedAt, record.createdAt)
            files.append((LedgerManifest.kind.path(), manifest.json))
        }
        return try repo.updatedTree(tree, files.map { ($0.path, (try repo.createBlob(CanonicalJSON.encode($0.document)), UInt32(0o100644))) })
    }

    /// "ledger purge on laptop: removed moments/experiences/2026/11/7pvbilrfgu.json from the history", then what and how much.
    static func message(_ record: PurgeRecord, plan: Plan, device: Device) -> String {
        let what = plan.files.count == 1 ? "1 file" : "\(plan.files.count) files"
        var lines = ["ledger purge on \(device.name): removed \(record.target) from the history", ""]
        lines.append("Purged \(what) (\(plan.versionCount) versions) from \(record.commitsRewritten) rewritten commits; record \(record.path)")
        lines += ["", "Device: \(device.name) (\(device.id))"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The rewritten branch with the rewritten remote's merged in (`TreeMerge`, as a sync merges).
    static func merged(_ repo: Repository, _ theirs: ObjectID, into ours: ObjectID, signature: Signature, device: Device) throws -> ObjectID {
        if try repo.isAncestor(theirs, of: ours) { return ours }
        if try repo.isAncestor(ours, of: theirs) { return theirs }
        let base = try repo.mergeBase(ours, theirs)
        let merge = try TreeMerge(repo, base: base.map { try repo.treeOf(commit: $0) }, ours: repo.treeOf(commit: ours), theirs: repo.treeOf(commit: theirs))
        return try repo.commit(tree: merge.tree, parents: [ours, theirs], message: "ledger purge on \(device.name): merge the remote's commits, rewritten\n",
                               signature: signature, updating: nil)
    }
}

extension Purge.Target {
    /// The app, for an app's purge.
    var app: AppID? { if case .app(let a) = self { a } else { nil } }
}
