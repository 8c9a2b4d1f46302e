import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// What a resident reminder process is told is due, with the seeds' numbers: reminders every
/// 20 minutes from the start (US-018), none after 90 minutes without a log, the per-drink
/// reminder after N = 1 drink (US-019), the pacing warning once per upward crossing of 2
/// (US-020), discreet text by default (US-036), and "Log Water" / "Dismiss" (PRD v1 §9.5).
@Suite struct WaterlineDueTests {
    static let settings = WaterlineSettings(createdAt: WaterlineFixture.start)

    func at(_ minute: Int) -> Timestamp { WaterlineFixture.at(minute) }

    /// An active session started at 21:00 with the given entries.
    func session(_ entries: [LogEntry]) -> Session {
        var s = Session(id: "night", start: WaterlineFixture.start, rules: WaterlineRules())
        s.entries = entries
        return s.recomputed
    }

    func due(_ entries: [LogEntry], at minute: Int, settings: WaterlineSettings = settings) -> WaterlineDue {
        WaterlineDue.at(at(minute), session: session(entries), settings: settings, timeZone: WaterlineFixture.zone)
    }

    func kinds(_ d: WaterlineDue) -> [WaterlineNotification.Kind] { d.items.map(\.notification.kind) }

    @Test func timeRemindersEveryTwentyMinutesUntilWaterIsLogged() {
        #expect(due([], at: 10).items.isEmpty)
        #expect(due([], at: 10).nextChange == at(20))
        let first = due([], at: 20)
        #expect(kinds(first) == [.timeReminder])
        #expect(first.items[0].since == at(20))
        #expect(first.nextChange == at(40))
        // The same reminder a minute later: same key, shown once.
        #expect(due([], at: 21).items.map(\.key) == first.items.map(\.key))
        // Water after it withdraws it; the next one comes at 21:40 with a new key.
        let watered = [WaterlineFixture.water(25)]
        #expect(due(watered, at: 30).items.isEmpty)
        let second = due(watered, at: 40)
        #expect(kinds(second) == [.timeReminder])
        #expect(second.items[0].key != first.items[0].key)
    }

    @Test func nothingAfterNinetyMinutesWithoutALog() {
        let entries = [WaterlineFixture.drink(5), WaterlineFixture.water(8)]
        // 21:08 + 90 min = 22:38: the 22:20 reminder is the last; at 22:38 what is due is withdrawn.
        let last = due(entries, at: 90)
        #expect(kinds(last) == [.timeReminder])
        #expect(last.items[0].since == at(80))
        #expect(last.nextChange == at(98))
        #expect(due(entries, at: 97).nextChange == at(98))
        let quiet = due(entries, at: 99)
        #expect(quiet.items.isEmpty && quiet.nextChange == nil)
        #expect(quiet.sessionID == "night")
        // A new log resumes them, on the same grid.
        #expect(kinds(due(entries + [WaterlineFixture.drink(125)], at: 125)) == [.perDrinkReminder(drinks: 1)])
        #expect(due(entries + [WaterlineFixture.drink(125)], at: 125).nextChange == at(140))
    }

    @Test func aPerDrinkReminderForEachDrinkAndOneWarningPerCrossing() {
        var entries = [WaterlineFixture.drink(2, id: "a")]
        let one = due(entries, at: 3)
        #expect(kinds(one) == [.perDrinkReminder(drinks: 1)])
        entries.append(WaterlineFixture.drink(4, id: "b"))  // the Waterline reaches 2
        let two = due(entries, at: 5)
        #expect(kinds(two) == [.perDrinkReminder(drinks: 2), .pacingWarning])
        #expect(two.items[0].key != one.items[0].key, "each drink repeats the reminder")
        entries.append(WaterlineFixture.drink(6, id: "c"))  // still above: the same warning
        let three = due(entries, at: 7)
        #expect(three.items[1].key == two.items[1].key)
        #expect(three.items[1].since == at(4))
        entries.append(WaterlineFixture.water(8, id: "w1"))
        entries.append(WaterlineFixture.water(9, id: "w2"))  // back to 1: below the threshold
        #expect(due(entries, at: 10).items.isEmpty)
        entries.append(WaterlineFixture.drink(11, id: "d"))  // 2 again: a new crossing
        let again = due(entries, at: 12)
        #expect(kinds(again) == [.perDrinkReminder(drinks: 1), .pacingWarning])
        #expect(again.items[1].key != two.items[1].key)
        #expect(again.items[0].key != one.items[0].key, "a reminder after another water is another reminder")
    }

