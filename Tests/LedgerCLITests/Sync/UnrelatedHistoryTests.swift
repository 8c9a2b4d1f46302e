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

    /// The remote records a purge this ledger never saw: honouring it rewrites nothing here,
    /// and the refusal that follows leaves this sync's commit with an index to match — plain
    /// `git status` is clean, and no later command has an "interrupted sync" to repair.
    @Test func theRefusalAfterHonouringARemotesPurgeLeavesAnIndexMatchingTheCommit() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let added = a.run("moments", "add", "to forget for good")
        let path = try #require(added.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(a.run("sync").status == 0)
        #expect(a.run("purge", path, "--yes").status == 0)
        let d = try TestLedger(now: "2026-11-21T23:00:00+01:00", initialize: false)
        #expect(d.run("init", "--remote", fixture.remote).status == 0)
        #expect(d.run("moments", "add", "coffee with Sam").status == 0)
        let r = d.run("sync")
        #expect(r.status == 1 && r.stderr.contains("have no history in common"), "\(r)")
        #expect(try d.gitStatus() == "")
        #expect(try GitCLI.run(["log", "--format=%s", "-1"], in: d.root).stdout.contains("DotLife Moments 1 experience added"))
        #expect(try GitCLI.fsck(d.root) == nil)
        let next = d.run("status")
        #expect(!next.stderr.contains("interrupted sync"), "\(next)")
    }
}
