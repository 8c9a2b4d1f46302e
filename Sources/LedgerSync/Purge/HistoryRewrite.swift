import Foundation
import LedgerKit

/// The history as it would have been without what a purge removes (`PurgeRecord`): every
/// commit rebuilt with its tree filtered — no file in the record's folders or at its paths, no
/// blob it names wherever it lies — its parents rewritten the same way, and its message without
/// the lines that name what went. A commit that changed only what went is left out (its
/// children go on its parent), as `git filter-repo` prunes commits that become empty.
///
/// It is deterministic: a commit that nothing touches keeps its id, and any repository that
/// rewrites a commit with the same record makes the same new commit, byte for byte — so every
/// device that honours a purge arrives, for the history they shared, at the commits the remote
/// holds, and only its own unsynced commits are new.
final class HistoryRewrite {
    let repo: Repository
    let record: PurgeRecord
    private let folders: [String]
    private let paths: Set<String>
    let blobs: Set<ObjectID>
    /// Filtered trees by where they lie and what they were ("<prefix>\0<id>"); nil: nothing left.
    private var trees: [String: ObjectID?] = [:]
    /// New commits by old ones (a commit left out maps to what replaces it).
    private(set) var map: [ObjectID: ObjectID] = [:]
    /// How many commits were made anew (or left out).
    private(set) var rewritten = 0

    init(_ repo: Repository, record: PurgeRecord) {
        self.repo = repo
        self.record = record
        folders = record.folders
        paths = Set(record.paths)
        blobs = Set(record.blobs.compactMap(ObjectID.init(hex:)))
    }

    /// What `commit` became (itself when the rewrite did not touch it).
    func mapped(_ commit: ObjectID) -> ObjectID { map[commit] ?? commit }

    /// Rewrites the commits reachable from `tips` and not from `hidden`, parents first.
    func rewrite(tips: [ObjectID], hiding hidden: [ObjectID]) throws {
        for commit in try repo.commitsParentsFirst(from: tips, hiding: hidden) where map[commit] == nil {
            let info = try repo.commitInfo(commit)
            var parents: [ObjectID] = []
            for p in info.parents.map(mapped) where !parents.contains(p) { parents.append(p) }
            let tree = try filtered(tree: info.tree) ?? repo.writeTree([])
            let message = scrub(try repo.rawMessage(commit))
            if tree == info.tree, parents == info.parents, message == (try repo.rawMessage(commit)) {
                map[commit] = commit
                continue
            }
            rewritten += 1
            // A commit that changed nothing but what went is left out.
            if tree != info.tree, parents.count == 1, try repo.treeOf(commit: parents[0]) == tree {
                map[commit] = parents[0]
                continue
            }
            map[commit] = try repo.recreate(commit, tree: tree, parents: parents, message: message)
        }
    }

    /// `tree` (lying at `prefix`, "" for the root or "dir/sub/") without what went; nil when
    /// nothing is left of it.
    func filtered(tree: ObjectID, prefix: String = "") throws -> ObjectID? {
        let key = prefix + "\0" + tree.description
        if let done = trees[key] { return done }
        var items: [TreeItem] = []
        var changed = false
        for item in try repo.treeItems(tree) {
            let path = prefix + item.name
            if item.isTree {
                if folders.contains(path) {
                    changed = true
                    continue
                }
                let sub = try filtered(tree: item.id, prefix: path + "/")
                if sub != item.id { changed = true }
                if let sub { items.append(TreeItem(name: item.name, id: sub, mode: item.mode)) }
            } else if item.isBlob, blobs.contains(item.id) || paths.contains(path) {
                changed = true
            } else {
                items.append(item)
            }
        }
        let result: ObjectID? = !changed ? tree : items.isEmpty ? nil : try repo.writeTree(items)
        trees[key] = result
        return result
    }

    /// Whether the file at `path` is among what went: at one of the paths, or in one of the folders.
    func covers(_ path: String) -> Bool {
        paths.contains(path) || folders.contains { path.hasPrefix($0 + "/") }
    }

    /// A commit message without the lines that name a file that went ("added: moments/…").
    func scrub(_ message: String) -> String {
        guard message.contains("/") else { return message }
        var lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeAll { line in
            line.contains("/") && (folders.contains { line.contains($0 + "/") } || paths.contains { line.contains($0) })
        }
        return lines.joined(separator: "\n")
    }
}
