import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin POSIX file operations: the few the store needs, without FileManager's per-file costs.
///
/// Paths are absolute or relative to the current directory; errors carry the path and the
/// system's reason.
public enum FileSystem {
    /// What a directory entry is.
    public enum EntryType: Sendable { case file, directory, symlink, other }

    /// One directory entry.
    public struct Entry: Sendable {
        public var name: String
        public var type: EntryType
    }

    /// File metadata that changes whenever the contents may have changed.
    public struct Stamp: Sendable, Hashable {
        public var size: Int64
        public var modifiedNanoseconds: Int64
        public var changedNanoseconds: Int64
        public var inode: UInt64
        public var type: EntryType

        /// Whether both describe the same, unchanged file: same size, mtime, ctime and inode.
        public func sameFile(as other: Stamp) -> Bool {
            size == other.size && modifiedNanoseconds == other.modifiedNanoseconds
                && changedNanoseconds == other.changedNanoseconds && inode == other.inode
        }

        /// Whether what was read of a file stamped `self` still holds for the file stamped
        /// `current` now: the same file, unchanged, and not modified within the racy window
        /// (at or after `racyThreshold`, nanoseconds), where a second change in the same
        /// clock tick could leave the stamp as it was — git's "racily clean" rule.
        public func vouches(for current: Stamp, racyThreshold: Int64 = .max) -> Bool {
            sameFile(as: current) && modifiedNanoseconds < racyThreshold
        }

        /// `size:mtime:ctime:inode`, for records kept in text.
        public var encoded: String { "\(size):\(modifiedNanoseconds):\(changedNanoseconds):\(inode)" }
    }

    static func systemError(_ what: String, _ path: String, _ err: Int32 = errno) -> LedgerError {
        .failure("cannot \(what) \(path): \(String(cString: strerror(err)))")
    }

    /// The entries of a directory (without `.` and `..`), unsorted; nil when it does not exist.
    public static func list(_ path: String) throws -> [Entry]? {
        guard let dir = opendir(path) else {
            if errno == ENOENT { return nil }
            if errno == ENOTDIR { return nil }
            throw systemError("read the directory", path)
        }
        defer { closedir(dir) }
        var entries: [Entry] = []
        while let ent = readdir(dir) {
            let name = withUnsafeBytes(of: ent.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            var type: EntryType
            switch Int32(ent.pointee.d_type) {
            case Int32(DT_REG): type = .file
            case Int32(DT_DIR): type = .directory
            case Int32(DT_LNK): type = .symlink
            case Int32(DT_UNKNOWN): type = stamp(path + "/" + name)?.type ?? .other
            default: type = .other
            }
            entries.append(Entry(name: name, type: type))
        }
        return entries
    }

    /// Calls `body` with the name (its bytes) and `lstat` stamp of each entry of directory
    /// `path` but `.` and `..`, in directory order, without making a string of each name (a
    /// digest of a large directory costs little more than its system calls). False when the
    /// directory cannot be read.
    public static func forEachStampedEntry(_ path: String, _ body: (UnsafeBufferPointer<UInt8>, Stamp) -> Void) -> Bool {
        guard let dir = opendir(path) else { return false }
        defer { closedir(dir) }
        let fd = dirfd(dir)
        while let ent = readdir(dir) {
            withUnsafeBytes(of: ent.pointee.d_name) { raw in
                let name = raw.bindMemory(to: UInt8.self)
                let length = name.firstIndex(of: 0) ?? name.count
                if length == 1 && name[0] == UInt8(ascii: ".") || length == 2 && name[0] == UInt8(ascii: ".") && name[1] == UInt8(ascii: ".") { return }
                var st = stat()
                guard fstatat(fd, raw.baseAddress!.assumingMemoryBound(to: CChar.self), &st, AT_SYMLINK_NOFOLLOW) == 0 else { return }
                body(UnsafeBufferPointer(rebasing: name[0..<length]), stamp(st))
            }
        }
        return true
    }

    /// `lstat` of a path (symlinks are not followed); nil when it does not exist.
    public static func stamp(_ path: String) -> Stamp? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return stamp(st)
    }

    /// `stat` of a path (symlinks are followed); nil when it does not exist.
    public static func stamp(following path: String) -> Stamp? {
        var st = stat()
        guard fstatat(AT_FDCWD, path, &st, 0) == 0 else { return nil }
        return stamp(st)
    }

