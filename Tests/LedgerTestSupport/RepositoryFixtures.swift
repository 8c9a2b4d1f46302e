import Foundation
import ProcessRunner
import LedgerKit

/// Helpers for tests that look at a repository's files the way git does.
package enum RepositoryFiles {
    /// Sets a file's modification time to `seconds` ago (an old lock, an abandoned temp file).
    package static func age(_ path: String, seconds: Double) {
        let t = Date().timeIntervalSince1970 - seconds
        var times = [timespec(tv_sec: Int(t), tv_nsec: 0), timespec(tv_sec: Int(t), tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    /// Sets the modification time of everything under `directory` (and of it) to `seconds`
    /// ago: files written long before, which a record of their stamps may vouch for.
    package static func age(everythingUnder directory: String, seconds: Double) {
        age(directory, seconds: seconds)
        for name in FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? [] {
            age(directory + "/" + name, seconds: seconds)
        }
    }

    /// Creates an empty file (a lock left by a killed process), `seconds` old.
    package static func leave(_ path: String, aged seconds: Double) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: path))
        age(path, seconds: seconds)
    }

    /// The id of a process that has exited (no process runs with it).
    package static func deadPID() throws -> Int32 {
        let child = try ChildProcess("/bin/true", [], environment: [:], input: .null, output: .null, errors: .null)
        child.wait()
        return child.handle.pid
    }

    /// `git count-objects -v` as numbers (`count`, `packs`, `in-pack`, `size-pack`, …).
    package static func countObjects(_ repository: String) throws -> [String: Int] {
        let r = try GitCLI.run(["count-objects", "-v"], in: repository)
        var out: [String: Int] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, let n = Int(parts[1].trimmingCharacters(in: .whitespaces)) { out[String(parts[0])] = n }
        }
        return out
    }

    /// The commit a reference points at in `repository` (`git rev-parse`), or "" when none.
    package static func revParse(_ reference: String, in repository: String) throws -> String {
        try GitCLI.run(["rev-parse", "--verify", "-q", reference], in: repository).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
