import Foundation
import LedgerKit

/// `ledger sync --reset-to-remote`: for a device that is hopelessly out, the ledger as the
/// remote has it — with nothing of this device's dropped: its commits the remote lacks and its
/// uncommitted changes are kept under a named reference, `refs/ledger/unsynced/<time>`, a
/// commit whose documents are this device's as they were, which git keeps (and `git gc`
/// never prunes) until the reference is deleted.
package enum ResetToRemote {
    /// Where kept work goes.
    package static let keptPrefix = "refs/ledger/unsynced/"
    /// How the branch's reflog names a reset (`ledger undo` finds it there).
    static let reflogMessage = "ledger: reset to "

    /// What a reset does (or did).
    package struct Outcome: Sendable {
        package var remote: String
        package var url: String
        package var branch: String
        /// The remote branch's commit the ledger is reset to.
        package var upstream: ObjectID
        /// The branch's commit before.
        package var previousHead: ObjectID?
        /// This device's commits the remote lacks, newest first.
        package var unsyncedCommits: [CommitInfo]
        /// This device's uncommitted changes.
        package var uncommitted: [DocumentChange]
        /// The reference keeping them and its commit (nil when there was nothing to keep).
        package var keptRef: String?
        package var keptCommit: ObjectID?
        /// What changes here: from this device's documents (committed or not) to the remote's.
        package var changes: [TreeChange]

        /// Whether there is anything to do.
        package var changesSomething: Bool { previousHead != upstream || !uncommitted.isEmpty }
    }

    /// What a reset would do, computed on objects kept in a temporary directory (the remote's
    /// branch is downloaded there): nothing in the ledger or its `.git` changes.
    package static func plan(_ store: LedgerStore, options: SyncOptions, now: Timestamp) throws -> Outcome {
        let repo = try Repository.open(store.root)
        let scratch = try ScratchObjects(repo)
        return try withExtendedLifetime(scratch) { try reset(repo, store, options: options, now: now, apply: false) }
    }

    /// Resets the ledger to its remote, holding the writer lock. When `expected` is given (the
    /// plan shown for a confirmation), refuses if the ledger or the remote moved since.
    package static func run(_ store: LedgerStore, options: SyncOptions, now: Timestamp, expected: Outcome? = nil) throws -> Outcome {
        try store.withWriterLock {
            let repo = try Repository.open(store.root)
            return try reset(repo, store, options: options, now: now, apply: true, expected: expected)
        }
    }

    static func reset(_ repo: Repository, _ store: LedgerStore, options: SyncOptions, now: Timestamp, apply: Bool,
                      expected: Outcome? = nil) throws -> Outcome {
        let target = try SyncTarget(repo, root: store.root, remoteName: options.remoteName)
        let remote = try Remote(repo, url: target.url, name: target.remoteName)
        let upstream: ObjectID?
        if apply {
            try remote.fetch(["+refs/heads/\(target.remoteBranch):\(target.trackingRef)"], options: options.transport)
            upstream = repo.resolve(target.trackingRef)
        } else {
            upstream = try remote.download(branch: target.remoteBranch, options: options.transport)
        }
        guard let upstream else {
            throw LedgerError.invalid("\(target.remoteName) (\(Remote.redact(target.url))) has no branch \(target.remoteBranch) to reset to; nothing was changed (\(next: .sync(.sync)) publishes this ledger there)")
        }
        let head = repo.headCommit()
        let unsynced = try head.map { try repo.commits(from: $0, notIn: upstream).map(repo.commitInfo) } ?? []
        let uncommitted = try repo.workTreeChanges()
        try repo.refuseFilterDrivers(changes: uncommitted, consequence: "nothing was changed")
        let mine = uncommitted.isEmpty ? try head.map { try repo.treeOf(commit: $0) } : try repo.stage(uncommitted)
        let upstreamTree = try repo.treeOf(commit: upstream)
        var outcome = Outcome(remote: target.remoteName, url: Remote.redact(target.url), branch: target.branch, upstream: upstream,
                              previousHead: head, unsyncedCommits: unsynced, uncommitted: uncommitted.map(DocumentChange.init),
                              changes: try repo.tellChanges(from: mine, to: upstreamTree))
        if let expected, expected.previousHead != head || expected.upstream != upstream || expected.uncommitted != outcome.uncommitted {
            throw LedgerError.invalid("the ledger or \(target.remoteName) changed since the reset was shown; nothing was changed: run it again to see what it would do now")
        }
        guard outcome.changesSomething else { return outcome }
        // This device's work, kept: its last commit, with the uncommitted changes on top.
        if let head, !unsynced.isEmpty || !uncommitted.isEmpty {
            var kept = head
            if !uncommitted.isEmpty, let mine {
                let device = try Device.current(in: store, defaultName: options.defaultDeviceName, record: apply)
                let signature = repo.signature(fallback: Signature(name: "ledger on \(device.name)", email: "ledger@\(device.id)"))
                var lines = ["ledger on \(device.name): uncommitted changes kept before a reset to \(target.remoteName)/\(target.remoteBranch)", ""]
                lines += uncommitted.map { "\($0.change.rawValue): \($0.path)" }
                lines += ["", "Device: \(device.name) (\(device.id))"]
                kept = try repo.commit(tree: mine, parents: [head], message: lines.joined(separator: "\n") + "\n", signature: signature, updating: nil)
            }
            outcome.keptRef = try keptName(repo, now: now)
            outcome.keptCommit = kept
            if apply {
                try repo.updateReference(outcome.keptRef!, to: kept, expecting: nil, message: "ledger: kept before a reset to \(target.remoteName)")
            }
        }
        if apply {
            // The work tree holds `mine`; the index, once written, the remote's tree.
            let message = reflogMessage + "\(target.remoteName)/\(target.remoteBranch)" + (outcome.keptRef.map { " (kept \($0))" } ?? "")
            try BranchMove.run(repo, store, branchRef: target.branchRef, to: upstream, tree: upstreamTree, from: head, workTree: mine, message: message)
            // Only uncommitted work reset, the branch did not move: its reflog says so all the
            // same, so that `ledger undo` brings that work back rather than an older sync.
            if head == upstream {
                let device = try Device.current(in: store, defaultName: options.defaultDeviceName, record: apply)
                try repo.appendReflog(target.branchRef, at: upstream, message: message,
                                      signature: repo.signature(fallback: Signature(name: "ledger on \(device.name)", email: "ledger@\(device.id)")))
            }
        }
        return outcome
    }

    /// `refs/ledger/unsynced/2026-11-21T22-30-00` (the local time; `-2`, `-3`… when taken).
    static func keptName(_ repo: Repository, now: Timestamp) throws -> String {
        let l = now.local
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let base = keptPrefix + "\(l.date)T\(two(l.hour))-\(two(l.minute))-\(two(l.second))"
        var name = base, n = 1
        while repo.resolve(name) != nil {
            n += 1
            name = "\(base)-\(n)"
        }
        return name
    }

    /// The work kept by earlier resets, newest first.
    package static func kept(_ repo: Repository) throws -> [(name: String, commit: CommitInfo)] {
        try repo.references(under: keptPrefix).map { ($0.name, try repo.commitInfo($0.commit)) }.reversed()
    }
}
