import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// `ledger init --remote URL` on a second machine (where `clone` was meant) makes a ledger
/// with no history in common with the remote's: its defaults must never overwrite the real
/// settings through a "later write wins" merge without a common ancestor.
@Suite struct UnrelatedHistoryTests {
    /// A second machine's ledger made with `ledger init --remote` (where `clone` was meant).
    static func initialized(onto fixture: SyncFixture) throws -> TestLedger {
        let ledger = try TestLedger(now: "2026-11-21T23:00:00+01:00", initialize: false)
        #expect(ledger.run("init", "--remote", fixture.remote).status == 0)
        return ledger
    }

    @Test func aLedgerStillAsInitMadeItTakesTheRemotesHistory() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "settings", "set", "warningThreshold", "4").status == 0)
        #expect(a.run("sync").status == 0)
        let c = try Self.initialized(onto: fixture)
        let r = c.run("sync")
        #expect(r.status == 0, "\(r)")
        #expect(c.document("waterline/settings.json")?["warningThreshold"] == .number(4))
        #expect(try c.headTree() == a.headTree())
        #expect(a.run("sync").status == 0)
        #expect(a.document("waterline/settings.json")?["warningThreshold"] == .number(4))
        #expect(c.run("check").status == 0)
    }

    @Test func aLedgerWithItsOwnDataIsNotMergedIntoAnother() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "settings", "set", "warningThreshold", "4").status == 0)
        #expect(a.run("sync").status == 0)
        let remoteHead = try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout
        let d = try Self.initialized(onto: fixture)
        #expect(d.run("waterline", "settings", "set", "waterEveryNDrinks", "3").status == 0)
        let r = d.run("sync")
        #expect(r.status == 1)
        #expect(r.stderr.contains("have no history in common"))
        #expect(r.stderr.contains("ledger clone \(fixture.remote)"))
        #expect(r.stderr.contains("your changes are committed here"))
        #expect(try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout == remoteHead)
        #expect(d.document("waterline/settings.json")?["waterEveryNDrinks"] == .number(3))
        #expect(d.document("waterline/settings.json")?["warningThreshold"] == .number(2))
    }

    /// The remote records a purge this ledger never saw: honouring it rewrites nothing here,
    /// and the refusal that follows leaves this sync's commit with an index to match — plain
    /// `git status` is clean, and no later command has an "interrupted sync" to repair.
    @Test func theRefusalAfterHonouringARemotesPurgeLeavesAnIndexMatchingTheCommit() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let added = a.run("moments", "add", "to forget for good")
        let path = try #require(added.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(a.run("sync").status == 0)
        #expect(a.run("purge", path, "--yes").status == 0)
        let d = try Self.initialized(onto: fixture)
        #expect(d.run("moments", "add", "coffee with Sam").status == 0)
        let r = d.run("sync")
        #expect(r.status == 1 && r.stderr.contains("have no history in common"), "\(r)")
        #expect(try d.gitStatus() == "")
        #expect(try GitCLI.run(["log", "--format=%s", "-1"], in: d.root).stdout.contains("DotLife Moments 1 experience added"))
        #expect(try GitCLI.fsck(d.root) == nil)
        let next = d.run("status")
        #expect(!next.stderr.contains("interrupted sync"), "\(next)")
    }

    /// A new repository on a hosting service, made with a README, a licence and a .gitignore:
    /// no ledger there, so nothing to adopt — its files join this ledger's history, which is
    /// published on top of it; the other device clones a ledger; plain git agrees.
    @Test func aRemoteHoldingOnlyANewRepositorysFilesGetsTheLedgerOnTop() throws {
        let fixture = try SyncFixture()
        let made = try Self.repository(in: fixture, files: ["README.md": "# my ledger\n", "LICENSE": "MIT\n", ".gitignore": "*.log\n"])
        let c = try Self.initialized(onto: fixture)
        #expect(c.run("moments", "add", "coffee with Sam").status == 0)
        let r = c.run("sync")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("origin held no ledger yet, only .gitignore, LICENSE, README.md"), "\(r)")
        #expect(c.read("README.md") == "# my ledger\n" && c.read("ledger.json") != nil)
        // Its .gitignore as `ledger clone` of it makes it (below): its lines, then the ledger's.
        #expect(c.read(".gitignore") == "*.log\n\n" + LedgerSetup.gitignore)
        #expect(c.run("status").status == 0)
        #expect(try c.gitStatus() == "")
        // The remote's own commit stays in the history; the remote now holds the ledger.
        #expect(try GitCLI.run(["merge-base", "--is-ancestor", made, "main"], in: fixture.remote).status == 0)
        let tree = try GitCLI.run(["ls-tree", "-r", "--name-only", "main"], in: fixture.remote).stdout
        #expect(tree.contains("ledger.json\n") && tree.contains("README.md\n") && tree.contains("moments/experiences/"))
        #expect(!tree.contains(".conflict-"), "\(tree)")
        #expect(try GitCLI.fsck(fixture.remote) == nil)
        let d = try fixture.clone()
        #expect(d.run("check").status == 0)
        #expect(try d.headTree() == c.headTree())
    }

    /// A remote that holds another repository (folders of its own, no ledger): refused, the
    /// remote untouched, this ledger's commit kept with a clean index.
    @Test func aRemoteHoldingAnotherRepositoryIsRefused() throws {
        let fixture = try SyncFixture()
        let made = try Self.repository(in: fixture, files: [".bashrc": "alias l=ls\n", ".config/git/config": "[user]\n"])
        let c = try Self.initialized(onto: fixture)
        #expect(c.run("moments", "add", "coffee with Sam").status == 0)
        let r = c.run("sync")
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("origin (\(fixture.remote)) holds no ledger (no ledger.json on its branch main) but 2 files of another repository (.bashrc, .config/git/config)"), "\(r)")
        #expect(try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == made)
        #expect(c.read("ledger.json") != nil && c.read(".bashrc") == nil)
        #expect(try c.gitStatus() == "")
    }

    /// The way out the refusal names for two ledgers works as written: plain git merges them
    /// through the driver (git 2.27 and later refuse a pull of divergent branches that does
    /// not say how to reconcile them), and the next sync publishes the result.
    @Test func theCommandToCombineTwoLedgersWorksAsWritten() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "settings", "set", "warningThreshold", "4").status == 0)
        #expect(a.run("sync").status == 0)
        let d = try Self.initialized(onto: fixture)
        #expect(d.run("moments", "add", "coffee with Sam").status == 0)
        let r = d.run("sync")
        #expect(r.status == 1)
        let command = try #require(r.stderr.components(separatedBy: "run `git ").dropFirst().first?.split(separator: "`").first)
        let pull = try GitCLI.run(command.split(separator: " ").map(String.init), in: "/")
        #expect(pull.status == 0, "\(pull)")
        #expect(d.run("check").status == 0)
        #expect(d.run("sync").status == 0)
        #expect(try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout == GitCLI.run(["rev-parse", "HEAD"], in: d.root).stdout)
        #expect(try GitCLI.fsck(d.root) == nil)
        #expect(a.run("sync").status == 0)
        #expect(try a.headTree() == d.headTree())
        #expect(a.files(under: "moments/experiences").count == 1)
    }

    /// `ledger clone` of a new repository (a README, a .gitignore): a new ledger on top of its
    /// history, its .gitignore kept with ledger's lines after it; the first sync publishes it
    /// as a fast-forward, and plain git finds the remote's commit under the ledger's.
    @Test func aCloneOfANewRepositoryIsANewLedgerOnTopOfIt() throws {
        let fixture = try SyncFixture()
        let made = try Self.repository(in: fixture, files: ["README.md": "# my ledger\n", ".gitignore": "*.log\n"])
        let c = try TestLedger(now: "2026-11-21T23:00:00+01:00", initialize: false)
        let r = c.run("clone", fixture.remote, c.root)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("the remote holds no ledger yet, only .gitignore, README.md, so this is a new ledger on top of its history"), "\(r)")
        #expect(c.read(".gitignore") == "*.log\n\n" + LedgerSetup.gitignore)
        #expect(c.read("README.md") == "# my ledger\n")
        #expect(c.run("moments", "add", "coffee with Sam").status == 0)
        let sync = c.run("sync")
        #expect(sync.status == 0, "\(sync)")
        #expect(try GitCLI.run(["rev-list", "--count", "--merges", "main"], in: fixture.remote).stdout.hasPrefix("0"))
        #expect(try GitCLI.run(["merge-base", "--is-ancestor", made, "main"], in: fixture.remote).status == 0)
        #expect(try GitCLI.fsck(fixture.remote) == nil)
        #expect(try c.gitStatus() == "")
        let d = try fixture.clone()
        #expect(d.run("check").status == 0 && d.files(under: "moments/experiences").count == 1)
    }

    /// `ledger clone` of another repository refuses, naming its files, and leaves nothing.
    @Test func aCloneOfAnotherRepositoryIsRefusedAndLeavesNothing() throws {
        let fixture = try SyncFixture()
        _ = try Self.repository(in: fixture, files: [".bashrc": "alias l=ls\n", ".config/git/config": "[user]\n"])
        let c = try TestLedger(now: "2026-11-21T23:00:00+01:00", initialize: false)
        let r = c.run("clone", fixture.remote, c.root + "/ledger")
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("\(fixture.remote) holds no ledger (no ledger.json) but 2 files of another repository (.bashrc, .config/git/config); nothing was cloned"), "\(r)")
        #expect(!FileManager.default.fileExists(atPath: c.root + "/ledger"))
        // Plain git clones it, for comparison: it is a healthy repository, just not a ledger.
        #expect(try GitCLI.run(["clone", "-q", fixture.remote, c.root + "/plain"], in: "/").status == 0)
    }

    /// A repository made with plain git and pushed to the fixture's remote: its commit.
    static func repository(in fixture: SyncFixture, files: [String: String]) throws -> String {
        let work = fixture.directory.path + "/made"
        #expect(try GitCLI.run(["init", "-q", "-b", "main", work], in: "/").status == 0)
        for (path, text) in files {
            try FileManager.default.createDirectory(atPath: (work + "/" + path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: work + "/" + path, atomically: true, encoding: .utf8)
        }
        #expect(try GitCLI.run(["add", "-A"], in: work).status == 0)
        #expect(try GitCLI.run(["commit", "-q", "-m", "Initial commit"], in: work).status == 0)
        #expect(try GitCLI.run(["push", "-q", fixture.remote, "main"], in: work).status == 0)
        return try GitCLI.run(["rev-parse", "HEAD"], in: work).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
