import CGit2
import Foundation

// MARK: - Values copied out of libgit2

/// How a path differs between two trees (or a tree and the work tree).
package enum FileChange: String, Sendable, Hashable {
    case added, modified, deleted
}

/// One changed path.
package struct PathChange: Sendable, Hashable {
    /// Relative to the work tree root.
    package var path: String
    package var change: FileChange

    package init(_ path: String, _ change: FileChange) {
        self.path = path
        self.change = change
    }
}

extension ObjectID {
    /// The id git gives a blob with these contents (`git hash-object`), without storing it.
    package static func blob(hashing bytes: [UInt8]) -> ObjectID {
        _ = Libgit2.initialized
        var oid = git_oid()
        bytes.withUnsafeBytes { _ = git_odb_hash(&oid, $0.baseAddress, $0.count, GIT_OBJECT_BLOB) }
        return ObjectID(oid)
    }
}

// MARK: - Objects

extension Repository {
    /// The contents of a blob.
    package func blob(_ id: ObjectID) throws -> [UInt8] {
        var b: OpaquePointer?
        var oid = id.raw
        try check(git_blob_lookup(&b, pointer, &oid), "git_blob_lookup")
        defer { git_blob_free(b) }
        let size = Int(git_blob_rawsize(b))
        guard size > 0, let raw = git_blob_rawcontent(b) else { return [] }
        return Array(UnsafeRawBufferPointer(start: raw, count: size))
    }

    /// Stores a blob and returns its id.
    package func createBlob(_ bytes: [UInt8]) throws -> ObjectID {
        var oid = git_oid()
        try bytes.withUnsafeBytes { try check(git_blob_create_from_buffer(&oid, pointer, $0.baseAddress, $0.count), "git_blob_create_from_buffer") }
        return ObjectID(oid)
    }

    /// The blob at `path` in `tree`, or nil when there is none.
    package func blobID(at path: String, inTree tree: ObjectID) throws -> ObjectID? {
        try entry(at: path, inTree: tree)?.id
    }

    /// The contents of the file at `path` in `tree`, or nil when there is none.
    package func file(at path: String, inTree tree: ObjectID) throws -> [UInt8]? {
        try blobID(at: path, inTree: tree).map { try blob($0) }
    }

    /// The best common ancestor of two commits, or nil when they share no history.
    package func mergeBase(_ a: ObjectID, _ b: ObjectID) throws -> ObjectID? {
        var out = git_oid()
        var x = a.raw, y = b.raw
        let rc = git_merge_base(&out, pointer, &x, &y)
        if rc == GIT_ENOTFOUND.rawValue { return nil }
        try check(rc, "git_merge_base")
        return ObjectID(out)
    }

    /// Whether `ancestor` is `commit` or one of its ancestors.
    package func isAncestor(_ ancestor: ObjectID, of commit: ObjectID) throws -> Bool {
        if ancestor == commit { return true }
        var a = ancestor.raw, c = commit.raw
        let rc = git_graph_descendant_of(pointer, &c, &a)
        try check(rc, "git_graph_descendant_of")
        return rc == 1
    }

    /// The files that differ between two trees (nil meaning the empty tree), in git's order.
    /// Subtrees with the same id on both sides are skipped without being read, so the cost
    /// follows the changes, not the repository (libgit2's tree-to-tree diff reads every entry
    /// of both trees: 95,000 for the ten-year ledger, for each commit a history tells).
    package func diff(from old: ObjectID?, to new: ObjectID?) throws -> [PathChange] {
        var out: [PathChange] = []
        try diff(old, new, prefix: "", into: &out)
        return out
    }

    /// Walks both trees' entries together (git keeps them sorted, `git_tree_entry_cmp` is its
    /// order), descending only into subtrees whose ids differ.
    private func diff(_ old: ObjectID?, _ new: ObjectID?, prefix: String, into out: inout [PathChange]) throws {
        guard old != new else { return }
        let a = try lookupTree(old), b = try lookupTree(new)
        defer {
            git_tree_free(a)
            git_tree_free(b)
        }
        let (na, nb) = (a.map { git_tree_entrycount($0) } ?? 0, b.map { git_tree_entrycount($0) } ?? 0)
        var (i, j) = (0, 0)
        while i < na || j < nb {
            let x = i < na ? git_tree_entry_byindex(a, i) : nil
            let y = j < nb ? git_tree_entry_byindex(b, j) : nil
            let order: Int32 = x == nil ? 1 : y == nil ? -1 : git_tree_entry_cmp(x, y)
            if order == 0 {
                if git_oid_equal(git_tree_entry_id(x), git_tree_entry_id(y)) == 0 || git_tree_entry_filemode(x) != git_tree_entry_filemode(y) {
                    try changed(x, y, prefix: prefix, into: &out)
                }
                (i, j) = (i + 1, j + 1)
            } else if order < 0 {
                try changed(x, nil, prefix: prefix, into: &out)
                i += 1
            } else {
                try changed(nil, y, prefix: prefix, into: &out)
                j += 1
            }
        }
    }

