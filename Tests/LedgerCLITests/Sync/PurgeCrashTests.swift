import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// A real `ledger purge` killed with SIGKILL — at each named point of it (the testing aid
/// `LEDGER_PURGE_KILL_AT`) and at seeded random instants — then the next commands: the purge is
/// finished or rolled back, never half. Whole: every repository (this ledger, the remote, the
/// other device) holds the record and none of the purged content. Nothing: none holds the
/// record, the content is where it was, and nothing of the purge is left behind.
@Suite struct PurgeCrashTests {
    static func at(_ time: String) -> [String: String] { ["LEDGER_NOW": "2026-11-21T\(time)+01:00"] }

    /// A remote and two devices in step, with a secret note to purge.
    static func setUp() throws -> (fixture: SyncFixture, a: TestLedger, b: TestLedger, note: String) {
        let fixture = try SyncFixture()
        let a = try fixture.origin(now: "2026-11-21T08:00:00+01:00")
        let note = try #require(a.run("moments", "add", "a secret note y5rw1", "--json", env: Self.at("09:00:00")).json["path"]?.stringValue)
        #expect(a.run("moments", "add", "coffee with Sam", env: Self.at("09:05:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone(now: "2026-11-21T09:10:00+01:00")
        #expect(b.run("moments", "add", "tea", env: Self.at("09:15:00")).status == 0)
        #expect(b.run("sync").status == 0)
        #expect(a.run("sync").status == 0)
        return (fixture, a, b, note)
    }

    static func holding(_ repo: String, _ needle: String) throws -> Int {
        try GitCLI.run(["cat-file", "--batch-all-objects", "--batch"], in: repo).stdout.components(separatedBy: needle).count - 1
    }

    /// The next commands after the kill — any command first (it finishes what can be finished
    /// here), then a sync of both devices — and the verdict: whole or nothing. Returns whether
    /// the purge happened.
    @discardableResult
    static func expectWholeOrNothing(_ fixture: SyncFixture, _ a: TestLedger, _ b: TestLedger, note: String, remoteBefore: String) throws -> Bool {
        for repo in [a.root, fixture.remote] {
            let fsck = try GitCLI.fsck(repo)
            #expect(fsck == nil, "\(repo): \(fsck ?? "")")
        }
        let next = a.run("moments", "today", env: Self.at("10:01:00"))
        #expect(next.status == 0, "\(next)")
        let sync = a.run("sync", env: Self.at("10:02:00"))
        #expect(sync.status == 0, "\(sync)")
        #expect(b.run("sync", env: Self.at("10:03:00")).status == 0)
        #expect(a.run("sync", env: Self.at("10:04:00")).status == 0)
        let purged = !a.files(under: "purges").isEmpty
        #expect(!FileManager.default.fileExists(atPath: a.root + "/.git/ledger/purge.json"), "the journal is gone: \(next)\n\(sync)")
        #expect(try GitCLI.run(["rev-parse", "-q", "--verify", "refs/ledger/purge"], in: a.root).status != 0)
        #expect(try a.headTree() == b.headTree())
        #expect(try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout == GitCLI.run(["rev-parse", "main"], in: a.root).stdout)
        for repo in [a.root, b.root, fixture.remote] {
            let found = try Self.holding(repo, "y5rw1")
            if purged { #expect(found == 0, "purged, yet \(repo) holds the note in \(found) objects") } else { #expect(found >= 1, "not purged, yet \(repo) lost the note") }
        }
        for l in [a, b] {
            #expect((l.read(note) == nil) == purged)
            #expect(!l.files(under: "purges").isEmpty == purged, "\(l.root)")
            #expect(l.run("check").status == 0)
            #expect(try l.gitStatus().isEmpty)
            #expect(l.files(under: "moments/experiences").count == (purged ? 2 : 3))
        }
        if !purged { #expect(try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout == remoteBefore, "nothing rewritten") }
        return purged
    }

    @Test(arguments: PurgeCheckpoint.allCases)
    func aPurgeKilledAtAnyPointIsFinishedOrRolledBack(_ point: PurgeCheckpoint) throws {
        let (fixture, a, b, note) = try Self.setUp()
        let remoteBefore = try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout
        let killed = try a.runBinary("purge", note, "--yes", env: Self.at("10:00:00").merging(["LEDGER_PURGE_KILL_AT": point.rawValue]) { $1 })
        #expect(killed.status == SIGKILL, "\(point.rawValue) was not reached: \(killed)")
        let purged = try Self.expectWholeOrNothing(fixture, a, b, note: note, remoteBefore: remoteBefore)
        // Before the journal nothing had happened: rolled back. From it on: finished.
        #expect(purged == (point != .afterRewrite), "\(point.rawValue)")
    }

    /// Killed while it moved the branch, after it removed a purged file from the work tree and
    /// before it wrote the index: the next command takes the move again, and the index follows
    /// the file already gone — nothing staged is left to keep the content.
    @Test func aPurgeKilledWhileItMovedTheBranchLeavesNothingStaged() throws {
        let l = try TestLedger(now: "2026-11-21T08:00:00+01:00")
        let note = try #require(l.run("moments", "add", "a secret note p2kd9", "--json", env: Self.at("09:00:00")).json["path"]?.stringValue)
        #expect(try GitCLI.run(["add", "-A"], in: l.root).status == 0)
        #expect(try GitCLI.run(["commit", "-q", "-m", "moments"], in: l.root).status == 0)
        let killed = try l.runBinary("purge", note, "--yes", env: Self.at("10:00:00").merging(["LEDGER_PURGE_KILL_AT": PurgeCheckpoint.afterJournal.rawValue]) { $1 })
        #expect(killed.status == SIGKILL, "\(killed)")
        // What the move had done when it was killed: the file removed, the index not written yet.
        try FileManager.default.removeItem(atPath: l.root + "/" + note)
        let next = l.run("moments", "today", env: Self.at("10:01:00"))
        #expect(next.status == 0 && next.stderr.contains("finished the purge"), "\(next)")
        let status = try l.gitStatus()
        #expect(status.isEmpty, "\(status)")
        #expect(try Self.holding(l.root, "p2kd9") == 0)
        #expect(l.run("check").status == 0)
    }

    /// Kills at instants drawn from a seeded generator, over the whole length of a purge.
    @Test(arguments: 0..<12)
    func aPurgeKilledAtARandomInstantIsFinishedOrRolledBack(_ round: Int) throws {
        var random = SplitMix64(seed: 0x9E3779B9 &+ UInt64(round))
        let (fixture, a, b, note) = try Self.setUp()
        let remoteBefore = try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout
        let delay = UInt32(random.next() % 900_000)  // microseconds: a purge of this ledger takes about half a second
        let process = try Processes.spawn(LedgerBinary.path, ["purge", note, "--yes"], environment: a.environment.merging(Self.at("10:00:00")) { $1 },
                                          currentDirectory: a.root)
        usleep(delay)
        kill(process.pid, SIGKILL)
        let r = process.wait()
        #expect(r.status == 0 || r.status == 128 + SIGKILL, "\(r)")
        try Self.expectWholeOrNothing(fixture, a, b, note: note, remoteBefore: remoteBefore)
    }
}
