import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

@Suite struct WaterlineDocumentTests {
    let sessionType = DocumentType(Session.self)

    /// A session as ledger writes it, as an editable JSON object.
    func written(_ pattern: String = "DDW", endAfter: Int? = nil) -> JSONObject {
        WaterlineFixture.session(pattern, endAfter: endAfter).json.objectValue!
    }

    func set(_ o: inout JSONObject, _ pointer: [String], _ value: JSONValue?) {
        func go(_ v: JSONValue?, _ path: ArraySlice<String>) -> JSONValue? {
            guard let key = path.first else { return value }
            switch v {
            case .object(var obj)?:
                obj[key] = go(obj[key], path.dropFirst())
                return .object(obj)
            case .array(var arr)?:
                let i = Int(key)!
                if let new = go(arr[i], path.dropFirst()) { arr[i] = new } else { arr.remove(at: i) }
                return .array(arr)
            default: return value
            }
        }
        o = go(.object(o), pointer[...])!.objectValue!
    }

    func issues(_ o: JSONObject) -> [DocumentIssue] { sessionType.inspect(.object(o)).issues }

    @Test func aSessionAsLedgerWritesItHasNoIssues() {
        #expect(issues(written()).isEmpty)
        #expect(issues(written("DXWD", endAfter: 90)).isEmpty)
        #expect(issues(WaterlineFixture.session("").json.objectValue!).isEmpty)
    }

