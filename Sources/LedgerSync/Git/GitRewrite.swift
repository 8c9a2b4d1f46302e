import CGit2
import Foundation
import LedgerKit

/// One entry of a tree, copied out of libgit2.
struct TreeItem: Sendable, Hashable {
    var name: String
    var id: ObjectID
    var mode: UInt32
    var isTree: Bool { mode == UInt32(GIT_FILEMODE_TREE.rawValue) }
    var isBlob: Bool { mode == UInt32(GIT_FILEMODE_BLOB.rawValue) || mode == UInt32(GIT_FILEMODE_BLOB_EXECUTABLE.rawValue) || mode == UInt32(GIT_FILEMODE_LINK.rawValue) }
}

extension Repository {
    /// The entries of a tree, in git's order.
    func treeItems(_ tree: ObjectID) throws -> [TreeItem] {
        var t: OpaquePointer?
        var oid = tree.raw
        try check(git_tree_lookup(&t, pointer, &oid), "git_tree_lookup")
        defer { git_tree_free(t) }
        return (0..<git_tree_entrycount(t)).compactMap { i in
            guard let e = git_tree_entry_byindex(t, i) else { return nil }
            return TreeItem(name: String(cString: git_tree_entry_name(e)), id: ObjectID(git_tree_entry_id(e)!.pointee),
                            mode: git_tree_entry_filemode(e).rawValue)
        }
    }

    /// Writes a tree of `items` (git sorts them) and returns its id; the empty tree for none.
    func writeTree(_ items: [TreeItem]) throws -> ObjectID {
        var builder: OpaquePointer?
        try check(git_treebuilder_new(&builder, pointer, nil), "git_treebuilder_new")
        defer { git_treebuilder_free(builder) }
        for item in items {
            var oid = item.id.raw
            try check(git_treebuilder_insert(nil, builder, item.name, &oid, git_filemode_t(item.mode)), "git_treebuilder_insert")
        }
        var out = git_oid()
        try check(git_treebuilder_write(&out, builder), "git_treebuilder_write")
        return ObjectID(out)
    }

    /// The commit `original` again with another tree, parents and message: the same author and
    /// committer (names, times and offsets) and encoding, so that two repositories making it
    /// from the same commit make the same object. (Extra headers, such as a signature, are not
    /// kept: they would not hold for the new contents.)
    func recreate(_ original: ObjectID, tree: ObjectID, parents: [ObjectID], message: String) throws -> ObjectID {
        var c: OpaquePointer?
        var oid = original.raw
        try check(git_commit_lookup(&c, pointer, &oid), "git_commit_lookup")
        defer { git_commit_free(c) }
        return try createCommit(tree: tree, parents: parents, message: message, author: git_commit_author(c), committer: git_commit_committer(c),
                                encoding: git_commit_message_encoding(c), updating: nil)
    }

    /// A commit of `tree` with `parents`, signed by `author` and `committer`, its message in
    /// `encoding` (nil: UTF-8); `reference` moved to it when given, once the new objects are on
    /// the disk.
    func createCommit(tree: ObjectID, parents: [ObjectID], message: String, author: UnsafePointer<git_signature>?,
                      committer: UnsafePointer<git_signature>?, encoding: UnsafePointer<CChar>?, updating reference: String?) throws -> ObjectID {
        var t: OpaquePointer?
        var treeOID = tree.raw
        try check(git_tree_lookup(&t, pointer, &treeOID), "git_tree_lookup")
        defer { git_tree_free(t) }
        var parentCommits: [OpaquePointer?] = []
        defer { parentCommits.forEach { git_commit_free($0) } }
        for p in parents {
            var pc: OpaquePointer?
            var poid = p.raw
            try check(git_commit_lookup(&pc, pointer, &poid), "git_commit_lookup")
            parentCommits.append(pc)
        }
        var out = git_oid()
        try parentCommits.withUnsafeMutableBufferPointer { buf in
            try check(git_commit_create(&out, pointer, nil, author, committer, encoding, message, t, parents.count, buf.baseAddress), "git_commit_create")
        }
        // The reference moves once the objects' folders are on the disk (`updateReference`),
        // from the first parent only, as git_commit_create would move it.
        if let reference {
            let name = reference == "HEAD" ? headReferenceName ?? reference : reference
            let summary = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
            try updateReference(name, to: ObjectID(out), expecting: parents.first,
                                message: (parents.isEmpty ? "commit (initial): " : parents.count > 1 ? "commit (merge): " : "commit: ") + summary)
        }
        return ObjectID(out)
    }

