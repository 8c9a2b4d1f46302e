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
        WaterlineDue.at(at(minute), session: session(entries), settings: settings)
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
            #expect(item.notification.title == "Waterline" && item.notification.body == "Time for a break")
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
        let none = WaterlineDue.at(at(20), session: nil, settings: Self.settings)
        #expect(none.sessionID == nil && none.items.isEmpty && none.nextChange == nil)
        var ended = session([WaterlineFixture.drink(2)])
        ended.endTime = at(10)
        ended.isActive = false
        #expect(WaterlineDue.at(at(20), session: ended, settings: Self.settings).items.isEmpty)
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
        #expect(try kinds(waterline.due(now: at(20))) == [.timeReminder, .perDrinkReminder(drinks: 1)])
        // "Log Water": the default amount, now.
        let logged = try waterline.logWater(now: at(21), ids: RandomIDSource())
        #expect(logged.entry.waterMeta == WaterMeta(amount: 8, units: .oz) && logged.entry.timestamp == at(21))
        #expect(try waterline.due(now: at(21)).items.isEmpty)
        #expect(try waterline.due(now: at(21)).nextChange == at(40))
        try waterline.end(now: at(30))
        let after = try waterline.due(now: at(40))
        #expect(after.sessionID == nil && after.items.isEmpty && after.nextChange == nil)
    }
}
