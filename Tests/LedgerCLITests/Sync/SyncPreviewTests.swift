import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// `ledger sync --dry-run`: what a sync would do, from the same engine, with every byte of the
/// ledger, its `.git` and the remote left as it was.
@Suite struct SyncPreviewTests {
    @Test func aDryRunSaysWhatTheSyncThenDoesAndChangesNoByte() throws {
        let s = try HistoryScenario()
        try s.start()
        // As in divergeAndMerge, but the phone's changes stay uncommitted: the sync would commit them.
        HistoryScenario.ok(s.a.run("waterline", "drink", "--preset", "beer", env: HistoryScenario.at("21:40:00")))
        HistoryScenario.ok(s.a.run("brew", "recipe", "edit", "Morning V60", "--dose", "18", env: HistoryScenario.at("21:41:00")))
        HistoryScenario.ok(s.a.run("moments", "add", "coffee with Sam", env: HistoryScenario.at("21:42:00")))
        HistoryScenario.ok(s.a.run("sync"))
        let b = s.b
        HistoryScenario.ok(b.run("waterline", "water", env: HistoryScenario.at("21:20:00")))
        HistoryScenario.ok(b.run("brew", "recipe", "edit", "Morning V60", "--dose", "16", env: HistoryScenario.at("21:51:00")))
        let gitBefore = try TestLedger.digestTree(b.root + "/.git")
        let workBefore = try TestLedger.digestTree(b.root)
        let remoteBefore = try TestLedger.digestTree(s.fixture.remote)
        let tracking = try b.revParse("refs/remotes/origin/main")

        let text = b.run("sync", "--dry-run")
        HistoryScenario.ok(text)
        #expect(text.stdout.contains("""
            A sync now would:
              commit 2 changes on phone:
                Waterline: night of Sat 21 Nov — 1 water added
                BrewGuide: recipe Morning V60 — dose 15 → 16 g
              change here, from origin (\(s.fixture.remote)):
                Waterline: night of Sat 21 Nov — merged: both devices added entries; recomputed
                BrewGuide: recipe Morning V60 (Conflicted Copy) — forked: the other device's version
            """))
        #expect(text.stdout.contains("    DotLife Moments: moment of Sat 21 Nov 21:42 — added: “coffee with Sam”\n"))
        #expect(text.stdout.contains("  push 2 commits to origin"))
        let preview = b.run("sync", "--dry-run", "--json")
        HistoryScenario.ok(preview)
        // Not a byte changed: work tree, index, HEAD, refs (the remote-tracking branch too), objects, remote.
        #expect(try TestLedger.digestTree(b.root + "/.git") == gitBefore)
        #expect(try TestLedger.digestTree(b.root) == workBefore)
        #expect(try TestLedger.digestTree(s.fixture.remote) == remoteBefore)
        #expect(try b.revParse("refs/remotes/origin/main") == tracking)

        // The sync then does what the preview said.
        let sync = b.run("sync", "--json")
        HistoryScenario.ok(sync)
        let p = preview.json, r = sync.json
        #expect(p["dryRun"] == .bool(true) && r["dryRun"] == .bool(false))
        for key in ["outcome", "committed", "pulled", "pushed", "reconciled", "conflicts"] {
            #expect(p[key] == r[key], "\(key): \(p[key].map(CanonicalJSON.compact) ?? "") vs \(r[key].map(CanonicalJSON.compact) ?? "")")
        }
        #expect(p["resolved"]?.arrayValue?.map { $0["path"] } == r["resolved"]?.arrayValue?.map { $0["path"] })
        #expect(p["resolved"]?.arrayValue?.map { $0["created"] } == r["resolved"]?.arrayValue?.map { $0["created"] })
        #expect(p["commitsToPush"]?.arrayValue?.count == 2)
        let told = p["documents"]?.arrayValue?.compactMap { $0["path"]?.stringValue }.sorted()
        #expect(told == r["pulled"]?.arrayValue?.compactMap { $0["path"]?.stringValue }.sorted())
        // After the sync, a preview finds nothing to do.
        let idle = b.run("sync", "--dry-run")
        #expect(idle.status == 0 && idle.stdout.contains("  nothing: already in step with origin"), "\(idle)")
    }

    @Test func anUnreachableRemoteIsSaidAsASyncSaysItAndNothingIsCommitted() throws {
        let s = try HistoryScenario()
        try s.start()
        HistoryScenario.ok(s.b.run("waterline", "water", env: HistoryScenario.at("21:20:00")))
        let moved = s.fixture.remote + ".away"
        try FileManager.default.moveItem(atPath: s.fixture.remote, toPath: moved)
        let gitBefore = try TestLedger.digestTree(s.b.root + "/.git")
        let r = s.b.run("sync", "--dry-run", "--json")
        #expect(r.status == 3, "\(r)")
        #expect(r.json["outcome"]?.stringValue == "offline")
        #expect(r.json["committedDocuments"]?.arrayValue?.count == 1)
        #expect(try TestLedger.digestTree(s.b.root + "/.git") == gitBefore)
        #expect(!(try s.b.gitStatus().isEmpty))
        #expect(s.b.run("sync", "--dry-run", "--reset-to-remote").status == 2)
    }

    /// Offline, the commits that would wait to be pushed are listed as when the remote can be
    /// reached: the local commit the sync would make, and after a sync that could not push, the
    /// commit it made — the same one the preview named, and the one a sync then pushes.
    @Test func offlineTheCommitsWaitingToBePushedAreListedAsOnline() throws {
        let s = try HistoryScenario()
        try s.start()
        let b = s.b
        HistoryScenario.ok(b.run("waterline", "water", env: HistoryScenario.at("21:20:00")))
        let moved = s.fixture.remote + ".away"
        try FileManager.default.moveItem(atPath: s.fixture.remote, toPath: moved)

        let preview = b.run("sync", "--dry-run", "--json")
        #expect(preview.status == 3, "\(preview)")
        let toPush = preview.json["commitsToPush"]?.arrayValue?.compactMap { $0["subject"]?.stringValue } ?? []
        #expect(toPush.count == 1 && toPush.first?.hasPrefix("ledger sync on phone") == true, "\(preview)")
        #expect(preview.json["pushedCommits"] == .number(0), "nothing is pushed offline, as the sync reports it")
        let text = b.run("sync", "--dry-run")
        #expect(text.status == 3 && text.stdout.contains("  keep 1 commit to push to origin (\(s.fixture.remote)) when it can be reached.\n"), "\(text)")

        let sync = b.run("sync", "--json")
        #expect(sync.status == 3 && sync.json["outcome"]?.stringValue == "offline" && sync.json["pushedCommits"] == .number(0), "\(sync)")
        let made = try GitCLI.run(["log", "-1", "--format=%s"], in: b.root).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(toPush == [made])
        // Still offline: the commit the sync made waits, and nothing more would be committed.
        let again = b.run("sync", "--dry-run", "--json")
        #expect(again.status == 3 && again.json["committedDocuments"] == .array([]), "\(again)")
        #expect(again.json["commitsToPush"]?.arrayValue?.compactMap { $0["subject"]?.stringValue } == [made])
        // Online again, the preview lists the same commit, and the sync pushes it.
        try FileManager.default.moveItem(atPath: moved, toPath: s.fixture.remote)
        let online = b.run("sync", "--dry-run", "--json")
        HistoryScenario.ok(online)
        #expect(online.json["commitsToPush"]?.arrayValue?.compactMap { $0["subject"]?.stringValue } == [made])
        #expect(b.run("sync", "--json").json["pushedCommits"] == .number(1))
    }
}
