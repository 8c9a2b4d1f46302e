import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// `ledger init --remote URL` on a second machine (where `clone` was meant) makes a ledger
/// with no history in common with the remote's: its defaults must never overwrite the real
/// settings through a "later write wins" merge without a common ancestor.
@Suite struct UnrelatedHistoryTests {
    @Test func aLedgerStillAsInitMadeItTakesTheRemotesHistory() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "settings", "set", "warningThreshold", "4").status == 0)
        #expect(a.run("sync").status == 0)
        let c = try TestLedger(now: "2026-11-21T23:00:00+01:00", initialize: false)
        #expect(c.run("init", "--remote", fixture.remote).status == 0)
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
        let d = try TestLedger(now: "2026-11-21T23:00:00+01:00", initialize: false)
        #expect(d.run("init", "--remote", fixture.remote).status == 0)
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
}
