import Foundation
import ProcessRunner
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

@Suite struct InitCommandTests {
    @Test func createsAGitLedgerOnMainWithDriverAndFirstCommit() throws {
        let ledger = try TestLedger()
        #expect(ledger.read("ledger.json")?.contains("\"format\": 1") == true)
        #expect(ledger.read("ledger.json")?.contains("\"createdAt\": \"2026-11-21T22:30:00+01:00\"") == true)
        #expect(ledger.read(".gitattributes")?.contains("*.json merge=ledger") == true)
        #expect(ledger.read(".gitignore")?.contains(".*") == true)
        let repo = try Repository.open(ledger.root)
        #expect(repo.headReferenceName == "refs/heads/main")
        #expect(repo.headCommit() != nil)
        #expect(repo.config("merge.ledger.driver") == "ledger merge-driver %O %A %B %P")
        #expect(try repo.workTreeChanges().isEmpty)
        #expect(ledger.run("check").status == 0)
    }

    @Test func isIdempotentAndRestoresItsSetup() throws {
        let ledger = try TestLedger()
        try FileManager.default.removeItem(atPath: ledger.root + "/.gitattributes")
        let before = try Repository.open(ledger.root).headCommit()
        let r = ledger.run("init", ledger.root)
        #expect(r.status == 0)
        #expect(r.stdout == "\(ledger.root) is already a ledger; ledger restored .gitattributes.\n", "\(r)")
        #expect(ledger.read(".gitattributes")?.contains("*.json merge=ledger") == true)
        #expect(try Repository.open(ledger.root).headCommit() == before)
        let remote = ledger.run("init", ledger.root, "--remote", "/srv/ledger.git")
        #expect(remote.stdout == "\(ledger.root) is already a ledger; ledger added the remote origin /srv/ledger.git.\n", "\(remote)")
        let same = ledger.run("init", ledger.root)
        #expect(same.stdout == "\(ledger.root) is already a ledger; its setup is in place.\n", "\(same)")
    }

    @Test func refusesToTakeOverANonEmptyDirectory() throws {
        let ledger = try TestLedger(initialize: false)
        try ledger.write("notes.txt", "mine")
        let r = ledger.run("init")
        #expect(r.status == 1)
        #expect(r.stderr.contains("is not empty and is not a ledger"))
        #expect(!FileManager.default.fileExists(atPath: ledger.root + "/.git"))
        #expect(ledger.read("notes.txt") == "mine")
    }

    @Test func remembersTheRemoteAndRefusesToChangeItSilently() throws {
        let ledger = try TestLedger(initialize: false)
        #expect(ledger.run("init", "--remote", "/srv/ledger.git").status == 0)
        let repo = try Repository.open(ledger.root)
        #expect(repo.config("remote.origin.url") == "/srv/ledger.git")
        #expect(repo.config("branch.main.remote") == "origin")
        let again = ledger.run("init", "--remote", "ssh://elsewhere/ledger.git")
        #expect(again.status == 1)
        #expect(again.stderr.contains("already /srv/ledger.git"))
    }

    /// A remote on a path where nothing is: the ledger is made all the same, and the missing
    /// remote is said at once with the command that makes it; once it is there, or for a
    /// network remote (not asked at init), nothing is said.
    @Test func aRemotePathWhereNothingIsIsSaidAtOnce() throws {
        let ledger = try TestLedger(initialize: false)
        let missing = ledger.directory.path + "/usb/ledger.git"
        let r = ledger.run("init", "--remote", missing)
        #expect(r.status == 0 && ledger.read("ledger.json") != nil, "\(r)")
        #expect(r.stderr == "ledger: warning: nothing is at \(missing), so `ledger sync` cannot reach origin there yet; "
                + "make the remote with `git init --bare -b main \(missing)`, or mount the disk it is on\n", "\(r)")
        #expect(try GitCLI.run(["init", "-q", "--bare", "-b", "main", missing], in: "/").status == 0)
        let again = ledger.run("init", "--remote", missing)
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again)")
        let network = try TestLedger(initialize: false)
        let ssh = network.run("init", "--remote", "ssh://elsewhere/ledger.git")
        #expect(ssh.status == 0 && ssh.stderr.isEmpty, "\(ssh)")
    }
}

@Suite struct GlobalBehaviourTests {
    @Test func theLedgerComesFromRepoThenEnvironmentThenXDG() throws {
        let ledger = try TestLedger()
        var env = ledger.environment
        env["LEDGER_REPO"] = nil
        env["XDG_DATA_HOME"] = ledger.directory.path + "/xdg"
        let noLedger = TestLedgerRunner(env).run(["status"])
        #expect(noLedger.status == 1)
        #expect(noLedger.stderr.contains("there is no ledger at \(ledger.directory.path)/xdg/ledger"))
        #expect(TestLedgerRunner(env).run(["--repo", ledger.root, "status"]).status == 0)
        #expect(TestLedgerRunner(env).run(["status", "--repo", ledger.root]).status == 0)
        #expect(TestLedgerRunner(env).run(["init"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: ledger.directory.path + "/xdg/ledger/ledger.json"))
    }

    @Test func usageErrorsExitTwoAndABadClockIsNamed() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("frobnicate").status == 2)
        #expect(ledger.run("check", "--bogus").status == 2)
        let r = ledger.run("status", env: ["LEDGER_NOW": "tomorrow"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("LEDGER_NOW must be an ISO-8601 timestamp with a UTC offset"))
        #expect(ledger.run("--version").stdout == "\(LedgerCLIVersion.current)\n")
    }

    @Test func theBinaryPrintsHelpCompletionsAndExitCodes() throws {
        let ledger = try TestLedger()
        let help = try ledger.runBinary("--help")
        #expect(help.status == 0 && help.stdout.contains("SUBCOMMANDS"))
        let bash = try ledger.runBinary("--generate-completion-script", "bash")
        #expect(bash.status == 0 && bash.stdout.contains("_ledger"))
        try ledger.write("ledger.json", "{")
        let check = try ledger.runBinary("check")
        #expect(check.status == 1)
        #expect(check.stdout.contains("ledger.json: 1:2: error: unexpected end of file inside an object"))
    }
}

/// Runs ledger in-process with an explicit environment.
struct TestLedgerRunner {
    let environment: [String: String]
    init(_ environment: [String: String]) { self.environment = environment }

    func run(_ arguments: [String]) -> CommandResult {
        let out = TextOutput(), err = TextOutput()
        let context = CLIContext(environment: environment, currentDirectory: "/", stdout: out, stderr: err,
                                 stdin: TextInput(lines: []), stdinIsTerminal: false, stdoutIsTerminal: false)
        return CommandResult(status: LedgerCLI.run(arguments, context: context), stdout: out.text, stderr: err.text)
    }
}

import LedgerCLI
enum LedgerCLIVersion { static let current = LedgerCommand.version }

@Suite struct OutputFailureTests {
    @Test func outputThatCannotBeWrittenIsAFailure() throws {
        let ledger = try TestLedger()
        let p = try ChildProcess(LedgerBinary.path, ["check", "--json"], environment: ledger.environment, input: .null, output: .appending("/dev/full"))
        let status = p.wait()
        let message = String(decoding: p.errorBytes(limit: 1 << 16), as: UTF8.self)
        #expect(status == 4)
        #expect(message.contains("cannot write the output: No space left on device"))
    }
}
