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
package enum FileSystem {
    /// What a directory entry is.
    package enum EntryType: Sendable { case file, directory, symlink, other }

    /// One directory entry.
    package struct Entry: Sendable {
        package var name: String
        package var type: EntryType
    }

    /// File metadata that changes whenever the contents may have changed.
    package struct Stamp: Sendable, Hashable {
        package var size: Int64
        package var modifiedNanoseconds: Int64
        package var changedNanoseconds: Int64
        package var inode: UInt64
        package var type: EntryType

        /// Whether both describe the same, unchanged file: same size, mtime, ctime and inode.
        package func sameFile(as other: Stamp) -> Bool {
            size == other.size && modifiedNanoseconds == other.modifiedNanoseconds
                && changedNanoseconds == other.changedNanoseconds && inode == other.inode
        }

        /// Whether what was read of a file stamped `self` still holds for the file stamped
        /// `current` now: the same file, unchanged, and not modified within the racy window
        /// (at or after `racyThreshold`, nanoseconds), where a second change in the same
        /// clock tick could leave the stamp as it was — git's "racily clean" rule.
        package func vouches(for current: Stamp, racyThreshold: Int64 = .max) -> Bool {
            sameFile(as: current) && modifiedNanoseconds < racyThreshold
        }

        /// `size:mtime:ctime:inode`, for records kept in text.
        package var encoded: String { "\(size):\(modifiedNanoseconds):\(changedNanoseconds):\(inode)" }
    }

    static func systemError(_ what: String, _ path: String, _ err: Int32 = errno) -> LedgerError {
        .failure("cannot \(what) \(path): \(String(cString: strerror(err)))")
    }

    /// The entries of a directory (without `.` and `..`), unsorted; nil when it does not exist.
    package static func list(_ path: String) throws -> [Entry]? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw systemError("read the directory", path)
        }
        return try entries(of: fd, path)
    }

    /// The entries of the directory open as `fd`, which this closes.
    fileprivate static func entries(of fd: Int32, _ path: String) throws -> [Entry] {
        guard let dir = fdopendir(fd) else {
            let err = errno
            close(fd)
            throw systemError("read the directory", path, err)
        }
        defer { closedir(dir) }
        let dfd = dirfd(dir)
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
            case Int32(DT_UNKNOWN): type = stamp(in: dfd, name)?.type ?? .other
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
    package static func forEachStampedEntry(_ path: String, _ body: (UnsafeBufferPointer<UInt8>, Stamp) -> Void) -> Bool {
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
    package static func stamp(_ path: String) -> Stamp? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return stamp(st)
    }

    /// `stat` of a path (symlinks are followed); nil when it does not exist.
    package static func stamp(following path: String) -> Stamp? {
        var st = stat()
        guard fstatat(AT_FDCWD, path, &st, 0) == 0 else { return nil }
        return stamp(st)
    }

    /// `lstat` of `name` in the directory open as `directory` (a file descriptor).
    package static func stamp(in directory: Int32, _ name: String) -> Stamp? {
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

    /// An absolute path with its `.` and `..` components and repeated or trailing slashes
    /// removed, by its text alone (no symbolic link is resolved), as `URL.standardizedFileURL`
    /// does: `/a/./b/../c/` is `/a/c`, `/..` is `/`.
    package static func standardized(_ absolute: String) -> String {
        var parts: [Substring] = []
        for part in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        var out = ""
        for part in parts { out += "/" + part }
        return out.isEmpty ? "/" : out
    }

    /// Whether something exists at `path` (symlinks are not followed).
    package static func exists(_ path: String) -> Bool { stamp(path) != nil }

    /// The contents of a regular file, refusing files larger than `limit` bytes without
    /// reading them; nil when the file does not exist. A symbolic link is refused, and so is
    /// anything but a regular file, without waiting (a FIFO is opened non-blocking and never read).
    package static func read(_ path: String, limit: Int = .max) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw LedgerError.invalid("\(path) is a symbolic link; ledger reads only regular files") }
            throw systemError("read", path)
        }
        return try contents(of: fd, path, limit: limit)
    }

    /// The contents of the regular file open as `fd` (closed by this) — or, with `prefix`, its
    /// first `prefix` bytes; `path` names it in errors.
    fileprivate static func contents(of fd: Int32, _ path: String, limit: Int, prefix: Int? = nil) throws -> [UInt8] {
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
    package static func isWritable(_ path: String) -> Bool {
        var p = path
        while !p.isEmpty, p != "/", stamp(p) == nil { p = (p as NSString).deletingLastPathComponent }
        return access(p.isEmpty ? "." : p, W_OK) == 0
    }

    /// Writes a file atomically: a temporary file in the same directory, fsync, rename over
    /// the target, fsync of the directory. Readers see the old or the new contents, never a
    /// mixture; a crash leaves at most a hidden `.name.tmp-…` file behind.
    ///
    /// For files outside a ledger (device-local state, files the user names); a ledger's own
    /// files are written with `writeAtomically(_:under:_:)`, which follows no symbolic link.
    package static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws {
        let dir = (path as NSString).deletingLastPathComponent
        try makeDirectories(dir.isEmpty ? "." : dir)
        let fd = open(dir.isEmpty ? "." : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw systemError("write", path) }
        try Directory(fd: fd, path: dir).writeAtomically((path as NSString).lastPathComponent, bytes, describedAs: path)
    }

    // MARK: - Caches

    /// What a cache's first line starts with.
    static let cacheMark = Array("ledger-cache ".utf8)

    /// Writes a device-local cache, checked on every use, in place: no new file and no rename
    /// (a file created costs ext4 an inode, which took 0.2 ms a command when commands ran one
    /// after another, its allocator passing over the inodes freed by the renames before). Its
    /// first line gives the length and checksum of the rest, so that a reader meeting it half
    /// written — a write in progress, a power cut — finds no cache rather than a mixture of two.
    /// Not flushed: after a power cut it is the old one, or none.
    package static func writeCache(_ path: String, _ bytes: [UInt8]) throws {
        var fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        if fd < 0, errno == ENOENT {
            // Its folder, made the first time only.
            let dir = (path as NSString).deletingLastPathComponent
            try makeDirectories(dir.isEmpty ? "." : dir)
            fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        }
        guard fd >= 0 else { throw systemError("write", path) }
        defer { close(fd) }
        let out = cacheMark + Array("\(bytes.count) \(String(checksum(bytes), radix: 16))\n".utf8) + bytes
        var done = 0
        while done < out.count {
            let n = out.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, out.count - done, off_t(done)) }
            if n < 0 { if errno == EINTR { continue }; throw systemError("write", path) }
            done += n
        }
        guard ftruncate(fd, off_t(out.count)) == 0 else { throw systemError("write", path) }
    }

    /// A cache as `writeCache` wrote it; nil when there is none, it is over `limit` bytes, or
    /// it is not whole.
    package static func readCache(_ path: String, limit: Int) -> [UInt8]? {
        guard let all = try? read(path, limit: limit), all.starts(with: cacheMark) else { return nil }
        // "<length> <checksum in hex>\n", then the contents.
        var i = cacheMark.count, length = 0, sum: UInt64 = 0
        while i < all.count, let d = digit(all[i], radix: 10) { length = length &* 10 &+ d; i += 1 }
        guard i < all.count, all[i] == UInt8(ascii: " ") else { return nil }
        i += 1
        while i < all.count, let d = digit(all[i], radix: 16) { sum = sum &* 16 &+ UInt64(d); i += 1 }
        guard i < all.count, all[i] == UInt8(ascii: "\n"), all.count - (i + 1) >= length else { return nil }
        let body = Array(all[(i + 1)..<(i + 1 + length)])
        return checksum(body) == sum ? body : nil
    }

    /// The value of an ASCII digit in `radix` (10 or 16, lowercase), or nil.
    private static func digit(_ c: UInt8, radix: Int) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: return Int(c - UInt8(ascii: "a")) + 10
        default: return nil
        }
    }

    /// 64-bit FNV-1a of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    /// Removes a file; true when it existed.
    @discardableResult
    package static func remove(_ path: String) throws -> Bool {
        if unlink(path) == 0 {
            let dfd = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if dfd >= 0 { fsync(dfd); close(dfd) }
            return true
        }
        if errno == ENOENT { return false }
        throw systemError("delete", path)
    }

    /// Creates a directory and its parents.
    package static func makeDirectories(_ path: String) throws {
        if let s = stamp(path) {
            if s.type == .directory { return }
            throw LedgerError.failure("cannot create the directory \(path): a file of that name is in the way")
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectories(parent) }
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw systemError("create the directory", path) }
    }

    // MARK: - Inside a ledger: never through a symbolic link

    /// What `check` says about a symbolic link inside a ledger, and why ledger refuses to
    /// read or write through one.
    package static let symbolicLinkProblem = "is a symbolic link; ledger documents must be regular files inside the ledger (it is not followed)"

    /// A directory below a root (a ledger), opened without following a symbolic link at any
    /// component below the root (the root itself may be one). Its entries are read, stamped,
    /// written and removed through its descriptor (`openat`, `fstatat`, `renameat`,
    /// `unlinkat`), so a component swapped for a link after the walk is not followed either:
    /// there is no window between a check and its use.
    package final class Directory: @unchecked Sendable {
        // @unchecked: immutable after init; the descriptor is closed in deinit.
        /// Its path relative to the root ("" for the root), for messages.
        package let path: String
        /// The open descriptor (`O_RDONLY | O_DIRECTORY`).
        package let fd: Int32

        init(fd: Int32, path: String) {
            self.fd = fd
            self.path = path
        }

        deinit { close(fd) }

        /// The relative path of entry `name`, for messages.
        package func path(of name: String) -> String { path.isEmpty ? name : path + "/" + name }

        /// The directory's own stamp.
        package var stamp: Stamp {
            var st = stat()
            _ = fstat(fd, &st)
            return FileSystem.stamp(st)
        }

        /// The `lstat` of entry `name`; nil when there is none.
        package func stamp(_ name: String) -> Stamp? { FileSystem.stamp(in: fd, name) }

        /// The entries (without `.` and `..`), unsorted.
        package func list() throws -> [Entry] {
            // A descriptor of its own: a duplicate would share (and move) this one's offset.
            let own = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard own >= 0 else { throw systemError("read the directory", path) }
            return try entries(of: own, path)
        }

        /// The contents of the regular file `name`, refusing a symbolic link, anything but a
        /// regular file (without blocking on a FIFO) and files larger than `limit` bytes — or,
        /// with `prefix`, its first `prefix` bytes whatever its size; nil when there is no such file.
        package func read(_ name: String, limit: Int = .max, prefix: Int? = nil) throws -> [UInt8]? {
            let file = openat(fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            if file < 0 {
                let err = errno
                if err == ENOENT { return nil }
                if stamp(name)?.type == .symlink { throw linkRefusal(path(of: name), "read", path(of: name), folder: false) }
                throw systemError("read", path(of: name), err)
            }
            return try contents(of: file, path(of: name), limit: limit, prefix: prefix)
        }

        /// Writes the file `name` atomically (see `FileSystem.writeAtomically`). A symbolic
        /// link or a directory in its place is refused, not replaced. A file replaced keeps who
        /// may read and write it (a document made private with `chmod 600` stays so), as an
        /// editor keeps it; `mode` says whether it is executable. A new file gets `mode` less
        /// the umask.
        package func writeAtomically(_ name: String, _ bytes: [UInt8], mode: mode_t = 0o644,
                                     describedAs shown: String? = nil) throws {
            let shown = shown ?? path(of: name)
            // What is there now, looked at once: refused when it is a link or a folder, its
            // permissions kept when it is a file.
            var old = stat()
            let there = fstatat(fd, name, &old, AT_SYMLINK_NOFOLLOW) == 0
            switch there ? old.st_mode & S_IFMT : 0 {
            case S_IFLNK: throw linkRefusal(path(of: name), "write", shown, folder: false)
            case S_IFDIR: throw LedgerError.failure("cannot write \(shown): a directory of that name is in the way")
            default: break
            }
            let tmp = ".\(name).tmp-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
            let file = openat(fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
            guard file >= 0 else { throw systemError("write", shown) }
            var ok = false
            defer { if !ok { unlinkat(fd, tmp, 0) } }
            do {
                defer { close(file) }
                if there, old.st_mode & S_IFMT == S_IFREG {
                    let readWrite = old.st_mode & 0o666
                    // Executable where readable, as git checks an executable file out.
                    let kept = mode & 0o111 == 0 ? readWrite : readWrite | (readWrite & 0o444) >> 2
                    guard fchmod(file, kept) == 0 else { throw systemError("write", shown) }
                }
                var done = 0
                while done < bytes.count {
                    let n = bytes.withUnsafeBytes { write(file, $0.baseAddress! + done, bytes.count - done) }
                    if n < 0 { if errno == EINTR { continue }; throw systemError("write", shown) }
                    done += n
                }
                guard fsync(file) == 0 else { throw systemError("write", shown) }
            }
            guard renameat(fd, tmp, fd, name) == 0 else { throw systemError("write", shown) }
            ok = true
            fsync(fd)
        }

        /// Removes the file (or symbolic link, never what it points to) `name`; true when it existed.
        @discardableResult
        package func remove(_ name: String) throws -> Bool {
            if unlinkat(fd, name, 0) == 0 {
                fsync(fd)
                return true
            }
            if errno == ENOENT { return false }
            throw systemError("delete", path(of: name))
        }

        /// Removes the subdirectory `name` if it is empty (never a link); keeps it otherwise.
        /// True when it was removed.
        @discardableResult
        package func removeDirectoryIfEmpty(_ name: String) -> Bool {
            guard unlinkat(fd, name, AT_REMOVEDIR) == 0 else { return false }
            fsync(fd)
            return true
        }
    }

    /// A component of a path below a root that cannot be walked through.
    enum Blocked: Error {
        /// `link` (relative to the root) is a symbolic link.
        case link(String)
        /// `file` is not a directory.
        case notDirectory(String)
    }

    /// The directory `relative` below `root`, walked one component at a time without
    /// following a symbolic link; nil when a component does not exist (unless `create`: then
    /// the missing ones are made, `mkdirat`). Throws `Blocked` for a link or a file on the way.
    static func walk(_ relative: String, under root: String, create: Bool) throws -> Directory? {
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT, !create { return nil }
            throw systemError("open the directory", root)
        }
        var walked = ""
        for component in relative.split(separator: "/", omittingEmptySubsequences: true) where component != "." {
            let name = String(component)
            walked = walked.isEmpty ? name : walked + "/" + name
            guard name != ".." else {
                close(fd)
                throw LedgerError.invalid("\(relative) is not a path inside the ledger (it has a .. component)")
            }
            var next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0, errno == ENOENT, create {
                if mkdirat(fd, name, 0o755) != 0, errno != EEXIST {
                    let err = errno
                    close(fd)
                    throw systemError("create the directory", walked, err)
                }
                next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            if next < 0 {
                let err = errno
                let type = stamp(in: fd, name)?.type
                close(fd)
                switch (err, type) {
                case (ENOENT, _): return nil
                case (_, .symlink?): throw Blocked.link(walked)
                case (_, .some(let t)) where t != .directory: throw Blocked.notDirectory(walked)
                default: throw systemError("open the directory", walked, err)
                }
            }
            close(fd)
            fd = next
        }
        return Directory(fd: fd, path: relative == "." ? "" : relative)
    }

    /// The refusal to `action` ("read", "write", "delete") `target` because `link` — a folder
    /// on its way, or `target` itself — is a symbolic link (exit status 1): it names the link
    /// and what `check` reports about it. `folder` says what `target` is when it is the link.
    package static func linkRefusal(_ link: String, _ action: String, _ target: String, folder: Bool = true) -> LedgerError {
        let doing = action == "read" ? "cannot read \(target): " : "refusing to \(action) \(target): "
        return .invalid(LedgerError.Sentence(link == target && action == "read" ? "" : doing)
            + "\(link) is a symbolic link, and ledger never follows one inside a ledger (\(next: .checkReports(problem: "\(link): /: error: \(symbolicLinkProblem)")))"
            + "; put the real \(link != target || folder ? "folder" : "file") in its place")
    }

    /// The directory `relative` below `root`, opened without following a symbolic link (see
    /// `Directory`); nil when it does not exist or a symbolic link or a file is on its way
    /// (what is behind a link is not part of the ledger).
    package static func openDirectory(_ relative: String, under root: String) throws -> Directory? {
        do {
            return try walk(relative, under: root, create: false)
        } catch is Blocked {
            return nil
        }
    }

    /// `openDirectory` for writing: the missing directories are created; a symbolic link on the
    /// way is refused with exit status 1, naming it and what `check` reports about it, for
    /// writing `target` (for the message).
    package static func directoryForWriting(_ relative: String, under root: String, target: String) throws -> Directory {
        do {
            guard let d = try walk(relative, under: root, create: true) else { throw systemError("create the directory", relative, ENOENT) }
            return d
        } catch Blocked.link(let link) {
            throw linkRefusal(link, "write", target)
        } catch Blocked.notDirectory(let file) {
            throw LedgerError.failure("cannot write \(target): \(file) is a file, where a directory is needed")
        }
    }

    /// The contents of the file `relative` below `root` (see `Directory.read`), never through
    /// a symbolic link; nil when it does not exist.
    package static func read(_ relative: String, under root: String, limit: Int = .max, prefix: Int? = nil) throws -> [UInt8]? {
        let (dir, name) = split(relative)
        do {
            return try walk(dir, under: root, create: false)?.read(name, limit: limit, prefix: prefix)
        } catch Blocked.link(let link) {
            throw linkRefusal(link, "read", relative, folder: false)
        } catch Blocked.notDirectory {
            return nil
        }
    }

    /// Writes the file `relative` below `root` atomically, creating its directories, never
    /// through a symbolic link (see `directoryForWriting`).
    package static func writeAtomically(_ relative: String, under root: String, _ bytes: [UInt8], mode: mode_t = 0o644) throws {
        let (dir, name) = split(relative)
        try directoryForWriting(dir, under: root, target: relative).writeAtomically(name, bytes, mode: mode)
    }

    /// Removes the file `relative` below `root` (a symbolic link itself, never what it points
    /// to), then its parent directories that become empty, up to `keep` components from the
    /// root; true when the file existed.
    /// A symbolic link on the way is refused like a write through it.
    @discardableResult
    package static func remove(_ relative: String, under root: String, keep: Int) throws -> Bool {
        let (dir, name) = split(relative)
        do {
            guard let d = try walk(dir, under: root, create: false), try d.remove(name) else { return false }
        } catch Blocked.link(let link) {
            throw linkRefusal(link, "delete", relative)
        } catch Blocked.notDirectory {
            return false
        }
        var parts = dir.split(separator: "/").map(String.init)
        while parts.count > keep, let last = parts.popLast() {
            guard let parent = try openDirectory(parts.joined(separator: "/"), under: root),
                  parent.removeDirectoryIfEmpty(last) else { break }
        }
        return true
    }

    /// The `lstat` of `relative` below `root`; nil when it does not exist or is behind a
    /// symbolic link.
    package static func stamp(_ relative: String, under root: String) -> Stamp? {
        let (dir, name) = split(relative)
        return (try? openDirectory(dir, under: root))??.stamp(name)
    }

    /// The entries of the directory `relative` below `root`; nil when it does not exist.
    /// A symbolic link on the way is refused (exit status 1), like reading a file through it.
    package static func list(_ relative: String, under root: String) throws -> [Entry]? {
        do {
            return try walk(relative, under: root, create: false)?.list()
        } catch Blocked.link(let link) {
            throw linkRefusal(link, "read", relative)
        } catch Blocked.notDirectory {
            return nil
        }
    }

    /// The first component of `relative` (a directory on its way, or the entry itself) that
    /// is a symbolic link below `root`; nil when there is none. For messages and for refusing
    /// early; the walks above are what keeps links from being followed.
    package static func symbolicLink(on relative: String, under root: String) -> String? {
        var walked = ""
        for component in relative.split(separator: "/") where component != "." {
            walked = walked.isEmpty ? String(component) : walked + "/" + component
            guard let s = stamp(root + "/" + walked) else { return nil }
            if s.type == .symlink { return walked }
        }
        return nil
    }

    /// A path's last component without its extension ("moments/2026/11/x1.json" → "x1"), as
    /// NSString's `lastPathComponent` and `deletingPathExtension` give it for a file's path —
    /// found on the UTF-8 bytes, for the loops that read thousands of documents.
    package static func stem(_ path: String) -> String {
        let bytes = path.utf8
        let start = bytes.lastIndex(of: UInt8(ascii: "/")).map(bytes.index(after:)) ?? bytes.startIndex
        var end = bytes.endIndex
        if let dot = bytes[start...].lastIndex(of: UInt8(ascii: ".")), dot != start { end = dot }
        return String(path[start..<end])
    }

    /// A relative path's directory ("" for the root) and last component.
    static func split(_ relative: String) -> (directory: String, name: String) {
        // On the UTF-8 bytes: a file system's separator, found without walking characters.
        let bytes = relative.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return ("", relative) }
        return (String(relative[..<slash]), String(relative[bytes.index(after: slash)...]))
    }

    /// Whether `path` (or, when it does not exist, its nearest existing parent) is on a file
    /// system mounted read-only.
    package static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var p = path
        while true {
            var st = statvfs()
            if statvfs(p, &st) == 0 { return st.f_flag & UInt(ST_RDONLY) != 0 }
            let parent = (p as NSString).deletingLastPathComponent
            if parent == p || parent.isEmpty { return false }
            p = parent
        }
    }

    /// "4.0 MiB", "512 bytes".
    package static func formatBytes(_ n: Int) -> String {
        if n < 1024 { return "\(n) bytes" }
        if n < 1024 * 1024 { return NumberText.fixed(Double(n) / 1024, decimals: 1) + " KiB" }
        return NumberText.fixed(Double(n) / 1_048_576, decimals: 1) + " MiB"
    }
}

