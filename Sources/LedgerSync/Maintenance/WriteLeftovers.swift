import Foundation
import LedgerKit

/// The temporary files of atomic writes killed before their rename.
///
/// `FileSystem.writeAtomically` writes `.<name>.tmp-<random>` beside its target (earlier
/// versions wrote `.<name>.tmp-<pid>-<n>`) and renames it over the target; a process killed in
/// between leaves that file (hidden, and ignored by the ledger's `.gitignore`, so nothing else
/// would ever remove it). Every writer of a ledger holds its writer lock, so whoever holds it
/// (sync) knows that such a file is a leftover — except one naming a process that still runs.
/// Sync removes those its status walk meets (it lists every directory whose files differ from
/// the index's, which a leftover makes it do) and those in `.git/ledger`.
enum WriteLeftovers {
    /// Whether `fileName` is the temporary file of an atomic write: `.<name>.tmp-<random>`
    /// (base 36) or `.<name>.tmp-<pid>-<n>`.
    static func isTemporaryName(_ fileName: String) -> Bool {
        guard fileName.hasPrefix("."), let r = fileName.range(of: ".tmp-", options: .backwards), r.lowerBound > fileName.index(after: fileName.startIndex) else { return false }
        let parts = fileName[r.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return !parts[0].isEmpty && parts[0].allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) }
        case 2: return pid_t(parts[0]).map { $0 > 0 } == true && UInt32(parts[1]) != nil
        default: return false
        }
    }

    /// The id of the process that wrote the temporary file `fileName`, when its name says.
    static func writer(of fileName: String) -> pid_t? {
        guard isTemporaryName(fileName), let r = fileName.range(of: ".tmp-", options: .backwards) else { return nil }
        let parts = fileName[r.upperBound...].split(separator: "-")
        return parts.count == 2 ? pid_t(parts[0]) : nil
    }

    /// Whether `fileName` is the temporary file of a write that no longer runs (the caller holds
    /// the writer lock, so no ledger write is running unless its name says so).
    static func isLeftover(_ fileName: String) -> Bool {
        guard isTemporaryName(fileName) else { return false }
        guard let pid = writer(of: fileName) else { return true }
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
