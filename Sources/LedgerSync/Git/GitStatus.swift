import CGit2
import Dispatch
import Foundation
import LedgerKit

extension Repository {
    /// Work-tree changes against HEAD (staged or not), one per path: added, modified or
    /// deleted, as a commit of everything would record them. Ignored files are left out.
    ///
    /// When the index matches HEAD (the usual case: ledger commits everything it stages), the
    /// work tree is compared with the index directly, stat-ing every indexed file on all cores
    /// and hashing only those whose size, times or inode differ, or that changed in the same
    /// instant as the index was written (git's "racily clean" rule); new files are found by a
    /// walk of the directories. Anything unusual (staged changes, conflicts, submodules) goes
    /// through libgit2's status.
    ///
    /// A file removed from the index but kept in the work tree (`git rm --cached`) counts as
    /// deleted: that removal is what the user staged. `leftovers` is told of the temporary
    /// files of killed atomic writes (`WriteLeftovers`) that the walk meets, and `emptied` of
    /// the files a power cut emptied after a checkout wrote them (see `EntryState.emptied`),
    /// which are then not counted as changes.
    package func workTreeChanges(leftovers: ((String) -> Void)? = nil, emptied: ((String) -> Void)? = nil) throws -> [PathChange] {
        try fastWorkTreeChanges(leftovers: leftovers, emptied: emptied) ?? statusWorkTreeChanges()
    }

