import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// `ledger undo` on real histories, beside `git revert` of the same commits.
@Suite struct UndoCommandTests {
    /// A copy of a clone (its own directory and `.git`), to run plain git on the same history.
    static func copy(_ l: TestLedger, _ name: String) throws -> String {
        let path = l.directory.path + "/" + name
        let r = try Processes.run("/bin/cp", ["-a", l.root, path])
        #expect(r.status == 0, "\(r)")
        return path
    }

    static func tree(_ path: String, _ rev: String = "HEAD") throws -> String {
        try GitCLI.run(["rev-parse", rev + "^{tree}"], in: path).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func undoTakesBackTheLastSyncsMergeAsGitRevertDoesAndUndoingTheUndoRestoresIt() throws {
        let s = try HistoryScenario()
        try s.start()
        try s.divergeAndMerge()
        let b = s.b
        let merge = try b.revParse("HEAD")
        let before = try b.revParse("HEAD^1")
        let session = s.sessionPath(b)
        #expect(b.run("waterline", "entries", "--json").json.arrayValue?.count == 4)
        let reverted = try Self.copy(b, "reverted")

        // What it would do, then nothing without a terminal and without --yes.
        let preview = b.run("undo", "--dry-run")
        HistoryScenario.ok(preview)
        #expect(preview.stdout.contains("Taking back \(merge.prefix(7)), the last sync of"))
        #expect(preview.stdout.contains("  Waterline: night of Sat 21 Nov — drink at 21:40 deleted"))
        #expect(preview.stdout.contains("  BrewGuide: recipe Morning V60 (Conflicted Copy) — deleted"))
        let refused = b.run("undo")
        #expect(refused.status == 2 && refused.stderr.contains("needs a confirmation: run it on a terminal or pass --yes"), "\(refused)")
        #expect(try b.revParse("HEAD") == merge)
        // Asked on a terminal: "n" keeps everything.
        let declined = b.run("undo", stdin: ["n"], terminal: true)
        #expect(declined.status == 0 && declined.stdout.contains("Undo it? [y/N]") && declined.stdout.contains("Nothing was changed."))
        #expect(try b.revParse("HEAD") == merge)

        let undo = b.run("undo", stdin: ["y"], terminal: true)
        HistoryScenario.ok(undo)
        let undoCommit = try b.revParse("HEAD")
        #expect(try b.revParse("HEAD^") == merge, "a new commit on top: no history rewritten")
        #expect(try Self.tree(b.root) == Self.tree(b.root, before), "the phone's documents as they were before the sync")
        #expect(try b.gitStatus().isEmpty)
        #expect(b.run("check", "--json").json["errors"] == .number(0))
        #expect(b.run("waterline", "entries", "--json").json.arrayValue?.count == 3)
        let message = try GitCLI.run(["log", "-1", "--format=%B"], in: b.root).stdout
        #expect(message.hasPrefix("ledger undo on phone: take back \(merge.prefix(7))"))
        #expect(message.contains("Undoes: \(merge)\n") && message.contains("Restores: \(before)\n"))

        // git revert -m 1 of the same merge reaches the same documents: the merge's changes
        // to the first parent undone. What differs: git must be told the parent (-m 1) and
        // the merge (ledger undo finds the last sync in the branch's reflog), and its commit
        // says "Revert" where ledger's names the device and the commit, which `ledger log` reads.
        let r = try GitCLI.run(["revert", "--no-edit", "-m", "1", merge], in: reverted)
        #expect(r.status == 0, "\(r)")
        #expect(try Self.tree(reverted) == Self.tree(b.root))
        #expect(try GitCLI.run(["log", "-1", "--format=%s"], in: reverted).stdout.hasPrefix("Revert \"ledger sync on phone: merge origin/main\""))

        // The log says how to get the other side back, and it does: undoing the undo.
        let log = b.run("log", "--limit", "1")
        #expect(log.stdout.contains("phone  undo of \(merge.prefix(7))\n"))
        #expect(log.stdout.contains("  to bring back what it took back: ledger undo \(undoCommit.prefix(7))"))
        let again = b.run("undo")
        #expect(again.status == 1 && again.stderr.contains("was already taken back by \(undoCommit.prefix(7))"), "\(again)")
        // With --json, the refusal's object (it was the plan's, with "dryRun": true).
        let againJSON = b.run("undo", "--yes", "--json")
        #expect(againJSON.status == 1 && againJSON.json["outcome"] == .string("refused")
                && againJSON.json["error"]?.stringValue?.contains("was already taken back by \(undoCommit.prefix(7))") == true, "\(againJSON)")
        HistoryScenario.ok(b.run("undo", String(undoCommit.prefix(7)), "--yes"))
        #expect(try Self.tree(b.root) == Self.tree(b.root, merge))
        #expect(b.run("waterline", "entries", "--json").json.arrayValue?.count == 4)
        #expect(b.read(session) != nil)

        // Safe after the push: the next syncs carry the undo to the other device.
        HistoryScenario.ok(b.run("undo", "HEAD", "--yes"))
        HistoryScenario.ok(b.run("sync"))
        HistoryScenario.ok(s.a.run("sync"))
        #expect(try s.a.headTree() == b.headTree())
        #expect(s.a.run("waterline", "entries", "--json").json.arrayValue?.count == 3)
        #expect(s.a.run("check", "--json").json["errors"] == .number(0))
    }

