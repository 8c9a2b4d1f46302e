import Foundation
import LedgerKit

/// Repository maintenance as `git gc --auto` does it: loose objects packed and packs
/// consolidated when there are too many of either, unreachable objects pruned once older
/// than git's expiry (two weeks), references packed, reflogs expired.
///
/// The work itself is git's (`git gc`): measured against libgit2's packbuilder on a history of
/// 3,000 syncs (docs/DESIGN.md), git repacks several times faster, and it also prunes, expires
/// and keeps its own lock (`gc.pid`), which the packbuilder leaves to its caller. What runs
/// here is the cheap part: deciding whether a repository is due (one object directory and
/// the pack directory read), so that a sync that needs no maintenance pays almost nothing.
/// Callers hold the lock that keeps ledger's other writers out of the repository: the writer
/// lock for a ledger, the push lock for a remote on a path.
public enum Maintenance {
    /// What one maintenance run did.
    public struct Report: Sendable {
        /// The git directory maintained.
        public var gitDirectory: String
        public var before: ObjectStoreUsage
        public var after: ObjectStoreUsage
        /// Wall-clock time of the run.
        public var seconds: Double
    }

    /// Maintains the repository at `gitDirectory` with git: a full `git gc`, or when `onlyIfDue`
    /// `git gc --auto`, and then only when `policy` says it is due (nil otherwise). Either way,
    /// temporary files that an interrupted libgit2 transfer left in the pack directory are
    /// removed once they are an hour old.
    package static func run(gitDirectory: String, policy: MaintenancePolicy, git: GitTool?, onlyIfDue: Bool) throws -> Report? {
        removeAbandonedTransfers(in: gitDirectory + "/objects/pack")
        if onlyIfDue, !policy.isDue(gitDirectory: gitDirectory) { return nil }
        guard let git else {
            throw LedgerError.failure("repository maintenance needs the git command, which is not installed (on Debian: `apt-get install git`)")
        }
        let before = ObjectStoreUsage.measure(gitDirectory: gitDirectory)
        let start = ContinuousClock.now
        // In the foreground (git would otherwise finish in the background, after the lock is
        // released), quietly, with the repository named on the command line, durably.
        var arguments = ["-c", "gc.autoDetach=false", "gc", "--quiet"]
        if onlyIfDue { arguments.append("--auto") }
        let outcome = try git.runDurably(in: gitDirectory, arguments)
        guard outcome.status == 0 else {
            let reason = outcome.errors.isEmpty ? "exit status \(outcome.status)" : outcome.errors
            throw LedgerError.failure("`git gc` failed in \(gitDirectory): \(reason)")
        }
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Report(gitDirectory: gitDirectory, before: before, after: ObjectStoreUsage.measure(gitDirectory: gitDirectory), seconds: seconds)
    }

    /// Maintains a remote on a path (its git directory), holding its push lock so that no
    /// ledger pushes to it meanwhile; stale git locks in it are dealt with first.
    package static func runOnRemote(gitDirectory: String, git: GitTool?, onlyIfDue: Bool) throws -> (report: Report?, removedLocks: [String]) {
        let (removed, report) = try LocalRemoteLock.withStaleLocksCleared(in: gitDirectory) {
            let policy = (try? Repository.open(gitDirectory)).map { MaintenancePolicy(repository: $0) } ?? .gitDefaults
            return try run(gitDirectory: gitDirectory, policy: policy, git: git, onlyIfDue: onlyIfDue)
        }
        return (report, removed)
    }

    /// How old a temporary file of libgit2's must be before it counts as abandoned, in seconds.
    static let abandonedAfter: Double = 3600

    /// Removes the temporary packs (`pack_git2_*`) of fetches and pushes that were killed:
    /// libgit2 writes an incoming pack under such a name and renames it when done, and git's
    /// own cleanup only knows its own names (`tmp_*`).
    static func removeAbandonedTransfers(in packDirectory: String) {
        let now = Date().timeIntervalSince1970
        for e in (try? FileSystem.list(packDirectory)) ?? [] where e.type == .file && e.name.contains("_git2_") {
            let path = packDirectory + "/" + e.name
            guard let s = FileSystem.stamp(path), now - Double(s.modifiedNanoseconds) / 1e9 > abandonedAfter else { continue }
            unlink(path)
        }
    }
}

extension Maintenance {
    /// What `ledger gc` did.
    public struct LedgerOutcome: Sendable {
        /// The runs: this ledger's repository first, then its remote when that is on a path.
        public var reports: [Report] = []
        /// What else was done or skipped, one sentence each (stale locks removed, a remote on a
        /// disk that is not mounted).
        public var notes: [String] = []
    }

    /// `ledger gc`: maintains the ledger's repository and, when the remote it syncs with
    /// (`remoteName`, else the branch's, else `origin`) is on a path, that remote too — a full
    /// `git gc`, or when `onlyIfDue` only what is due. Holds the writer lock throughout.
    package static func maintain(_ store: LedgerStore, remoteName: String?, git: GitTool?, onlyIfDue: Bool) throws -> LedgerOutcome {
        try store.withWriterLock {
            let repo = try Repository.open(store.root)
            var outcome = LedgerOutcome()
            outcome.notes += try StaleLocks.clear(in: repo.gitDirectory, repositoryName: store.root)
            // git gc stops at a damaged reference ("bad object"): what a power cut left is
            // repaired first, here and in the remote on a path.
            outcome.notes += try RepositoryRepair.repairLedger(repo, remote: RepositoryRepair.pathRemote(of: repo, named: remoteName))
            if let r = try run(gitDirectory: repo.gitDirectory, policy: MaintenancePolicy(repository: repo), git: git, onlyIfDue: onlyIfDue) {
                outcome.reports.append(r)
            }
            let branch = repo.headReferenceName.map { String($0.dropFirst("refs/heads/".count)) } ?? "main"
            let name = remoteName ?? repo.config("branch.\(branch).remote") ?? "origin"
            guard let url = repo.config("remote.\(name).url"), let path = Remote.localPath(url) else { return outcome }
            guard let remote = try Remote.localGitDirectory(url) else {
                outcome.notes.append("skipped the remote \(name) (\(path)): nothing is there (is the disk mounted?)")
                return outcome
            }
            let remoteBranch = repo.config("branch.\(branch).merge").map { $0.hasPrefix("refs/heads/") ? String($0.dropFirst(11)) : $0 } ?? branch
            let known = repo.resolve("refs/remotes/\(name)/\(remoteBranch)")
            let (locks, repairs) = try LocalRemoteLock.withStaleLocksCleared(in: remote) {
                try RepositoryRepair.repairRemote(gitDirectory: remote, branch: remoteBranch, known: known, ledger: repo)
            }
            let (r, removed) = try runOnRemote(gitDirectory: remote, git: git, onlyIfDue: onlyIfDue)
            outcome.notes += locks + repairs + removed
            if let r { outcome.reports.append(r) }
            return outcome
        }
    }
}
