import Foundation
@testable import LedgerKit
import LedgerTestSupport
import Testing

/// The store operations, and above all the device-local hint that finds the active session
/// without reading every session: it must notice sessions arriving by sync and hand edits.
@Suite struct WaterlineStoreTests {
    let dir = TemporaryDirectory("waterline-store")
    var store: LedgerStore { LedgerStore.plain(dir.path) }
    var waterline: WaterlineStore { WaterlineStore(store) }

    init() throws {
        _ = try WaterlineFixture.ledger(in: dir)
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

    /// A write records the stamps of the folders it wrote and keeps those of the others as
    /// they were checked: a session written by hand into an older year while a drink was being
    /// logged (after the drink's check, before its hint) is noticed by the next command. Had
    /// the write stamped every year folder again, the new file would hide behind the hint
    /// until `check` (2019 is not among the two newest years, whose files are watched).
    @Test func aWriteKeepsTheCheckedStampsOfTheFoldersItDidNotTouch() throws {
        func session(_ id: String, on day: String, ended: Bool) -> Session {
            var s = WaterlineFixture.session("D", id: id, endAfter: ended ? 30 : nil)
            s.startTime = Timestamp(iso8601: day + "T22:00:00+02:00")!
            s.entries[0].timestamp = Timestamp(iso8601: day + "T22:10:00+02:00")!
            s.endTime = ended ? Timestamp(iso8601: day + "T22:30:00+02:00")! : nil
            s.createdAt = s.startTime
            return s
        }
        try writeBehindLedgersBack(session("y2019", on: "2019-06-01", ended: true))
        try writeBehindLedgersBack(session("y2025", on: "2025-06-01", ended: true))
        try start("now", at: 0)
        let active = try #require(waterline.activeSession().active)
        // Meanwhile, by hand: an active session in 2019.
        let byHand = session("byhand", on: "2019-06-08", ended: false)
        try writeBehindLedgersBack(byHand)
        // The drink's write of its own session, and its hint, which looks written an hour from
        // now: no file is racily clean, only the stamps can tell.
        try store.withWriterLock { waterline.recordHint(active, written: [active.path]) }
        var times = [timespec(tv_sec: time(nil) + 3600, tv_nsec: 0), timespec(tv_sec: time(nil) + 3600, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, hintPath, &times, 0) == 0)
        let (found, notes) = try waterline.activeSession()
        #expect(found?.session.id == "now" && notes.count == 1, "\(notes)")
        #expect(try waterline.session("byhand").endTime == byHand.entries[0].timestamp)
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

    /// An old session re-opened by an edit in place (no directory changes) while another is
    /// active: the next command sees it without `check` and merges them, as `check` says —
    /// with the file changed just before the hint was written (racily clean: it is read) and
    /// with every file older than the hint (only the digest of the files' stamps can tell).
    @Test(arguments: [false, true])
    func anOldSessionReopenedInPlaceIsMergedByTheNextCommand(filesOlderThanTheHint: Bool) throws {
        var past = WaterlineFixture.session("DW", id: "past", endAfter: 40)
        try writeBehindLedgersBack(past)
        try start("tonight", at: 100)
        try drink(110, id: "t1")
        #expect(try waterline.activeSession().active?.session.id == "tonight")
        if filesOlderThanTheHint {
            // A hint that looks written an hour from now: no file is racily clean.
            var times = [timespec(tv_sec: time(nil) + 3600, tv_nsec: 0), timespec(tv_sec: time(nil) + 3600, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, hintPath, &times, 0) == 0)
            #expect(try waterline.activeSession().notes.isEmpty)
        }
        past.endTime = nil
        past.isActive = true
        try writeBehindLedgersBack(past, inPlace: true)
        let (active, notes) = try waterline.activeSession()
        #expect(notes.first?.contains("were both active") == true, "\(notes)")
        #expect(active?.session.entries.map(\.id).sorted() == ["e0", "e1", "t1"])
        #expect(try Checker(store: store).check().problems.isEmpty)
    }

    /// A fixture session moved `days` back (its start, entries, end and stamps).
    func daysBack(_ s: Session, _ days: Int) -> Session {
        var s = s
        let shift = Double(-days * 1440)
        s.startTime = s.startTime.adding(minutes: shift)
        s.endTime = s.endTime?.adding(minutes: shift)
        s.createdAt = s.createdAt.adding(minutes: shift)
        s.updatedAt = s.updatedAt.adding(minutes: shift)
        for i in s.entries.indices {
            s.entries[i].timestamp = s.entries[i].timestamp.adding(minutes: shift)
            s.entries[i].updatedAt = s.entries[i].updatedAt?.adding(minutes: shift)
        }
        return s
    }

    /// The hint watches the files of the two newest year folders changed last one by one, and
    /// the older ones by their folders' stamps only (a `stat` per session of the whole history would
    /// make every command grow with it): a session of last year re-opened in place is seen by
    /// the next command; one of three years ago is seen by `check`, which reports it and
    /// drops the hint, so that the next command merges them as `check` says.
    @Test(arguments: [1, 3])
    func aPastYearsSessionReopenedInPlace(yearsBack: Int) throws {
        try writeBehindLedgersBack(daysBack(WaterlineFixture.session("D", id: "lastyear", endAfter: 40), 372))
        var old = daysBack(WaterlineFixture.session("D", id: "old", endAfter: 40), 365 * yearsBack)
        try writeBehindLedgersBack(old)
        try start("tonight", at: 100)
        try drink(110, id: "t1")
        // A hint that looks written an hour from now: no file is racily clean.
        var times = [timespec(tv_sec: time(nil) + 3600, tv_nsec: 0), timespec(tv_sec: time(nil) + 3600, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, hintPath, &times, 0) == 0)
        #expect(try waterline.activeSession().notes.isEmpty)
        old.endTime = nil
        old.isActive = true
        try writeBehindLedgersBack(old, inPlace: true)
        if yearsBack > 1 {
            #expect(try waterline.activeSession().notes.isEmpty, "an older year's files are not watched one by one")
            let report = try Checker(store: store).check()
            #expect(report.problems.contains { $0.path == old.path && $0.message.contains("only one session may be active") })
            #expect(!FileManager.default.fileExists(atPath: hintPath), "check drops the hint it proved stale")
        }
        // Two active sessions years apart: the older one is ended at its last log.
        let (active, notes) = try waterline.activeSession()
        #expect(active?.session.id == "tonight")
        #expect(notes.first?.contains("were both active") == true, "\(notes)")
        #expect(try waterline.session("old").endTime == old.entries.last?.timestamp)
        #expect(try Checker(store: store).check().problems.isEmpty)
    }

    /// Within the newest years, the hint watches one by one only the sessions changed last
    /// (`ActiveSessionHint.watchedFiles` of them, so that a year of nights costs no `stat`
    /// each on every command): the night ended most recently, re-opened by an edit in place,
    /// is seen by the next command; one changed before all the watched ones is seen by
    /// `check`, which drops the hint, and then by the next command.
    @Test(arguments: [true, false])
    func onlyTheSessionsChangedLastAreWatchedInPlace(reopenTheLatest: Bool) throws {
        let count = ActiveSessionHint.watchedFiles + 4
        var nights: [Session] = []
        for n in 0..<count {
            let night = daysBack(WaterlineFixture.session("D", id: "night\(n)", endAfter: 40), count - n)
            try writeBehindLedgersBack(night)
            // Changed in the order of the nights, a minute apart.
            var times = [timespec(tv_sec: time(nil) - 3600 + n * 60, tv_nsec: 0), timespec(tv_sec: time(nil) - 3600 + n * 60, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, dir.path + "/" + night.path, &times, 0) == 0)
            nights.append(night)
        }
        try start("tonight", at: 100)
        try drink(110, id: "t1")
        var times = [timespec(tv_sec: time(nil) + 3600, tv_nsec: 0), timespec(tv_sec: time(nil) + 3600, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, hintPath, &times, 0) == 0)
        #expect(try waterline.activeSession().notes.isEmpty)
        let hint = try #require(ActiveSessionHint.read(store))
        #expect(hint.files.keys.sorted() == nights.suffix(ActiveSessionHint.watchedFiles).map(\.path).sorted())
        var reopened = reopenTheLatest ? nights[count - 1] : nights[0]
        reopened.endTime = nil
        reopened.isActive = true
        try writeBehindLedgersBack(reopened, inPlace: true)
        if !reopenTheLatest {
            #expect(try waterline.activeSession().notes.isEmpty, "a file changed before the watched ones is not stamped")
            #expect(try Checker(store: store).check().problems.contains { $0.path == reopened.path })
            #expect(!FileManager.default.fileExists(atPath: hintPath), "check drops the hint it proved stale")
        }
        let (active, notes) = try waterline.activeSession()
        #expect(active?.session.id == "tonight")
        #expect(notes.first?.contains("were both active") == true, "\(notes)")
    }

    /// What a `git pull` leaves when this device ended a night and started another while a
    /// second device kept logging into the first (the merge driver moves the first's end to
    /// that drink): an ended session overlapping the active one. The next command makes them
    /// one re-opened session, exactly as a sync's reconciliation does.
    @Test func anEndedSessionOverlappingTheActiveOneIsMergedAsASyncWould() throws {
        try start("first", at: 0)
        try drink(10, id: "f1")
        _ = try waterline.end(at: WaterlineFixture.at(40), now: WaterlineFixture.at(40))
        var pulled = try waterline.session("first")
        let second = try start("second", at: 60)
        try drink(65, id: "s1")
        pulled.entries.append(WaterlineFixture.drink(70, id: "other"))
        pulled.endTime = WaterlineFixture.at(70)
        try writeBehindLedgersBack(pulled)
        let expected = SessionMerge.reconcile([pulled.recomputed, try waterline.session("second")])
        let (active, notes) = try waterline.activeSession()
        #expect(notes == expected.notes && notes.first?.contains("overlapped") == true, "\(notes)")
        #expect(active?.session.id == "first" && active?.session.isActive == true)
        #expect(active?.session.entries.map(\.id) == expected.updated.first?.entries.map(\.id))
        #expect(active?.session.entries.map(\.id) == ["f1", "s1", "other"])
        #expect(throws: LedgerError.self) { try waterline.session(second.id) }
        #expect(try Checker(store: store).check().problems.isEmpty)
    }

    @Test func aListingThatMeetsTwoActiveSessionsMergesThem() throws {
        var past = WaterlineFixture.session("DW", id: "past", endAfter: 40)
        try writeBehindLedgersBack(past)
        try start("tonight", at: 100)
        past.endTime = nil
        past.isActive = true
        try writeBehindLedgersBack(past, inPlace: true)
        let (sessions, notes) = try waterline.listSessions(limit: 5)
        #expect(sessions.documents.filter(\.isActive).count == 1)
        #expect(notes.contains { $0.contains("were both active") })
    }

    @Test func anOversizeEndedSessionDoesNotStopTheActiveOne() throws {
        // An ended session as ledger writes it, with a field too large for a document at its end.
        var huge = WaterlineFixture.session("DW", id: "huge", endAfter: 40)
        huge.unknownFields["zzzNotes"] = .string(String(repeating: "x", count: LedgerStore.maximumDocumentBytes))
        try writeBehindLedgersBack(huge)
        try start("tonight", at: 100)
        try FileManager.default.removeItem(atPath: hintPath)
        #expect(try waterline.activeSession().active?.session.id == "tonight")
        try drink(110, id: "t1")
        let report = try Checker(store: store, useCache: false).check()
        #expect(report.problems.contains { $0.path == huge.path && $0.message.contains("larger than") })
        // Open, it could be the active session: it is refused, not skipped.
        huge.endTime = nil
        huge.isActive = true
        try writeBehindLedgersBack(huge)
        try FileManager.default.removeItem(atPath: hintPath)
        #expect(throws: LedgerError.self) { try waterline.activeSession() }
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
        var text = String(decoding: try #require(FileSystem.readCache(hintPath, limit: 1 << 20)), as: UTF8.self)
        #expect(text.contains("\"session\": \"night\""))
        text = text.replacingOccurrences(of: "\"session\": \"night\"", with: "\"session\": \"other\"")
        try FileSystem.writeCache(hintPath, Array(text.utf8))
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

/// The façade's intents and reads, one user intent at a time, on a plain folder.
@Suite struct WaterlineIntentTests {
    let dir = TemporaryDirectory("waterline-intents")
    var store: LedgerStore { LedgerStore.plain(dir.path) }
    var waterline: WaterlineStore { WaterlineStore(store) }

    init() throws {
        _ = try WaterlineFixture.ledger(in: dir)
    }

    func at(_ minute: Int) -> Timestamp { WaterlineFixture.at(minute) }

    @discardableResult
    func drink(_ minute: Int, std: Double? = nil, size: Given<DrinkSize>? = nil, preset: String? = nil, logged: Int? = nil) throws -> WaterlineStore.Logged {
        try waterline.logDrink(WaterlineStore.DrinkOrder(preset: preset, size: size, standardDrinks: std, time: at(minute)),
                               now: at(logged ?? minute), ids: RandomIDSource())
    }

    @discardableResult
    func water(_ minute: Int, logged: Int? = nil) throws -> WaterlineStore.Logged {
        try waterline.logWater(at: at(minute), now: at(logged ?? minute), ids: RandomIDSource())
    }

    func set(_ key: String, _ value: String, at minute: Int = 0) throws {
        _ = try waterline.setSetting(key, to: value, now: at(minute))
    }

    func size(_ text: String) -> Given<DrinkSize> { Given(DrinkSize(parsing: text)!, input: .waterline(.size), text: text) }

    // MARK: - Settings apply from now on (PRD v1 §12: reminders "if alcoholCountSinceLastWater >= N")

    @Test func aChangedNKeepsPastReminderPointsAndTheCurrentStateFollowsIt() throws {
        try set("waterEveryNDrinks", "3")
        let id = try waterline.start(at: at(0), now: at(0), ids: FixedIDs("night")).session.id
        for m in [10, 20, 30] { try drink(m) }
        try water(40)
        #expect(try waterline.session(id).summary(now: at(45)).adherencePercent == 100)
        try set("waterEveryNDrinks", "1", at: 46)
        // The night was paced at N = 3: still 100 %, and nothing else moved.
        let after = try waterline.session(id)
        #expect(after.summary(now: at(47)).adherencePercent == 100)
        #expect(after.waterEveryNDrinks == 1)
        #expect(after.entries.allSatisfy { $0.waterEveryNDrinks == 3 && $0.warningThreshold == 2 })
        // From now on N = 1: one drink makes water due, and that drink is a reminder point.
        let logged = try drink(50)
        #expect(logged.current.drinksUntilWaterDue == 0)
        #expect(logged.nudges == [.perDrinkReminder(drinks: 1)])
        #expect(logged.session.summary(now: at(51)).reminderPoints == 2)
        // A recompute from the file alone, as check and a merge do, agrees.
        let report = try Checker(store: store, useCache: false).check()
        #expect(report.problems.isEmpty, "\(report.problems)")
        let merged = SessionMerge.merge(base: nil, ours: logged.session, theirs: logged.session).document
        #expect(merged.storedSummary == logged.session.storedSummary)
    }

    @Test func entriesWrittenWithoutTheirRulesKeepThoseTheyWereJudgedBy() throws {
        // A session as an older ledger (or a hand edit) writes it: entries record no rules.
        let old = WaterlineFixture.session("DWDD", id: "night")
        #expect(old.entries.allSatisfy { $0.recordedRules == nil })
        try store.write(old.path, old.json)
        let before = old.summary(now: at(50))
        try set("waterEveryNDrinks", "3", at: 50)
        let after = try waterline.session("night")
        #expect(after.summary(now: at(50)).adherencePercent == before.adherencePercent)
        #expect(after.summary(now: at(50)).reminderPoints == before.reminderPoints)
        #expect(after.entries.allSatisfy { $0.recordedRules == WaterlineRules(waterEveryNDrinks: 1, warningThreshold: 2) })
        #expect(after.waterEveryNDrinks == 3)
    }

    @Test func aChangedThresholdKeepsPastWarningsAndAHandEditedOneCountsAtOnce() throws {
        let id = try waterline.start(at: at(0), now: at(0), ids: FixedIDs("night")).session.id
        try drink(10)
        let crossing = try drink(20)  // Waterline 2: the warning fires at threshold 2
        #expect(crossing.nudges.contains(.pacingWarning))
        try set("warningThreshold", "4", at: 25)
        let steps = WaterlineEngine.replay(try waterline.session(id).entries, rules: WaterlineRules(warningThreshold: 4))
        #expect(steps.map(\.pacingWarning) == [false, true], "the past warning stays where it was")
        #expect(try waterline.current().state.isWarning == false, "2 is below the new threshold")
        // A threshold set by hand in the settings file counts at once, without any write.
        var settings = try waterline.settings()
        settings.warningThreshold = 1
        try store.write(WaterlineSettings.kind.path(), settings.json)
        #expect(try waterline.current().state.isWarning)
        #expect(try waterline.current().drinksUntilWaterDue == 0)
        // The next write records it in the session.
        try water(30)
        #expect(try waterline.session(id).warningThreshold == 1)
    }

    // MARK: - Units and servings (PRD v1 §10.1: units oz/ml; US-012: size presets per type)

    @Test func sizesFollowTheUnitsOrCarryTheirOwn() throws {
        try waterline.start(at: at(0), now: at(0), ids: RandomIDSource())
        try set("units", "ml")
        let shot = try waterline.logDrink(.init(type: Given(.liquor, input: .waterline(.drinkType), text: "liquor"), size: size("25")), now: at(1), ids: RandomIDSource())
        #expect(shot.entry.alcoholMeta?.sizeOz == 0.85, "25 is ml with units ml")
        #expect(shot.estimate?.meta.standardDrinkEstimate == 0.6)
        #expect(shot.estimate?.reason == "25 ml at 40% ABV, typical for liquor")
        let pint = try drink(2, size: size("pint"))
        #expect(pint.entry.alcoholMeta?.drinkType == .beer && pint.entry.alcoholMeta?.sizeOz == 16)
        #expect(try drink(3, size: size("12oz")).entry.alcoholMeta?.sizeOz == 12)
        #expect(try drink(4, size: size("double")).entry.alcoholMeta?.standardDrinkEstimate == 2)
        #expect(try drink(5, size: size("strong")).entry.alcoholMeta?.standardDrinkEstimate == 2)
        // A serving of another drink type is refused, naming the type's own servings.
        #expect {
            try waterline.logDrink(.init(type: Given(.wine, input: .waterline(.drinkType), text: "wine"), size: size("pint")), now: at(6), ids: RandomIDSource())
        } throws: { error in
            (error as? LedgerError)?.code == .invalidArgument && (error as? LedgerError)?.message.contains("a wine's servings are glass") == true
        }
        #expect(throws: LedgerError.self) { try drink(7, size: size("3000")) }  // 3 litres
    }

    // MARK: - Notifications describe the state after the change, now (US-019, US-020)

    @Test func aBackdatedDrinkNotifiesOnlyWhatIsTrueNow() throws {
        try waterline.start(at: at(0), now: at(0), ids: RandomIDSource())
        try drink(10)
        try water(20)
        // Before the last water: water is not due now, so no reminder.
        #expect(try drink(15, logged: 25).nudges.isEmpty)
        let crossing = try drink(30)  // drink, drink, water, drink: the Waterline reaches 2
        #expect(crossing.nudges == [.perDrinkReminder(drinks: 1), .pacingWarning])
        // A second drink, backdated into the same crossing, repeats the reminder but not the warning.
        #expect(try drink(25, logged: 40).nudges == [.perDrinkReminder(drinks: 2)])
        #expect(try water(41).nudges.isEmpty)
    }

    // MARK: - Presets in any script, deleted presets and sessions (US-015, US-035 of the later PRD)

    /// Adds a beer preset called `name` (its id from the name, else `generated1`).
    func add(_ name: String) throws -> DrinkPreset {
        try waterline.addPreset(.init(name: Given(name, input: .waterline(.name), text: name), type: Given(.beer, input: .waterline(.drinkType), text: "beer")),
                                now: at(0), ids: FixedIDs("generated1")).preset
    }

    @Test func presetsInAnyScriptGetReadableIds() throws {
        #expect(try add("Пиво").id == "pivo")
        #expect(try add("Kölsch").id == "kolsch")
        #expect(try add("生ビール").id == "shengbiru")
        #expect(try add("〆").id == "generated1", "no Latin spelling: a generated id")
        #expect(throws: LedgerError.self) { try add("🍺") }
        #expect(throws: LedgerError.self) { try add("пиво") }  // the name is taken, whatever its case
        #expect(try waterline.preset("Пиво").id == "pivo")
        #expect(try waterline.preset("kölsch").id == "kolsch")
    }

    /// One rule wherever a preset is named: an exact id first, then the name (or the id in
    /// other letter case) when it picks one preset, and a usage error listing them when it
    /// picks several; two presets with one name (a hand edit) are a `check` warning.
    @Test func aPresetReferenceThatNamesTwoPresetsIsRefused() throws {
        #expect(try add("Пиво").id == "pivo")
        #expect(try add("Pivo").id == "pivo-2")
        #expect(try waterline.preset("pivo").name == "Пиво")  // the exact id
        #expect(try waterline.preset("pivo-2").name == "Pivo")
        #expect(try waterline.preset("пиво").name == "Пиво")  // the name alone
        for ambiguous in ["Pivo", "PIVO", " pivO "] {
            do {
                _ = try waterline.preset(ambiguous)
                Issue.record("\(ambiguous) picked one of two presets")
            } catch let e as LedgerError {
                #expect(e.code == .invalidArgument && e.message.contains("\"Пиво\" (id pivo) and \"Pivo\" (id pivo-2)"), "\(e.message)")
            }
        }
        try waterline.start(at: at(0), now: at(0), ids: RandomIDSource())
        for attempt in [{ _ = try waterline.logDrink(WaterlineStore.DrinkOrder(preset: "Pivo"), now: at(1), ids: RandomIDSource()) },
                        { _ = try waterline.deletePreset("Pivo") }] as [() throws -> Void] {
            #expect { try attempt() } throws: { ($0 as? LedgerError)?.code == .invalidArgument }
        }
        // A hand edit gives two presets one name: a warning on each, and the name is refused.
        let path = dir.path + "/waterline/presets/pivo-2.json"
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"name\": \"Pivo\"", with: "\"name\": \"ПИВО\"")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let warnings = try Checker(store: store, useCache: false).check().problems.filter { $0.message.contains("another preset has the same name") }
        #expect(warnings.map(\.path).sorted() == ["waterline/presets/pivo-2.json", "waterline/presets/pivo.json"] && warnings.allSatisfy { $0.severity == .warning })
        #expect(throws: LedgerError.self) { try waterline.preset("Пиво") }
        #expect(try waterline.preset("pivo").id == "pivo" && waterline.preset("pivo-2").id == "pivo-2")
    }

    @Test func presetsAreAddedEditedAndDeleted() throws {
        let pint = try waterline.addPreset(.init(name: Given("Pint", input: .waterline(.name), text: "Pint"), size: size("pint")), now: at(0), ids: RandomIDSource())
        #expect(pint.preset.drinkType == .beer && pint.preset.sizeOz == 16 && pint.preset.standardDrinkEstimate == 1.3)
        let edited = try waterline.editPreset("pint", .init(abv: Given(7, input: .waterline(.abv), text: "7")), now: at(1))
        #expect(edited.preset.standardDrinkEstimate == 1.9 && edited.preset.updatedAt == at(1))
        #expect(try waterline.deletePreset("Pint").id == "pint")
        #expect(throws: LedgerError.self) { try waterline.preset("pint") }
        #expect(try waterline.presetList().map(\.id) == ["beer", "cocktail", "glass-of-wine", "shot", "double"])
    }

    @Test func aWholeSessionIsDeletedAndTheActiveOneForgotten() throws {
        let past = try waterline.start(at: at(0), now: at(0), ids: FixedIDs("pastnight")).session
        try drink(10)
        _ = try waterline.end(at: at(60), now: at(60))
        let tonight = try waterline.start(at: at(120), now: at(120), ids: FixedIDs("tonight")).session
        #expect(try waterline.deleteSession("past").session?.id == past.id)
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/" + past.path))
        #expect(try waterline.deleteSession(tonight.id).session?.id == tonight.id)
        #expect(try waterline.current().session == nil)
        #expect(try waterline.listSessions(limit: nil).sessions.documents.isEmpty)
        #expect(throws: LedgerError.self) { try waterline.deleteSession("tonight") }
    }

    /// Deleting is a fix: a session a hand edit made invalid (two entries with one id, a
    /// negative size), the active one included, is deleted by its id like a valid one.
    @Test func anInvalidSessionCanBeDeleted() throws {
        /// Rewrites session `id`'s file by hand, in place.
        func handEdit(_ id: String, _ change: (inout [JSONValue]) -> Void) throws {
            let path = dir.path + "/" + (try waterline.session(id)).path
            guard case .object(var json) = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path)))),
                  var entries = json["entries"]?.arrayValue else { throw LedgerError.invalid("not a session") }
            change(&entries)
            json["entries"] = .array(entries)
            try CanonicalJSON.string(.object(json)).write(toFile: path, atomically: false, encoding: .utf8)
        }
        /// Sets member `key` of entry `i`.
        func set(_ entries: inout [JSONValue], _ i: Int, _ key: String, _ value: JSONValue) {
            guard case .object(var e) = entries[i] else { return }
            if key == "sizeOz", case .object(var meta)? = e["alcoholMeta"] { meta[key] = value; e["alcoholMeta"] = .object(meta) } else { e[key] = value }
            entries[i] = .object(e)
        }
        let past = try waterline.start(at: at(0), now: at(0), ids: FixedIDs("pastnight")).session
        try drink(10)
        try drink(20)
        _ = try waterline.end(at: at(60), now: at(60))
        _ = try waterline.start(at: at(120), now: at(120), ids: FixedIDs("tonight"))
        try drink(130, size: size("12oz"))
        try handEdit("pastnight") { set(&$0, 1, "id", $0[0]["id"]!) }
        #expect(throws: LedgerError.self) { try waterline.session("pastnight") }
        let target = try waterline.deletableSession("past")
        #expect(target.id == past.id && target.session == nil && !target.problems.isEmpty)
        #expect(try waterline.deleteSession("past").id == past.id)
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/" + past.path))
        #expect(try waterline.current().session?.id == "tonight")
        // The active one, broken by a negative size: deleted too, and nothing is active after.
        try handEdit("tonight") { set(&$0, 0, "sizeOz", .number(-1)) }
        #expect(throws: LedgerError.self) { try waterline.session("tonight") }
        #expect(try waterline.deleteSession("tonight").session == nil)
        #expect(try waterline.current().session == nil)
    }

    // MARK: - `last` and id prefixes (PRD v1 §10.3 "Edit last entry")

    @Test func lastIsTheNewestEntryAndPrefixesNeedFourCharacters() throws {
        try waterline.start(at: at(0), now: at(0), ids: RandomIDSource())
        let first = try waterline.logDrink(.init(time: at(10)), now: at(10), ids: FixedIDs("abcdef0001")).entry
        let newest = try waterline.logWater(at: at(20), now: at(20), ids: FixedIDs("abcdef0002")).entry
        try drink(5, logged: 25)  // logged last, but earlier in the night
        #expect(try waterline.findEntry("last").entry.id == newest.id)
        #expect(try waterline.editEntry("last", change: .init(time: at(21)), now: at(26)).entry.timestamp == at(21))
        // Too short or ambiguous, the argument is wrong: a usage error (exit status 2), as
        // for sessions and moments; long enough and matching nothing, not found (exit 1).
        func code(_ body: () throws -> Any) -> LedgerError.Code? {
            do { _ = try body(); return nil } catch { return (error as? LedgerError)?.code }
        }
        for short in ["a", "ab", "abc"] {
            #expect(code { try waterline.deleteEntry(short, now: at(27)) } == .invalidArgument)
        }
        #expect(code { try waterline.findEntry("abcd") } == .invalidArgument)  // two entries match
        #expect(code { try waterline.findEntry("zzzz") } == .notFound)
        #expect(code { try waterline.session("a") } == .invalidArgument)
        #expect(try waterline.deleteEntry("abcdef0001", now: at(27)).entry.id == first.id)
        #expect(try waterline.deleteEntry("abcd", now: at(28)).entry.id == newest.id)
        #expect(throws: LedgerError.self) { try waterline.session("a") }
    }

    // MARK: - N has no upper bound (the owner: "any number greater than 0")

    @Test func nIsAnyWholeNumberFromOne() throws {
        try set("waterEveryNDrinks", "1000")
        #expect(try waterline.settings().waterEveryNDrinks == 1000)
        for bad in ["0", "-1", "2.5", "lots"] { #expect(throws: LedgerError.self) { try set("waterEveryNDrinks", bad) } }
        try waterline.start(at: at(0), now: at(0), ids: RandomIDSource())
        try drink(10)
        #expect(try Checker(store: store, useCache: false).check().problems.isEmpty)
    }

    /// The largest N is stated, and is the one a document holds.
    @Test func theLargestNIsStated() throws {
        do {
            try set("waterEveryNDrinks", "9223372036854775807")
            Issue.record("an N no document holds was set")
        } catch let e as LedgerError {
            #expect(e.code == .invalidArgument && e.message.contains("from 1 to 8999999999999999"), "\(e.message)")
        }
        try set("waterEveryNDrinks", "8999999999999999")
        #expect(try Checker(store: store, useCache: false).check().problems.isEmpty)
    }

    /// One limit for a drink's size and an amount of water, 2000 ml, with one message: 68 oz
    /// (2011 ml) and 2010 ml are refused as 2001 ml of water is; 2000 ml, kept as 67.63 oz, is
    /// valid.
    @Test func drinksAndWaterShareOneSizeLimit() throws {
        try waterline.start(at: at(0), now: at(0), ids: RandomIDSource())
        for bad in ["68oz", "2010ml", "2001ml", "67.65oz"] {
            #expect { try drink(1, size: size(bad)) } throws: {
                ($0 as? LedgerError)?.sentence.inputs == [.waterline(.size)] && ($0 as? LedgerError)?.message == "size must be at least 1 ml (0.03 oz) and at most 2000 ml (67.6 oz) (found \"\(bad)\")"
            }
        }
        #expect(try drink(2, std: 5, size: size("2000ml")).entry.alcoholMeta?.sizeOz == 67.63)
        #expect(try drink(3, std: 5, size: size("67.6oz")).entry.alcoholMeta?.sizeOz == 67.6)
        for bad in ["2001ml", "68oz"] {
            let amount = Given(Volume(parsing: bad)!, input: .waterline(.amount), text: bad)
            #expect { try waterline.logWater(amount, at: at(4), now: at(4), ids: RandomIDSource()) } throws: {
                ($0 as? LedgerError)?.sentence.inputs == [.waterline(.amount)] && ($0 as? LedgerError)?.message == "amount must be at least 1 ml (0.03 oz) and at most 2000 ml (67.6 oz) (found \"\(bad)\")"
            }
        }
        _ = try waterline.logWater(Given(Volume(parsing: "2000ml")!, input: .waterline(.amount), text: "2000ml"), at: at(5), now: at(5), ids: RandomIDSource())
        #expect(try Checker(store: store, useCache: false).check().problems.isEmpty)
    }

    // MARK: - check --fix never guesses

    @Test func checkFixLeavesDerivedValuesAloneWhenAnEntryLacksItsMeta() throws {
        var s = WaterlineFixture.session("DDW", id: "night", endAfter: 60)
        let stored = s.recomputed
        s = stored
        s.entries[0].alcoholMeta = nil  // a hand edit: the drink's estimate is gone
        try store.write(s.path, s.json)
        let report = try Checker(store: store, useCache: false).check(fix: true)
        #expect(report.problems.contains { $0.issue.pointer.description == "/entries/0/alcoholMeta" && $0.severity == .error })
        let after = try JSONParser.parse(try #require(try store.read(s.path)))
        #expect(after["state"] == stored.storedState.objectValue.map(JSONValue.object))
        #expect(after["computedSummary"] == stored.storedSummary.objectValue.map(JSONValue.object))
    }
}