    @Test func aChangedEstimateMakesTheStoredStateStaleAndTheFixRecomputesIt() {
        var active = written("DDW")
        set(&active, ["entries", "0", "alcoholMeta", "standardDrinkEstimate"], .number(2))
        let stale = sessionType.inspect(.object(active)).issues
        #expect(stale.contains { $0.pointer.description == "/state/waterlineValue" && $0.fixable && $0.severity == .warning
            && $0.message == "derived value is stale: stored 1, a recompute gives 2" })
        #expect(stale.allSatisfy { $0.fixable })

        var ended = written("DDW", endAfter: 60)
        set(&ended, ["entries", "0", "alcoholMeta", "standardDrinkEstimate"], .number(2))
        let inspection = sessionType.inspect(.object(ended))
        #expect(inspection.issues.contains { $0.pointer.description == "/computedSummary/finalWaterlineValue" && $0.fixable })
        #expect(inspection.normalized?["state"]?["waterlineValue"] == .number(2))
        #expect(inspection.normalized?["computedSummary"]?["totalStandardDrinks"] == .number(3))
    }

    @Test func aRemovedEntryIsRecomputed() {
        var o = written("DDW")
        set(&o, ["entries", "2"], nil)
        let inspection = sessionType.inspect(.object(o))
        #expect(inspection.issues.contains { $0.pointer.description == "/state/totalWaterCount" && $0.message.contains("stored 1, a recompute gives 0") })
        #expect(inspection.normalized?["state"]?["waterlineValue"] == .number(2))
    }

    @Test func aStaleOrMangledSummaryIsOnlyStale() {
        var o = written("DW", endAfter: 30)
        set(&o, ["computedSummary", "adherencePercent"], .number(12))
        set(&o, ["state"], .string("whatever"))
        let found = issues(o)
        #expect(!found.hasErrors)
        #expect(found.contains { $0.pointer.description == "/computedSummary/adherencePercent" && $0.fixable })
        #expect(found.contains { $0.pointer.description == "/state" && $0.fixable })
    }

    struct Invalid: Sendable, CustomTestStringConvertible {
        var path: [String]
        var value: JSONValue?
        var pointer: String
        var says: String
        var testDescription: String { pointer + " " + says }
    }

    @Test(arguments: [
        Invalid(path: ["entries", "0", "type"], value: .string("beer"), pointer: "/entries/0/type", says: "must be one of \"alcohol\", \"water\""),
        Invalid(path: ["entries", "1", "source"], value: .string("phnoe"), pointer: "/entries/1/source", says: "did you mean 'phone'?"),
        Invalid(path: ["entries", "0", "alcoholMeta", "drinkType"], value: .string("wine cooler"), pointer: "/entries/0/alcoholMeta/drinkType", says: "must be one of"),
        Invalid(path: ["entries", "0", "alcoholMeta", "standardDrinkEstimate"], value: .string("1"), pointer: "/entries/0/alcoholMeta/standardDrinkEstimate", says: "must be a number"),
        Invalid(path: ["entries", "0", "alcoholMeta", "standardDrinkEstimate"], value: .number(0), pointer: "/entries/0/alcoholMeta/standardDrinkEstimate", says: "must be more than 0"),
        Invalid(path: ["entries", "0", "alcoholMeta"], value: nil, pointer: "/entries/0/alcoholMeta", says: "an alcohol entry needs alcoholMeta"),
        Invalid(path: ["entries", "2", "waterMeta", "units"], value: .string("cups"), pointer: "/entries/2/waterMeta/units", says: "must be one of \"oz\", \"ml\""),
        Invalid(path: ["entries", "2", "waterMeta", "amount"], value: .number(-8), pointer: "/entries/2/waterMeta/amount", says: "must be at least 1 ml"),
        Invalid(path: ["entries", "1", "timestamp"], value: .string("2026-11-21T20:59:00+01:00"), pointer: "/entries/1/timestamp", says: "before the session started"),
        Invalid(path: ["entries", "1", "timestamp"], value: .string("21:30"), pointer: "/entries/1/timestamp", says: "ISO-8601"),
        Invalid(path: ["entries", "1", "id"], value: .string("e0"), pointer: "/entries/1/id", says: "duplicate entry id"),
        Invalid(path: ["entries", "1", "id"], value: .string("E 1"), pointer: "/entries/1/id", says: "not a valid entry id"),
        Invalid(path: ["waterEveryNDrinks"], value: .number(0), pointer: "/waterEveryNDrinks", says: "a whole number of drinks from 1"),
        Invalid(path: ["warningThreshold"], value: .number(0), pointer: "/warningThreshold", says: "between 1 and 100"),
        Invalid(path: ["isActive"], value: .bool(false), pointer: "/isActive", says: "endTime is null"),
        Invalid(path: ["endTime"], value: .string("2026-11-21T20:00:00+01:00"), pointer: "/isActive", says: "endTime is set"),
        Invalid(path: ["startTime"], value: nil, pointer: "/startTime", says: "required field \"startTime\" is missing"),
    ])
    func handEditsAreReportedWithTheirPointer(_ c: Invalid) {
        var o = written("DDW")
        set(&o, c.path, c.value)
        let errors = issues(o).filter { $0.severity == .error }
        #expect(errors.contains { $0.pointer.description == c.pointer && $0.message.contains(c.says) }, "\(errors)")
    }

    @Test func anEntryAfterTheEndIsAWarning() {
        var o = written("DDW", endAfter: 30)
        set(&o, ["entries", "2", "timestamp"], .string("2026-11-21T21:45:00+01:00"))
        let found = issues(o)
        #expect(!found.hasErrors)
        #expect(found.contains { $0.pointer.description == "/entries/2/timestamp" && $0.message.contains("after the session ended") })
    }

    @Test func settingsRules() {
        let settings = DocumentType(WaterlineSettings.self)
        var o = WaterlineSettings(createdAt: WaterlineFixture.start).json.objectValue!
        #expect(settings.inspect(.object(o)).issues.isEmpty)
        o["waterEveryNDrinks"] = .number(0)
        o["warningThreshold"] = .number(-1)
        o["units"] = .string("litres")
        let errors = settings.inspect(.object(o)).issues.filter { $0.severity == .error }.map(\.pointer.description)
        // SPEC §4, "reports *every* problem": each field's own range is judged beside another
        // field's enum error, one problem per field.
        #expect(Set(errors) == ["/units", "/waterEveryNDrinks", "/warningThreshold"])
        #expect(errors.count == 3)
        o["units"] = .string("ml")
        let ranges = settings.inspect(.object(o)).issues.filter { $0.severity == .error }.map(\.pointer.description)
        #expect(Set(ranges) == ["/waterEveryNDrinks", "/warningThreshold"])
        // A missing field takes the seeds' default, and check offers to write it.
        var minimal = WaterlineSettings(createdAt: WaterlineFixture.start).json.objectValue!
        minimal["waterEveryNDrinks"] = nil
        let missing = settings.inspect(.object(minimal))
        #expect(missing.issues.map(\.message) == ["missing; ledger writes 1"])
        #expect(missing.issues.allSatisfy { $0.fixable })
    }

    @Test func theDefaultsAreTheSeeds() {
        let s = WaterlineSettings(createdAt: WaterlineFixture.start)
        #expect(s.waterEveryNDrinks == 1 && s.timeRemindersEnabled && s.timeReminderIntervalMinutes == 20)
        #expect(s.warningThreshold == 2 && s.waterAmount == 8 && s.units == .oz && s.discreetNotifications && s.abandonedAfterHours == 12)
        #expect(VolumeUnit.ml.defaultWaterAmount == 250)
        let presets = DrinkPreset.defaults(createdAt: WaterlineFixture.start)
        #expect(presets.map(\.id) == ["beer", "glass-of-wine", "shot", "cocktail", "double"])
        #expect(presets.map(\.name) == ["Beer", "Glass of Wine", "Shot", "Cocktail", "Double"])
        #expect(presets.map(\.sizeOz) == [12, 5, 1.5, nil, 3])
        #expect(presets.map(\.standardDrinkEstimate) == [1, 1, 1, 1, 2])
        let paths = WaterlineApp.initialDocuments(now: WaterlineFixture.start).map(\.path)
        #expect(paths.contains("waterline/settings.json") && paths.contains("waterline/presets/glass-of-wine.json"))
    }

    @Test func oneActiveSessionAcrossDocuments() throws {
        let dir = TemporaryDirectory("waterline-rule")
        let store = LedgerStore.plain(dir.path)
        try store.write("ledger.json", LedgerManifest(createdAt: WaterlineFixture.start).json)
        // An ended night, then the active one.
        var earlier = WaterlineFixture.session("", id: "b", endAfter: -30)
        earlier.startTime = WaterlineFixture.at(-60)
        earlier.recomputeDerived()
        try store.write("waterline/sessions/2026/a.json", WaterlineFixture.session("D", id: "a").json)
        try store.write("waterline/sessions/2026/b.json", earlier.json)
        #expect(try Checker(store: store, useCache: false).check().problems.isEmpty)
        try store.write("waterline/sessions/2026/b.json", WaterlineFixture.session("W", id: "b").json)
        let problems = try Checker(store: store, useCache: false).check().problems
        // Reported by the one rule (two active sessions are not also "overlapping").
        #expect(problems.map(\.path) == ["waterline/sessions/2026/a.json", "waterline/sessions/2026/b.json"])
        #expect(problems.allSatisfy { $0.severity == .error && $0.issue.pointer.description == "/isActive" && $0.message.contains("only one session may be active") })
    }

    /// Many active sessions: each is reported once, naming three others and counting the rest.
    @Test func manyActiveSessionsAreEachReportedOnceWithACount() throws {
        let dir = TemporaryDirectory("waterline-rule-many")
        let store = LedgerStore.plain(dir.path)
        try store.write("ledger.json", LedgerManifest(createdAt: WaterlineFixture.start).json)
        for i in 0..<6 { try store.write("waterline/sessions/2026/s\(i).json", WaterlineFixture.session("D", id: "s\(i)").json) }
        let problems = try Checker(store: store, useCache: false).check().problems
        #expect(problems.count == 6)
        #expect(problems[0].message.hasPrefix("only one session may be active, but so are waterline/sessions/2026/s1.json, waterline/sessions/2026/s2.json, waterline/sessions/2026/s3.json and 2 more;"), "\(problems[0].message)")
    }
}

