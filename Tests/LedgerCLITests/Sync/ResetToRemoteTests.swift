import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// `ledger sync --reset-to-remote`: the remote's ledger here, with this device's unsynced work
/// kept under a named reference — beside `git reset --hard`, which drops it.
@Suite struct ResetToRemoteTests {
    @Test func theRemotesLedgerWithThisDevicesWorkKeptAndBroughtBackByUndo() throws {
        let s = try HistoryScenario()
        try s.start()
        let a = s.a, b = s.b
        // The phone moves on; the laptop has a commit made offline by a sync, one made with
        // plain git, and an uncommitted moment.
        HistoryScenario.ok(b.run("waterline", "drink", "--preset", "double", env: HistoryScenario.at("21:50:00")))
        HistoryScenario.ok(b.run("sync"))
        let away = s.fixture.remote + ".away"
        try FileManager.default.moveItem(atPath: s.fixture.remote, toPath: away)
        HistoryScenario.ok(a.run("moments", "add", "coffee with Sam", env: HistoryScenario.at("21:42:00")))
        #expect(a.run("sync").status == 3)
        try FileManager.default.moveItem(atPath: away, toPath: s.fixture.remote)
        try a.write("brew/notes.txt", "grind finer next time\n")
        #expect(try GitCLI.run(["add", "brew/notes.txt"], in: a.root).status == 0)
        #expect(try GitCLI.run(["commit", "-qm", "a note of my own"], in: a.root).status == 0)
        HistoryScenario.ok(a.run("moments", "add", "a walk", env: HistoryScenario.at("21:55:00")))
        let moments = a.files(under: "moments/experiences")
        #expect(moments.count == 2)
        let plainGit = try UndoCommandTests.copy(a, "plain-git")

        // Without a terminal and without --yes: nothing changes.
        let refused = a.run("sync", "--reset-to-remote")
        #expect(refused.status == 2 && refused.stderr.contains("needs a confirmation"), "\(refused)")
        #expect(refused.stdout.contains("This device's unsynced work will be kept under refs/ledger/unsynced/2026-11-21T22-30-00:"))
        #expect(refused.stdout.contains("  commit ") && refused.stdout.contains(" a note of my own\n"))
        #expect(refused.stdout.contains("  uncommitted: added \(moments.first { a.document($0)?["payload"]?.stringValue == "a walk" }!)"))
        #expect(a.files(under: "moments/experiences") == moments)

        let reset = a.run("sync", "--reset-to-remote", "--yes", "--json")
        HistoryScenario.ok(reset)
        let kept = try #require(reset.json["kept"]?.stringValue)
        #expect(kept == "refs/ledger/unsynced/2026-11-21T22-30-00")
        #expect(reset.json["unsyncedCommits"]?.arrayValue?.count == 2 && reset.json["uncommitted"]?.arrayValue?.count == 1)
        // The remote's ledger, exactly: what `git fetch` and `git reset --hard` give.
        #expect(try GitCLI.run(["fetch", "-q", "origin"], in: plainGit).status == 0)
        #expect(try GitCLI.run(["reset", "-q", "--hard", "origin/main"], in: plainGit).status == 0)
        #expect(try a.revParse("HEAD") == (try GitCLI.run(["rev-parse", "HEAD"], in: plainGit).stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(try a.revParse("HEAD") == b.revParse("HEAD"))
        #expect(try a.gitStatus().isEmpty)
        #expect(a.files(under: "moments/experiences").isEmpty && a.read("brew/notes.txt") == nil)
        // …but nothing dropped: git reset --hard left the uncommitted moment nowhere (`git
        // fsck --lost-found` aside), ledger keeps everything under the reference.
        for m in moments {
            #expect(try GitCLI.run(["cat-file", "-e", "\(kept):\(m)"], in: a.root).status == 0)
        }
        #expect(try GitCLI.run(["cat-file", "-e", "\(kept):brew/notes.txt"], in: a.root).status == 0)
        #expect(try GitCLI.run(["for-each-ref", "refs/ledger"], in: plainGit).stdout.isEmpty)
        #expect(try GitCLI.fsck(a.root) == nil)

        // `ledger log` says how to bring it back; `ledger undo` does, as a merge, and the
        // reference goes (the work is in the history then).
        let log = a.run("log", "--limit", "1")
        #expect(log.stdout.contains("Kept by a reset to the remote: \(kept), 3 commits the branch lacks"))
        #expect(log.stdout.contains("bring it back with `ledger undo unsynced/2026-11-21T22-30-00`"))
        let undo = a.run("undo", "--yes")
        HistoryScenario.ok(undo)
        #expect(undo.stdout.contains("Bringing back the work kept at \(kept)"))
        #expect(Set(a.files(under: "moments/experiences")) == Set(moments))
        #expect(a.read("brew/notes.txt") == "grind finer next time\n")
        #expect(try GitCLI.run(["rev-parse", "-q", "--verify", kept], in: a.root).status != 0)
        #expect(a.run("check", "--json").json["errors"] == .number(0))
        HistoryScenario.ok(a.run("sync"))
        HistoryScenario.ok(b.run("sync"))
        #expect(try a.headTree() == b.headTree())
        #expect(b.run("waterline", "entries", "--json").json.arrayValue?.count == 2)
    }

    @Test func aDeviceInStepHasNothingToResetAndOneOnlyBehindMovesWithoutKeepingAnything() throws {
        let s = try HistoryScenario()
        try s.start()
        let idle = s.b.run("sync", "--reset-to-remote", "--yes")
        #expect(idle.status == 0 && idle.stdout.contains("nothing to reset"), "\(idle)")
        HistoryScenario.ok(s.a.run("moments", "add", "coffee with Sam", env: HistoryScenario.at("21:42:00")))
        HistoryScenario.ok(s.a.run("sync"))
        let r = s.b.run("sync", "--reset-to-remote", "--yes")
        HistoryScenario.ok(r)
        #expect(r.stdout.contains("This device has no unsynced work: nothing needs keeping."))
        #expect(try s.b.revParse("HEAD") == s.a.revParse("HEAD"))
        #expect(try GitCLI.run(["for-each-ref", "refs/ledger"], in: s.b.root).stdout.isEmpty)
    }

    /// In step but for an uncommitted change, the reset keeps only that and the branch does not
    /// move (libgit2 then writes no reflog entry): `ledger undo` still brings that work back,
    /// as the reset says, and does not take back the sync before it instead.
    @Test func undoBringsBackUncommittedWorkAResetKeptWithoutMovingTheBranch() throws {
        let s = try HistoryScenario()
        try s.start()
        try s.divergeAndMerge()  // the phone's last sync is a merge: what a wrong undo would take back
        let b = s.b
        HistoryScenario.ok(b.run("moments", "add", "a walk", env: HistoryScenario.at("22:10:00")))
        let head = try b.revParse("HEAD")
        let reset = b.run("sync", "--reset-to-remote", "--yes", "--json")
        HistoryScenario.ok(reset)
        let kept = try #require(reset.json["kept"]?.stringValue, "\(reset)")
        #expect(try b.revParse("HEAD") == head && b.files(under: "moments/experiences").isEmpty)
        let undo = b.run("undo", "--yes")
        HistoryScenario.ok(undo)
        #expect(undo.stdout.contains("Bringing back the work kept at \(kept)"), "\(undo)")
        #expect(b.files(under: "moments/experiences").count == 1)
        #expect(b.document(s.recipePath(b))?["defaultDose"] == .number(16), "the merge is not taken back")
    }
}
