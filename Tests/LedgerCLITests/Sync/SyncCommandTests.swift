import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// `ledger clone` and `ledger sync` between clones of a bare remote (plain-path transport),
/// in-process.
@Suite struct SyncCommandTests {
    @Test func originPublishesAndACloneReceivesTheSameTree() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let b = try fixture.clone()
        #expect(try a.headTree() == b.headTree())
        let repo = try Repository.open(b.root)
        #expect(repo.headReferenceName == "refs/heads/main")
        #expect(repo.config("merge.ledger.driver") == LedgerSetup.mergeDriverCommand)
        #expect(b.document(".git/ledger/device.json")?["name"] != nil)
        #expect(try b.gitStatus().isEmpty)
        let again = b.run("sync")
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("Already in step with origin"))
    }

    @Test func cloneOfAnEmptyRemoteStartsANewLedgerOnMain() throws {
        let fixture = try SyncFixture()
        let b = try fixture.clone()
        #expect(try Repository.open(b.root).headReferenceName == "refs/heads/main")
        #expect(b.read("ledger.json") != nil)
        let s = b.run("sync")
        #expect(s.status == 0, "\(s)")
        let remoteHead = try GitCLI.run(["rev-parse", "refs/heads/main"], in: fixture.remote)
        #expect(remoteHead.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == (try GitCLI.run(["rev-parse", "HEAD"], in: b.root)).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func cloneRefusesANonEmptyDirectoryAndReportsAnUnreachableRemote() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let b = try TestLedger(initialize: false)
        try b.write("something.txt", "mine\n")
        let r = b.run("clone", fixture.remote, b.root)
        #expect(r.status == 1)
        #expect(r.stderr.contains("not empty"))
        let c = try TestLedger(initialize: false)
        let missing = c.run("clone", fixture.directory.url("nowhere.git"), c.root)
        #expect(missing.status == 3, "\(missing)")
        #expect(missing.stderr.contains("there is no git repository at \(fixture.directory.url("nowhere.git"))"))
        #expect(!FileSystem.exists(c.root))
        try FileManager.default.createDirectory(atPath: fixture.directory.url("plain"), withIntermediateDirectories: true)
        let plain = c.run("clone", "file://" + fixture.directory.url("plain"), c.root)
        #expect(plain.status == 3 && plain.stderr.contains("is not a git repository"), "\(plain)")
    }

    @Test func localChangesAreCommittedWithAMessageNamingTheDeviceAndPushed() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        try FileSystem.writeAtomically(a.root + "/.git/ledger/device.json", Array(#"{"id": "dev1", "name": "laptop"}"#.utf8))
        try a.write("waterline/notes.json", "{\"a\": 1}\n")
        try a.write("README.md", "my ledger\n")
        let r = a.run("sync", "--json")
        #expect(r.status == 0, "\(r)")
        let json = r.json
        #expect(json["outcome"]?.stringValue == "synced")
        #expect(json["device"]?["name"]?.stringValue == "laptop")
        #expect(json["committed"]?.arrayValue?.count == 2)
        #expect(json["pushed"]?.arrayValue?.compactMap { $0["path"]?.stringValue }.sorted() == ["README.md", "waterline/notes.json"])
        let message = try GitCLI.run(["log", "-1", "--format=%B"], in: a.root).stdout
        #expect(message.hasPrefix("ledger sync on laptop: Waterline 1 file added; other files 1 file added"))
        #expect(message.contains("added: waterline/notes.json"))
        #expect(message.contains("Device: laptop (dev1)"))
        let b = try fixture.clone()
        #expect(b.read("waterline/notes.json") == "{\"a\": 1}\n")
    }

    @Test func theManifestMergesFieldByFieldWithTheLaterWriteWinning() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let b = try fixture.clone()
        // Both add an unknown field (kept on every rewrite) and both change "note".
        try a.write("ledger.json", """
            {
              "createdAt": "2026-11-21T22:30:00+01:00",
              "format": 1,
              "fromA": true,
              "note": "a",
              "updatedAt": "2026-11-21T22:40:00+01:00"
            }

            """)
        try b.write("ledger.json", """
            {
              "createdAt": "2026-11-21T22:30:00+01:00",
              "format": 1,
              "fromB": true,
              "note": "b",
              "updatedAt": "2026-11-21T22:50:00+01:00"
            }

            """)
        #expect(a.run("sync").status == 0)
        let r = b.run("sync", "--json")
        #expect(r.status == 0, "\(r)")
        #expect(r.json["resolved"]?.arrayValue?.first?["path"]?.stringValue == "ledger.json")
        #expect(r.json["conflicts"]?.arrayValue?.isEmpty == true)
        #expect(a.run("sync").status == 0)
        let merged = try #require(a.document("ledger.json"))
        #expect(merged["fromA"] == .bool(true))
        #expect(merged["fromB"] == .bool(true))
        #expect(merged["note"]?.stringValue == "b")
        #expect(merged["updatedAt"]?.stringValue == "2026-11-21T22:50:00+01:00")
        #expect(try a.headTree() == b.headTree())
    }

    @Test func unmergeableFilesKeepTheLocalVersionAndAConflictFileThatCheckReports() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        try a.write("waterline/notes.json", "{\"v\": 0}\n")
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        try a.write("waterline/notes.json", "{\"v\": \"from a\"}\n")
        try b.write("waterline/notes.json", "{\"v\": \"from b\"}\n")
        #expect(a.run("sync").status == 0)
        let r = b.run("sync", "--json")
        #expect(r.status == 0, "\(r)")
        let conflict = try #require(r.json["conflicts"]?.arrayValue?.first?.stringValue)
        #expect(conflict.hasPrefix("waterline/notes.conflict-") && conflict.hasSuffix(".json"))
        #expect(b.read("waterline/notes.json") == "{\"v\": \"from b\"}\n")
        #expect(b.read(conflict) == "{\"v\": \"from a\"}\n")
        #expect(a.run("sync").status == 0)
        #expect(try a.headTree() == b.headTree())
        let check = a.run("check")
        #expect(check.status == 1)
        #expect(check.stdout.contains("\(conflict): /: error: unresolved sync conflict"))
        // Resolving: delete the conflict file and sync.
        try a.remove(conflict)
        #expect(a.run("sync").status == 0)
        #expect(b.run("sync").status == 0)
        #expect(b.read(conflict) == nil)
        // No conflict markers anywhere.
        #expect(b.read("waterline/notes.json")?.contains("<<<<<<<") == false)
    }

    @Test func deletionsPropagateAndAnEditBeatsADeletion() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        try a.write("waterline/one.json", "{\"n\": 1}\n")
        try a.write("waterline/two.json", "{\"n\": 2}\n")
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        try a.remove("waterline/one.json")  // deleted here, unchanged there
        try a.remove("waterline/two.json")  // deleted here, edited there
        try b.write("waterline/two.json", "{\"n\": 22}\n")
        #expect(a.run("sync").status == 0)
        let r = b.run("sync")
        #expect(r.status == 0, "\(r)")
        #expect(a.run("sync").status == 0)
        for ledger in [a, b] {
            #expect(ledger.read("waterline/one.json") == nil)
            #expect(ledger.read("waterline/two.json") == "{\"n\": 22}\n")
        }
        #expect(try a.headTree() == b.headTree())
    }

    @Test func invalidDocumentsNeverLeaveTheMachine() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let before = try GitCLI.run(["rev-parse", "HEAD"], in: a.root).stdout
        try a.write("waterline/presets/beer.json", "{\"id\": \"beer\",\n  \"name\": \n}\n")
        let r = a.run("sync")
        #expect(r.status == 1)
        #expect(r.stderr.contains("nothing was committed or pushed"))
        #expect(r.stderr.contains("waterline/presets/beer.json: 3:1: error:"))
        #expect(try GitCLI.run(["rev-parse", "HEAD"], in: a.root).stdout == before)
        #expect(try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout == before)
        #expect(try a.gitStatus().contains("waterline/presets/beer.json"))
        let json = a.run("sync", "--json")
        #expect(json.status == 1)
        let value = try JSONParser.parse(Array(json.stdout.utf8))
        #expect(value["outcome"] == .string("refused"))
        #expect(value["problems"]?.arrayValue?.first?["path"] == .string("waterline/presets/beer.json"))
    }

    @Test func invalidDocumentsCommittedWithPlainGitAreNotPushed() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let published = try GitCLI.run(["rev-parse", "HEAD"], in: a.root).stdout
        let preset = try #require(a.read("waterline/presets/beer.json"))
        try a.write("waterline/presets/beer.json", preset.replacingOccurrences(of: "\"standardDrinkEstimate\": 1", with: "\"standardDrinkEstimate\": -4"))
        try GitCLI.run(["commit", "-q", "-am", "by hand"], in: a.root)
        let committed = try GitCLI.run(["rev-parse", "HEAD"], in: a.root).stdout
        let r = a.run("sync")
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("nothing was pushed (the commits stay here)"))
        #expect(r.stderr.contains("waterline/presets/beer.json: /standardDrinkEstimate: error:"))
        #expect(try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout == published)
        #expect(try GitCLI.run(["rev-parse", "HEAD"], in: a.root).stdout == committed)
        // Fixed by hand (uncommitted): the next sync commits the fix and pushes both commits.
        try a.write("waterline/presets/beer.json", preset)
        let again = a.run("sync")
        #expect(again.status == 0, "\(again)")
        #expect(try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout == (try GitCLI.run(["rev-parse", "HEAD"], in: a.root)).stdout)
        #expect(try a.gitStatus().isEmpty)
    }

    @Test func anUnreachableRemoteExitsThreeAndKeepsTheLocalCommit() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        try GitCLI.run(["remote", "set-url", "origin", fixture.directory.url("gone.git")], in: a.root)
        try a.write("waterline/notes.json", "{}\n")
        let r = a.run("sync", "--json")
        #expect(r.status == 3, "\(r)")
        #expect(r.json["outcome"]?.stringValue == "offline")
        #expect(r.json["commit"]?.stringValue != nil)
        #expect(r.stderr.contains("there is no git repository at \(fixture.directory.url("gone.git"))"))
        #expect(try a.gitStatus().isEmpty)
        let text = a.run("sync")
        #expect(text.status == 3)
        #expect(text.stdout.contains("Not synced"))
    }

    @Test func syncNamesAMissingRemote() throws {
        let a = try TestLedger()
        let r = a.run("sync")
        #expect(r.status == 2)
        #expect(r.stderr.contains("no remote"))
        let fixture = try SyncFixture()
        let b = try fixture.origin()
        let named = b.run("sync", "--remote", "backup")
        #expect(named.status == 2)
        #expect(named.stderr.contains("no remote named backup"))
    }

    @Test func aRefusedPushIsFetchedMergedAndRetried() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let b = try fixture.clone()
        try a.write("waterline/a.json", "{}\n")
        try b.write("waterline/b.json", "{}\n")
        // While b is about to push, a pushes first: b's push is refused, and b fetches,
        // merges and pushes again.
        nonisolated(unsafe) var interfered = false
        let options = SyncOptions(checkpoint: { point in
            if point == .beforePush, !interfered {
                interfered = true
                _ = a.run("sync")
            }
        })
        let report = try Sync.run(b.store, options: options)
        #expect(report.outcome == .synced)
        #expect(report.pushAttempts == 2)
        #expect(a.run("sync").status == 0)
        #expect(try a.headTree() == b.headTree())
        #expect(try a.headTree().keys.contains("waterline/a.json") == true)
        #expect(try a.headTree().keys.contains("waterline/b.json"))
    }
}

@Suite struct CloneBranchTests {
    @Test func aRemoteWhoseHeadNamesAnotherBranchIsClonedOnMainWithoutLeftovers() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        // A remote made by a plain `git init --bare`, whose HEAD names master.
        try GitCLI.run(["push", "-q", fixture.remote, "main:master"], in: a.root)
        try GitCLI.run(["symbolic-ref", "HEAD", "refs/heads/master"], in: fixture.remote)
        let b = try fixture.clone()
        let repo = try Repository.open(b.root)
        #expect(repo.headReferenceName == "refs/heads/main")
        #expect(repo.resolve("refs/heads/master") == nil)
        #expect(repo.config("branch.master.remote") == nil && repo.config("branch.master.merge") == nil)
        #expect(repo.config("branch.main.remote") == "origin")
        #expect(try b.headTree() == a.headTree())
        #expect(b.run("sync").status == 0)
    }
}
