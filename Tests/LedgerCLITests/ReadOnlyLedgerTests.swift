import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// Every app's read commands on a ledger on a read-only file system (a mounted backup, a
/// write-protected USB disk) — a real read-only mount (`TmpfsCopy`) — and the writers'
/// refusal; plain git reads the same copy, and cannot commit there either.
@Suite(.enabled(if: TmpfsCopy.possible, "mounting a tmpfs read-only needs root with CAP_SYS_ADMIN; this machine does not allow it"))
struct ReadOnlyLedgerTests {
    static let now = ["LEDGER_NOW": "2026-11-21T23:30:00+01:00"]

    /// A read-only copy of sample-data as the machine that wrote it left it: committed,
    /// checked, `ledger status` run — then hand-edited, so that the record of clean files is
    /// stale and a check on the copy would like to rewrite it.
    static func readOnlyLedger() throws -> (TestLedger, TmpfsCopy) {
        let ledger = try TestLedger(now: "2026-11-21T23:30:00+01:00")
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("sample-data").path
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            try? FileManager.default.removeItem(atPath: ledger.root + "/" + name)
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: ledger.root + "/" + name)
        }
        try GitCLI.run(["add", "-A"], in: ledger.root)
        try GitCLI.run(["commit", "-q", "-m", "sample"], in: ledger.root)
        #expect(ledger.run("check").status == 0)
        #expect(ledger.run("status").status == 0)
        let recipe = ledger.files(under: "brew/recipes")[0]
        try ledger.write(recipe, try #require(ledger.read(recipe)))
        return (ledger, try TmpfsCopy(copying: ledger.root))
    }

    static func run(_ ledger: TestLedger, _ copy: TmpfsCopy, _ arguments: [String]) -> CommandResult {
        ledger.run(arguments: arguments, env: now.merging(["LEDGER_REPO": copy.path]) { $1 })
    }

    static let reads: [[String]] = [
        ["status"], ["status", "--json"],
        ["check"], ["check", "--json"], ["check", "--no-cache"], ["check", "brew"],
        ["brew", "recipes"], ["brew", "recipes", "--json"], ["brew", "logs"], ["brew", "logs", "--json"],
        ["hydrate", "status"], ["hydrate", "plan"], ["hydrate", "plan", "--json"], ["hydrate", "due"], ["hydrate", "export", "--ics", "-"],
        ["moments"], ["moments", "week"], ["moments", "month"], ["moments", "year"], ["moments", "year", "--months"],
        ["moments", "show", "2026-11"], ["moments", "template"],
        ["waterline", "status"], ["waterline", "sessions"], ["waterline", "sessions", "--all", "--json"], ["waterline", "presets"],
    ]

    @Test func everyReadWorksAndSaysNothingAlarming() throws {
        let (ledger, copy) = try Self.readOnlyLedger()
        defer { copy.unmount() }
        #expect(FileSystem.isOnReadOnlyFileSystem(copy.path))
        for arguments in Self.reads {
            let r = Self.run(ledger, copy, arguments)
            #expect(r.status == 0, "\(arguments.joined(separator: " ")): \(r)")
            #expect(r.stderr.isEmpty, "\(arguments.joined(separator: " ")): \(r)")
            if arguments.contains("--json") { #expect(r.json != .null, "\(arguments.joined(separator: " ")): \(r)") }
        }
        // Plain git reads it as well.
        #expect(try GitCLI.run(["status", "--porcelain"], in: copy.path).status == 0)
    }

    @Test func writersAreRefusedClearly() throws {
        let (ledger, copy) = try Self.readOnlyLedger()
        defer { copy.unmount() }
        let before = try Processes.run("/usr/bin/find", [copy.path, "-printf", "%p %s %T@\n"]).stdout
        let lock = copy.path + "/.git/ledger/lock"
        for arguments in [["sync"], ["check", "--fix"], ["hydrate", "drank"], ["moments", "add", "a walk"], ["waterline", "drink"]] {
            let r = Self.run(ledger, copy, arguments)
            #expect(r.status == 4, "\(arguments.joined(separator: " ")): \(r)")
            #expect(r.stderr == "ledger: cannot lock \(lock): it is on a read-only file system, so nothing can be changed there (commands that only read work)\n",
                    "\(arguments.joined(separator: " ")): \(r)")
        }
        #expect(try Processes.run("/usr/bin/find", [copy.path, "-printf", "%p %s %T@\n"]).stdout == before)
        // Plain git cannot commit there either.
        let commit = try GitCLI.run(["commit", "-q", "--allow-empty", "-m", "x"], in: copy.path)
        #expect(commit.status != 0)
        #expect(commit.stderr.contains("Read-only file system"), "\(commit)")
    }
}
