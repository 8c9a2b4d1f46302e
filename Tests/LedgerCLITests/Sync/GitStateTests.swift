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

    static func count(_ range: String, in repository: String) throws -> Double {
        Double(try GitCLI.run(["rev-list", "--count", range], in: repository).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The git commands a sentence names (`git -C … …` in backticks), in order.
    static func gitCommands(in sentence: String) -> [String] {
        sentence.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 && $0.element.hasPrefix("git -C ") }.map { String($0.element) }
    }

    /// Runs a command line as a user would type it.
    static func shell(_ line: String) throws -> CommandResult {
        try Processes.run("/bin/sh", ["-c", line], environment: GitCLI.gitEnvironment, currentDirectory: "/")
    }

    /// A ledger whose last sync changed Waterline's settings, checked out one commit before
    /// it (`git checkout HEAD~1`).
    static func detached() throws -> (SyncFixture, TestLedger) {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "settings", "set", "waterEveryNDrinks", "3").status == 0)
        #expect(a.run("sync").status == 0)
        #expect(try GitCLI.run(["checkout", "-q", "HEAD~1"], in: a.root).status == 0)
        return (fixture, a)
    }

    @Test func aDetachedHeadIsNamedByStatusAndRefusedBySyncWithAWayBack() throws {
        let (fixture, a) = try Self.detached()
        let short = String(try RepositoryFiles.revParse("HEAD", in: a.root).prefix(7))
        #expect(try GitCLI.run(["status", "-sb"], in: a.root).stdout == "## HEAD (no branch)\n")
        let s = a.run("status", "--json")
        #expect(s.status == 0, "\(s)")
        let sync = s.json["sync"]
        #expect(sync?["remote"] == .string(fixture.remote), "\(s)")
        #expect(sync?["branch"] == .null)
        #expect(sync?["upstream"] == .string("origin/main"))
        #expect(sync?["ahead"] == .number(try Self.count("origin/main..HEAD", in: a.root)))
        #expect(sync?["behind"] == .number(try Self.count("HEAD..origin/main", in: a.root)))
        #expect(sync?["behind"] == .number(1))
        let way = "switch back with `git -C \(a.root) switch main`"
        guard case .array(let unsupported) = sync?["unsupported"], case .string(let first) = unsupported.first else {
            Issue.record("no sync.unsupported: \(s)")
            return
        }
        #expect(first.hasPrefix("HEAD of \(a.root) is detached at \(short)"), "\(first)")
        #expect(first.hasSuffix(way), "\(first)")
        let text = a.run("status").stdout
        #expect(text.contains("Sync: no uncommitted changes; the detached HEAD is 1 commit behind origin/main (\(fixture.remote)).\n"), "\(text)")
        #expect(text.contains("Cannot sync: HEAD of \(a.root) is detached at \(short)"), "\(text)")

        // A refusal like a merge in progress: exit 1, nothing committed or pushed.
        let remoteBefore = try RepositoryFiles.revParse("refs/heads/main", in: fixture.remote)
        let r = a.run("sync", "--json")
        #expect(r.status == 1, "\(r)")
        #expect(r.json["outcome"] == .string("refused"))
        #expect(r.stderr.contains(way + "; nothing was committed or pushed"), "\(r)")
        #expect(try RepositoryFiles.revParse("refs/heads/main", in: fixture.remote) == remoteBefore)
        #expect(try GitCLI.run(["status", "-sb"], in: a.root).stdout == "## HEAD (no branch)\n")

        // The way back works, and then the sync does.
        #expect(Self.gitCommands(in: way) == ["git -C \(a.root) switch main"])
        #expect(try Self.shell("git -C \(a.root) switch -q main").status == 0)
        #expect(a.run("sync").status == 0)
        #expect(a.run("status", "--json").json["sync"]?["unsupported"] == .array([]))
    }

    /// An app command writes on the detached checkout, after which plain `git switch main`
    /// refuses: the way back named keeps the change on a branch and merges it, and works.
    @Test func aChangeOnADetachedCheckoutGetsAWayBackThatWorks() throws {
        let (fixture, a) = try Self.detached()
        let short = String(try RepositoryFiles.revParse("HEAD", in: a.root).prefix(7))
        #expect(a.run("waterline", "settings", "set", "warningThreshold", "5").status == 0)
        let plain = try GitCLI.run(["switch", "main"], in: a.root)
        #expect(plain.status != 0 && plain.stderr.contains("would be overwritten"), "\(plain)")

        let status = a.run("status").stdout
        #expect(status.contains("Cannot sync: HEAD of \(a.root) is detached at \(short)"), "\(status)")
        #expect(!status.contains("switch back with"), "\(status)")
        let r = a.run("sync")
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("`git -C \(a.root) switch main` would refuse while uncommitted changes to waterline/settings.json differ from main, so keep the uncommitted changes on a branch: "), "\(r)")
        // The commands named to keep the change, in order, as a user would type them.
        let commands = Self.gitCommands(in: r.stderr)
        #expect(commands.last == "git -C \(a.root) switch --discard-changes main")
        let keep = Array(commands.dropFirst().dropLast())
        #expect(keep.first == "git -C \(a.root) switch -c detached-\(short)", "\(commands)")
        #expect(keep.count == 5, "\(commands)")
        for line in keep {
            let done = try Self.shell(line)
            #expect(done.status == 0, "\(line): \(done)")
        }
        #expect(try GitCLI.run(["status", "-sb"], in: a.root).stdout == "## main...origin/main [ahead 2]\n")
        let synced = a.run("sync")
        #expect(synced.status == 0, "\(synced)")
        let settings = try GitCLI.run(["show", "main:waterline/settings.json"], in: fixture.remote).stdout
        #expect(settings.contains("\"warningThreshold\": 5"), "\(settings)")
        #expect(settings.contains("\"waterEveryNDrinks\": 3"), "\(settings)")
    }

    /// Another branch, identical to main and pushed: nothing to push, as git counts it; status
    /// says the sync will not sync it. With an upstream of its own, counted against that.
    @Test func anotherBranchIsCountedAsGitCountsItAndNamed() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(try GitCLI.run(["switch", "-q", "-c", "experiment"], in: a.root).status == 0)
        #expect(try Self.count("origin/main..experiment", in: a.root) == 0)
        let s = a.run("status", "--json")
        let sync = s.json["sync"]
        #expect(sync?["branch"] == .string("experiment"), "\(s)")
        #expect(sync?["upstream"] == .string("origin/main"))
        #expect(sync?["ahead"] == .number(0))
        #expect(sync?["behind"] == .number(0))
        let way = "switch back with `git -C \(a.root) switch main`"
        #expect(sync?["unsupported"] == .array([.string("\(a.root) is on the branch experiment, but ledger syncs main (a branch of its own would reach no other device); " + way)]), "\(s)")
        let text = a.run("status").stdout
        #expect(text.contains("Sync: no uncommitted changes; the branch experiment is in step with origin/main (\(fixture.remote)) as of the last fetch.\n"), "\(text)")
        #expect(!text.contains("not yet pushed"))
        #expect(text.contains("Cannot sync: \(a.root) is on the branch experiment"))
        #expect(a.run("sync").status == 1)

        // Tracking origin/main, one commit ahead: the count is git's.
        #expect(try GitCLI.run(["branch", "-q", "-u", "origin/main"], in: a.root).status == 0)
        try a.write("README.md", "tried\n")
        #expect(try GitCLI.run(["add", "README.md"], in: a.root).status == 0)
        #expect(try GitCLI.run(["commit", "-qm", "try"], in: a.root).status == 0)
        #expect(try GitCLI.run(["status", "-sb"], in: a.root).stdout == "## experiment...origin/main [ahead 1]\n")
        let ahead = a.run("status", "--json").json["sync"]
        #expect(ahead?["ahead"] == .number(1))
        #expect(ahead?["behind"] == .number(0))
        let r = a.run("sync")
        #expect(r.status == 1)
        #expect(r.stderr.contains(way + ", then `git -C \(a.root) merge experiment` if you want its commit synced; nothing was committed or pushed"), "\(r)")
        for line in Self.gitCommands(in: r.stderr) { #expect(try Self.shell(line).status == 0, "\(line)") }
        #expect(a.run("sync").status == 0)
        #expect(try GitCLI.run(["show", "main:README.md"], in: fixture.remote).stdout == "tried\n")
    }
}