    /// The comparison with the index described above, or nil when it does not apply.
    func fastWorkTreeChanges(leftovers: ((String) -> Void)? = nil, emptied: ((String) -> Void)? = nil) throws -> [PathChange]? {
        guard let head = headCommit() else { return nil }
        let index = try indexHandle()
        defer { git_index_free(index) }
        try check(git_index_read(index, 0), "git_index_read")
        guard git_index_has_conflicts(index) == 0 else { return nil }
        // The index's tree (from its cache when valid) must be HEAD's: nothing staged.
        var indexTree = git_oid()
        guard git_index_write_tree(&indexTree, index) == 0, try ObjectID(indexTree) == treeOf(commit: head) else { return nil }
        guard let indexStamp = FileSystem.stamp(gitDirectory + "/index") else { return nil }

        let count = git_index_entrycount(index)
        var entries: [UnsafePointer<git_index_entry>] = []
        entries.reserveCapacity(count)
        /// How many files the index holds directly in each directory (by hash of its path).
        var filesPerDirectory: [UInt64: Int] = [:]
        for i in 0..<count {
            guard let e = git_index_get_byindex(index, i) else { return nil }
            // Regular files and symlinks only (no submodules).
            guard e.pointee.mode & 0o170000 == 0o100000 || e.pointee.mode & 0o170000 == 0o120000 else { return nil }
            entries.append(e)
            filesPerDirectory[directoryHash(e.pointee.path), default: 0] += 1
        }
        let root = openDirectory(workdir)
        guard root >= 0 else { return nil }
        defer { closeDescriptor(root) }
        let states = StatusStates(count: entries.count)
        let workdir = self.workdir
        let threads = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4))
        entries.withUnsafeBufferPointer { buffer in
            let all = UnsafeSendable(buffer)
            // Contiguous ranges: the index is sorted by path, so each worker meets a directory's
            // files together and stats them through one descriptor (no path walk per file).
            DispatchQueue.concurrentPerform(iterations: threads) { worker in
                let range = (all.value.count * worker / threads)..<(all.value.count * (worker + 1) / threads)
                var directory = DirectoryHandle(root: root)
                defer { directory.close() }
                for i in range {
                    states.set(i, Self.compare(all.value[i].pointee, in: &directory, workdir: workdir, racyBefore: indexStamp.modifiedNanoseconds))
                }
            }
        }
        var changes: [PathChange] = []
        for (i, e) in entries.enumerated() {
            switch states.get(i) {
            case .clean: continue
            case .emptied where emptied != nil: emptied?(String(cString: e.pointee.path))
            case .modified, .emptied: changes.append(PathChange(String(cString: e.pointee.path), .modified))
            case .deleted:
                changes.append(PathChange(String(cString: e.pointee.path), .deleted))
                filesPerDirectory[directoryHash(e.pointee.path), default: 0] -= 1
            }
        }
        changes += try untrackedFiles(index: index, expected: filesPerDirectory, leftovers: leftovers)
        return changes
    }

    /// Compares one index entry with the work tree.
    private static func compare(_ e: git_index_entry, in directory: inout DirectoryHandle, workdir: String, racyBefore: Int64) -> EntryState {
        var st = stat()
        let (fd, name) = directory.locate(e.path)
        guard fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return .deleted }
        let isLink = e.mode & 0o170000 == 0o120000
        if isLink != (st.st_mode & S_IFMT == S_IFLNK) || (!isLink && st.st_mode & S_IFMT != S_IFREG) { return .modified }
        #if canImport(Darwin)
        let (m, c) = (st.st_mtimespec, st.st_ctimespec)
        #else
        let (m, c) = (st.st_mtim, st.st_ctim)
        #endif
        let mtime = Int64(m.tv_sec) * 1_000_000_000 + Int64(m.tv_nsec)
        let sameStat = UInt32(truncatingIfNeeded: st.st_size) == e.file_size && UInt32(truncatingIfNeeded: st.st_ino) == e.ino
            && Int64(m.tv_sec) == Int64(e.mtime.seconds) && UInt32(m.tv_nsec) == e.mtime.nanoseconds
            && Int64(c.tv_sec) == Int64(e.ctime.seconds) && UInt32(c.tv_nsec) == e.ctime.nanoseconds
            && (st.st_mode & 0o100 != 0) == (e.mode == 0o100755 as UInt32)
        if sameStat, mtime < racyBefore { return .clean }
        // The same file, untouched since it was recorded (inode, modification and change
        // times), yet empty: a checkout wrote it unflushed and a power cut took its contents.
        if !isLink, st.st_size == 0, e.file_size > 0, UInt32(truncatingIfNeeded: st.st_ino) == e.ino,
           Int64(m.tv_sec) == Int64(e.mtime.seconds), UInt32(m.tv_nsec) == e.mtime.nanoseconds,
           Int64(c.tv_sec) == Int64(e.ctime.seconds), UInt32(c.tv_nsec) == e.ctime.nanoseconds {
            return .emptied
        }
        // Something moved, or it changed in the instant the index was written: compare contents.
        var oid = git_oid()
        var indexed = e.id
        if isLink {
            var target = [CChar](repeating: 0, count: 4096)
            let n = readlinkat(fd, name, &target, target.count)
            guard n >= 0 else { return .modified }
            guard git_odb_hash(&oid, target, n, GIT_OBJECT_BLOB) == 0 else { return .modified }
        } else {
            guard git_odb_hashfile(&oid, workdir + "/" + String(cString: e.path), GIT_OBJECT_BLOB) == 0 else { return .modified }
        }
        return git_oid_equal(&oid, &indexed) != 0 ? .clean : .modified
    }

    /// Whether git leaves `path` (relative; a directory ends in `/`) out of its commits: the
    /// ledger's `.gitignore`, `.git/info/exclude`, `core.excludesFile`, as `git status` reads them.
    package func isIgnored(_ path: String) -> Bool {
        var flag: Int32 = 0
        return git_ignore_path_is_ignored(&flag, pointer, path) == 0 && flag == 1
    }

    /// Files in the work tree that the index does not hold and `.gitignore` does not exclude.
    /// A directory holding exactly the files the index expects there (`expected`, by
    /// `directoryHash`, deleted ones already taken off) has none, and its names are not read.
    private func untrackedFiles(index: OpaquePointer, expected: [UInt64: Int], leftovers: ((String) -> Void)?) throws -> [PathChange] {
        var out: [PathChange] = []
        func walk(_ dir: String) throws {
            guard let listing = DirectoryListing(workdir + (dir.isEmpty ? "" : "/" + dir)) else { return }
            let known = expected[directoryHash(dir)] ?? 0
            if listing.fileCount != known {
                for name in listing.fileNames() {
                    let path = dir.isEmpty ? name : dir + "/" + name
                    guard git_index_get_bypath(index, path, 0) == nil else { continue }
                    if !isIgnored(path) {
                        out.append(PathChange(path, .added))
                    } else if let leftovers, WriteLeftovers.isTemporaryName(name) {
                        leftovers(path)
                    }
                }
            }
            for name in listing.directories {
                if dir.isEmpty, name == ".git" { continue }
                let path = dir.isEmpty ? name : dir + "/" + name
                // A directory the index knows something under, or a new one that is not ignored.
                var pos = 0
                if git_index_find_prefix(&pos, index, path + "/") == 0 || !isIgnored(path + "/") { try walk(path) }
            }
        }
        try walk("")
        return out
    }
}