@Suite struct OverlappingSessionsTests {
    let dir = TemporaryDirectory("waterline-overlap")
    var store: LedgerStore { LedgerStore.plain(dir.path) }

    func ended(_ id: String, from start: Int, to end: Int) -> Session {
        var s = WaterlineFixture.session("", id: id, endAfter: end)
        s.startTime = WaterlineFixture.at(start)
        s.createdAt = s.startTime
        s.updatedAt = max(s.updatedAt, s.createdAt)  // a change never comes before the creation
        return s.recomputed
    }

    @Test func overlappingEndedSessionsAreAnErrorNamingBoth() throws {
        try store.write("ledger.json", LedgerManifest(createdAt: WaterlineFixture.start).json)
        for s in [ended("first", from: 0, to: 120), ended("second", from: 60, to: 180), ended("after", from: 180, to: 200)] {
            try store.write(s.path, s.json)
        }
        let problems = try Checker(store: store, useCache: false).check().problems
        #expect(problems.map(\.path).sorted() == ["waterline/sessions/2026/first.json", "waterline/sessions/2026/second.json"])
        #expect(problems.allSatisfy { $0.severity == .error && $0.issue.pointer.description == "/startTime" })
        #expect(problems.first { $0.path.hasSuffix("first.json") }?.message
            == "this session (2026-11-21T21:00:00+01:00 to 2026-11-21T23:00:00+01:00) overlaps another: second (2026-11-21T22:00:00+01:00 to 2026-11-22T00:00:00+01:00); a night out is one session — correct the times, or move the entries of one into the other and delete it")
        #expect(problems.first { $0.path.hasSuffix("second.json") }?.message.contains("overlaps another: first (2026-11-21T21:00:00+01:00 to ") == true)
        // Sessions that only touch (one ends as the next starts) do not overlap.
        try FileManager.default.removeItem(atPath: dir.path + "/waterline/sessions/2026/first.json")
        #expect(try Checker(store: store).check().problems.isEmpty)
    }

    /// An ended session overlapping the active one (what a `git pull` leaves when one device
    /// ended a night another kept logging into) is reported, with what merges them.
    @Test func anEndedSessionOverlappingTheActiveOneIsReported() throws {
        try store.write("ledger.json", LedgerManifest(createdAt: WaterlineFixture.start).json)
        var active = WaterlineFixture.session("", id: "tonight")
        active.startTime = WaterlineFixture.at(60)
        active.createdAt = active.startTime
        active.updatedAt = max(active.updatedAt, active.createdAt)
        for s in [ended("earlier", from: 0, to: 90), active.recomputed] { try store.write(s.path, s.json) }
        let problems = try Checker(store: store, useCache: false).check().problems
        #expect(problems.map(\.path).sorted() == ["waterline/sessions/2026/earlier.json", "waterline/sessions/2026/tonight.json"])
        let onActive = try #require(problems.first { $0.path.hasSuffix("tonight.json") })
        #expect(onActive.message.hasPrefix("this session (from 2026-11-21T22:00:00+01:00, active) overlaps another: earlier (2026-11-21T21:00:00+01:00 to 2026-11-21T22:30:00+01:00);"), "\(onActive.message)")
        #expect(onActive.message.hasSuffix("the next change in Waterline merges them"), "\(onActive.message)")
    }

    /// Each session is reported once, however many it overlaps: its count and the nearest
    /// three by start (the bench runs thousands of copies of one night).
    @Test func eachSessionIsReportedOnceWithHowManyItOverlaps() throws {
        try store.write("ledger.json", LedgerManifest(createdAt: WaterlineFixture.start).json)
        let copies = 40
        for i in 0..<copies { let s = ended(String(format: "copy%02d", i), from: 0, to: 120); try store.write(s.path, s.json) }
        let later = ended("later", from: 100, to: 200)
        try store.write(later.path, later.json)
        let problems = try Checker(store: store, useCache: false).check().problems
        #expect(problems.count == copies + 1)
        #expect(Set(problems.map(\.path)).count == copies + 1)
        let first = try #require(problems.first { $0.path.hasSuffix("copy00.json") })
        #expect(first.message.contains("overlaps \(copies) others: copy01 (2026-11-21T21:00:00+01:00 to 2026-11-21T23:00:00+01:00), copy02 ("), "\(first.message)")
        #expect(first.message.contains(", copy03 (") && first.message.contains(" and \(copies - 3) more;"), "\(first.message)")
        let last = try #require(problems.first { $0.path.hasSuffix("later.json") })
        #expect(last.message.contains("overlaps \(copies) others: copy37 (") && last.message.contains("copy39 (") && last.message.contains(" and \(copies - 3) more;"), "\(last.message)")
    }
}
