import Foundation

/// A path in the ledger whose changes wake the event loop.
package enum WatchedPath: Sendable, Hashable {
    /// A file. Its directory is watched, not the file: an atomic write renames a new file over
    /// it, which a watch on the old inode would never see.
    case file(String)
    /// A directory's entries, not recursively (a folder appearing among them is reported, so
    /// that it can be watched in turn). Names starting with `.` are left out: they are
    /// the temporary files of atomic writes, whose rename into place is the change.
    case directory(String)

    /// The path as given (absolute, without a trailing slash).
    package var path: String {
        switch self {
        case .file(let p), .directory(let p): p
        }
    }

    /// The directory whose entries it is about.
    var directory: String {
        switch self {
        case .directory(let p): p
        case .file(let p): (p as NSString).deletingLastPathComponent
        }
    }
}

/// inotify over the directories of a set of `WatchedPath`s, one watch per directory.
///
/// A directory that does not exist yet (next year's shard, a ledger not initialised yet) is
/// waited for: its deepest existing ancestor is watched for entries appearing, and when the
/// directory appears (or is replaced, or removed) the watches are set up again and the path is
/// reported as changed, since what it holds may be new.
final class PathWatcher {
    let fd: Int32
    private var targets: [WatchedPath] = []
    /// Watch descriptor → the directory it watches.
    private var directories: [Int32: String] = [:]

    /// Entry changes that are changes to documents.
    private static let contentEvents = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
    /// What a watched directory is watched for: its entries, subdirectories appearing (a deeper
    /// target may be waiting for one), and itself going away.
    private static let directoryMask = contentEvents | UInt32(IN_CREATE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK)
    /// What an ancestor waiting for a missing directory is watched for.
    private static let ancestorMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    init() throws(RemindError) {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw RemindError.system("inotify_init1") }
    }

    deinit { close(fd) }

    /// Watches `paths` instead of what was watched before.
    func watch(_ paths: [WatchedPath]) throws(RemindError) {
        targets = paths
        _ = try rearm()
    }

    /// Reads what inotify has queued and returns the watched paths that changed: a file, an
    /// entry of a directory, or a directory itself when it appeared, went away, or events were
    /// lost (the queue overflowed).
    func changes() throws(RemindError) -> Set<String> {
        var changed: Set<String> = []
        var structural = false
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { break }
                throw RemindError.system("reading inotify events")
            }
            var offset = 0
            while offset + 16 <= got {
                let (wd, mask, length) = buffer.withUnsafeBytes {
                    ($0.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                     $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
                offset += 16 + length
                structural = event(wd: wd, mask: mask, name: String(decoding: nameBytes, as: UTF8.self), into: &changed) || structural
            }
        }
        if structural {
            let appeared = try rearm()
            for t in targets where appeared.contains(t.directory) {
                if case .file(let p) = t, access(p, F_OK) != 0 { continue }
                changed.insert(t.path)
            }
        }
        return changed
    }

    /// Adds what one event changed; true when the watches must be set up again.
    private func event(wd: Int32, mask: UInt32, name: String, into changed: inout Set<String>) -> Bool {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            changed.formUnion(targets.map(\.path))
            return true
        }
        guard let dir = directories[wd] else { return false }
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
            for t in targets where t.directory == dir || t.directory.hasPrefix(dir + "/") { changed.insert(t.path) }
            return true
        }
        let path = dir + "/" + name
        var structural = false
        if mask & UInt32(IN_ISDIR) != 0 {
            // A directory on the way to a target appeared or went away.
            structural = targets.contains { $0.directory == path || $0.directory.hasPrefix(path + "/") }
            // A new folder among a watched directory's entries is news too (what is written
            // into it next is only seen once it is watched).
            if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, !name.hasPrefix("."),
               targets.contains(where: { if case .directory(let d) = $0 { d == dir } else { false } }) {
                changed.insert(path)
            }
        } else if mask & Self.contentEvents != 0 {
            for t in targets {
                switch t {
                case .file(let p) where p == path: changed.insert(p)
                case .directory(let d) where d == dir && !name.hasPrefix("."): changed.insert(path)
                default: break
                }
            }
        }
        return structural
    }

    /// Sets up one watch per directory the targets need — the directory itself when it exists,
    /// else its deepest existing ancestor — and drops the others. Returns the target
    /// directories that are watched now and were not before.
    /// A directory made between the look that found it missing and the watch on its ancestor
    /// sends that watch no event: the look is taken again once the watches are set, until
    /// what it saw still holds (a few rounds at most, even while a tree is being made).
    private func rearm() throws(RemindError) -> Set<String> {
        let before = Set(directories.values)
        for _ in 0..<8 {
            let missing = try setWatches()
            if !missing.contains(where: isDirectory) { break }
        }
        return Set(directories.values).subtracting(before)
    }

    /// One watch per directory the targets need, as they are now; returns the target
    /// directories found missing (their deepest existing ancestor is watched instead).
    private func setWatches() throws(RemindError) -> [String] {
        var wanted: [String: UInt32] = [:]
        var missing: [String] = []
        for t in targets {
            let dir = t.directory
            if isDirectory(dir) {
                wanted[dir, default: 0] |= Self.directoryMask
            } else {
                missing.append(dir)
                wanted[existingAncestor(of: dir), default: 0] |= Self.ancestorMask
            }
        }
        var watched: [Int32: String] = [:]
        for (dir, mask) in wanted {
            let wd = inotify_add_watch(fd, dir, mask)
            if wd >= 0 {
                watched[wd] = dir
            } else if errno != ENOENT && errno != ENOTDIR {
                // Gone again since the check (ENOENT, ENOTDIR) is seen by the ancestor's watch.
                throw RemindError(.system, "cannot watch \(dir) for changes: \(String(cString: strerror(errno)))")
            }
        }
        for wd in directories.keys where watched[wd] == nil { inotify_rm_watch(fd, wd) }
        directories = watched
        return missing
    }

    private func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR
    }

    private func existingAncestor(of path: String) -> String {
        var dir = path
        while !isDirectory(dir) && dir != "/" && !dir.isEmpty {
            dir = (dir as NSString).deletingLastPathComponent
        }
        return dir.isEmpty ? "/" : dir
    }
}