    @Test func textsAreDiscreetUnlessChosenAndCarryTheActions() {
        let entries = [WaterlineFixture.drink(2), WaterlineFixture.drink(4)]
        for item in due(entries, at: 20).items {
            #expect(item.notification.title == "Waterline" && item.notification.body == WaterlineNotification.discreetBody(item.notification.kind))
            #expect(item.notification.actions == ["Log Water", "Dismiss"])
            #expect(item.notification.json["actions"] == .array([
                .object(["id": .string("log-water"), "title": .string("Log Water")]),
                .object(["id": .string("dismiss"), "title": .string("Dismiss")]),
            ]))
        }
        var detailed = Self.settings
        detailed.discreetNotifications = false
        #expect(due(entries, at: 20, settings: detailed).items.map(\.notification.body) == [
            "Time for water", "You've had 2 drinks — time for water", "Your Waterline is high — drink water to return to center",
        ])
    }

    @Test func nothingWithoutAnActiveSessionOrWithTimeRemindersOff() {
        let none = WaterlineDue.at(at(20), session: nil, settings: Self.settings, timeZone: WaterlineFixture.zone)
        #expect(none.sessionID == nil && none.items.isEmpty && none.nextChange == nil)
        var ended = session([WaterlineFixture.drink(2)])
        ended.endTime = at(10)
        ended.isActive = false
        #expect(WaterlineDue.at(at(20), session: ended, settings: Self.settings, timeZone: WaterlineFixture.zone).items.isEmpty)
        var off = Self.settings
        off.timeRemindersEnabled = false
        #expect(due([], at: 20, settings: off).items.isEmpty)
        #expect(due([], at: 20, settings: off).nextChange == nil)
    }

    @Test func logWaterFromTheNotificationWithdrawsWhatWasDue() throws {
        let dir = TemporaryDirectory("waterline-due")
        let waterline = WaterlineStore(try WaterlineFixture.ledger(in: dir))
        try waterline.start(at: at(0), now: at(0), ids: RandomIDSource())
        try waterline.logDrink(.init(), now: at(5), ids: RandomIDSource())
        #expect(try kinds(waterline.due(now: at(20), timeZone: WaterlineFixture.zone)) == [.timeReminder, .perDrinkReminder(drinks: 1)])
        // "Log Water": the default amount, now.
        let logged = try waterline.logWater(now: at(21), ids: RandomIDSource())
        #expect(logged.entry.waterMeta == WaterMeta(amount: 8, units: .oz) && logged.entry.timestamp == at(21))
        #expect(try waterline.due(now: at(21), timeZone: WaterlineFixture.zone).items.isEmpty)
        #expect(try waterline.due(now: at(21), timeZone: WaterlineFixture.zone).nextChange == at(40))
        try waterline.end(now: at(30))
        let after = try waterline.due(now: at(40), timeZone: WaterlineFixture.zone)
        #expect(after.sessionID == nil && after.items.isEmpty && after.nextChange == nil)
    }

    // MARK: - Clocks that change during the night

    struct Night: Sendable, CustomTestStringConvertible {
        var zone: String
        /// The session's start, 65 minutes before `now`, and the instant read (both as the zone's clock shows them).
        var start: String
        var now: String
        /// The time-based reminder due at `now`: start + 60 minutes, on the zone's clock then.
        var reminder: String
        var testDescription: String { "\(zone) \(start)" }
    }

    /// "Time-based reminders never come due after the UTC offset changes — a DST night … at
    /// 03:05-04:00 `waterline reminders --json` has a `perDrink` item and no `time` item (the
    /// same times a week later have both), and `ledger remind` stays silent." Both directions
    /// in two zones, and the same nights a week later; every 20 minutes (US-018), a drink at
    /// +50 min (US-019, N = 1).
    @Test(arguments: [
        Night(zone: "America/New_York", start: "2026-03-08T01:00:00-05:00", now: "2026-03-08T03:05:00-04:00", reminder: "2026-03-08T03:00:00-04:00"),
        Night(zone: "America/New_York", start: "2026-11-01T01:00:00-04:00", now: "2026-11-01T01:05:00-05:00", reminder: "2026-11-01T01:00:00-05:00"),
        Night(zone: "Europe/Paris", start: "2026-03-29T01:00:00+01:00", now: "2026-03-29T03:05:00+02:00", reminder: "2026-03-29T03:00:00+02:00"),
        Night(zone: "Europe/Paris", start: "2026-10-25T02:00:00+02:00", now: "2026-10-25T02:05:00+01:00", reminder: "2026-10-25T02:00:00+01:00"),
        Night(zone: "America/New_York", start: "2026-03-15T01:00:00-04:00", now: "2026-03-15T02:05:00-04:00", reminder: "2026-03-15T02:00:00-04:00"),
        Night(zone: "Europe/Paris", start: "2026-11-01T02:00:00+01:00", now: "2026-11-01T03:05:00+01:00", reminder: "2026-11-01T03:00:00+01:00"),
    ])
    func timeRemindersComeDueWhenTheClocksChange(_ night: Night) throws {
        let zone = try #require(TimeZone(identifier: night.zone))
        let start = try #require(Timestamp(iso8601: night.start)), now = try #require(Timestamp(iso8601: night.now))
        #expect(now.seconds(since: start) == 65 * 60)
        var s = Session(id: "night", start: start, rules: WaterlineRules())
        s.entries = [LogEntry.alcohol(id: "d1", at: start.adding(minutes: 50),
                                      AlcoholMeta(drinkType: .beer, sizeOz: 12, abv: nil, standardDrinkEstimate: 1, presetId: nil), now: start.adding(minutes: 50))]
        let due = WaterlineDue.at(now, session: s.recomputed, settings: Self.settings, timeZone: zone)
        #expect(kinds(due) == [.timeReminder, .perDrinkReminder(drinks: 1)])
        #expect(due.items.first?.since.iso8601 == night.reminder)
        #expect(due.items.first?.key == "night/time/" + night.reminder)
        // What it shows next, on the clock then.
        let next = try #require(due.nextChange)
        #expect(next.epochMilliseconds == start.adding(minutes: 80).epochMilliseconds)
        #expect(next.utcOffsetSeconds == zone.secondsFromGMT(for: next.date))
    }

    /// A session recorded in Paris, read by a notifier whose clock is in New York: the
    /// reminders are the session's, on the reader's clock.
    @Test func aSessionReadUnderAnotherZoneComesDueToo() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let entries = [WaterlineFixture.drink(50)]
        let now = at(65).withOffset(-5 * 3600)
        let due = WaterlineDue.at(now, session: session(entries), settings: Self.settings, timeZone: newYork)
        #expect(kinds(due) == [.timeReminder, .perDrinkReminder(drinks: 1)])
        #expect(due.items.first?.since.iso8601 == "2026-11-21T16:00:00-05:00")
    }

    /// "A drink stamped slightly ahead of the notifier's clock (1–3 s; or synced from a device
    /// whose clock runs ahead) never becomes due for its per-drink prompt": every entry counts.
    @Test func aDrinkStampedAheadOfTheClockIsDueAtOnce() {
        let ahead = LogEntry.alcohol(id: "ahead", at: at(30).adding(seconds: 2),
                                     AlcoholMeta(drinkType: .beer, sizeOz: 12, abv: nil, standardDrinkEstimate: 1, presetId: nil), now: at(30))
        let due = WaterlineDue.at(at(30), session: session([WaterlineFixture.water(25), ahead]), settings: Self.settings, timeZone: WaterlineFixture.zone)
        #expect(kinds(due) == [.perDrinkReminder(drinks: 1)])
        // A device ten minutes ahead: its drink prompts now, not at its stamp.
        let far = LogEntry.alcohol(id: "far", at: at(40), AlcoholMeta(drinkType: .beer, sizeOz: 12, abv: nil, standardDrinkEstimate: 1, presetId: nil), now: at(40))
        #expect(kinds(WaterlineDue.at(at(30), session: session([WaterlineFixture.water(25), far]), settings: Self.settings, timeZone: WaterlineFixture.zone))
                == [.perDrinkReminder(drinks: 1)])
    }
}
