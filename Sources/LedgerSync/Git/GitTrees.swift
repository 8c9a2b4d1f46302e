import CGit2
import Foundation
import LedgerKit

/// A file in a tree: its blob and mode.
package struct TreeEntry: Sendable, Hashable {
    package var id: ObjectID
    /// `0o100644` for a regular file, `0o100755` for an executable one.
    package var mode: UInt32

    package init(id: ObjectID, mode: UInt32 = UInt32(GIT_FILEMODE_BLOB.rawValue)) {
        self.id = id
        self.mode = mode
    }
}

extension Repository {
    /// The file at `path` in `tree` (nil when there is none, or when it is not a file).
    package func entry(at path: String, inTree tree: ObjectID) throws -> TreeEntry? {
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
    package func files(under directory: String, inTree tree: ObjectID) throws -> [(path: String, id: ObjectID)] {
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

    /// The object (file or folder) at `path` in `tree`, or nil: equal ids, equal contents.
    func objectID(at path: String, inTree tree: ObjectID) throws -> ObjectID? {
        try withEntry(at: path, inTree: tree) { ObjectID(git_tree_entry_id($0)!.pointee) }
    }

    /// The names in the folder at `path` of `tree` that are folders themselves.
    func subfolders(at path: String, inTree tree: ObjectID) throws -> [String] {
        guard let sub = try subtree(at: path, inTree: tree) else { return [] }
        var t: OpaquePointer?
        var oid = sub.raw
        try check(git_tree_lookup(&t, pointer, &oid), "git_tree_lookup")
        defer { git_tree_free(t) }
        return (0..<git_tree_entrycount(t)).compactMap { i in
            guard let e = git_tree_entry_byindex(t, i), git_tree_entry_type(e) == GIT_OBJECT_TREE else { return nil }
            return String(cString: git_tree_entry_name(e))
        }
    }

    /// Writes every file of `tree` into the new, empty work tree and records each in the index
    /// with its stat data, so that the first status needs to read nothing. Names a tree may
    /// hold but a work tree must not (`..`, `.git`, slashes) are refused. Files are not flushed
    /// one by one (thousands of flushes; git's own checkout does not flush them at all): the
    /// whole file system is, once, before the index is written (`syncfs`). Where that does not
    /// reach the disk, a power cut may still empty them, and the next command writes them
    /// again from git (`emptiedFiles()`).
    ///
    /// A file already in the work tree (a checkout finished after it was interrupted) is kept
    /// as it is: recorded with its stat data when it holds the tree's version, else without,
    /// so that status reports it as changed.
    package func populateWorkTree(from tree: ObjectID) throws {
        var t: OpaquePointer?
        var oid = tree.raw
        try check(git_tree_lookup(&t, pointer, &oid), "git_tree_lookup")
        defer { git_tree_free(t) }
        let index = try indexHandle()
        defer { git_index_free(index) }
        try check(git_index_clear(index), "git_index_clear")
        final class Writer {
            let repo: OpaquePointer
            let index: OpaquePointer
            let root: String
            var directories: Set<String> = []
            var failure: Error?
            init(repo: OpaquePointer, index: OpaquePointer, root: String) { self.repo = repo; self.index = index; self.root = root }

            func write(path: String, directory: String, entry: OpaquePointer) throws {
                if !directory.isEmpty, !directories.contains(directory) {
                    try FileSystem.makeDirectories(root + "/" + String(directory.dropLast()))
                    directories.insert(directory)
                }
                try Repository.writeBlob(repo: repo, index: index, root: root, path: path, entry: entry)
            }
        }
        let writer = Writer(repo: pointer, index: index, root: workdir)
        try withExtendedLifetime(writer) {
            let rc = git_tree_walk(t, GIT_TREEWALK_PRE, { parent, entry, payload in
                guard let entry, let payload else { return 0 }
                let w = Unmanaged<Writer>.fromOpaque(payload).takeUnretainedValue()
                let name = String(cString: git_tree_entry_name(entry))
                let dir = parent.map { String(cString: $0) } ?? ""
                let lower = name.lowercased()
                guard !name.isEmpty, name != ".", name != "..", lower != ".git", !name.contains("/") else {
                    w.failure = LedgerError.failure("the remote holds a file named \"\(dir)\(name)\", which cannot be written safely; nothing was checked out")
                    return -1
                }
                let type = git_tree_entry_type(entry)
                if type == GIT_OBJECT_TREE { return 0 }
                guard type == GIT_OBJECT_BLOB else { return 1 }  // submodules: not a ledger's business
                do {
                    try w.write(path: dir + name, directory: dir, entry: entry)
                    return 0
                } catch {
                    w.failure = error
                    return -1
                }
            }, Unmanaged.passUnretained(writer).toOpaque())
            if let failure = writer.failure { throw failure }
            try check(rc, "git_tree_walk")
        }
        Durability.flushFileSystem(of: workdir)
        try check(git_index_write(index), "git_index_write")
        try publishIndex()
    }

    /// Writes the files a power cut emptied (`emptiedFiles()`) again from the index's blobs —
    /// durably, through `store` — and records them in the index (which the caller writes);
    /// returns what was done, or nil when nothing was.
    func restoreEmptied(_ paths: [String], in store: LedgerStore) throws -> String? {
        guard !paths.isEmpty else { return nil }
        let index = try index()
        var restored: [String] = []
        for path in paths {
            guard let id = index.entry(at: path), let bytes = try? blob(id), !bytes.isEmpty else { continue }
            try store.write(path, bytes: bytes, mode: index.isExecutable(path) ? 0o755 : 0o644)
            try index.addFromWorkTree(path)
            restored.append(path)
        }
        guard !restored.isEmpty else { return nil }
        let files = restored.count == 1 ? restored[0] : "\(restored.count) files (\(restored.prefix(3).joined(separator: ", "))\(restored.count > 3 ? ", …" : ""))"
        return "wrote \(files) again from git: a power cut had emptied \(restored.count == 1 ? "it" : "them") after a checkout"
    }

    /// The files of the work tree that a power cut emptied after a checkout wrote them
    /// unflushed: each has its index entry's inode, modification and change times, yet no
    /// contents where the entry has some (no edit can do that: writing or truncating a file
    /// changes its times). A walk of the index with a `stat` per file — for repairs only.
    func emptiedFiles() throws -> [String] {
        let index = try indexHandle()
        defer { git_index_free(index) }
        var out: [String] = []
        for i in 0..<git_index_entrycount(index) {
            guard let e = git_index_get_byindex(index, i)?.pointee, e.file_size > 0, e.mode & 0o170000 == 0o100000 else { continue }
            var st = stat()
            let path = String(cString: e.path)
            guard lstat(workdir + "/" + path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size == 0,
                  UInt32(truncatingIfNeeded: st.st_ino) == e.ino,
                  Int64(st.st_mtim.tv_sec) == Int64(e.mtime.seconds), UInt32(st.st_mtim.tv_nsec) == e.mtime.nanoseconds,
                  Int64(st.st_ctim.tv_sec) == Int64(e.ctime.seconds), UInt32(st.st_ctim.tv_nsec) == e.ctime.nanoseconds else { continue }
            out.append(path)
        }
        return out
    }

    /// The blob id the work tree's file at `path` would have, or nil when there is no file.
    package func workTreeBlobID(_ path: String) -> ObjectID? {
        var oid = git_oid()
        guard FileSystem.stamp(workdir + "/" + path)?.type == .file,
              git_odb_hashfile(&oid, workdir + "/" + path, GIT_OBJECT_BLOB) == 0 else { return nil }
        return ObjectID(oid)
    }
}

extension Repository {
    /// The writer of `populateWorkTree`, one file at a time.
    fileprivate static func writeBlob(repo: OpaquePointer, index: OpaquePointer, root: String, path: String,
                                      entry: OpaquePointer) throws {
        var blob: OpaquePointer?
        try check(git_blob_lookup(&blob, repo, git_tree_entry_id(entry)), "git_blob_lookup")
        defer { git_blob_free(blob) }
        let mode = git_tree_entry_filemode(entry).rawValue
        let full = root + "/" + path
        let size = Int(git_blob_rawsize(blob))
        let content = git_blob_rawcontent(blob)
        // A file already there that may differ from the tree's version is recorded without stat
        // data, so that status compares its contents.
        var unverified = false
        if mode == UInt32(GIT_FILEMODE_LINK.rawValue) {
            let target = String(decoding: UnsafeRawBufferPointer(start: content, count: size), as: UTF8.self)
            if symlink(target, full) != 0 {
                guard errno == EEXIST else { throw LedgerError.failure("cannot create \(full): \(String(cString: strerror(errno)))") }
                unverified = true
            }
        } else {
            let fileMode: mode_t = mode == UInt32(GIT_FILEMODE_BLOB_EXECUTABLE.rawValue) ? 0o755 : 0o644
            var fd = createFile(full, fileMode)
            // An empty file where the tree has contents is what a power cut leaves of a checkout
            // that wrote it (unflushed, as git's own checkout writes): written again.
            if fd < 0, errno == EEXIST, size > 0, let s = FileSystem.stamp(full), s.type == .file, s.size == 0, unlink(full) == 0 {
                fd = createFile(full, fileMode)
            }
            if fd < 0 {
                guard errno == EEXIST else { throw LedgerError.failure("cannot create \(full): \(String(cString: strerror(errno)))") }
                var oid = git_oid()
                unverified = !(git_odb_hashfile(&oid, full, GIT_OBJECT_BLOB) == 0 && git_oid_equal(&oid, git_tree_entry_id(entry)) != 0)
            } else {
                defer { closeFile(fd) }
                var done = 0
                while done < size {
                    let n = write(fd, content! + done, size - done)
                    guard n > 0 else { throw LedgerError.failure("cannot write \(full): \(String(cString: strerror(errno)))") }
                    done += n
                }
            }
        }
        var st = stat()
        if !unverified {
            guard lstat(full, &st) == 0 else { throw LedgerError.failure("cannot read back \(full)") }
        }
        var e = git_index_entry()
        e.ctime = git_index_time(seconds: Int32(truncatingIfNeeded: st.st_ctim.tv_sec), nanoseconds: UInt32(st.st_ctim.tv_nsec))
        e.mtime = git_index_time(seconds: Int32(truncatingIfNeeded: st.st_mtim.tv_sec), nanoseconds: UInt32(st.st_mtim.tv_nsec))
        e.dev = UInt32(truncatingIfNeeded: st.st_dev)
        e.ino = UInt32(truncatingIfNeeded: st.st_ino)
        e.mode = mode
        e.uid = st.st_uid
        e.gid = st.st_gid
        e.file_size = UInt32(truncatingIfNeeded: st.st_size)
        e.id = git_tree_entry_id(entry)!.pointee
        try path.withCString { p in
            e.path = p
            try check(git_index_add(index, &e), "git_index_add")
        }
    }
}

private func createFile(_ path: String, _ mode: mode_t) -> Int32 { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
private func closeFile(_ fd: Int32) { close(fd) }
