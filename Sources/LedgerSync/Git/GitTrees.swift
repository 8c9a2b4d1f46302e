import CGit2
import Foundation
import LedgerKit

/// A file in a tree: its blob and mode.
public struct TreeEntry: Sendable, Hashable {
    public var id: ObjectID
    /// `0o100644` for a regular file, `0o100755` for an executable one.
    public var mode: UInt32

    public init(id: ObjectID, mode: UInt32 = UInt32(GIT_FILEMODE_BLOB.rawValue)) {
        self.id = id
        self.mode = mode
    }
}

extension Repository {
    /// The file at `path` in `tree` (nil when there is none, or when it is not a file).
    public func entry(at path: String, inTree tree: ObjectID) throws -> TreeEntry? {
        try withEntry(at: path, inTree: tree) { entry in
            guard git_tree_entry_type(entry) == GIT_OBJECT_BLOB else { return nil }
            return TreeEntry(id: ObjectID(git_tree_entry_id(entry)!.pointee), mode: git_tree_entry_filemode(entry).rawValue)
        }
    }

    /// Calls `body` with the entry at `path` in `tree`; nil when there is no such entry.
    private func withEntry<T>(at path: String, inTree tree: ObjectID, _ body: (OpaquePointer) -> T?) throws -> T? {
        var t: OpaquePointer?
        var oid = tree.raw
        try check(git_tree_lookup(&t, pointer, &oid), "git_tree_lookup")
        defer { git_tree_free(t) }
        var entry: OpaquePointer?
        let rc = git_tree_entry_bypath(&entry, t, path)
        if rc == GIT_ENOTFOUND.rawValue { return nil }
        try check(rc, "git_tree_entry_bypath")
        defer { git_tree_entry_free(entry) }
        return body(entry!)
    }

    /// Every file under `directory` in `tree`, by path relative to the root.
    public func files(under directory: String, inTree tree: ObjectID) throws -> [(path: String, id: ObjectID)] {
        guard let sub = try subtree(at: directory, inTree: tree) else { return [] }
        var t: OpaquePointer?
        var oid = sub.raw
        try check(git_tree_lookup(&t, pointer, &oid), "git_tree_lookup")
        defer { git_tree_free(t) }
        final class Collector { var files: [(String, ObjectID)] = []; let prefix: String; init(_ p: String) { prefix = p } }
        let collector = Collector(directory + "/")
        try withExtendedLifetime(collector) {
            try check(git_tree_walk(t, GIT_TREEWALK_PRE, { root, entry, payload in
                guard let entry, let payload, git_tree_entry_type(entry) == GIT_OBJECT_BLOB else { return 0 }
                let c = Unmanaged<Collector>.fromOpaque(payload).takeUnretainedValue()
                let name = String(cString: git_tree_entry_name(entry))
                c.files.append((c.prefix + (root.map { String(cString: $0) } ?? "") + name, ObjectID(git_tree_entry_id(entry)!.pointee)))
                return 0
            }, Unmanaged.passUnretained(collector).toOpaque()), "git_tree_walk")
        }
        return collector.files
    }

    /// The tree at `path` in `tree`, or nil.
    func subtree(at path: String, inTree tree: ObjectID) throws -> ObjectID? {
        try withEntry(at: path, inTree: tree) { entry in
            git_tree_entry_type(entry) == GIT_OBJECT_TREE ? ObjectID(git_tree_entry_id(entry)!.pointee) : nil
        }
    }

    /// The blob id the work tree's file at `path` would have, or nil when there is no file.
    public func workTreeBlobID(_ path: String) -> ObjectID? {
        var oid = git_oid()
        guard FileSystem.stamp(workdir + "/" + path)?.type == .file,
              git_odb_hashfile(&oid, workdir + "/" + path, GIT_OBJECT_BLOB) == 0 else { return nil }
        return ObjectID(oid)
    }
}