    /// One entry that differs (nil: absent on that side; both present: the same name and kind).
    private func changed(_ x: OpaquePointer?, _ y: OpaquePointer?, prefix: String, into out: inout [PathChange]) throws {
        let path = prefix + String(cString: git_tree_entry_name(x ?? y!))
        func tree(_ e: OpaquePointer?) -> ObjectID? {
            guard let e, git_tree_entry_type(e) == GIT_OBJECT_TREE else { return nil }
            return ObjectID(git_tree_entry_id(e)!.pointee)
        }
        let (xTree, yTree) = (tree(x), tree(y))
        if xTree != nil || yTree != nil {
            try diff(xTree, yTree, prefix: path + "/", into: &out)
            return
        }
        out.append(PathChange(path, x == nil ? .added : y == nil ? .deleted : .modified))
    }

    private func lookupTree(_ id: ObjectID?) throws -> OpaquePointer? {
        guard let id else { return nil }
        var t: OpaquePointer?
        var oid = id.raw
        try check(git_tree_lookup(&t, pointer, &oid), "git_tree_lookup")
        return t
    }

    /// `baseline` with some files replaced (a blob and its mode) or removed (nil): a new
    /// tree built along the changed paths only, so the cost follows the changes, not the
    /// size of the repository (writing a whole merge index would rewrite every tree).
    package func updatedTree(_ baseline: ObjectID, _ changes: [(path: String, entry: (id: ObjectID, mode: UInt32)?)]) throws -> ObjectID {
        var t: OpaquePointer?
        var oid = baseline.raw
        try check(git_tree_lookup(&t, pointer, &oid), "git_tree_lookup")
        defer { git_tree_free(t) }
        // Removing what the baseline does not have is an error in libgit2: leave those out.
        let changes = changes.filter { c in
            guard c.entry == nil else { return true }
            var e: OpaquePointer?
            guard git_tree_entry_bypath(&e, t, c.path) == 0 else { return false }
            git_tree_entry_free(e)
            return true
        }
        guard !changes.isEmpty else { return baseline }
        let paths = changes.map { strdup($0.path) }
        defer { paths.forEach { free($0) } }
        var updates = [git_tree_update](repeating: git_tree_update(), count: changes.count)
        for (i, c) in changes.enumerated() {
            updates[i].path = UnsafePointer(paths[i])
            if let e = c.entry {
                updates[i].action = GIT_TREE_UPDATE_UPSERT
                updates[i].id = e.id.raw
                updates[i].filemode = git_filemode_t(e.mode)
            } else {
                updates[i].action = GIT_TREE_UPDATE_REMOVE
            }
        }
        var out = git_oid()
        try check(git_tree_create_updated(&out, pointer, t, updates.count, updates), "git_tree_create_updated")
        return ObjectID(out)
    }

    // MARK: - References

    /// Moves `reference` to `target` only if it still points at `expected` (nil: only if it
    /// does not exist yet), so a concurrent writer is never overwritten. The object folders are
    /// flushed first, so that the reference never names an object a power cut could take back.
    package func updateReference(_ reference: String, to target: ObjectID, expecting expected: ObjectID?, message: String) throws {
        flushObjectFolders()
        var ref: OpaquePointer?
        var t = target.raw
        if var e = expected?.raw {
            try check(git_reference_create_matching(&ref, pointer, reference, &t, 1, &e, message), "git_reference_create_matching")
        } else {
            try check(git_reference_create(&ref, pointer, reference, &t, 0, message), "git_reference_create")
        }
        git_reference_free(ref)
    }