    /// A commit's message exactly as stored.
    func rawMessage(_ commit: ObjectID) throws -> String {
        var c: OpaquePointer?
        var oid = commit.raw
        try check(git_commit_lookup(&c, pointer, &oid), "git_commit_lookup")
        defer { git_commit_free(c) }
        return git_commit_message_raw(c).map { String(cString: $0) } ?? ""
    }

    /// The commits reachable from `tips` and not from `hidden`, each after its parents.
    func commitsParentsFirst(from tips: [ObjectID], hiding hidden: [ObjectID]) throws -> [ObjectID] {
        var out: [ObjectID] = []
        try walkCommits(from: tips, hiding: hidden, parentsFirst: true) { out.append($0); return true }
        return out
    }

    /// Whether the object database holds `id` (loose or packed).
    func hasObject(_ id: ObjectID) -> Bool {
        var odb: OpaquePointer?
        guard git_repository_odb(&odb, pointer) == 0 else { return false }
        defer { git_odb_free(odb) }
        var oid = id.raw
        return git_odb_exists(odb, &oid) != 0
    }

    /// Every object id in the object database (each once), for a scan: what a purge checks is
    /// gone.
    func everyObject() throws -> Set<ObjectID> {
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, pointer), "git_repository_odb")
        defer { git_odb_free(odb) }
        final class Collector { var ids: Set<ObjectID> = [] }
        let collector = Collector()
        try withExtendedLifetime(collector) {
            try check(git_odb_foreach(odb, { id, payload in
                guard let id, let payload else { return 0 }
                Unmanaged<Collector>.fromOpaque(payload).takeUnretainedValue().ids.insert(ObjectID(id.pointee))
                return 0
            }, Unmanaged.passUnretained(collector).toOpaque()), "git_odb_foreach")
        }
        return collector.ids
    }

    /// Every reference (but symbolic ones, such as `HEAD`) with the object it points at.
    func allReferences() throws -> [(name: String, target: ObjectID)] {
        try references(under: "refs/").map { ($0.name, $0.commit) }
    }

    /// The commit an object is or points at (a tag's target), or nil.
    func peeledCommit(_ id: ObjectID) -> ObjectID? {
        var obj: OpaquePointer?
        var oid = id.raw
        guard git_object_lookup(&obj, pointer, &oid, GIT_OBJECT_ANY) == 0 else { return nil }
        defer { git_object_free(obj) }
        var peeled: OpaquePointer?
        guard git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) == 0 else { return nil }
        defer { git_object_free(peeled) }
        return ObjectID(git_object_id(peeled)!.pointee)
    }

    /// Whether `id` is an annotated tag object.
    func isTag(_ id: ObjectID) -> Bool {
        var obj: OpaquePointer?
        var oid = id.raw
        guard git_object_lookup(&obj, pointer, &oid, GIT_OBJECT_ANY) == 0 else { return false }
        defer { git_object_free(obj) }
        return git_object_type(obj) == GIT_OBJECT_TAG
    }

    /// An annotated tag like `tag` (same name, tagger and message) pointing at `commit`.
    func retag(_ tag: ObjectID, to commit: ObjectID) throws -> ObjectID {
        var t: OpaquePointer?
        var oid = tag.raw
        try check(git_tag_lookup(&t, pointer, &oid), "git_tag_lookup")
        defer { git_tag_free(t) }
        var target: OpaquePointer?
        var coid = commit.raw
        try check(git_object_lookup(&target, pointer, &coid, GIT_OBJECT_COMMIT), "git_object_lookup")
        defer { git_object_free(target) }
        var out = git_oid()
        let message = git_tag_message(t).map { String(cString: $0) } ?? ""
        try check(git_tag_annotation_create(&out, pointer, git_tag_name(t), target, git_tag_tagger(t), message), "git_tag_annotation_create")
        return ObjectID(out)
    }

    /// Deletes the reflog of `reference` (nothing happens when it has none).
    func deleteReflog(_ reference: String) {
        _ = git_reflog_delete(pointer, reference)
    }
}
