import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// SPEC §6 scenarios for Waterline between clones of one remote: every side ends with the
/// same tree and a clean `check`.
@Suite struct WaterlineSyncTests {
    static func at(_ time: String) -> [String: String] { ["LEDGER_NOW": "2026-11-21T\(time)+01:00"] }

    static func expectConverged(_ ledgers: [TestLedger]) throws {
        for l in ledgers { #expect(l.run("sync").status == 0) }
        let tree = try ledgers[0].headTree()
        for l in ledgers {
            #expect(try l.headTree() == tree)
            #expect(try l.gitStatus().isEmpty)
            let check = l.run("check", "--json")
            #expect(check.status == 0 && check.json["warnings"] == .number(0), "\(check)")
        }
    }

    static func entryIDs(_ l: TestLedger) -> [String] {
        l.run("waterline", "entries", "--json").json.arrayValue?.compactMap { $0["id"]?.stringValue }.sorted() ?? []
    }

    @Test func concurrentEntriesAreUnionedAndTheWaterlineRecomputed() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "start", env: Self.at("21:00:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        // Offline: two beers here, a water and a double there.
        #expect(a.run("waterline", "drink", "--preset", "beer", env: Self.at("21:10:00")).status == 0)
        #expect(a.run("waterline", "drink", "--preset", "beer", env: Self.at("21:40:00")).status == 0)
        #expect(b.run("waterline", "water", env: Self.at("21:20:00")).status == 0)
        #expect(b.run("waterline", "drink", "--preset", "double", env: Self.at("21:50:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let r = b.run("sync", "--json")
        #expect(r.status == 0, "\(r)")
        #expect(r.json["resolved"]?.arrayValue?.count == 1)
        #expect(r.json["resolved"]?.arrayValue?.first?["kind"]?.stringValue == "waterline.session")
        try Self.expectConverged([a, b])
        for l in [a, b] {
            let status = l.run("waterline", "status", "--json").json
            #expect(status["totalAlcoholCount"] == .number(3))
            #expect(status["totalWaterCount"] == .number(1))
            #expect(status["totalStandardDrinks"] == .number(4))
            // beer +1, water −1, beer +1, double +2
            #expect(status["waterlineValue"] == .number(3))
            #expect(Self.entryIDs(l).count == 4)
        }
    }

    @Test func deletionsAndEditsOfEntriesFollowTheRules() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "start", env: Self.at("21:00:00")).status == 0)
        for t in ["21:10:00", "21:20:00", "21:30:00"] {
            #expect(a.run("waterline", "drink", env: Self.at(t)).status == 0)
        }
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        let ids = Self.entryIDs(a)
        #expect(ids.count == 3)
        // ids[0]: deleted here, unchanged there → deleted. ids[1]: deleted here, edited there → edited.
        #expect(a.run("waterline", "delete", ids[0], env: Self.at("22:00:00")).status == 0)
        #expect(a.run("waterline", "delete", ids[1], env: Self.at("22:00:00")).status == 0)
        #expect(b.run("waterline", "edit", ids[1], "--std", "2", env: Self.at("22:05:00")).status == 0)
        #expect(a.run("sync").status == 0)
        #expect(b.run("sync").status == 0)
        try Self.expectConverged([a, b])
        for l in [a, b] {
            #expect(Self.entryIDs(l) == [ids[1], ids[2]].sorted())
            #expect(l.run("waterline", "status", "--json").json["totalStandardDrinks"] == .number(3))
        }
    }

    @Test func sessionsStartedOnTwoMachinesWhileOfflineEndWithOneActive() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let b = try fixture.clone()
        #expect(a.run("waterline", "start", env: Self.at("21:00:00")).status == 0)
        #expect(a.run("waterline", "drink", env: Self.at("21:05:00")).status == 0)
        #expect(b.run("waterline", "start", env: Self.at("21:02:00")).status == 0)
        #expect(b.run("waterline", "water", env: Self.at("21:07:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let r = b.run("sync", "--json")
        #expect(r.status == 0, "\(r)")
        #expect(r.json["reconciled"]?.arrayValue?.isEmpty == false, "\(r)")
        try Self.expectConverged([a, b])
        for l in [a, b] {
            let sessions = l.run("waterline", "sessions", "--json").json.arrayValue ?? []
            #expect(sessions.filter { $0["isActive"] == .bool(true) }.count == 1)
            #expect(Self.entryIDs(l).count == 2)
        }
    }

    @Test func aSessionEndedOnOneMachineAndLoggedOnTheOtherKeepsEveryEntry() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "start", env: Self.at("21:00:00")).status == 0)
        #expect(a.run("waterline", "drink", env: Self.at("21:05:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        #expect(a.run("waterline", "end", "--yes", env: Self.at("22:00:00")).status == 0)
        #expect(b.run("waterline", "water", env: Self.at("22:30:00")).status == 0)
        #expect(a.run("sync").status == 0)
        #expect(b.run("sync").status == 0)
        try Self.expectConverged([a, b])
        for l in [a, b] {
            let s = l.run("waterline", "summary", "--json").json
            #expect(s["totalAlcoholCount"] == .number(1))
            #expect(s["totalWaterCount"] == .number(1))
        }
    }

    /// US-035 of the later PRD: a session and a preset deleted on one machine stay deleted
    /// when merged with unchanged copies — by `ledger sync` on one machine and by plain
    /// `git pull` on another — while one deleted here and edited there survives.
    @Test func deletedSessionsAndPresetsStayDeleted() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "start", "--time", "21:00", env: Self.at("21:30:00")).status == 0)
        #expect(a.run("waterline", "drink", "--time", "21:10", env: Self.at("21:30:00")).status == 0)
        #expect(a.run("waterline", "end", "--yes", env: Self.at("21:30:00")).status == 0)
        for name in ["Hazy IPA", "Cider"] { #expect(a.run("waterline", "presets", "add", name, "--type", "beer").status == 0) }
        #expect(a.run("sync").status == 0)
        let session = try #require(a.files(under: "waterline/sessions").first)
        let b = try fixture.clone()
        // A machine that uses plain git: a clone, with ledger's merge driver registered.
        let c = try TestLedger(initialize: false)
        #expect(try GitCLI.run(["clone", "-q", fixture.remote, c.root], in: "/").status == 0)
        #expect(c.run("init").status == 0)

        // Deleted here…
        let id = (session as NSString).lastPathComponent.replacingOccurrences(of: ".json", with: "")
        #expect(a.run("waterline", "sessions", "delete", id, "--yes").status == 0)
        for name in ["Hazy IPA", "Cider"] { #expect(a.run("waterline", "presets", "delete", name).status == 0) }
        #expect(a.run("sync").status == 0)
        // …while the other machines changed something else (so that they merge), and one
        // edited a deleted preset.
        #expect(b.run("waterline", "presets", "add", "Stout", "--type", "beer").status == 0)
        #expect(b.run("waterline", "presets", "edit", "cider", "--abv", "4.5").status == 0)
        #expect(b.run("sync").status == 0)
        #expect(c.run("waterline", "presets", "add", "Porter", "--type", "beer").status == 0)
        #expect(try GitCLI.run(["add", "-A"], in: c.root).status == 0)
        #expect(try GitCLI.run(["commit", "-q", "-m", "porter"], in: c.root).status == 0)
        let pull = try GitCLI.run(["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], in: c.root)
        #expect(pull.status == 0, "\(pull)")
        #expect(try GitCLI.run(["push", "-q", "origin", "main"], in: c.root).status == 0)
        #expect(a.run("sync").status == 0)
        #expect(b.run("sync").status == 0)

        for l in [a, b, c] {
            #expect(l.read(session) == nil, "the session stays deleted")
            #expect(l.read("waterline/presets/hazy-ipa.json") == nil, "the preset stays deleted")
            #expect(l.document("waterline/presets/cider.json")?["abv"] == .number(4.5), "an edit beats a deletion")
            #expect(l.read("waterline/presets/stout.json") != nil && l.read("waterline/presets/porter.json") != nil)
            #expect(l.run("waterline", "sessions", "--json").json.arrayValue?.isEmpty == true)
            #expect(l.run("check").status == 0)
        }
        #expect(try a.headTree() == b.headTree())
        #expect(try c.headTree() == a.headTree())
    }

    /// What the README says of a deleted session: the history keeps it until `ledger purge`
    /// removes it from every repository.
    @Test func aDeletedSessionLeavesTheHistoryOnlyWhenItIsPurged() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "start", "--time", "21:00", env: Self.at("21:30:00")).status == 0)
        #expect(a.run("waterline", "drink", env: Self.at("21:30:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        let path = try #require(a.files(under: "waterline/sessions").first)
        let id = (path as NSString).lastPathComponent.replacingOccurrences(of: ".json", with: "")
        #expect(a.run("waterline", "sessions", "delete", id, "--yes", env: Self.at("21:40:00")).status == 0)
        #expect(a.run("sync").status == 0)
        func history(_ repo: String) throws -> String { try GitCLI.run(["log", "--all", "--format=%H", "--", path], in: repo).stdout }
        #expect(try !history(fixture.remote).isEmpty, "the deletion leaves the history as it was")
        let first = try history(fixture.remote).split(separator: "\n").last.map(String.init) ?? ""
        #expect(try GitCLI.run(["show", "\(first):\(path)"], in: fixture.remote).stdout.contains(id))

        let purge = a.run("purge", id, "--yes", env: Self.at("21:50:00"))
        #expect(purge.status == 0, "\(purge)")
        #expect(b.run("sync").status == 0)
        for repo in [a.root, b.root, fixture.remote] {
            #expect(try history(repo).isEmpty, "\(repo)")
            #expect(try GitCLI.run(["rev-list", "--all", "--objects"], in: repo).stdout.contains(path) == false)
        }
        let fresh = try fixture.clone()
        #expect(fresh.run("check").status == 0)
        #expect(fresh.run("waterline", "presets", "add", "Stout", "--type", "beer").status == 0)
        #expect(fresh.run("sync").status == 0, "the new history syncs as any other")
    }

    @Test func anInvalidSessionNeverLeavesTheMachine() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "start", env: Self.at("21:00:00")).status == 0)
        let path = try #require(a.files(under: "waterline/sessions").first)
        let text = try #require(a.read(path))
        try a.write(path, text.replacingOccurrences(of: "\"startTime\"", with: "\"startTme\""))
        let r = a.run("sync")
        #expect(r.status == 1)
        #expect(r.stderr.contains(path))
        #expect(try GitCLI.run(["ls-tree", "-r", "--name-only", "main"], in: fixture.remote).stdout.contains("waterline/sessions") == false)
    }
}