    /// `lstat` of `name` in the directory open as `directory` (a file descriptor).
    public static func stamp(in directory: Int32, _ name: String) -> Stamp? {
        var st = stat()
        guard fstatat(directory, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return stamp(st)
    }

    private static func stamp(_ st: stat) -> Stamp {
        let type: EntryType
        switch st.st_mode & S_IFMT {
        case S_IFREG: type = .file
        case S_IFDIR: type = .directory
        case S_IFLNK: type = .symlink
        default: type = .other
        }
        #if canImport(Darwin)
        let m = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
        let c = Int64(st.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(st.st_ctimespec.tv_nsec)
        #else
        let m = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        let c = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        #endif
        return Stamp(size: Int64(st.st_size), modifiedNanoseconds: m, changedNanoseconds: c, inode: UInt64(st.st_ino), type: type)
    }

    /// Whether something exists at `path` (symlinks are not followed).
    public static func exists(_ path: String) -> Bool { stamp(path) != nil }

    /// The contents of a regular file, refusing files larger than `limit` bytes without
    /// reading them — or, with `prefix`, its first `prefix` bytes whatever its size; nil when
    /// the file does not exist.
    public static func read(_ path: String, limit: Int = .max, prefix: Int? = nil) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw LedgerError.invalid("\(path) is a symbolic link; ledger reads only regular files") }
            throw systemError("read", path)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw systemError("read", path) }
        if st.st_mode & S_IFMT == S_IFDIR { throw LedgerError.invalid("\(path) is a directory, not a file") }
        if st.st_mode & S_IFMT != S_IFREG { throw LedgerError.invalid("\(path) is not a regular file") }
        var size = Int(st.st_size)
        if let prefix {
            size = min(size, prefix)
        } else if size > limit {
            throw LedgerError.invalid("\(path) is \(formatBytes(size)), larger than the \(formatBytes(limit)) a ledger document may be")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress! + done, size - done) }
            if n < 0 { if errno == EINTR { continue }; throw systemError("read", path) }
            if n == 0 { break }
            done += n
        }
        if done < size { bytes.removeLast(size - done) }
        return bytes
    }

    /// Whether `path` could be written (or created) by this process: the file when it exists,
    /// else the nearest directory above it that exists. False on a read-only file system.
    public static func isWritable(_ path: String) -> Bool {
        var p = path
        while !p.isEmpty, p != "/", stamp(p) == nil { p = (p as NSString).deletingLastPathComponent }
        return access(p.isEmpty ? "." : p, W_OK) == 0
    }

    /// Writes a file atomically: a temporary file in the same directory, fsync, rename over
    /// the target, fsync of the directory. Readers see the old or the new contents, never a
    /// mixture; a crash leaves at most a hidden `.name.tmp-…` file behind.
    public static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws {
        let dir = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        try makeDirectories(dir.isEmpty ? "." : dir)
        let tmp = (dir.isEmpty ? "" : dir + "/") + ".\(name).tmp-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw systemError("write", path) }
        var ok = false
        defer {
            if !ok { unlink(tmp) }
        }
        do {
            defer { close(fd) }
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
                if n < 0 { if errno == EINTR { continue }; throw systemError("write", path) }
                done += n
            }
            guard fsync(fd) == 0 else { throw systemError("write", path) }
        }
        guard rename(tmp, path) == 0 else { throw systemError("write", path) }
        ok = true
        syncDirectory(dir.isEmpty ? "." : dir)
    }

    /// Flushes a directory's entries (after a rename or unlink) to disk.
    static func syncDirectory(_ dir: String) {
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { fsync(dfd); close(dfd) }
    }

    /// Removes a file; true when it existed.
    @discardableResult
    public static func remove(_ path: String) throws -> Bool {
        if unlink(path) == 0 {
            syncDirectory((path as NSString).deletingLastPathComponent)
            return true
        }
        if errno == ENOENT { return false }
        throw systemError("delete", path)
    }

    /// Removes a directory if it is empty; silently keeps it otherwise.
    public static func removeDirectoryIfEmpty(_ path: String) {
        rmdir(path)
    }

    /// Creates a directory and its parents.
    public static func makeDirectories(_ path: String) throws {
        if let s = stamp(path) {
            if s.type == .directory { return }
            throw LedgerError.failure("cannot create the directory \(path): a file of that name is in the way")
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectories(parent) }
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw systemError("create the directory", path) }
    }

    /// "4.0 MiB", "512 bytes".
    public static func formatBytes(_ n: Int) -> String {
        if n < 1024 { return "\(n) bytes" }
        if n < 1024 * 1024 { return String(format: "%.1f KiB", Double(n) / 1024) }
        return String(format: "%.1f MiB", Double(n) / 1_048_576)
    }
}

private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// An exclusive `flock` held until `release()` or deinit.
///
/// flock locks belong to an open file description: the kernel drops them when the process
/// dies, so a crashed process never leaves the ledger locked.
public final class FileLock {
    private var fd: Int32

    /// Blocks until the lock on `path` (created if needed) is held. When another process
    /// holds it, `waiting` is called first with what that process recorded in the file.
    /// The holder records `holder` (its pid and command line, say) while it holds the lock.
    public convenience init(path: String, holder: String = "", waiting: ((String) -> Void)? = nil) throws {
        try self.init(path: path, holder: holder, block: true, waiting: waiting)
    }

    /// The lock on `path` if no other process holds it, else nil (without waiting).
    public static func attempt(path: String, holder: String = "") throws -> FileLock? {
        let lock = try FileLock(path: path, holder: holder, block: false, waiting: nil)
        return lock.fd >= 0 ? lock : nil
    }

    private init(path: String, holder: String, block: Bool, waiting: ((String) -> Void)?) throws {
        try FileSystem.makeDirectories((path as NSString).deletingLastPathComponent)
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw FileSystem.systemError("open the lock file", path) }
        var operation = LOCK_EX | LOCK_NB
        while flock(fd, operation) != 0 {
            let err = errno
            if err == EINTR { continue }
            if err == EWOULDBLOCK, operation & LOCK_NB != 0 {
                guard block else {
                    close(fd)
                    fd = -1
                    return
                }
                operation = LOCK_EX
                let recorded = (try? FileSystem.read(path, limit: 4096)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                waiting?(recorded.trimmingCharacters(in: .whitespacesAndNewlines))
                continue
            }
            close(fd)
            throw FileSystem.systemError("lock", path, err)
        }
        let record = Array((holder.isEmpty ? "" : holder + "\n").utf8.prefix(4000))
        if ftruncate(fd, 0) == 0, !record.isEmpty { _ = record.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
    }

    /// Releases the lock now.
    public func release() {
        if fd >= 0 {
            _ = ftruncate(fd, 0)  // the record of who holds it
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    deinit { release() }
}
