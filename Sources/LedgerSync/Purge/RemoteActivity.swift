import Foundation
import LedgerKit

/// What other devices are doing with this ledger's remote right now, as far as it can be seen.
package enum RemoteActivity {
    /// Why a change that every device must take up (a forget, a purge) waits: another device's
    /// sync holds the push lock of the remote on a path (`ledger-push.lock`, held while it
    /// pushes) — nil when none does, when the ledger has no remote, or when the remote is on the
    /// network (a server shows no lock: a purge's push then replaces the branch only if it is
    /// still where it was shown, `Remote.replace`).
    package static func syncInProgress(_ store: LedgerStore, remoteName: String? = nil) -> String? {
        guard let repo = try? Repository.open(store.root), let target = try? SyncTarget(repo, root: store.root, remoteName: remoteName),
              let gitDirectory = try? Remote.localGitDirectory(target.url) else { return nil }
        let lock = gitDirectory + "/" + LocalRemoteLock.fileName
        guard FileLock.holder(of: lock) != nil else { return nil }
        return "another device is syncing with \(target.remoteName) (\(Remote.redact(target.url))) right now: it holds the remote's push lock (\(lock))"
    }
}
