import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// A real `ledger sync` process killed with SIGKILL at each named point (the testing aid
/// `LEDGER_SYNC_KILL_AT`): the repository stays valid, nothing is lost, and the next sync
/// finishes the job.
@Suite struct CrashSafetyTests {
    static func at(_ time: String) -> [String: String] { ["LEDGER_NOW": "2026-11-21T\(time)+01:00"] }

    @Test(arguments: SyncCheckpoint.allCases)
    func aSyncKilledAtAnyPointLosesNothing(_ point: SyncCheckpoint) throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "start", env: Self.at("21:00:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        // Both sides change the same session (a real merge) and b adds a file of its own.
        #expect(a.run("waterline", "drink", env: Self.at("21:10:00")).status == 0)
        try a.write("waterline/from-a.json", "{}\n")
        #expect(a.run("sync").status == 0)
        #expect(b.run("waterline", "water", env: Self.at("21:05:00")).status == 0)
        try b.write("waterline/from-b.json", "{}\n")

        let killed = try b.runBinary("sync", env: ["LEDGER_SYNC_KILL_AT": point.rawValue])
        // The binary's run reports a death by signal as the signal's number.
        #expect(killed.status == SIGKILL, "\(point.rawValue) was not reached: \(killed)")

        for repo in [b.root, fixture.remote] {
            let fsck = try GitCLI.fsck(repo)
            #expect(fsck == nil, "\(repo): \(fsck ?? "")")
        }
        let next = b.run("sync")
        #expect(next.status == 0, "\(next)")
        #expect(a.run("sync").status == 0)
        #expect(try a.headTree() == b.headTree())
        for l in [a, b] {
            #expect(try l.gitStatus().isEmpty)
            #expect(l.run("check").status == 0)
            #expect(l.read("waterline/from-a.json") != nil)
            #expect(l.read("waterline/from-b.json") != nil)
            let status = l.run("waterline", "status", "--json").json
            #expect(status["totalAlcoholCount"] == .number(1))
            #expect(status["totalWaterCount"] == .number(1))
        }
    }
}
