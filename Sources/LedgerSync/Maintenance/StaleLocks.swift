import Foundation
import LedgerKit

/// The lock ledger takes inside a remote on a path while it pushes to it or maintains it
/// (an `flock`: the kernel drops it when the process dies, so it is never stale).
package enum LocalRemoteLock {
    /// Its file name in the remote's git directory.
    package static let fileName = "ledger-push.lock"

    /// Runs `body` holding the push lock of the remote whose git directory is `gitDirectory`.
    static func with<T>(in gitDirectory: String, _ body: () throws -> T) throws -> T {
        let lock = try FileLock(path: gitDirectory + "/" + fileName)
        defer { lock.release() }
        return try body()
    }

    /// Runs `body` holding the push lock of the remote whose git directory is `gitDirectory`,
    /// once stale git locks there are cleared (`StaleLocks`); returns what was removed, one
    /// sentence each, and what `body` returned.
    static func withStaleLocksCleared<T>(in gitDirectory: String, _ body: () throws -> T) throws -> (removed: [String], result: T) {
        let lock = try FileLock(path: gitDirectory + "/" + fileName)
        defer { lock.release() }
        let removed = try StaleLocks.clear(in: gitDirectory, repositoryName: "the remote \(gitDirectory)")
        return (removed, try body())
    }
}

/// git's lock files (`refs/heads/main.lock`, `index.lock`, …) left behind by a process that was
/// killed while holding them.
///
/// git and libgit2 take a lock by creating `<file>.lock` and release it by renaming it over
/// the file; a process killed in between leaves the lock, and every later writer of that file
/// fails ("failed to lock file", "Unable to create … File exists"). A lock is *stale* when no
/// process of this machine holds it — none has it open, and no git process works in that
/// repository — and it is older than `staleAfter` seconds; ledger then removes it, holding
/// its own lock on the repository (the writer lock, or the remote's push lock). A lock held by
/// a running process is waited for briefly, then named in the error with that process.
enum StaleLocks {
    /// Seconds a lock nobody holds must have existed before it counts as stale: git holds a
    /// lock for milliseconds, except around an editor — and then its process is running.
    static let staleAfter: Double = 5
    /// Seconds to wait for a lock held by a running process to be released.
    static let patience: Double = 5

    /// The lock files in a git directory: at its top, under `refs/` and `logs/`, and in
    /// `objects/info` (ledger's own flock files, which are never stale, are left out) — and
    /// git's `packed-refs.new`, the temporary it creates exclusively beside `packed-refs.lock`
    /// (a power cut during `git gc` can leave it, and every later `git gc` then fails on it).
    static func find(in gitDirectory: String) -> [String] {
        var out: [String] = []
        func scan(_ dir: String, recursive: Bool) {
            for e in (try? FileSystem.list(dir)) ?? [] {
                let path = dir + "/" + e.name
                if e.type == .directory {
                    if recursive { scan(path, recursive: true) }
                } else if e.type == .file, e.name.hasSuffix(".lock") || (dir == gitDirectory && e.name == "packed-refs.new"),
                          e.name != LocalRemoteLock.fileName {
                    out.append(path)
                }
            }
        }
        scan(gitDirectory, recursive: false)
        for sub in ["refs", "logs"] { scan(gitDirectory + "/" + sub, recursive: true) }
        scan(gitDirectory + "/objects/info", recursive: false)
        return out.sorted()
    }

    /// Clears the way in `gitDirectory` (named `repositoryName` in messages): waits for young
    /// locks to be released or to turn stale, removes the stale ones and says so (a sentence
    /// each, with their age); throws when a running process keeps holding one, or when a
    /// stale one cannot be removed (naming the command that removes it).
    static func clear(in gitDirectory: String, repositoryName: String) throws -> [String] {
        var locks = find(in: gitDirectory)
        guard !locks.isEmpty else { return [] }
        let root = canonical(gitDirectory.hasSuffix("/.git") ? String(gitDirectory.dropLast(5)) : gitDirectory)
        var removed: [String] = []
        let deadline = Date().addingTimeInterval(staleAfter + patience)
        while !locks.isEmpty {
            let processes = ProcessTable.read()
            var waiting: [String] = []
            for lock in locks {
                guard let stamp = FileSystem.stamp(lock) else { continue }  // released meanwhile
                let age = Date().timeIntervalSince1970 - Double(stamp.modifiedNanoseconds) / 1e9
                let holders = processes.holders(of: canonical(lock), workingIn: root)
                if holders.isEmpty, age >= staleAfter {
                    guard unlink(lock) == 0 || errno == ENOENT else {
                        throw LedgerError.failure("\(lock) is a stale git lock (no process holds it; it was left \(describe(age: age)) ago by a process that was interrupted) and ledger cannot remove it: \(String(cString: strerror(errno))); remove it with `rm '\(lock)'`")
                    }
                    removed.append("removed the stale git lock \(lock) (left \(describe(age: age)) ago by an interrupted process; no process held it)")
                } else if Date() < deadline {
                    waiting.append(lock)
                } else {
                    let who = holders.prefix(3).map { "process \($0.pid) (`\($0.command)`)" }.joined(separator: ", ")
                    throw LedgerError.failure("\(lock) in \(repositoryName) is locked by \(who), which is still running; let it finish (or end it), then try again")
                }
            }
            locks = waiting
            if !locks.isEmpty { usleep(100_000) }
        }
        return removed
    }

    /// "3 s", "12 min", "5 h", "2 days".
    static func describe(age: Double) -> String {
        switch age {
        case ..<120: "\(Int(age)) s"
        case ..<7200: "\(Int(age / 60)) min"
        case ..<172_800: "\(Int(age / 3600)) h"
        default: "\(Int(age / 86400)) days"
        }
    }

    /// The path with symbolic links resolved (as `/proc` shows open files), or itself.
    static func canonical(_ path: String) -> String {
        guard let r = realpath(path, nil) else { return path }
        defer { free(r) }
        return String(cString: r)
    }
}

/// The processes of this machine, as far as `/proc` lets this user see them: their open files,
/// working directories and command names.
struct ProcessTable {
    struct Entry {
        var pid: Int32
        var command: String
        var workingDirectory: String
        var openFiles: Set<String>
    }

    var entries: [Entry]

    /// A snapshot of `/proc` (empty where there is none).
    static func read() -> ProcessTable {
        var entries: [Entry] = []
        let me = getpid()
        for e in (try? FileSystem.list("/proc")) ?? [] {
            guard let pid = Int32(e.name), pid != me else { continue }
            let base = "/proc/\(e.name)"
            let command = (try? FileSystem.read(base + "/comm", limit: 256)).map {
                String(decoding: $0, as: UTF8.self).trimmingWhitespace(newlines: true)
            } ?? ""
            var files = Set<String>()
            for fd in (try? FileSystem.list(base + "/fd")) ?? [] {
                if let target = readLink(base + "/fd/" + fd.name) { files.insert(target) }
            }
            entries.append(Entry(pid: pid, command: command, workingDirectory: readLink(base + "/cwd") ?? "", openFiles: files))
        }
        return ProcessTable(entries: entries)
    }

    /// The processes that may hold `lock`: those that have it open, and git processes whose
    /// working directory is in `repository` (git closes a lock file before it renames it, and
    /// holds `index.lock` while `git commit` waits for the editor).
    func holders(of lock: String, workingIn repository: String) -> [Entry] {
        entries.filter { p in
            p.openFiles.contains(lock)
                || (p.command.hasPrefix("git") && (p.workingDirectory == repository || p.workingDirectory.hasPrefix(repository + "/")))
        }
    }

    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