    /// Sets or moves `reference` to `target` unconditionally (remote-tracking refs).
    package func setReference(_ reference: String, to target: ObjectID, message: String) throws {
        flushObjectFolders()
        var ref: OpaquePointer?
        var t = target.raw
        try check(git_reference_create(&ref, pointer, reference, &t, 1, message), "git_reference_create")
        git_reference_free(ref)
    }

    /// Points HEAD at `reference` (which need not exist yet: an unborn branch).
    package func setHead(_ reference: String) throws {
        try check(git_repository_set_head(pointer, reference), "git_repository_set_head")
    }

    // MARK: - Merging and checking out

    /// Makes the work tree and the index match `tree`, starting from HEAD's tree. Files that
    /// differ from HEAD in the work tree are not overwritten (libgit2's safe checkout), so
    /// a hand edit made during a sync is never lost; `force` overwrites everything (a fresh
    /// clone). `paths`, when given, limits the work to those files (the ones that differ),
    /// so that a sync does not look at every file of the work tree. `progress` is called per file.
    package func checkout(tree: ObjectID, force: Bool = false, paths: [String]? = nil, progress: ((String) -> Void)? = nil) throws {
        var t: OpaquePointer?
        var oid = tree.raw
        try check(git_object_lookup(&t, pointer, &oid, GIT_OBJECT_TREE), "git_object_lookup")
        defer { git_object_free(t) }
        var opts = git_checkout_options()
        try check(git_checkout_options_init(&opts, UInt32(GIT_CHECKOUT_OPTIONS_VERSION)), "git_checkout_options_init")
        opts.checkout_strategy = force ? GIT_CHECKOUT_FORCE.rawValue : GIT_CHECKOUT_SAFE.rawValue
        final class Box { let f: (String) -> Void; init(_ f: @escaping (String) -> Void) { self.f = f } }
        let box = progress.map(Box.init)
        if box != nil {
            opts.progress_cb = { path, _, _, payload in
                guard let path, let payload else { return }
                Unmanaged<Box>.fromOpaque(payload).takeUnretainedValue().f(String(cString: path))
            }
            opts.progress_payload = box.map { Unmanaged.passUnretained($0).toOpaque() }
        }
        try stageIndexOnce()
        guard let paths else {
            try withExtendedLifetime(box) { try check(git_checkout_tree(pointer, t, &opts), "git_checkout_tree") }
            try publishIndex()
            return
        }
        guard !paths.isEmpty else { return }
        opts.checkout_strategy |= GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH.rawValue
        try withExtendedLifetime(box) {
            try Remote.withStrArray(paths) { specs in
                opts.paths = specs.pointee
                try check(git_checkout_tree(pointer, t, &opts), "git_checkout_tree")
            }
        }
        try publishIndex()
    }

    /// The repository's index (the staging area).
    package func index() throws -> Index {
        Index(try indexHandle(), owner: self)
    }

    /// Work-tree changes against HEAD through libgit2's status (see `workTreeChanges`).
    func statusWorkTreeChanges() throws -> [PathChange] {
        var opts = git_status_options()
        try check(git_status_options_init(&opts, UInt32(GIT_STATUS_OPTIONS_VERSION)), "git_status_options_init")
        opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        opts.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS.rawValue
            | GIT_STATUS_OPT_EXCLUDE_SUBMODULES.rawValue
        var list: OpaquePointer?
        try stageIndexOnce()
        try check(git_status_list_new(&list, pointer, &opts), "git_status_list_new")
        defer { git_status_list_free(list) }
        var out: [PathChange] = []
        for i in 0..<git_status_list_entrycount(list) {
            guard let e = git_status_byindex(list, i)?.pointee else { continue }
            let s = e.status.rawValue
            let inHead: Bool
            if let h = e.head_to_index?.pointee {
                inHead = h.status != GIT_DELTA_ADDED
            } else {
                inHead = (s & GIT_STATUS_WT_NEW.rawValue) == 0
            }
            let inWork: Bool
            if let w = e.index_to_workdir?.pointee {
                // Removed from the index but kept (`git rm --cached`): the removal is what counts.
                let unstaged = w.status == GIT_DELTA_UNTRACKED && e.head_to_index?.pointee.status == GIT_DELTA_DELETED
                inWork = w.status != GIT_DELTA_DELETED && !unstaged
            } else {
                inWork = (s & GIT_STATUS_INDEX_DELETED.rawValue) == 0
            }
            guard let delta = e.index_to_workdir ?? e.head_to_index,
                  let cpath = delta.pointee.new_file.path ?? delta.pointee.old_file.path else { continue }
            let path = String(cString: cpath)
            switch (inHead, inWork) {
            case (true, true): out.append(PathChange(path, .modified))
            case (false, true): out.append(PathChange(path, .added))
            case (true, false): out.append(PathChange(path, .deleted))
            case (false, false): continue
            }
        }
        return out
    }
}

