import CGit2
import Foundation
import LedgerKit

/// A three-way merge of trees along the changed paths, shared by `ledger sync` (its merge and
/// its preview) and `ledger undo`: what changed on one side since `base` is taken from it;
/// what changed differently on both goes to the kind's rule (`FileMerge`); then the apps'
/// repairs across documents run. Nothing is merged line by line and no rename is guessed (a
/// moved document is a deletion and an addition). The cost follows the changes.
///
/// It writes blobs and a tree, nothing else: no reference moves, no file is written.
struct TreeMerge {
    /// The merged tree.
    var tree: ObjectID
    /// The files changed on both sides, and how each was resolved.
    var resolutions: [Resolution]
    /// The repairs across documents, one sentence each.
    var reconciled: [String]
    /// The paths the result holds differently from `ours` (nil entry: removed).
    var changes: [(path: String, entry: TreeEntry?)]

    /// Merges `theirs` into `ours` (trees), from their common ancestor `base` (nil: none).
    /// `beforeResolving` is called before each file changed on both sides is resolved.
    init(_ repo: Repository, base baseTree: ObjectID?, ours original: ObjectID, theirs unfiltered: ObjectID, beforeResolving: () -> Void = {}) throws {
        // A side that had not seen a forget in force keeps only what outlives it (`ForgetFilter`).
        let forgets = try ForgetFilter(repo, base: baseTree, ours: original, theirs: unfiltered)
        let (ours, oursCut) = try forgets.filtered(original, recorded: forgets.ours, side: "this device")
        let (theirs, theirsCut) = try forgets.filtered(unfiltered, recorded: forgets.theirs, side: "the other device")
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
            beforeResolving()
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
        reconciled = try oursCut + theirsCut + Self.reconcile(repo, merged, paths: Set(oursChanged + theirsChanged))
        self.resolutions = resolutions
        let tree = try repo.updatedTree(ours, merged.changes.map { ($0.path, $0.entry.map { ($0.id, $0.mode) }) })
        self.tree = tree
        changes = ours == original ? merged.changes : try repo.diff(from: original, to: tree).map { ($0.path, try repo.entry(at: $0.path, inTree: tree)) }
    }

    /// Runs the apps' cross-document repairs over the documents either side changed, as merged.
    static func reconcile(_ repo: Repository, _ merged: MergedTree, paths: Set<String>) throws -> [String] {
        var notes: [String] = []
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
            notes += repair.notes
        }
        return notes
    }

    /// The files the merge wrote itself (resolved or repaired), not taken whole from a side.
    var written: [String] { changes.filter { $0.entry != nil }.map(\.path) }
}

/// A merge's result as changes on top of our tree, read through for the rules that look at
/// other documents (a recipe's conflicted copy needs the names of the others).
final class MergedTree: @unchecked Sendable {
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

/// Moving a branch to a new commit with the work tree following: the files first, then the
/// branch with a compare-and-swap — shared by sync, undo and the reset to the remote.
enum BranchMove {
    /// Moves `branchRef` from `old` (nil: unborn) to `commit`, whose tree is `tree`. A crash in
    /// between leaves the new files as uncommitted changes, which the next sync commits.
    ///
    /// Only the files that differ between `workTree` (the tree the work tree holds; by default
    /// `old`'s) and `tree` are written, and only where the work tree still holds that version:
    /// a hand edit made meanwhile is kept (the next sync commits it); a file already as `tree`
    /// has it (a move killed half-way, taken again) only has its index entry brought along.
    /// Their index entries are updated, so the cost follows the changes, not the size of the
    /// ledger. Nothing is
    /// checked out through a symbolic link (libgit2 1.5's checkout writes through one; git
    /// removes an ignored link or refuses): refused before anything is written.
    static func run(_ repo: Repository, _ store: LedgerStore, branchRef: String, to commit: ObjectID, tree: ObjectID, from old: ObjectID?,
                    workTree: ObjectID? = nil, message: String, beforeWriting: @escaping () -> Void = {}) throws {
        let oldTree = try workTree ?? old.map { try repo.treeOf(commit: $0) }
        let changes = try repo.diff(from: oldTree, to: tree)
        try store.refuseSymbolicLinks(writing: changes.filter { $0.change != .deleted }.map(\.path),
                                      deleting: changes.filter { $0.change == .deleted }.map(\.path))
        guard let old, let oldTree else {
            try repo.checkout(tree: tree) { _ in beforeWriting() }
            try repo.updateReference(branchRef, to: commit, expecting: nil, message: message)
            return
        }
        let index = try repo.index()
        var first = true
        for change in changes {
            let path = change.path
            let target = try repo.entry(at: path, inTree: tree)
            let current = repo.workTreeBlobID(path)
            if current == target?.id {
                // Already as `tree` has it (a move killed after it wrote the file, taken again):
                // the index follows, or it would keep the old version staged.
                if target == nil { try index.removeFromWorkTree(path) } else { try index.addFromWorkTree(path) }
                continue
            }
            guard current == (try repo.entry(at: path, inTree: oldTree))?.id else { continue }
            if first { first = false; beforeWriting() }
            if let entry = target {
                try store.write(path, bytes: repo.blob(entry.id), mode: entry.mode == UInt32(GIT_FILEMODE_BLOB_EXECUTABLE.rawValue) ? 0o755 : 0o644)
                try index.addFromWorkTree(path)
            } else {
                try store.remove(path)
                try index.removeFromWorkTree(path)
            }
        }
        try index.write()
        try repo.updateReference(branchRef, to: commit, expecting: old, message: message)
        Housekeeping.markIndexStale(store, false)
    }
}
