import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// The store operations, and above all the device-local hint that finds the active session
/// without reading every session: it must notice sessions arriving by sync and hand edits.
@Suite struct WaterlineStoreTests {
    let dir = TemporaryDirectory("waterline-store")
    var store: LedgerStore { LedgerStore.plain(dir.path) }
    var waterline: WaterlineStore { WaterlineStore(store) }

    init() throws {
        try store.write("ledger.json", LedgerManifest(createdAt: WaterlineFixture.start).json)
        for (path, doc) in WaterlineApp.initialDocuments(now: WaterlineFixture.start) { try store.write(path, doc) }
    }

    var hintPath: String { dir.path + "/.local/waterline-active.json" }

    /// Logs a drink (one standard drink) at `minute` with the id `id`.
    @discardableResult
    func drink(_ minute: Int, id: String, std: Double? = nil, now: Int? = nil) throws -> WaterlineStore.Logged {
        try waterline.logDrink(WaterlineStore.DrinkOrder(standardDrinks: std, time: WaterlineFixture.at(minute)),
                               now: WaterlineFixture.at(now ?? minute), ids: FixedIDs(id))
    }

    /// Logs water (the default amount) at `minute` with the id `id`.
    @discardableResult
    func water(_ minute: Int, id: String, now: Int? = nil) throws -> WaterlineStore.Logged {
        try waterline.logWater(at: WaterlineFixture.at(minute), now: WaterlineFixture.at(now ?? minute), ids: FixedIDs(id))
    }

    /// Starts session `id` at `minute`.
    @discardableResult
    func start(_ id: String, at minute: Int, now: Int? = nil) throws -> Session {
        try waterline.start(at: WaterlineFixture.at(minute), now: WaterlineFixture.at(now ?? minute), ids: FixedIDs(id)).session
    }

    /// Writes a session file as another program would (sync, an editor), without ledger.
    func writeBehindLedgersBack(_ s: Session, inPlace: Bool = false) throws {
        let path = dir.path + "/" + s.path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if inPlace {
            // Truncate and rewrite the same file, as nano or VS Code do: the directory does not change.
            let h = try #require(FileHandle(forWritingAtPath: path))
            try h.truncate(atOffset: 0)
            try h.write(contentsOf: Data(CanonicalJSON.encode(s.recomputed.json)))
            try h.close()
        } else {
            try Data(CanonicalJSON.encode(s.recomputed.json)).write(to: URL(fileURLWithPath: path))
        }
    }

    @Test func startLogEndKeepsTheHintRight() throws {
        #expect(try waterline.activeSession().active == nil)
        let s = try start("night1", at: 0)
        #expect(FileManager.default.fileExists(atPath: hintPath))
        #expect(try waterline.activeSession().active?.session.id == s.id)
        try drink(10, id: "a")
        #expect(try waterline.activeSession().active?.session.entries.map(\.id) == ["a"])
        #expect(throws: LedgerError.self) { try start("night2", at: 11) }
        _ = try waterline.end(at: WaterlineFixture.at(20), now: WaterlineFixture.at(20))
        #expect(try waterline.activeSession().active == nil)
        #expect(try waterline.session("night1").storedSummary["durationMinutes"] == .number(20))
    }

    @Test func entriesLoggedAtTheSameInstantKeepTheirOrder() throws {
        try start("night", at: 0)
        // "zzz" would replay after "aaa" if both had the same instant.
        try drink(10, id: "zzz")
        let logged = try water(10, id: "aaa")
        #expect(logged.session.entries.map(\.id) == ["zzz", "aaa"])
        #expect(logged.step.entry.timestamp == WaterlineFixture.at(10).adding(seconds: 0.001))
        #expect(logged.session.state.alcoholCountSinceLastWater == 0)
    }

    @Test func aSessionArrivingBySyncIsNoticed() throws {
        #expect(try waterline.activeSession().active == nil)  // the hint now says "none"
        let other = WaterlineFixture.session("DW", id: "fromphone")
        try writeBehindLedgersBack(other)
        #expect(try waterline.activeSession().active?.session.id == "fromphone")
    }

    @Test func aSessionArrivingInAnotherYearIsNoticed() throws {
        try start("now", at: 0)
        var old = WaterlineFixture.session("D", id: "lastyear")
        old.startTime = Timestamp(iso8601: "2025-12-31T22:00:00+01:00")!
        old.entries[0].timestamp = Timestamp(iso8601: "2025-12-31T22:10:00+01:00")!
        old.createdAt = old.startTime
        try writeBehindLedgersBack(old)
        // Two active sessions a day apart: the older one is ended at its last log.
        let (active, notes) = try waterline.activeSession()
        #expect(active?.session.id == "now")
        #expect(notes.count == 1)
        #expect(try waterline.session("lastyear").endTime == old.entries[0].timestamp)
    }

