import Foundation
import LedgerKit

/// Removing what no reference reaches from a repository for good, and checking that it is
/// gone: the last step of a purge, here and in a remote on a path.
///
/// git keeps what was reachable for a while in three places, and all three are emptied: the
/// reflogs (every reference's and HEAD's, expired now), loose objects and packs (`git gc
/// --prune=now` repacks what is reachable and deletes the rest). The work is git's, as for
/// maintenance (`Maintenance`): the caller holds the lock that keeps ledger's writers out.
package enum ObjectRemoval {
    /// What a scan of a repository's objects found.
    package struct Scan: Sendable {
        /// How many objects the repository holds (every one was looked at).
        package var objects: Int
        /// The purged blobs it still holds (none, after a purge).
        package var found: [ObjectID]
        /// What keeps them, when it holds some (for the person to deal with).
        package var keptBy: String?
    }

    /// Expires every reflog and removes every unreachable object of the repository at
    /// `gitDirectory` now, then scans it for `blobs`.
    static func prune(gitDirectory: String, git: GitTool?, blobs: Set<ObjectID>) throws -> Scan {
        guard let git else {
            throw LedgerError.failure("removing purged objects needs the git command, which is not installed (on Debian: `apt-get install git`)")
        }
        // Durably, as maintenance runs it: a removal a power cut could undo would bring the
        // purged objects back.
        for arguments in [["reflog", "expire", "--expire=now", "--expire-unreachable=now", "--all"],
                          ["-c", "gc.autoDetach=false", "gc", "--quiet", "--prune=now"]] {
            var outcome = try git.runDurably(in: gitDirectory, arguments)
            // Another `git gc` in the repository: waited for (a minute at most); one that was
            // killed and left its `gc.pid` behind is no obstacle.
            let deadline = Date().addingTimeInterval(60)
            while outcome.status != 0, let pid = runningGC(outcome.errors), Date() < deadline {
                if isGone(pid) { unlink(gitDirectory + "/gc.pid") } else { usleep(200_000) }
                outcome = try git.runDurably(in: gitDirectory, arguments)
            }
            guard outcome.status == 0 else {
                let reason = outcome.errors.isEmpty ? "exit status \(outcome.status)" : outcome.errors
                throw LedgerError.failure("`git \(arguments.filter { !$0.hasPrefix("gc.") && $0 != "-c" }.joined(separator: " "))` failed in \(gitDirectory): \(reason)")
            }
        }
        return try scan(gitDirectory: gitDirectory, blobs: blobs)
    }

    /// The process git names as running a `gc` already ("gc is already running on machine 'x'
    /// pid 4242"), or nil.
    static func runningGC(_ errors: String) -> Int32? {
        guard errors.contains("gc is already running"), let r = errors.range(of: " pid ") else { return nil }
        return Int32(errors[r.upperBound...].prefix { $0.isNumber })
    }

    /// Whether process `pid` has ended (or only waits to be reaped: a zombie holds no lock).
    static func isGone(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return true }
        guard let stat = try? FileSystem.read("/proc/\(pid)/stat", limit: 4096) else { return false }
        let text = String(decoding: stat, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return false }
        return text[text.index(after: close)...].trimmingWhitespace().hasPrefix("Z")
    }

    /// Every object of the repository at `gitDirectory` looked at: how many, and which of
    /// `blobs` are among them.
    static func scan(gitDirectory: String, blobs: Set<ObjectID>) throws -> Scan {
        // A repository opened afresh: one opened before the repack still knows the old packs.
        let repo = try Repository.open(gitDirectory)
        let all = try repo.everyObject()
        return Scan(objects: all.count, found: blobs.filter(all.contains).sorted { $0.description < $1.description }, keptBy: nil)
    }
}
