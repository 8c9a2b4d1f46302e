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
    }

    /// Expires every reflog and removes every unreachable object of the repository at
    /// `gitDirectory` now, then scans it for `blobs`.
    static func prune(gitDirectory: String, git: GitTool?, blobs: Set<ObjectID>) throws -> Scan {
        guard let git else {
            throw LedgerError.failure("removing purged objects needs the git command, which is not installed (on Debian: `apt-get install git`)")
        }
        for arguments in [["reflog", "expire", "--expire=now", "--expire-unreachable=now", "--all"],
                          ["-c", "gc.autoDetach=false", "gc", "--quiet", "--prune=now"]] {
            let outcome = try git.run(["--git-dir=" + gitDirectory] + arguments)
            guard outcome.status == 0 else {
                let reason = outcome.errors.isEmpty ? "exit status \(outcome.status)" : outcome.errors
                throw LedgerError.failure("`git \(arguments.filter { !$0.hasPrefix("gc.") && $0 != "-c" }.joined(separator: " "))` failed in \(gitDirectory): \(reason)")
            }
        }
        return try scan(gitDirectory: gitDirectory, blobs: blobs)
    }

    /// Every object of the repository at `gitDirectory` looked at: how many, and which of
    /// `blobs` are among them.
    static func scan(gitDirectory: String, blobs: Set<ObjectID>) throws -> Scan {
        // A repository opened afresh: one opened before the repack still knows the old packs.
        let repo = try Repository.open(gitDirectory)
        let all = try repo.everyObject()
        return Scan(objects: all.count, found: blobs.filter(all.contains).sorted { $0.description < $1.description })
    }
}
