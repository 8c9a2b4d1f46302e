import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// The states a power cut leaves where git's writes were not flushed (plain git with its
/// defaults, or an earlier ledger), made by hand in the ledger and in its remote on a path:
/// each is repaired by the next command, or refused with one sentence naming the damage and
/// the command that repairs it — never by a new first commit pushed as the remote's history.
/// Plain git is run on the same state for the comparison.
@Suite struct PowerCutRepairTests {
    static func at(_ time: String) -> [String: String] { ["LEDGER_NOW": "2026-11-21T\(time)+01:00"] }

    /// A ledger synced twice with its remote, a change waiting, and the remote's history so far.
    struct Setup {
        let fixture: SyncFixture
        let ledger: TestLedger
        let remoteMain: String
        let root: String

        init() throws {
            fixture = try SyncFixture()
            ledger = try fixture.origin()
            #expect(ledger.run("waterline", "start", env: PowerCutRepairTests.at("21:00:00")).status == 0)
            #expect(ledger.run("sync").status == 0)
            #expect(ledger.run("waterline", "drink", env: PowerCutRepairTests.at("21:10:00")).status == 0)
            #expect(ledger.run("sync").status == 0)
            #expect(ledger.run("waterline", "water", env: PowerCutRepairTests.at("21:20:00")).status == 0)
            remoteMain = try RepositoryFiles.revParse("refs/heads/main", in: fixture.remote)
            root = try RepositoryFiles.revParse("HEAD~2", in: ledger.root)
        }

        var gitDirectory: String { ledger.root + "/.git" }

        /// The next sync repaired what was damaged and kept every bit of history: it succeeded,
        /// `git fsck` is clean on both sides, the remote's main grew from what it was, on the
        /// same first commit, and the change made before the damage was published.
        func expectRepairedBySync(_ note: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let r = ledger.run("sync")
            #expect(r.status == 0, "\(r)", sourceLocation: sourceLocation)
            #expect(r.stdout.contains(note), "\(r)", sourceLocation: sourceLocation)
            try expectHistoryKept(sourceLocation: sourceLocation)
            #expect(try ledger.gitStatus().isEmpty, sourceLocation: sourceLocation)
            #expect(ledger.run("waterline", "status", "--json").json["totalWaterCount"] == .number(1), sourceLocation: sourceLocation)
        }