// MARK: - Index

/// A git index: the repository's staging area, or the in-memory result of a merge. Owns
/// its handle; like `Repository`, use it on one thread.
package final class Index {
    let pointer: OpaquePointer
    /// Keeps the repository alive as long as the index.
    let owner: Repository

    init(_ pointer: OpaquePointer, owner: Repository) {
        self.pointer = pointer
        self.owner = owner
    }

    deinit { git_index_free(pointer) }

    /// The blob staged at `path` (stage 0), or nil.
    package func entry(at path: String) -> ObjectID? {
        guard let e = git_index_get_bypath(pointer, path, 0) else { return nil }
        return ObjectID(e.pointee.id)
    }

    /// Whether the entry at `path` (stage 0) is an executable file.
    func isExecutable(_ path: String) -> Bool {
        git_index_get_bypath(pointer, path, 0)?.pointee.mode == UInt32(GIT_FILEMODE_BLOB_EXECUTABLE.rawValue)
    }

    /// Stages `blob` at `path` as a regular file.
    package func add(_ path: String, blob: ObjectID) throws {
        var entry = git_index_entry()
        entry.mode = UInt32(GIT_FILEMODE_BLOB.rawValue)
        entry.id = blob.raw
        try path.withCString { p in
            entry.path = p
            try check(git_index_add(pointer, &entry), "git_index_add")
        }
    }

    /// Removes `path` (stage 0) from the index.
    package func remove(_ path: String) throws {
        let rc = git_index_remove(pointer, path, 0)
        if rc == GIT_ENOTFOUND.rawValue { return }
        try check(rc, "git_index_remove")
    }

    /// Stages the work tree's file at `path` (the repository index only).
    package func addFromWorkTree(_ path: String) throws {
        try check(git_index_add_bypath(pointer, path), "git_index_add_bypath")
    }

    /// Unstages a deleted file (the repository index only).
    package func removeFromWorkTree(_ path: String) throws {
        let rc = git_index_remove_bypath(pointer, path)
        if rc == GIT_ENOTFOUND.rawValue { return }
        try check(rc, "git_index_remove_bypath")
    }

    /// Replaces every entry with the files of `tree` (`git read-tree`). Entries whose blob and
    /// mode do not change keep their stat data, so the next status still skips their files.
    package func readTree(_ tree: ObjectID) throws {
        var t: OpaquePointer?
        var oid = tree.raw
        try check(git_tree_lookup(&t, owner.pointer, &oid), "git_tree_lookup")
        defer { git_tree_free(t) }
        try check(git_index_read_tree(pointer, t), "git_index_read_tree")
    }

    /// Records the work tree's stat data for the entries that have none (fresh from a tree)
    /// whose file holds exactly the indexed blob, as `git update-index --refresh` does; a file
    /// that differs is left for status to report. Returns how many entries were refreshed.
    @discardableResult
    package func refreshStatData() throws -> Int {
        var paths: [String] = []
        for i in 0..<git_index_entrycount(pointer) {
            guard let e = git_index_get_byindex(pointer, i)?.pointee, e.mtime.seconds == 0, e.ctime.seconds == 0, e.ino == 0,
                  e.mode == UInt32(GIT_FILEMODE_BLOB.rawValue) || e.mode == UInt32(GIT_FILEMODE_BLOB_EXECUTABLE.rawValue)
            else { continue }
            let path = String(cString: e.path)
            if owner.workTreeBlobID(path) == ObjectID(e.id) { paths.append(path) }
        }
        for path in paths { try addFromWorkTree(path) }
        return paths.count
    }

    /// Writes the repository index to disk, durably (see `Repository.publishIndex()`).
    package func write() throws {
        try check(git_index_write(pointer), "git_index_write")
        try owner.publishIndex()
    }

    /// Writes the index's tree into the repository's object database.
    package func writeTree() throws -> ObjectID {
        var oid = git_oid()
        try check(git_index_write_tree_to(&oid, pointer, owner.pointer), "git_index_write_tree_to")
        return ObjectID(oid)
    }
}
