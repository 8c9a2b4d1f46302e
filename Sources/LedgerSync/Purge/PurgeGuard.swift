import Foundation
import LedgerKit

/// Ledger never publishes, nor takes in, what a purge removed: a remote whose branch holds it
/// again — a clone that does not honour purges (plain git, or a device with an older ledger)
/// merged its old history back and pushed it — is refused by sync, and a new purge of the same
/// target rewrites it away.
enum PurgeGuard {
    /// The commits of `upstream` that `head` lacks and that bring back a blob a purge recorded
    /// in `head` removed, newest first. Only the commits `head` lacks are read: for a usual sync,
    /// the few another device pushed.
    static func reintroduced(_ repo: Repository, head: ObjectID, upstream: ObjectID) throws -> [CommitInfo] {
        let blobs = Set(try PurgeApply.records(repo, tree: repo.treeOf(commit: head)).flatMap { $0.blobs.compactMap(ObjectID.init(hex:)) })
        guard !blobs.isEmpty else { return [] }
        var out: [CommitInfo] = []
        for commit in try repo.commits(from: upstream, notIn: head) {
            let info = try repo.commitInfo(commit)
            let parent = try info.parents.first.map { try repo.treeOf(commit: $0) }
            for change in try repo.diff(from: parent, to: info.tree) where change.change != .deleted {
                if let entry = try repo.entry(at: change.path, inTree: info.tree), blobs.contains(entry.id) {
                    out.append(info)
                    break
                }
            }
        }
        return out
    }

    /// Refuses (exit 1) a remote branch that brings back purged content, naming the commits and
    /// what to do.
    static func refuse(_ commits: [CommitInfo], head: ObjectID, remote: String, repo: Repository) throws {
        guard let newest = commits.first else { return }
        let records = try PurgeApply.records(repo, tree: repo.treeOf(commit: head))
        let targets = records.map(\.target).joined(separator: ", ")
        throw LedgerError.invalid("""
            \(remote) brings back what a purge removed (\(targets)): \(commits.count == 1 ? "commit" : "\(commits.count) commits, the newest") \
            \(newest.id.short) by \(newest.authorName) <\(newest.authorEmail)> of \(newest.time.iso8601) ("\(newest.subject)") — a clone \
            that does not honour purges (plain git, or an older ledger) pushed its old history. Nothing was merged or pushed. \
            \(next: .sync(.purgeAgain(target: records.last?.target ?? "TARGET"))), which rewrites the remote's commits too, and replace \
            that clone with \(next: .sync(.newClone))
            """)
    }
}
