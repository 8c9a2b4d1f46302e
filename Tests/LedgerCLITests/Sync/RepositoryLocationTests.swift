import Foundation
import LedgerCLI
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// Which ledger a command uses: `--repo`, `$LEDGER_REPO`, the ledger containing the current
/// directory (found as git finds its repository — git is asked too), `$XDG_DATA_HOME/ledger`.
@Suite struct RepositoryLocationTests {
    let here: TestLedger
    let other: TestLedger
    let xdg: TestLedger
    /// An environment without `$LEDGER_REPO`, whose `$XDG_DATA_HOME/ledger` is `xdg`.
    let environment: [String: String]

    init() throws {
        here = try TestLedger()
        other = try TestLedger()
        xdg = try TestLedger()
        var env = here.environment
        env["LEDGER_REPO"] = nil
        env["XDG_DATA_HOME"] = xdg.directory.path
        environment = env
    }

    /// The ledger `ledger status` used, run from `directory`.
    func ledgerUsed(from directory: String, arguments: [String] = [], env: [String: String] = [:]) -> String? {
        let out = TextOutput(), err = TextOutput()
        let context = CLIContext(environment: environment.merging(env) { $1 }, currentDirectory: directory, stdout: out, stderr: err,
                                 stdin: TextInput(lines: []), stdinIsTerminal: false, stdoutIsTerminal: false)
        let status = LedgerCLI.run(arguments + ["status", "--json"], context: context)
        guard status == 0 else { return "exit \(status): \(err.text)" }
        return (try? JSONParser.parse(Array(out.text.utf8)))?["path"]?.stringValue
    }

    /// The work tree git finds from `directory`, or nil when it finds none.
    func gitTopLevel(from directory: String, env: [String: String] = [:]) throws -> String? {
        let r = try GitCLI.run(["rev-parse", "--show-toplevel"], in: directory, environment: env)
        return r.status == 0 ? r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    @Test func theLedgerContainingTheCurrentDirectoryIsUsed() throws {
        let inside = here.root + "/waterline/presets"
        #expect(ledgerUsed(from: inside) == here.root)
        #expect(try gitTopLevel(from: inside) == here.root)
        #expect(ledgerUsed(from: here.root) == here.root)
        #expect(ledgerUsed(from: here.root + "/.git/ledger") == here.root)
    }

    @Test func repoAndLedgerRepoComeFirst() throws {
        let inside = here.root + "/waterline"
        #expect(ledgerUsed(from: inside, env: ["LEDGER_REPO": other.root]) == other.root)
        #expect(ledgerUsed(from: inside, arguments: ["--repo", other.root]) == other.root)
        #expect(ledgerUsed(from: inside, arguments: ["--repo", other.root], env: ["LEDGER_REPO": xdg.root]) == other.root)
    }

    @Test func outsideAnyLedgerTheDefaultLedgerIsUsed() throws {
        // Another git repository around the directory (a dotfiles repository) is not a ledger.
        let plain = here.directory.url("dotfiles")
        try FileManager.default.createDirectory(atPath: plain + "/config", withIntermediateDirectories: true)
        try GitCLI.run(["init", "-q", plain], in: "/")
        #expect(try gitTopLevel(from: plain + "/config") == plain)
        #expect(ledgerUsed(from: plain + "/config") == xdg.root)
        #expect(ledgerUsed(from: "/") == xdg.root)
    }

    @Test func gitsCeilingDirectoriesStopTheSearchForLedgerToo() throws {
        let inside = here.root + "/waterline"
        let ceiling = ["GIT_CEILING_DIRECTORIES": here.root]
        #expect(try gitTopLevel(from: inside, env: ceiling) == nil)
        #expect(ledgerUsed(from: inside, env: ceiling) == xdg.root)
    }

    /// A file system mounted inside the ledger (a USB disk, a tmpfs): git stops at its
    /// boundary unless `GIT_DISCOVERY_ACROSS_FILESYSTEM` is set, and so does ledger.
    @Test(.enabled(if: TmpfsCopy.possible, "mounting a tmpfs needs root with CAP_SYS_ADMIN; this machine does not allow it"))
    func aFileSystemBoundaryStopsTheSearchAsItStopsGits() throws {
        let mountPoint = here.root + "/mnt"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        try TmpfsCopy.mount(["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint])
        defer { _ = try? Processes.run("/bin/umount", [mountPoint]) }
        try FileManager.default.createDirectory(atPath: mountPoint + "/notes", withIntermediateDirectories: true)
        #expect(try gitTopLevel(from: mountPoint + "/notes") == nil)
        #expect(ledgerUsed(from: mountPoint + "/notes") == xdg.root)
        let across = ["GIT_DISCOVERY_ACROSS_FILESYSTEM": "1"]
        #expect(try gitTopLevel(from: mountPoint + "/notes", env: across) == here.root)
        #expect(ledgerUsed(from: mountPoint + "/notes", env: across) == here.root)
    }

    @Test func syncInsideAClonesDirectorySyncsThatClone() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let b = try fixture.clone()
        try b.write("waterline/notes.json", "{}\n")
        var env = b.environment
        env["LEDGER_REPO"] = nil
        env["XDG_DATA_HOME"] = xdg.directory.path
        let out = TextOutput(), err = TextOutput()
        let context = CLIContext(environment: env, currentDirectory: b.root + "/waterline", stdout: out, stderr: err,
                                 stdin: TextInput(lines: []), stdinIsTerminal: false, stdoutIsTerminal: false)
        #expect(LedgerCLI.run(["sync"], context: context) == 0, "\(err.text)")
        #expect(try GitCLI.run(["ls-tree", "--name-only", "-r", "main"], in: fixture.remote).stdout.contains("waterline/notes.json"))
        #expect(try xdg.gitStatus().isEmpty)
    }
}