    @Test func whatChangedSinceStaysAndPlainGitsLineMergeCannotDoThat() throws {
        let s = try HistoryScenario()
        try s.start()
        try s.divergeAndMerge()
        let b = s.b
        let merge = try b.revParse("HEAD")
        // After the merge, another drink on the phone.
        HistoryScenario.ok(b.run("waterline", "drink", "--preset", "beer", env: HistoryScenario.at("22:30:00")))
        HistoryScenario.ok(b.run("sync"))
        let withDriver = try UndoCommandTests.copy(b, "with-driver")
        let withoutDriver = try UndoCommandTests.copy(b, "without-driver")

        let undo = b.run("undo", merge, "--yes", "--json")
        HistoryScenario.ok(undo)
        let changes = undo.json["changes"]?.arrayValue ?? []
        #expect(changes.contains { $0["text"]?.stringValue == "Waterline: night of Sat 21 Nov — drink at 21:40 deleted" })
        // Taken back again, it changes nothing: the refusal, with no word of merging the
        // session changed since (a merge that made nothing).
        let again = b.run("undo", merge, "--yes")
        #expect(again.status == 1 && again.stderr.contains("was already taken back") && !again.stdout.contains("Merged with what changed since"), "\(again)")
        // The laptop's drink goes, the phone's drinks stay — the one after the merge too —
        // and the state is recomputed: check finds nothing stale.
        let times = b.run("waterline", "entries", "--json").json.arrayValue?.compactMap { $0["timestamp"]?.stringValue } ?? []
        #expect(times.map { String($0.dropFirst(11).prefix(5)) } == ["21:10", "21:20", "21:50", "22:30"])
        let check = b.run("check", "--json")
        #expect(check.json["errors"] == .number(0) && check.json["warnings"] == .number(0), "\(check)")

        // git revert with ledger's merge driver (registered in the clone) merges the session the
        // same way: the same documents.
        let r = try GitCLI.run(["revert", "--no-edit", "-m", "1", merge], in: withDriver)
        #expect(r.status == 0, "\(r)")
        #expect(try UndoCommandTests.tree(withDriver) == UndoCommandTests.tree(b.root))
        // Without it (plain git on a machine where ledger is not installed), git merges JSON
        // line by line: the session changed since, and its derived state with it, conflict.
        try FileManager.default.createDirectory(atPath: withoutDriver + "/.git/info", withIntermediateDirectories: true)
        try "*.json merge=text\n".write(toFile: withoutDriver + "/.git/info/attributes", atomically: true, encoding: .utf8)
        let plain = try GitCLI.run(["revert", "--no-edit", "-m", "1", merge], in: withoutDriver)
        #expect(plain.status != 0)
        let session = try String(contentsOfFile: withoutDriver + "/" + s.sessionPath(b), encoding: .utf8)
        #expect(session.contains("<<<<<<<"))
    }

