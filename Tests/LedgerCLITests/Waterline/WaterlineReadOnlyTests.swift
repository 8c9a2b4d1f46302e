import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// A copy of a directory on a file system mounted read-only (a tmpfs remounted read-only, as
/// a mounted backup or a write-protected USB disk is), set up and torn down by the test.
/// Needs root (CAP_SYS_ADMIN); `possible` says whether this machine allows it.
final class ReadOnlyCopy: @unchecked Sendable {
    // @unchecked: owned by one test.
    let path: String
    private var mounted = false

    /// Whether a tmpfs can be mounted here (tried once).
    static let possible: Bool = {
        guard getuid() == 0, let probe = try? ReadOnlyCopy(copying: nil) else { return false }
        probe.unmount()
        return true
    }()

    /// Copies `source` (everything in it, hidden files included) onto a new tmpfs and
    /// remounts it read-only; `prepare` runs on the copy before that.
    init(copying source: String?, prepare: (String) throws -> Void = { _ in }) throws {
        var template = Array((NSTemporaryDirectory() + "ledger-readonly-XXXXXX").utf8CString)
        guard let dir = mkdtemp(&template) else { throw LedgerError.failure("mkdtemp failed") }
        path = String(cString: dir)
        try Self.mount(["-t", "tmpfs", "-o", "size=64m", "tmpfs", path])
        mounted = true
        if let source {
            let copy = try Processes.run("/bin/cp", ["-a", source + "/.", path])
            guard copy.status == 0 else { throw LedgerError.failure("cp failed: \(copy)") }
            try prepare(path)
            try Self.mount(["-o", "remount,ro", path])
        }
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

/// Read commands on a ledger that cannot be written (a mounted backup, a read-only USB disk):
/// they work without the writer lock, as git's own read commands do on the same copy.
@Suite(.enabled(if: ReadOnlyCopy.possible, "mounting a tmpfs read-only needs root with CAP_SYS_ADMIN; this machine does not allow it"))
struct WaterlineReadOnlyTests {
    static let now = ["LEDGER_NOW": "2026-11-21T22:30:00+01:00"]

    /// A ledger with an ended night and an active one.
    func ledger() throws -> TestLedger {
        let ledger = try TestLedger()
        for (time, args) in [("21:00", ["start", "--time", "20:00"]), ("21:00", ["drink", "--time", "20:30"]), ("21:00", ["end", "--yes"]),
                             ("22:00", ["start"]), ("22:10", ["drink"]), ("22:20", ["water"])] {
            let r = ledger.run(arguments: ["waterline"] + args, env: ["LEDGER_NOW": "2026-11-21T\(time):00+01:00"])
            #expect(r.status == 0, "\(args): \(r)")
        }
        #expect(try GitCLI.run(["add", "-A"], in: ledger.root).status == 0)
        #expect(try GitCLI.run(["commit", "-q", "-m", "tonight"], in: ledger.root).status == 0)
        return ledger
    }

    /// `ledger …` on the read-only copy.
    func run(_ ledger: TestLedger, _ copy: ReadOnlyCopy, _ args: String...) -> CommandResult {
        ledger.run(arguments: args, env: Self.now.merging(["LEDGER_REPO": copy.path]) { $1 })
    }

    @Test(arguments: [false, true])
    func readCommandsWorkWithoutTheLock(keepLocalState: Bool) throws {
        let ledger = try ledger()
        // A fresh copy has no device-local state at all (no hint, no lock file); a copy of a
        // ledger in use has both: the lock file then exists but cannot be opened for writing.
        let copy = try ReadOnlyCopy(copying: ledger.root) { path in
            if !keepLocalState { try FileManager.default.removeItem(atPath: path + "/.git/ledger") }
        }
        defer { copy.unmount() }
        #expect(FileManager.default.createFile(atPath: copy.path + "/probe", contents: nil) == false, "the copy is read-only")
        // Plain git reads it.
        #expect(try GitCLI.run(["log", "--oneline"], in: copy.path).status == 0)
        let status = run(ledger, copy, "waterline", "status", "--json")
        #expect(status.status == 0, "\(status)")
        #expect(status.json["totalAlcoholCount"] == .number(1) && status.json["totalWaterCount"] == .number(1))
        #expect(status.stderr.isEmpty, "nothing alarming: \(status.stderr)")
        #expect(run(ledger, copy, "waterline", "status").stdout.contains("Waterline 0.0"))
        for args in [["waterline", "sessions"], ["waterline", "sessions", "--all", "--json"], ["waterline", "entries"], ["waterline", "summary"],
                     ["waterline", "reminders"], ["waterline", "presets"], ["waterline", "settings"]] {
            let r = ledger.run(arguments: args, env: Self.now.merging(["LEDGER_REPO": copy.path]) { $1 })
            #expect(r.status == 0 && r.stderr.isEmpty, "\(args): \(r)")
        }
        #expect(run(ledger, copy, "waterline", "sessions", "--json").json.arrayValue?.count == 2)
        let overall = run(ledger, copy, "status")
        #expect(overall.status == 0, "\(overall)")
        #expect(overall.stdout.contains("Waterline       session"), "\(overall)")
        // Writing is refused, and says why.
        let drink = run(ledger, copy, "waterline", "drink")
        #expect(drink.status == 4 && drink.stderr.contains("is on a read-only file system"), "\(drink)")
    }
}