private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// An exclusive `flock` held until `release()` or deinit.
///
/// flock locks belong to an open file description: the kernel drops them when the process
/// dies, so a crashed process never leaves the ledger locked.
package final class FileLock {
    private var fd: Int32

    /// Blocks until the lock on `path` (created if needed) is held. When another process
    /// holds it, `waiting` is called first with what that process recorded in the file.
    /// The holder records `holder` (its pid and command line, say) while it holds the lock.
    package convenience init(path: String, holder: String = "", waiting: ((String) -> Void)? = nil) throws {
        try self.init(path: path, holder: holder, block: true, waiting: waiting)
    }

    /// The lock on `path` if no other process holds it, else nil (without waiting).
    package static func attempt(path: String, holder: String = "") throws -> FileLock? {
        let lock = try FileLock(path: path, holder: holder, block: false, waiting: nil)
        return lock.fd >= 0 ? lock : nil
    }

    /// What the process holding the lock on `path` recorded (empty while it is about to
    /// record it), or nil when no process holds it. Takes a shared lock for the instant of the
    /// probe and writes nothing, so a holder's record is never disturbed.
    package static func holder(of path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var err: Int32 = EINTR
        while err == EINTR { err = flock(fd, LOCK_SH | LOCK_NB) == 0 ? 0 : errno }
        guard err == EWOULDBLOCK else { return nil }  // free (the lock goes with the descriptor)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self).trimmingWhitespace(newlines: true)
    }

    private init(path: String, holder: String, block: Bool, waiting: ((String) -> Void)?) throws {
        do {
            try FileSystem.makeDirectories((path as NSString).deletingLastPathComponent)
            fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard fd >= 0 else { throw FileSystem.systemError("open the lock file", path) }
        } catch where FileSystem.isOnReadOnlyFileSystem(path) {
            throw Self.readOnly(path)
        }
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
                waiting?(recorded.trimmingWhitespace(newlines: true))
                continue
            }
            close(fd)
            throw FileSystem.systemError("lock", path, err)
        }
        let record = Array((holder.isEmpty ? "" : holder + "\n").utf8.prefix(4000))
        if ftruncate(fd, 0) == 0, !record.isEmpty { _ = record.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
    }

    /// The refusal to lock `path` on a read-only file system (a mounted backup, a
    /// write-protected disk): whatever needs the lock would change files there.
    static func readOnly(_ path: String) -> LedgerError {
        .failure("cannot lock \(path): it is on a read-only file system, so nothing can be changed there (commands that only read work)")
    }

    /// Releases the lock now.
    package func release() {
        if fd >= 0 {
            _ = ftruncate(fd, 0)  // the record of who holds it
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    deinit { release() }
}