    @Test func aFastForwardSyncIsTakenBackAsOneCommitWhereGitRevertsEachCommit() throws {
        let s = try HistoryScenario()
        try s.start()
        // The laptop syncs two changes; the phone, with nothing of its own, fast-forwards.
        HistoryScenario.ok(s.a.run("waterline", "drink", "--preset", "beer", env: HistoryScenario.at("21:40:00")))
        HistoryScenario.ok(s.a.run("sync"))
        HistoryScenario.ok(s.a.run("moments", "add", "coffee with Sam", env: HistoryScenario.at("21:45:00")))
        HistoryScenario.ok(s.a.run("sync"))
        let before = try s.b.revParse("HEAD")
        HistoryScenario.ok(s.b.run("sync"))
        let after = try s.b.revParse("HEAD")
        let reverted = try UndoCommandTests.copy(s.b, "reverted")
        #expect(s.b.run("undo", after, "--dry-run", "--json").json["commitsTakenBack"] == .number(1), "a commit named is one commit")
        let undo = s.b.run("undo", "--yes")
        HistoryScenario.ok(undo)
        // The sync taken back is this device's, which brought the laptop's two commits: not
        // the laptop's last commit, as it used to be told.
        #expect(undo.stdout.contains("Taking back the last sync, which brought 2 commits, the last \(after.prefix(7)) of"), "\(undo)")
        #expect(try s.b.revParse("HEAD^") == after)
        #expect(try UndoCommandTests.tree(s.b.root) == UndoCommandTests.tree(s.b.root, before))
        let r = try GitCLI.run(["revert", "--no-edit", "\(before)..\(after)"], in: reverted)
        #expect(r.status == 0, "\(r)")
        #expect(try GitCLI.run(["rev-list", "--count", "\(after)..HEAD"], in: reverted).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
        #expect(try UndoCommandTests.tree(reverted) == UndoCommandTests.tree(s.b.root))
    }

    /// A fresh clone has no sync of its own on record: the undo takes back the newest merge in
    /// the history, and says it is that — which device made it and when — not "the last sync".
    @Test func aFreshCloneSaysItTakesBackTheNewestMergeNotItsLastSync() throws {
        let s = try HistoryScenario()
        try s.build()
        let merge = try s.b.revParse("HEAD")
        let c = try s.fixture.clone()
        #expect(try c.revParse("HEAD") == merge)
        let undo = c.run("undo", "--dry-run")
        HistoryScenario.ok(undo)
        #expect(undo.stdout.contains("Taking back \(merge.prefix(7)), the newest merge in the history (no sync of this device is on record), made on phone at "), "\(undo)")
        #expect(undo.stdout.contains("(ledger sync on phone: merge origin/main), restoring the documents of \(try s.b.revParse("HEAD^1").prefix(7))"), "\(undo)")
        #expect(!undo.stdout.contains("the last sync"))
        #expect(c.run("undo", "--dry-run", "--json").json["chosen"] == .string("newestMerge"))
        // The phone, whose sync made it, still calls it its last sync.
        #expect(s.b.run("undo", "--dry-run").stdout.contains("Taking back \(merge.prefix(7)), the last sync of"))
        #expect(s.b.run("undo", "--dry-run", "--json").json["chosen"] == .string("lastSync"))
        #expect(s.b.run("undo", String(merge), "--dry-run", "--json").json["chosen"] == .string("named"))
    }

    @Test func aDryRunChangesNoByteAndUncommittedEditsAreNeverOverwritten() throws {
        let s = try HistoryScenario()
        try s.start()
        try s.divergeAndMerge()
        let b = s.b
        let gitBefore = try TestLedger.digestTree(b.root + "/.git")
        let treeBefore = try TestLedger.digestTree(b.root)
        HistoryScenario.ok(b.run("undo", "--dry-run", "--json"))
        #expect(try TestLedger.digestTree(b.root + "/.git") == gitBefore)
        #expect(try TestLedger.digestTree(b.root) == treeBefore)
        // An uncommitted edit of a document the undo would change: refused, nothing written.
        HistoryScenario.ok(b.run("waterline", "water", env: HistoryScenario.at("22:40:00")))
        let head = try b.revParse("HEAD")
        let edited = b.read(s.sessionPath(b))
        let refused = b.run("undo", "--yes")
        #expect(refused.status == 1 && refused.stderr.contains("uncommitted changes (\(s.sessionPath(b)))"), "\(refused)")
        #expect(try b.revParse("HEAD") == head)
        #expect(b.read(s.sessionPath(b)) == edited)
        #expect(b.run("undo", "nonsense").status == 1)
        #expect(b.run("undo", "--json").status == 2)
    }
}
