import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// git's own state is respected: an operation git is in the middle of, the branch HEAD is on,
/// and what the user staged — with plain git run on the same repositories.
@Suite struct GitStateTests {
    /// The ways into an unfinished git operation, each ending in a conflict on a file both
    /// machines edited (a README, which no merge rule covers).
    enum Unfinished: String, CaseIterable, Sendable {
        case merge, rebase, cherryPick

        var marker: String {
            switch self {
            case .merge: "MERGE_HEAD"
            case .rebase: "rebase-merge"
            case .cherryPick: "CHERRY_PICK_HEAD"
            }
        }

        var wayOut: String {
            switch self {
            case .merge: "git merge --abort"
            case .rebase: "git rebase --abort"
            case .cherryPick: "git cherry-pick --abort"
            }
        }

        func start(in root: String) throws -> CommandResult {
            switch self {
            case .merge: return try GitCLI.run(["pull", "--no-rebase", "--no-edit", "origin", "main"], in: root)
            case .rebase: return try GitCLI.run(["pull", "--rebase", "origin", "main"], in: root)
            case .cherryPick:
                try GitCLI.run(["fetch", "-q", "origin"], in: root)
                return try GitCLI.run(["cherry-pick", "origin/main"], in: root)
            }
        }
    }

    @Test(arguments: Unfinished.allCases)
    func syncRefusesWhileGitIsInTheMiddleOfAnOperation(_ operation: Unfinished) throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        try a.write("README.md", "ours\n")
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        try a.write("README.md", "from a\n")
        #expect(a.run("sync").status == 0)
        try b.write("README.md", "from b\n")
        try GitCLI.run(["commit", "-qam", "b's readme"], in: b.root)
        let started = try operation.start(in: b.root)
        #expect(started.status != 0, "\(started)")
        #expect(FileSystem.exists(b.root + "/.git/" + operation.marker))
        let remoteBefore = try RepositoryFiles.revParse("refs/heads/main", in: fixture.remote)
        let gitBefore = try b.gitStatus()

        let r = b.run("sync")
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains(operation.wayOut), "\(r)")
        #expect(r.stderr.contains("nothing was committed or pushed"))
        // Nothing moved: git still sees the same unfinished operation, the remote is as it was.
        #expect(FileSystem.exists(b.root + "/.git/" + operation.marker))
        #expect(try b.gitStatus() == gitBefore)
        #expect(try RepositoryFiles.revParse("refs/heads/main", in: fixture.remote) == remoteBefore)
        #expect(b.run("status").stdout.contains("git is in the middle of"))

        // git's way out, then sync works.
        #expect(try GitCLI.run(operation.wayOut.split(separator: " ").dropFirst().map(String.init), in: b.root).status == 0)
        let after = b.run("sync")
        #expect(after.status == 0, "\(after)")
        #expect(try RepositoryFiles.revParse("refs/heads/main", in: fixture.remote) == RepositoryFiles.revParse("HEAD", in: b.root))
    }

    @Test func syncRefusesAnotherBranchNamingBoth() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let b = try fixture.clone()
        try GitCLI.run(["switch", "-q", "-c", "experiment"], in: b.root)
        try b.write("waterline/notes.json", "{}\n")
        let r = b.run("sync")
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("on the branch experiment, but ledger syncs main"), "\(r)")
        #expect(r.stderr.contains("git -C \(b.root) switch main"))
        // Nothing committed, nothing published.
        #expect(try b.gitStatus() == "?? waterline/notes.json\n")
        #expect(try GitCLI.run(["ls-remote", "--heads", fixture.remote], in: b.root).stdout.split(separator: "\n").count == 1)
    }

    @Test func aCloneWhoseRemoteCallsItsBranchOtherwiseSyncsThatBranch() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        // A remote whose only branch is `trunk`, cloned with plain git (which follows it).
        try GitCLI.run(["push", "-q", fixture.remote, "main:trunk"], in: a.root)
        try GitCLI.run(["symbolic-ref", "HEAD", "refs/heads/trunk"], in: fixture.remote)
        try GitCLI.run(["update-ref", "-d", "refs/heads/main"], in: fixture.remote)
        let c = try TestLedger(initialize: false)
        #expect(try GitCLI.run(["clone", "-q", fixture.remote, c.root], in: "/").status == 0)
        try c.write("waterline/notes.json", "{}\n")
        let r = c.run("sync", "--json")
        #expect(r.status == 0, "\(r)")
        #expect(r.json["branch"] == .string("trunk"))
        #expect(try RepositoryFiles.revParse("refs/heads/trunk", in: fixture.remote) == RepositoryFiles.revParse("HEAD", in: c.root))
        #expect(try RepositoryFiles.revParse("refs/heads/main", in: fixture.remote).isEmpty)
    }

    @Test func aFileTheUserStoppedTrackingStaysUntrackedAsWithPlainGit() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        try a.write("waterline/notes.json", "{\"mine\": true}\n")
        try a.write("README.md", "hello\n")
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        let git = try fixture.clone()
        for l in [b, git] {
            #expect(try GitCLI.run(["rm", "-q", "--cached", "waterline/notes.json"], in: l.root).status == 0)
            try l.write("README.md", "hello again\n")
        }
        // Plain git: `git commit -a` records the removal and keeps the file as untracked.
        try GitCLI.run(["commit", "-qam", "stop tracking"], in: git.root)

        let r = b.run("sync")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("Stopped tracking waterline/notes.json"), "\(r)")
        #expect(try b.headTree() == git.headTree())
        #expect(try b.headTree()["waterline/notes.json"] == nil)
        #expect(b.read("waterline/notes.json") == "{\"mine\": true}\n")
        // The next sync does not add it back, and git does not list it as untracked.
        let again = b.run("sync", "--json")
        #expect(again.json["outcome"] == .string("up-to-date"), "\(again)")
        #expect(try b.gitStatus().isEmpty)
        #expect(try GitCLI.run(["ls-tree", "-r", "--name-only", "main"], in: fixture.remote).stdout.contains("waterline/notes.json") == false)
    }
}