    @Test func twoActiveSessionsOfOneNightAreMergedOnFirstUse() throws {
        try start("laptop", at: 0)
        try drink(10, id: "l1")
        var phone = WaterlineFixture.session("", id: "phone")
        phone.startTime = WaterlineFixture.at(5)
        phone.entries = [WaterlineFixture.water(12, id: "p1")]
        try writeBehindLedgersBack(phone)
        let (active, notes) = try waterline.activeSession()
        #expect(active?.session.id == "laptop")
        #expect(active?.session.entries.map(\.id) == ["l1", "p1"])
        #expect(notes.first?.contains("merged phone") == true)
        #expect(throws: LedgerError.self) { try waterline.session("phone") }
        let report = try Checker(store: store, useCache: false).check()
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test func endingTheActiveSessionByHandInPlaceIsNoticed() throws {
        var ended = try start("night", at: 0)
        ended.endTime = WaterlineFixture.at(30)
        ended.isActive = false
        try writeBehindLedgersBack(ended, inPlace: true)
        #expect(try waterline.activeSession().active == nil)
    }

    @Test func aDamagedOrMissingHintOnlyCostsAScan() throws {
        try start("night", at: 0)
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: hintPath))
        #expect(try waterline.activeSession().active?.session.id == "night")
        try FileManager.default.removeItem(atPath: hintPath)
        #expect(try waterline.activeSession().active?.session.id == "night")
        #expect(FileManager.default.fileExists(atPath: hintPath))
    }

    @Test func aHintPointingAtAnotherSessionIsNotTrusted() throws {
        try start("night", at: 0)
        _ = try waterline.activeSession()
        // The hinted file replaced (same path) by a session with another id: rescan.
        var text = try String(contentsOfFile: hintPath, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"session\": \"night\"", with: "\"session\": \"other\"")
        try text.write(toFile: hintPath, atomically: true, encoding: .utf8)
        #expect(try waterline.activeSession().active?.session.id == "night")
    }

    @Test func anInvalidActiveSessionIsRefusedWithCheckMessages() throws {
        let s = try start("night", at: 0)
        try "{\"id\": \"night\", \"isActive\": true}".write(toFile: dir.path + "/" + s.path, atomically: false, encoding: .utf8)
        #expect { try waterline.activeSession() } throws: { error in
            let e = error as? LedgerError
            return e?.code == .invalid && e?.problems.contains { $0.issue.pointer.description == "/startTime" } == true
        }
    }

    @Test func recentSessionsReadOnlyTheNewestYears() throws {
        for (i, year) in [2019, 2024, 2025, 2026].enumerated() {
            var s = WaterlineFixture.session("D", id: "y\(year)", endAfter: 30)
            let start = Timestamp(iso8601: "\(year)-06-0\(i + 1)T21:00:00+02:00")!
            s.startTime = start
            s.endTime = start.adding(minutes: 30)
            s.entries[0].timestamp = start.adding(minutes: 5)
            try writeBehindLedgersBack(s)
        }
        #expect(try waterline.recentSessions(limit: 2).map(\.id) == ["y2026", "y2025"])
        #expect(try waterline.allSessions().map(\.id) == ["y2026", "y2025", "y2024", "y2019"])
    }

    @Test func entriesAreFoundInAnySession() throws {
        var past = WaterlineFixture.session("DW", id: "past", endAfter: 40)
        past.entries[0].id = "pastdrink1"
        try writeBehindLedgersBack(past)
        try start("night", at: 100)
        try drink(110, id: "nowdrink1")
        #expect(try waterline.findEntry("nowd").session.id == "night")
        #expect(try waterline.findEntry("pastd").session.id == "past")
        let edited = try waterline.editEntry("pastdrink1", change: .init(standardDrinks: 2), now: WaterlineFixture.at(120))
        #expect(edited.session.storedSummary["totalStandardDrinks"] == .number(2))
        #expect(try waterline.activeSession().active?.session.id == "night")
        #expect(throws: LedgerError.self) { try waterline.findEntry("zzz") }
    }

    @Test func aStartOverlappingAnEndedSessionIsRefusedHoweverItsFileIsWritten() throws {
        // An ended session, 21:00–23:00, in a hand-written file (one line, not ledger's layout):
        // the quick look at the "endTime" line cannot read it, and the session is decoded.
        var ended = WaterlineFixture.session("DW", id: "handmade", endAfter: 120)
        ended.createdAt = WaterlineFixture.at(0)
        ended.updatedAt = WaterlineFixture.at(120)
        let path = dir.path + "/" + ended.path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try CanonicalJSON.compact(ended.recomputed.json).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: LedgerError.self) { try start("night2", at: 60, now: 150) }
        // The same session as ledger writes it.
        try writeBehindLedgersBack(ended)
        do {
            try start("night2", at: -30, now: 150)
            Issue.record("a session from 20:30 to now overlaps 21:00–23:00")
        } catch let e as LedgerError {
            #expect(e.code == .invalid)
            #expect(e.message.contains("session handmade, which ran from 2026-11-21T21:00:00+01:00 to 2026-11-21T23:00:00+01:00"))
        }
        #expect(try start("night2", at: 120, now: 150).isActive)
    }
}