        func expectHistoryKept(sourceLocation: SourceLocation = #_sourceLocation) throws {
            for repo in [ledger.root, fixture.remote] {
                let fsck = try GitCLI.fsck(repo)
                #expect(fsck == nil, "\(repo): \(fsck ?? "")", sourceLocation: sourceLocation)
            }
            #expect(try GitCLI.run(["merge-base", "--is-ancestor", remoteMain, "main"], in: fixture.remote).status == 0,
                    "the remote's main no longer holds \(remoteMain)", sourceLocation: sourceLocation)
            let roots = try GitCLI.run(["rev-list", "--max-parents=0", "main"], in: fixture.remote).stdout.split(separator: "\n")
            #expect(roots == [Substring(root)], "the remote's history has other first commits: \(roots)", sourceLocation: sourceLocation)
        }
    }

    static func zero(_ path: String) throws {
        try Data(repeating: 0, count: 41).write(to: URL(fileURLWithPath: path))
    }

    /// Empties a loose object file (read-only, as git writes them).
    static func empty(object id: String, in gitDirectory: String) throws {
        let path = gitDirectory + "/objects/" + id.prefix(2) + "/" + id.dropFirst(2)
        #expect(FileSystem.stamp(path) != nil, "\(id) is not a loose object in \(gitDirectory)")
        chmod(path, 0o644)
        try Data().write(to: URL(fileURLWithPath: path))
    }

    @Test func aZeroedMainInTheLedgerIsRestoredFromItsReflog() throws {
        let s = try Setup()
        try Self.zero(s.gitDirectory + "/refs/heads/main")
        // Plain git on the same state.
        let git = try GitCLI.run(["log", "-1"], in: s.ledger.root)
        #expect(git.status != 0)
        // check and status see it: the documents are fine, the history under them is not.
        let check = s.ledger.run("check")
        #expect(check.status == 1 && check.stdout.contains(".git: /: error: the git repository under the ledger is damaged (refs/heads/main holds only zeros)"), "\(check)")
        try s.expectRepairedBySync("Refs/heads/main held only zeros; restored it to ")
    }

    /// `check` looks at HEAD's commit through libgit2 once and then trusts its record while
    /// the commit's files keep their stamps: a commit file emptied since — even with its old
    /// modification time, so that only its size and ctime tell — is looked at again.
    @Test func checkFindsTheCommitItRecordedEmptiedSince() throws {
        let s = try Setup()
        let head = try RepositoryFiles.revParse("HEAD", in: s.ledger.root)
        RepositoryFiles.age(everythingUnder: s.gitDirectory + "/objects", seconds: 3600)
        #expect(s.ledger.run("check").status == 0)
        #expect(FileSystem.exists(s.gitDirectory + "/ledger/readable-commit"))
        #expect(s.ledger.run("check").status == 0)
        try Self.empty(object: head, in: s.gitDirectory)
        RepositoryFiles.age(s.gitDirectory + "/objects/" + head.prefix(2) + "/" + head.dropFirst(2), seconds: 3600)
        #expect(try GitCLI.run(["log", "-1"], in: s.ledger.root).status != 0)  // plain git on the same state
        let check = s.ledger.run("check")
        #expect(check.status == 1 && check.stdout.contains("names the commit \(head.prefix(7)), which cannot be read (its file is empty)"), "\(check)")
    }

    @Test func aZeroedMainInTheRemoteIsRestoredFromWhatTheLedgerLastFetched() throws {
        let s = try Setup()
        try Self.zero(s.fixture.remote + "/refs/heads/main")
        #expect(try GitCLI.run(["log", "-1", "main"], in: s.fixture.remote).status != 0)
        try s.expectRepairedBySync("The remote \(s.fixture.remote): refs/heads/main holds only zeros; restored it to \(s.remoteMain.prefix(7))")
    }

    @Test func anEmptyObjectTheLastCommitNeedsIsWrittenAgainFromTheWorkTree() throws {
        let s = try Setup()
        #expect(s.ledger.run("sync").status == 0)
        let session = try #require(s.ledger.files(under: "waterline/sessions").first)
        let blob = try RepositoryFiles.revParse("HEAD:" + session, in: s.ledger.root)
        try Self.empty(object: blob, in: s.gitDirectory)
        #expect(try GitCLI.fsck(s.ledger.root) != nil)
        #expect(s.ledger.run("waterline", "drink", env: Self.at("21:30:00")).status == 0)
        let r = s.ledger.run("sync")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("Removed an empty loose object (\(blob.prefix(7))) that a power cut left."), "\(r)")
        try s.expectHistoryKept()
        #expect(try GitCLI.run(["cat-file", "-e", blob], in: s.ledger.root).status == 0)
    }

    @Test func anEmptyObjectInTheRemoteIsWrittenAgainFromTheLedger() throws {
        let s = try Setup()
        // A push by plain git leaves small pushes as loose objects in the remote.
        try GitCLI.run(["add", "-A"], in: s.ledger.root)
        try GitCLI.run(["commit", "-q", "-m", "water"], in: s.ledger.root)
        #expect(try GitCLI.run(["push", "-q", "origin", "main"], in: s.ledger.root).status == 0)
        let session = try #require(s.ledger.files(under: "waterline/sessions").first)
        let blob = try RepositoryFiles.revParse("HEAD:" + session, in: s.ledger.root)
        try Self.empty(object: blob, in: s.fixture.remote)
        #expect(try GitCLI.fsck(s.fixture.remote) != nil)
        // Plain git's clone of the damaged remote fails.
        let dir = TemporaryDirectory()
        #expect(try GitCLI.run(["clone", "-q", s.fixture.remote, dir.url("c")], in: dir.path).status != 0)
        #expect(s.ledger.run("moments", "add", "after the cut", env: Self.at("21:30:00")).status == 0)
        let r = s.ledger.run("sync")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("The remote \(s.fixture.remote): removed an empty loose object that a power cut left, and wrote it again from this ledger."), "\(r)")
        try s.expectHistoryKept()
    }

    @Test func aTruncatedIndexIsRebuiltFromHeadKeepingTheWorkTree() throws {
        let s = try Setup()
        try Data().write(to: URL(fileURLWithPath: s.gitDirectory + "/index"))
        #expect(try GitCLI.run(["status"], in: s.ledger.root).status != 0)
        let check = s.ledger.run("check")
        #expect(check.status == 1 && check.stdout.contains("the index (\(s.gitDirectory)/index) is empty"), "\(check)")
        // status repairs it (the uncommitted water shows as a change to sync).
        let status = s.ledger.run("status")
        #expect(status.status == 0, "\(status)")
        #expect(status.stderr.contains("rebuilt it from HEAD"), "\(status)")
        #expect(status.stdout.contains("1 uncommitted change"), "\(status)")
        try Data().write(to: URL(fileURLWithPath: s.gitDirectory + "/index"))
        try s.expectRepairedBySync("rebuilt it from HEAD")
    }

    @Test(arguments: ["ledger", "remote"])
    func emptyPackedRefsWithTheLooseReferencesGoneAreRestored(_ place: String) throws {
        let s = try Setup()
        // `git gc` packed every reference; a cut then emptied packed-refs (git's defaults do not
        // flush it) after the loose references were removed.
        #expect(s.ledger.run("gc").status == 0)
        let gitDirectory = place == "ledger" ? s.gitDirectory : s.fixture.remote
        #expect(!FileSystem.exists(gitDirectory + "/refs/heads/main"))
        try Data().write(to: URL(fileURLWithPath: gitDirectory + "/packed-refs"))
        #expect(try GitCLI.run(["rev-parse", "--verify", "main"], in: gitDirectory).status != 0)
        try s.expectRepairedBySync(place == "ledger" ? "Refs/heads/main was gone; restored it to " : "refs/heads/main is gone; restored it to \(s.remoteMain.prefix(7))")
    }

    /// A cut during `git gc` can leave git's `packed-refs.new` (created exclusively): every
    /// later `git gc` fails on it; `ledger gc` removes it (stale: nobody holds it) and packs.
    @Test(arguments: ["ledger", "remote"])
    func aPackedRefsTemporaryLeftByACutDoesNotStopTheNextGC(_ place: String) throws {
        let s = try Setup()
        let gitDirectory = place == "ledger" ? s.gitDirectory : s.fixture.remote
        let leftover = gitDirectory + "/packed-refs.new"
        try Data("# pack-refs with: peeled fully-peeled sorted \n".utf8).write(to: URL(fileURLWithPath: leftover))
        _ = utimes(leftover, [timeval(tv_sec: time(nil) - 60, tv_usec: 0), timeval(tv_sec: time(nil) - 60, tv_usec: 0)])
        let plain = try GitCLI.run(["pack-refs", "--all"], in: gitDirectory)
        #expect(plain.status != 0 && plain.stderr.contains("packed-refs.new"), "\(plain)")
        let r = s.ledger.run("gc")
        #expect(r.status == 0, "\(r)")
        #expect(!FileSystem.exists(leftover))
        #expect(!FileSystem.exists(gitDirectory + "/refs/heads/main"), "main is packed")
        #expect(try RepositoryFiles.revParse("refs/heads/main", in: gitDirectory) == (place == "ledger" ? s.root : s.remoteMain) || place == "ledger")
        try s.expectRepairedBySync("Committed 1 change")
    }

    @Test func whatCannotBeRestoredSafelyIsRefusedWithTheCommandThatRepairsIt() throws {
        let s = try Setup()
        // main zeroed, and no reflog left to say where it was.
        try Self.zero(s.gitDirectory + "/refs/heads/main")
        try FileManager.default.removeItem(atPath: s.gitDirectory + "/logs")
        // status still shows the documents, and says what is damaged (exit 4).
        let status = s.ledger.run("status")
        #expect(status.status == 4 && status.stdout.contains("Waterline") && status.stderr.contains("holds only zeros"), "\(status)")
        let r = s.ledger.run("sync", "--json")
        #expect(r.status == 4, "\(r)")
        // The JSON object comes on every exit status.
        #expect(r.json["outcome"] == .string("failed"), "\(r)")
        let error = try #require(r.json["error"]?.stringValue)
        #expect(error.contains("the branch refs/heads/main of \(s.ledger.root) holds only zeros"), "\(error)")
        #expect(error.contains("run `echo \(try RepositoryFiles.revParse("HEAD", in: s.fixture.remote)) > \(s.gitDirectory)/refs/heads/main`"), "\(error)")
        // Nothing was committed or pushed; the named command repairs it.
        #expect(try RepositoryFiles.revParse("refs/heads/main", in: s.fixture.remote) == s.remoteMain)
        let command = try #require(error.components(separatedBy: "`").dropFirst().first)
        #expect(try Processes.run("/bin/sh", ["-c", command], environment: GitCLI.gitEnvironment).status == 0)
        try s.expectRepairedBySync("Committed 1 change")
    }
}
