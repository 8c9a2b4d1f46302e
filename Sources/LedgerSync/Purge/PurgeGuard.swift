import Foundation
import LedgerKit

/// Ledger never publishes, nor takes in, what a purge removed: a remote whose branch holds it
/// again — a clone that does not honour purges (plain git, or a device with an older ledger)
/// merged its old history back and pushed it — is refused by sync, and a new purge of the same
/// target rewrites it away.
package enum PurgeGuard {
    /// What the remote's branch holds of what a purge removed.
    struct Findings {
        /// The commits of the branch whose history holds a purged blob, newest first (the
        /// first is the one that brought it back last: the branch itself, usually).
        var commits: [CommitInfo] = []
        /// The first commit of the branch that holds the records `head` lacks and none of the
        /// purged content in its history — the purge's own commit: what this ledger honours the
        /// purges with when the rest is refused. Nil when every such commit holds some.
        var clean: ObjectID?
        /// The purges whose content the branch brings back.
        var records: [PurgeRecord] = []
    }

    /// The commits of `upstream` whose history holds a blob removed by a purge recorded in
    /// `head` or in `upstream`. When `head` has honoured every record `upstream` holds, its
    /// history holds none of those blobs and only the commits `head` lacks are read (for a
    /// usual sync, the few another device pushed). When it has not (`pending`: a purge arrives
    /// with this fetch), its history still holds them — it is rewritten only after this — so the
    /// whole of `upstream`'s history is read: a clone that merged the old history back into the
    /// purged one hides it behind commits this ledger has.
    static func findings(_ repo: Repository, head: ObjectID?, upstream: ObjectID, pending: [PurgeRecord]) throws -> Findings {
        let honoured = try head.map { try PurgeApply.records(repo, tree: repo.treeOf(commit: $0)) } ?? []
        let blobs = Set((honoured + pending).flatMap { $0.blobs.compactMap(ObjectID.init(hex:)) })
        var found = Findings()
        guard !blobs.isEmpty else { return found }
        let hidden = pending.isEmpty ? head.map { [$0] } ?? [] : []
        var holds: Set<ObjectID> = []
        var brought: Set<ObjectID> = []
        for commit in try repo.commitsParentsFirst(from: [upstream], hiding: hidden) {
            let info = try repo.commitInfo(commit)
            let added = try introduced(repo, info, blobs)
            brought.formUnion(added)
            if !added.isEmpty || info.parents.contains(where: holds.contains) {
                holds.insert(commit)
                found.commits.append(info)
            } else if found.clean == nil, !pending.isEmpty,
                      try pending.allSatisfy({ try repo.entry(at: $0.path, inTree: info.tree) != nil }) {
                found.clean = commit
            }
        }
        found.commits.reverse()
        found.records = (honoured + pending).filter { !brought.isDisjoint(with: $0.blobs.compactMap(ObjectID.init(hex:))) }
        return found
    }

    /// Which of `blobs` `commit` adds (or changes a file to) against its first parent.
    static func introduced(_ repo: Repository, _ commit: CommitInfo, _ blobs: Set<ObjectID>) throws -> Set<ObjectID> {
        let parent = try commit.parents.first.map { try repo.treeOf(commit: $0) }
        var out: Set<ObjectID> = []
        for change in try repo.diff(from: parent, to: commit.tree) where change.change != .deleted {
            if let entry = try repo.entry(at: change.path, inTree: commit.tree), blobs.contains(entry.id) { out.insert(entry.id) }
        }
        return out
    }

    /// A new clone (nothing checked out yet) of a remote whose branch brings back what a purge
    /// it records removed: the clone keeps nothing of it — its branch goes to the purge's own
    /// commit and the remote-tracking branch is dropped (the next sync refuses the remote as
    /// any device's does, until a new purge rewrites it), the rest is removed. Nil when the
    /// branch holds none of it; refused outright when no commit of it is clean (nothing cloned).
    package static func keepNothingBack(_ repo: Repository, remote: String, git: GitTool?) throws -> LedgerError? {
        guard let head = repo.headCommit(), let branch = repo.headReferenceName else { return nil }
        let records = try PurgeApply.records(repo, tree: repo.treeOf(commit: head))
        let found = try findings(repo, head: nil, upstream: head, pending: records)
        guard !found.commits.isEmpty else { return nil }
        guard let clean = found.clean else {
            try refuse(found, remote: remote, honoured: "no commit of it holds the purge without what went, so nothing was cloned")
            return nil
        }
        try repo.setReference(branch, to: clean, message: "ledger: clone without purged content")
        for ref in try repo.allReferences() where ref.name != branch { try repo.deleteReference(ref.name) }
        let scan = try ObjectRemoval.prune(gitDirectory: repo.gitDirectory, git: git, blobs: Set(found.records.flatMap { $0.blobs.compactMap(ObjectID.init(hex:)) }))
        do {
            try refuse(found, remote: remote, honoured: "the clone holds the history up to the purge's own commit \(clean.short), and none of it — \(scan.objects) objects scanned, purged content found: \(scan.found.count)")
        } catch let e as LedgerError { return e }
        return nil
    }

    /// Refuses (exit 1) a remote branch that brings back purged content, naming the commits and
    /// what to do; `honoured` tells what this ledger did meanwhile (the purges it honoured).
    static func refuse(_ found: Findings, remote: String, honoured: String? = nil) throws {
        let (commits, records) = (found.commits, found.records)
        guard let newest = commits.first else { return }
        let targets = records.map(\.target).joined(separator: ", ")
        throw LedgerError.invalid("""
            \(remote) brings back what a purge removed (\(targets)): \(commits.count == 1 ? "commit" : "\(commits.count) commits, the newest") \
            \(newest.id.short) by \(newest.authorName) <\(newest.authorEmail)> of \(newest.time.iso8601) ("\(newest.subject)") — a clone \
            that does not honour purges (plain git, or an older ledger) pushed its old history. Nothing was merged or pushed\
            \(honoured.map { "; \($0)" } ?? ""). \
            \(next: .sync(.purgeAgain(target: records.last?.target ?? "TARGET"))), which rewrites the remote's commits too, and replace \
            that clone with \(next: .sync(.newClone))
            """)
    }
}