/// FNV-1a of the directory part of `path` (empty for the root).
private func directoryHash(_ path: UnsafePointer<CChar>) -> UInt64 {
    var end = strlen(path)
    while end > 0, path[end - 1] != 0x2F { end -= 1 }
    if end > 0 { end -= 1 }
    return UnsafeRawBufferPointer(start: path, count: end).withMemoryRebound(to: UInt8.self) { FNV1a.hash($0) }
}

private func directoryHash(_ dir: String) -> UInt64 {
    var dir = dir
    return dir.withUTF8 { FNV1a.hash($0) }
}

/// A directory's entries counted in one pass: the files (names read only on demand) and
/// the subdirectories.
private struct DirectoryListing {
    let path: String
    private(set) var fileCount = 0
    private(set) var directories: [String] = []

    init?(_ path: String) {
        self.path = path
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        while let ent = readdir(dir) {
            switch Int32(ent.pointee.d_type) {
            case Int32(DT_REG), Int32(DT_LNK): fileCount += 1
            case Int32(DT_DIR):
                let name = withUnsafeBytes(of: ent.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name != ".", name != ".." { directories.append(name) }
            case Int32(DT_UNKNOWN):
                let name = withUnsafeBytes(of: ent.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                switch FileSystem.stamp(path + "/" + name)?.type {
                case .file?, .symlink?: fileCount += 1
                case .directory?: directories.append(name)
                default: break
                }
            default: continue
            }
        }
    }

    /// The names of the files (a second pass).
    func fileNames() -> [String] {
        (try? FileSystem.list(path))?.filter { $0.type == .file || $0.type == .symlink }.map(\.name) ?? []
    }
}

/// The open directory of the file being compared, kept while consecutive files share it.
private struct DirectoryHandle {
    let root: Int32
    private var directory: [CChar] = []  // without the trailing slash
    private var fd: Int32 = -1

    init(root: Int32) { self.root = root }

    /// The descriptor of `path`'s directory and the file name within it.
    mutating func locate(_ path: UnsafePointer<CChar>) -> (Int32, UnsafePointer<CChar>) {
        let length = strlen(path)
        var slash = length
        while slash > 0, path[slash - 1] != 0x2F { slash -= 1 }
        guard slash > 0 else { return (root, path) }
        let dirLength = slash - 1
        let same = fd >= 0 && directory.count == dirLength && memcmp(directory, path, dirLength) == 0
        if !same {
            if fd >= 0 { closeDescriptor(fd) }
            directory = Array(UnsafeBufferPointer(start: path, count: dirLength))
            fd = (directory + [0]).withUnsafeBufferPointer { openat(root, $0.baseAddress!, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        }
        // A directory that cannot be opened (gone): stat the whole path from the root.
        return fd >= 0 ? (fd, path + slash) : (root, path)
    }

    mutating func close() {
        if fd >= 0 { closeDescriptor(fd) }
        fd = -1
    }
}

/// How an indexed file compares with the work tree. `emptied`: a file whose stat data match
/// its entry's but for a size of zero — no edit can do that (writing or truncating a file
/// changes its times), a power cut after an unflushed checkout does.
private enum EntryState: UInt8 { case clean, modified, deleted, emptied }

/// Per-entry results written by worker threads, each to its own index.
private final class StatusStates: @unchecked Sendable {
    // @unchecked: every index is written by exactly one worker and read after
    // `concurrentPerform` returns (which orders the writes before the reads).
    private let storage: UnsafeMutableBufferPointer<EntryState>
    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: .clean)
    }
    deinit { storage.deallocate() }
    func set(_ i: Int, _ s: EntryState) { storage[i] = s }
    func get(_ i: Int) -> EntryState { storage[i] }
}

/// A value shared with worker threads that only read it.
private struct UnsafeSendable<T>: @unchecked Sendable {
    // @unchecked: the workers only read `value`, which outlives them.
    let value: T
    init(_ value: T) { self.value = value }
}

private func openDirectory(_ path: String) -> Int32 { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
private func closeDescriptor(_ fd: Int32) { close(fd) }
