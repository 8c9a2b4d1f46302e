import CGit2
import Foundation
import LedgerKit

/// What every ledger command does first in a ledger's repository, so that plain git and ledger
/// keep agreeing: repairs after a crash, and the merge driver's registration.
///
/// - A sync commits before it writes the index (the index is written once, at its end). A
///   crash in between leaves HEAD ahead of the index, and `git status` shows the commit's
///   changes undone as staged changes. The sync marks that window with a file
///   (`.git/ledger/index-stale`); the next command that finds it resets the index to HEAD
///   (`git reset --mixed`, keeping the work tree and the stat data of unchanged entries).
/// - A checkout interrupted before it wrote the index (a killed `ledger clone`) leaves HEAD
///   with no index at all, and files missing from the work tree — which a sync would have
///   committed as deletions. The next command finishes the checkout: missing files are
///   written from HEAD, files already there are kept.
/// - A forget interrupted by a crash (`LedgerStore.forget`) is finished, and so is a purge
///   interrupted once its new history was published (`PurgeJournal`).
/// - A repository without `merge.ledger.driver` (a plain `git clone`) gets it registered, so
///   that its first `git pull` merges documents the way `ledger sync` does.
///
/// Repairs happen only when no other process holds the ledger's writer lock (a running sync
/// is not interrupted; whoever comes after it repairs what it left). It costs a `stat` of
/// two files and a read of git's configuration when there is nothing to do.
package enum Housekeeping {
    /// Runs the checks on the ledger at `store`; returns a sentence per thing done. The
    /// repository is opened only when something needs doing, and `git` looked for on the
    /// `PATH` only when an interrupted purge needs it: every command runs this first.
    package static func prepare(_ store: LedgerStore, git: @autoclosure () -> GitTool? = nil) -> [LedgerError.Sentence] {
        guard FileSystem.exists(store.root + "/.git") else { return [] }
        var finished: [LedgerError.Sentence] = []
        if FileSystem.exists(PurgeJournal.path(store)), let note = finishPurge(store, git: git()) { finished.append(note) }
        let forgotten = store.finishInterruptedForget()
        if !forgotten.isEmpty {
            finished.append("finished forgetting \(forgotten.map(\.title).joined(separator: ", ")), which was interrupted")
        }
        let gitDirectory = LedgerStore.gitDirectory(ofWorkTree: store.root)
        let repairDue = FileSystem.exists(staleIndexMarker(store)) || !FileSystem.exists(gitDirectory + "/index")
        let registrationDue = store.exists && configuredDriver(gitDirectory) == nil
        // An empty ledger.json is what a power cut leaves of a checkout it caught unflushed
        // (every file of it emptied): written again from git before anything reads them.
        let emptiedDue = FileSystem.stamp(store.root + "/" + LedgerManifest.kind.path())?.size == 0
        guard repairDue || registrationDue || emptiedDue, let repo = try? Repository.open(store.root) else { return finished }
        var notes = finished
        if repairDue, let note = repairAfterCrash(repo, store) { notes.append(LedgerError.Sentence(note)) }
        if emptiedDue, let note = restoreEmptied(repo, store) { notes.append(LedgerError.Sentence(note)) }
        if registrationDue, repo.config("merge.ledger.driver") == nil, (try? LedgerSetup.registerMergeDriver(repo)) != nil {
            Durability.flush(gitDirectory: repo.gitDirectory)
            notes.append("registered ledger's merge driver in \(repo.gitDirectory)/config (merge.ledger.driver = \(LedgerSetup.mergeDriverCommand)), so that plain `git pull` and `git merge` merge documents the way \(next: .sync(.sync)) does")
        }
        return notes
    }

    /// Finishes a purge that was interrupted once its new history was published (`PurgeJournal`),
    /// or says that one waits to be published; nil when another process holds the writer lock.
    static func finishPurge(_ store: LedgerStore, git: GitTool?) -> LedgerError.Sentence? {
        guard let journal = PurgeJournal.read(store) else { return nil }
        guard journal.published else {
            return "a purge (record \(journal.record)) waits to be published: \(next: .sync(.sync)) publishes it, or gives it up if the remote moved on since; until then this ledger is as it was"
        }
        guard let lock = try? FileLock.attempt(path: store.localState("lock"), holder: store.lockHolder) else { return nil }
        defer { lock.release() }
        do {
            let repo = try Repository.open(store.root)
            let device = try Device.current(in: store, defaultName: Device.hostName)
            let done = try Purge.finish(repo, store, journal: journal, device: device, options: SyncOptions(git: git)).local
            return "finished the purge of record \(journal.record), which was interrupted: \(done.commitsRewritten) commits rewritten, \(done.scan.objects) objects scanned, purged content found: \(done.scan.found.count)"
        } catch {
            let why = (error as? LedgerError)?.sentence ?? LedgerError.Sentence("\(error)")
            return "the purge of record \(journal.record) could not be finished yet (\(why)); the next ledger command tries again"
        }
    }

    /// Writes again the files a power cut emptied after a checkout (`Repository.emptiedFiles()`),
    /// holding the writer lock; nil when there were none (or another process holds the lock).
    static func restoreEmptied(_ repo: Repository, _ store: LedgerStore) -> String? {
        guard let lock = try? FileLock.attempt(path: store.localState("lock"), holder: store.lockHolder) else { return nil }
        defer { lock.release() }
        guard let note = try? repo.restoreEmptied(repo.emptiedFiles(), in: store) else { return nil }
        try? repo.index().write()
        return note
    }

    /// What `repairRepository` found and did.
    package struct RepositoryCondition: Sendable {
        /// A sentence per repair made.
        package var repairs: [String] = []
        /// What remains damaged, a phrase each ("refs/heads/main holds only zeros").
        package var damage: [String] = []
        /// The sentence of a repair that cannot be made safely, naming the command that makes
        /// it; nil otherwise.
        package var refusal: String?
    }

    /// For the commands that read git (`status`): the damage a power cut left in the ledger's
    /// repository (`RepositoryRepair`), repaired when no other process holds the writer lock
    /// (otherwise what a glance found is returned, for whoever comes next to repair). Costs a
    /// few small reads when the repository is healthy.
    package static func repairRepository(_ store: LedgerStore) -> RepositoryCondition {
        let gitDirectory = LedgerStore.gitDirectory(ofWorkTree: store.root)
        var condition = RepositoryCondition(damage: RepositoryRepair.examine(gitDirectory: gitDirectory))
        guard !condition.damage.isEmpty, let lock = try? FileLock.attempt(path: store.localState("lock"), holder: store.lockHolder) else {
            return condition
        }
        defer { lock.release() }
        do {
            let repo = try Repository.open(store.root)
            condition.repairs = try RepositoryRepair.repairLedger(repo, remote: RepositoryRepair.pathRemote(of: repo, named: nil))
            condition.damage = RepositoryRepair.examine(gitDirectory: gitDirectory)
        } catch let e as LedgerError {
            condition.refusal = e.message
        } catch {
            condition.refusal = "\(error)"
        }
        return condition
    }

    /// The driver's command as the repository's own configuration file sets it (which wins
    /// over the global and system ones) — a read of one small file instead of opening the
    /// repository and every configuration level (and initializing libgit2, which parses the
    /// system's certificates). Nil when the file does not set it plainly (a linked work tree
    /// keeps its configuration elsewhere; the driver may be in the global configuration; a
    /// quoted or continued value): then libgit2 answers.
    package static func configuredDriver(_ gitDirectory: String) -> String? {
        guard let bytes = try? FileSystem.read(gitDirectory + "/config", limit: 1 << 20) else { return nil }
        // Bytes, not Foundation's strings: this runs before every command.
        func trimmed(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            guard let first = s.firstIndex(where: { !blank($0) }), let last = s.lastIndex(where: { !blank($0) }) else { return [] }
            return s[first...last]
        }
        let header = Array("[merge \"ledger\"]".utf8), key = Array("driver".utf8)
        var inSection = false
        var driver: ArraySlice<UInt8>?
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            let line = trimmed(raw)
            if line.first == UInt8(ascii: "[") {
                inSection = line.elementsEqual(header)
            } else if inSection, let equals = line.firstIndex(of: UInt8(ascii: "=")),
                      trimmed(line[..<equals]).map({ $0 | 0x20 }).elementsEqual(key) {
                driver = trimmed(line[(equals + 1)...])  // the last setting wins
            }
        }
        guard let driver, !driver.isEmpty, !driver.contains(where: { "\"\\;#".utf8.contains($0) }) else { return nil }
        return String(decoding: driver, as: UTF8.self)
    }

    /// The file a sync keeps while HEAD is ahead of the index on disk.
    static func staleIndexMarker(_ store: LedgerStore) -> String { store.localStateDirectory + "/index-stale" }

    /// Marks (or clears) the window in which HEAD is ahead of the index on disk. The marker is
    /// on the disk before HEAD moves (its folder is flushed), so that it survives a power cut
    /// too; its removal need not be (a marker that comes back costs a reset of the index).
    static func markIndexStale(_ store: LedgerStore, _ stale: Bool) {
        let path = staleIndexMarker(store)
        if stale {
            try? FileSystem.makeDirectories(store.localStateDirectory)
            let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            if fd >= 0 { close(fd) }
            Durability.flush(store.localStateDirectory)
        } else {
            unlink(path)
        }
    }

    /// Repairs what a crash between moving HEAD and writing the index left; nil when there
    /// was nothing to repair (or another process holds the writer lock).
    static func repairAfterCrash(_ repo: Repository, _ store: LedgerStore) -> String? {
        let indexPath = repo.gitDirectory + "/index"
        guard FileSystem.exists(staleIndexMarker(store)) || !FileSystem.exists(indexPath),
              let head = repo.headCommit(), let tree = try? repo.treeOf(commit: head) else { return nil }
        guard let lock = try? FileLock.attempt(path: store.localState("lock"), holder: store.lockHolder) else { return nil }
        defer { lock.release() }
        do {
            if !FileSystem.exists(indexPath) {
                // Only in a ledger: another repository's missing index is none of ledger's business.
                guard try repo.entry(at: LedgerManifest.kind.path(), inTree: tree) != nil else { return nil }
                try repo.populateWorkTree(from: tree)
                markIndexStale(store, false)
                return "finished the checkout of \(head.short), which was interrupted before it wrote the index: the files missing from the work tree were written, the others kept as they were"
            }
            guard FileSystem.exists(staleIndexMarker(store)) else { return nil }
            let index = try repo.index()
            try index.readTree(tree)
            try index.refreshStatData()
            try index.write()
            markIndexStale(store, false)
            return "reset the index to HEAD (\(head.short)), which an interrupted sync had left behind it (git showed that commit's changes undone, as staged changes)"
        } catch {
            return nil
        }
    }
}
