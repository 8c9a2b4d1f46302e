import Foundation
import LedgerKit
import LedgerTestSupport

/// A copy of a directory on a tmpfs of its own, mounted by the test and unmounted after: a
/// small disk (`size`), or — remounted read-only — a mounted backup or a write-protected USB
/// disk. Needs root (CAP_SYS_ADMIN); `possible` says whether this machine allows it.
final class TmpfsCopy: @unchecked Sendable {
    // @unchecked: owned by one test.
    let path: String
    private var mounted = false

    /// Whether a tmpfs can be mounted here (tried once).
    static let possible: Bool = {
        guard getuid() == 0, let probe = try? TmpfsCopy(copying: nil, readOnly: false) else { return false }
        probe.unmount()
        return true
    }()

    /// Copies `source` (everything in it, hidden files included) onto a new tmpfs of `size`
    /// (mount's `size=`: a limit, nothing is reserved) and, when `readOnly`, remounts it
    /// read-only; `prepare` runs on the copy before that.
    init(copying source: String?, size: String = "64m", readOnly: Bool = true, prepare: (String) throws -> Void = { _ in }) throws {
        var template = Array((NSTemporaryDirectory() + "ledger-tmpfs-XXXXXX").utf8CString)
        guard let dir = mkdtemp(&template) else { throw LedgerError.failure("mkdtemp failed") }
        path = String(cString: dir)
        try Self.mount(["-t", "tmpfs", "-o", "size=" + size, "tmpfs", path])
        mounted = true
        if let source {
            let copy = try Processes.run("/bin/cp", ["-a", source + "/.", path])
            guard copy.status == 0 else { throw LedgerError.failure("cp failed: \(copy)") }
        }
        try prepare(path)
        if readOnly { try Self.mount(["-o", "remount,ro", path]) }
    }

    static func mount(_ arguments: [String]) throws {
        let r = try Processes.run("/bin/mount", arguments)
        guard r.status == 0 else { throw LedgerError.failure("mount \(arguments.joined(separator: " ")) failed: \(r)") }
    }

    func unmount() {
        if mounted { _ = try? Processes.run("/bin/umount", [path]) }
        mounted = false
        rmdir(path)
    }

    deinit { unmount() }
}
