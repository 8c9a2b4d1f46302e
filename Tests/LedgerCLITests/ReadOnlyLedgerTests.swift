import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// A ledger on a read-only file system (a mounted backup, a write-protected USB disk), on a
/// real read-only mount: a tmpfs made for the test, remounted read-only, unmounted at the end.
@Suite(.serialized) struct ReadOnlyLedgerTests {
    /// Why a read-only mount cannot be made here (nil when it can): mounting needs root with
    /// CAP_SYS_ADMIN, which a container may withhold.
    static let mountUnavailable: String? = {
        let dir = TemporaryDirectory("ledger-mount-probe")
        do {
            let m = try TmpfsMount(at: dir.path)
            try m.remount(readOnly: true)
            m.unmount()
            return nil
        } catch {
            return "\(error)"
        }
    }()

    /// A tmpfs mounted at a directory until `unmount()` (or deinit).
    final class TmpfsMount {
        let path: String
        private var mounted = false

        init(at path: String) throws {
            self.path = path
            try Self.run("mount", ["-t", "tmpfs", "-o", "size=64m,mode=0755", "tmpfs", path])
            mounted = true
        }

        func remount(readOnly: Bool) throws {
            try Self.run("mount", ["-o", readOnly ? "remount,ro" : "remount,rw", path])
        }

        func unmount() {
            if mounted, (try? Self.run("umount", [path])) != nil { mounted = false }
        }

        deinit { unmount() }

        static func run(_ program: String, _ arguments: [String]) throws {
            let r = try Processes.run(try Processes.require(program, package: "mount"), arguments)
            guard r.status == 0 else { throw LedgerError.failure("\(program) \(arguments.joined(separator: " ")) failed: \(r.stderr)") }
        }
    }

    /// A ledger of sample-data on its own tmpfs, used once read-write (as on the machine that
    /// wrote it: it was checked, and `ledger status` ran), then remounted read-only.
    static func readOnlyLedger() throws -> (TestLedger, TmpfsMount) {
        let ledger = try TestLedger(now: "2026-11-21T23:30:00+01:00", initialize: false)
        try FileManager.default.createDirectory(atPath: ledger.root, withIntermediateDirectories: true)
        let mount = try TmpfsMount(at: ledger.root)
        #expect(ledger.run("init").status == 0)
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("sample-data").path
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            try? FileManager.default.removeItem(atPath: ledger.root + "/" + name)
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: ledger.root + "/" + name)
        }
        #expect(ledger.run("sync").status == 2)  // no remote: it commits nothing, says so
        try GitCLI.run(["add", "-A"], in: ledger.root)
        try GitCLI.run(["commit", "-q", "-m", "sample"], in: ledger.root)
        #expect(ledger.run("check").status == 0)
        #expect(ledger.run("status").status == 0)
        // A hand edit after the last check: the record of clean files is stale, and a check
        // on the read-only ledger will fail to rewrite it (quietly).
        let recipe = ledger.files(under: "brew/recipes")[0]
        try ledger.write(recipe, try #require(ledger.read(recipe)))
        try mount.remount(readOnly: true)
        return (ledger, mount)
    }

    static let reads: [[String]] = [
        ["status"], ["status", "--json"],
        ["check"], ["check", "--json"], ["check", "--no-cache"], ["check", "brew"],
        ["brew", "recipes"], ["brew", "recipes", "--json"], ["brew", "logs"], ["brew", "logs", "--json"],
        ["hydrate", "status"], ["hydrate", "plan"], ["hydrate", "plan", "--json"], ["hydrate", "due"], ["hydrate", "export", "--ics", "-"],
        ["moments"], ["moments", "week"], ["moments", "month"], ["moments", "year"], ["moments", "year", "--months"],
        ["moments", "show", "2026-11"], ["moments", "template"],
    ]

    @Test(.disabled(if: mountUnavailable != nil, "a read-only mount needs root with CAP_SYS_ADMIN (mount -t tmpfs failed here)"))
    func everyReadWorksAndSaysNothingAlarming() throws {
        let (ledger, mount) = try Self.readOnlyLedger()
        defer { mount.unmount() }
        #expect(FileSystem.isOnReadOnlyFileSystem(ledger.root))
        for arguments in Self.reads {
            let r = ledger.run(arguments: arguments)
            #expect(r.status == 0, "\(arguments.joined(separator: " ")): \(r)")
            #expect(r.stderr.isEmpty, "\(arguments.joined(separator: " ")): \(r)")
            if arguments.contains("--json") { #expect(r.json != .null, "\(arguments.joined(separator: " ")): \(r)") }
        }
        // Plain git reads it as well.
        #expect(try GitCLI.run(["status", "--porcelain"], in: ledger.root).status == 0)
    }

    @Test(.disabled(if: mountUnavailable != nil, "a read-only mount needs root with CAP_SYS_ADMIN (mount -t tmpfs failed here)"))
    func writersAreRefusedClearly() throws {
        let (ledger, mount) = try Self.readOnlyLedger()
        defer { mount.unmount() }
        let before = ledger.files(under: ".")
        let lock = ledger.root + "/.git/ledger/lock"
        for arguments in [["sync"], ["check", "--fix"], ["hydrate", "drank"], ["moments", "add", "a walk"]] {
            let r = ledger.run(arguments: arguments)
            #expect(r.status == 4, "\(arguments.joined(separator: " ")): \(r)")
            #expect(r.stderr == "ledger: cannot lock \(lock): it is on a read-only file system, so nothing can be changed there (commands that only read work)\n",
                    "\(arguments.joined(separator: " ")): \(r)")
        }
        #expect(ledger.files(under: ".") == before)
        // Plain git cannot commit there either.
        let commit = try GitCLI.run(["commit", "-q", "--allow-empty", "-m", "x"], in: ledger.root)
        #expect(commit.status != 0)
        #expect(commit.stderr.contains("Read-only file system"), "\(commit)")
    }
}
