import Foundation
import LedgerKit

/// The temporary files of atomic writes killed before their rename.
///
/// `FileSystem.writeAtomically` writes `.<name>.tmp-<pid>-<random>` beside its target and
/// renames it over the target; a process killed in between leaves that file (hidden, and
/// ignored by the ledger's `.gitignore`, so nothing else would ever remove it). A leftover is
/// one whose writer is no longer running. Sync removes those its status walk meets (it lists
/// every directory whose files differ from the index's, which a leftover makes it do).
enum WriteLeftovers {
    /// The id of the process that wrote the temporary file `fileName`, or nil when the name is
    /// not one of an atomic write's.
    static func writer(of fileName: String) -> pid_t? {
        guard fileName.hasPrefix("."), let r = fileName.range(of: ".tmp-", options: .backwards) else { return nil }
        let parts = fileName[r.upperBound...].split(separator: "-")
        guard parts.count == 2, UInt32(parts[1]) != nil, let pid = pid_t(parts[0]), pid > 0 else { return nil }
        return pid
    }

    /// Whether `fileName` is the temporary file of a write whose process is gone.
    static func isLeftover(_ fileName: String) -> Bool {
        guard let pid = writer(of: fileName) else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Removes the leftovers among `paths` (relative to `root`); returns those removed.
    static func remove(_ paths: [String], in root: String) -> [String] {
        paths.filter { path in
            let name = (path as NSString).lastPathComponent
            return isLeftover(name) && unlink(root + "/" + path) == 0
        }
    }

    /// Removes the leftovers directly in `directory` (a small one: `.git/ledger`).
    static func sweep(_ directory: String) -> [String] {
        let names = ((try? FileSystem.list(directory)) ?? []).filter { $0.type == .file }.map(\.name)
        return remove(names, in: directory)
    }
}
