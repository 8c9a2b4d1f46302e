import CGit2
import Foundation
import LedgerKit

/// Flushing to the disk what git keeps in files, so that what a command acknowledged survives
/// a power cut.
///
/// libgit2 fsyncs what it writes in a git directory once told to (`Libgit2.initialized` turns
/// `GIT_OPT_ENABLE_FSYNC_GITDIR` on): loose objects (and the folder each goes into), packs and
/// their indexes, references and reflogs (and their folders). Traced with strace on libgit2 1.5,
/// three things are missing, and are done here:
/// - **the index**: libgit2's index writer never flushes (it renames `index.lock` over `index`
///   unflushed, so a cut leaves an empty index). See `Repository.indexHandle()`;
/// - **a folder libgit2 creates** (`objects/ab/` for a new object, `refs/remotes/origin/`): the
///   folder above it is not flushed, so its entry may vanish. `Repository.flushObjectFolders()`
///   runs before a reference moves, and `Durability.flush(gitDirectory:)` before a command
///   reports success;
/// - **what `git gc` leaves**: git flushes files (`core.fsync`), never folders.
package enum Durability {
    /// fsync of the file or folder at `path`; false when it cannot be opened or flushed.
    @discardableResult
    package static func flush(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        while fsync(fd) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }

    /// Flushes what of a git directory a command changed — the directory itself (`index`,
    /// `packed-refs`, `HEAD`), the object and pack folders, every folder of references and
    /// reflogs, and the files rewritten unflushed (`config`, `HEAD` by libgit2, reflogs by
    /// `git gc`) — so that every
    /// rename and removal in them is on the disk. With `since` (nanoseconds since 1970), only
    /// what was modified after it (less a second, the file system's clock being coarse).
    package static func flush(gitDirectory: String, since: Int64? = nil) {
        let after = since.map { $0 - 1_000_000_000 } ?? .min
        func changed(_ path: String) -> Bool { (FileSystem.stamp(path)?.modifiedNanoseconds ?? .min) >= after }
        for file in ["config", "HEAD"] where changed(gitDirectory + "/" + file) { flush(gitDirectory + "/" + file) }
        for folder in ["", "/objects", "/objects/pack", "/objects/info"] where changed(gitDirectory + folder) {
            flush(gitDirectory + folder)
        }
        func flushTree(_ folder: String, files: Bool) {
            guard let entries = try? FileSystem.list(folder) else { return }
            if changed(folder) { flush(folder) }
            for e in entries {
                if e.type == .directory { flushTree(folder + "/" + e.name, files: files) }
                // Reflogs `git gc` rewrote (it renames them into place unflushed).
                if files, e.type == .file, changed(folder + "/" + e.name) { flush(folder + "/" + e.name) }
            }
        }
        flushTree(gitDirectory + "/refs", files: false)
        flushTree(gitDirectory + "/logs", files: true)
    }

    /// Flushes everything written to the file system that holds `path` (syncfs): one call for
    /// many files (a checkout's), where flushing each would cost a disk round trip apiece.
    package static func flushFileSystem(of path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = ledger_syncfs(fd)
        close(fd)
    }

    /// Now, in nanoseconds since 1970 (for `flush(gitDirectory:since:)`).
    package static func now() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }
}

extension Repository {
    /// The file this process's index goes through: `index.ledger-<pid>` in the git directory.
    var stagedIndexPath: String { gitDirectory + "/index.ledger-\(getpid())" }

    /// The repository's index, read from `.git/index` but written through a file of this
    /// process's own, which `publishIndex()` flushes and then renames over `.git/index`.
    ///
    /// libgit2 1.5 writes an index to `<its path>.lock` and renames that over its path without
    /// ever flushing it: a power cut soon after leaves an empty `.git/index`. So the index libgit2
    /// works with here is opened on a hard link of `.git/index` (the same file: no copy, every
    /// extension kept), and what libgit2 writes lands on that link's name, never on `.git/index`.
    /// Every libgit2 call that reads or writes the repository's index must come after this one
    /// (libgit2 would otherwise open `.git/index` itself). Where no link can be made (a read-only
    /// disk), libgit2's own index is used.
    func indexHandle() throws -> OpaquePointer {
        try stageIndexOnce()
        var index: OpaquePointer?
        try check(git_repository_index(&index, pointer), "git_repository_index")
        return index!
    }

    /// Gives the repository the index `indexHandle()` describes, unless done already: before
    /// any libgit2 call that opens the repository's index by itself (status, checkout).
    func stageIndexOnce() throws {
        if stagedIndex == nil, let staged = try stageIndex() { stagedIndex = staged }
    }

    /// Opens the index on this process's link of `.git/index` and gives it to the repository;
    /// nil when no link can be made here.
    private func stageIndex() throws -> String? {
        let staged = stagedIndexPath
        removeAbandonedIndexLinks()
        unlink(staged)
        guard link(gitDirectory + "/index", staged) == 0 || errno == ENOENT else { return nil }
        var index: OpaquePointer?
        try check(git_index_open(&index, staged), "git_index_open")
        defer { git_index_free(index) }
        try check(git_repository_set_index(pointer, index), "git_repository_set_index")
        // As libgit2 sets up the index it opens itself: case, file modes, links from the config.
        try check(git_index_set_caps(index, Int32(GIT_INDEX_CAPABILITY_FROM_OWNER.rawValue)), "git_index_set_caps")
        return staged
    }

    /// Removes the index links of processes that are gone (killed before they cleaned up).
    private func removeAbandonedIndexLinks() {
        for e in (try? FileSystem.list(gitDirectory)) ?? [] where e.name.hasPrefix("index.ledger-") {
            guard let pid = pid_t(e.name.dropFirst("index.ledger-".count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(gitDirectory + "/" + e.name)
        }
    }

    /// Makes what libgit2 last wrote of the index the repository's index, durably: the new file
    /// is flushed, renamed over `.git/index` (holding git's `index.lock`, as git and libgit2 do),
    /// and the git directory flushed. Nothing happens when nothing was written since.
    func publishIndex() throws {
        let index = gitDirectory + "/index"
        guard let staged = stagedIndex else {
            // libgit2 wrote `.git/index` itself (no link could be made): flush what it wrote.
            Durability.flush(index)
            Durability.flush(gitDirectory)
            return
        }
        guard let new = FileSystem.stamp(staged), new.inode != FileSystem.stamp(index)?.inode else { return }
        let lock = index + ".lock"
        let fd = createExclusively(lock)
        guard fd >= 0 else {
            throw LedgerError.failure("cannot write \(index): \(errno == EEXIST ? "\(lock) exists (a git command is writing the index, or one was interrupted)" : String(cString: strerror(errno)))")
        }
        close(fd)
        defer { unlink(lock) }
        guard Durability.flush(staged), rename(staged, index) == 0 else {
            throw LedgerError.failure("cannot write \(index): \(String(cString: strerror(errno)))")
        }
        Durability.flush(gitDirectory)
    }

    /// Flushes the object folder, so that the folders libgit2 made for new loose objects
    /// (`objects/ab/`) are on the disk before a reference names what is in them.
    func flushObjectFolders() {
        Durability.flush(gitDirectory + "/objects")
    }
}

/// Creates `path`, failing when it exists (git's way of taking a lock); the descriptor or -1.
private func createExclusively(_ path: String) -> Int32 { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
