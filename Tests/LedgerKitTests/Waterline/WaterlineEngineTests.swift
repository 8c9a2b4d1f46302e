import LedgerKit
import Testing

@Suite struct WaterlineEngineTests {
    struct StateCase: CustomTestStringConvertible, Sendable {
        var pattern: String
        var value: Double
        var sinceWater: Int
        var alcohol: Int
        var water: Int
        var standardDrinks: Double
        var warning: Bool
        var testDescription: String { "\"\(pattern)\" → \(value)" }
    }

    // US-010 asks for the indicator at −3, 0, 1, 2, 3 and 5; the owner's answer: a double counts +2.
    @Test(arguments: [
        StateCase(pattern: "", value: 0, sinceWater: 0, alcohol: 0, water: 0, standardDrinks: 0, warning: false),
        StateCase(pattern: "WWW", value: -3, sinceWater: 0, alcohol: 0, water: 3, standardDrinks: 0, warning: false),
        StateCase(pattern: "DW", value: 0, sinceWater: 0, alcohol: 1, water: 1, standardDrinks: 1, warning: false),
        StateCase(pattern: "D", value: 1, sinceWater: 1, alcohol: 1, water: 0, standardDrinks: 1, warning: false),
        StateCase(pattern: "DD", value: 2, sinceWater: 2, alcohol: 2, water: 0, standardDrinks: 2, warning: true),
        StateCase(pattern: "X", value: 2, sinceWater: 1, alcohol: 1, water: 0, standardDrinks: 2, warning: true),
        StateCase(pattern: "DDD", value: 3, sinceWater: 3, alcohol: 3, water: 0, standardDrinks: 3, warning: true),
        StateCase(pattern: "XD", value: 3, sinceWater: 2, alcohol: 2, water: 0, standardDrinks: 3, warning: true),
        StateCase(pattern: "DDDDD", value: 5, sinceWater: 5, alcohol: 5, water: 0, standardDrinks: 5, warning: true),
        StateCase(pattern: "XXDWD", value: 5, sinceWater: 1, alcohol: 4, water: 1, standardDrinks: 6, warning: true),
        StateCase(pattern: "DWDWDW", value: 0, sinceWater: 0, alcohol: 3, water: 3, standardDrinks: 3, warning: false),
        StateCase(pattern: "WDWD", value: 0, sinceWater: 1, alcohol: 2, water: 2, standardDrinks: 2, warning: false),
        StateCase(pattern: "XWWW", value: -1, sinceWater: 0, alcohol: 1, water: 3, standardDrinks: 2, warning: false),
        StateCase(pattern: "HH", value: 3, sinceWater: 2, alcohol: 2, water: 0, standardDrinks: 3, warning: true),
        StateCase(pattern: "HW", value: 0.5, sinceWater: 0, alcohol: 1, water: 1, standardDrinks: 1.5, warning: false),
    ])
    func stateFromEntries(_ c: StateCase) {
        let s = WaterlineEngine.state(from: WaterlineFixture.entries(c.pattern), warningThreshold: 2)
        #expect(s.waterlineValue == c.value)
        #expect(s.alcoholCountSinceLastWater == c.sinceWater)
        #expect(s.totalAlcoholCount == c.alcohol)
        #expect(s.totalWaterCount == c.water)
        #expect(s.totalStandardDrinks == c.standardDrinks)
        #expect(s.isWarning == c.warning)
    }

    @Test func waterlineIsTheSumOfEstimatesMinusWaterWithoutFloatingPointNoise() {
        // FR-4, with estimates whose binary sums are inexact (0.1 + 0.2).
        var entries = [0.1, 0.2, 1.2, 1.5].enumerated().map { WaterlineFixture.drink($0.offset, std: $0.element, id: "a\($0.offset)") }
        entries.append(WaterlineFixture.water(30))
        let s = WaterlineEngine.state(from: entries, warningThreshold: 2)
        #expect(s.totalStandardDrinks == 3)
        #expect(s.waterlineValue == 2)
        #expect(s.isWarning)
    }

    @Test func theThresholdIsTheSessions() {
        #expect(!WaterlineEngine.state(from: WaterlineFixture.entries("DD"), warningThreshold: 3).isWarning)
        #expect(WaterlineEngine.state(from: WaterlineFixture.entries("DDD"), warningThreshold: 3).isWarning)
        #expect(WaterlineEngine.state(from: WaterlineFixture.entries("D"), warningThreshold: 1).isWarning)
    }

    @Test func entriesReplayInTimestampOrderWhateverTheirOrderInTheFile() {
        let ordered = WaterlineFixture.entries("DDWD")
        let shuffled = [ordered[3], ordered[0], ordered[2], ordered[1]]
        #expect(WaterlineEngine.state(from: shuffled, warningThreshold: 2) == WaterlineEngine.state(from: ordered, warningThreshold: 2))
        #expect(WaterlineEngine.state(from: shuffled, warningThreshold: 2).alcoholCountSinceLastWater == 1)
    }

    @Test func entriesAtTheSameInstantReplayByID() {
        // A drink and a water logged in the same millisecond on two devices: the id decides, on every machine.
        let d = WaterlineFixture.drink(10, id: "bbb"), w = WaterlineFixture.water(10, id: "aaa")
        let a = WaterlineEngine.replay([d, w], rules: WaterlineRules()), b = WaterlineEngine.replay([w, d], rules: WaterlineRules())
        #expect(a == b)
        #expect(a.map(\.entry.id) == ["aaa", "bbb"])
        #expect(a.last?.after.alcoholCountSinceLastWater == 1)
    }

    struct ReminderCase: Sendable, CustomTestStringConvertible {
        var n: Int
        var pattern: String
        var reminders: [Int]
        var testDescription: String { "N=\(n) \"\(pattern)\" → \(reminders)" }
    }

    // FR-7: a per-drink reminder whenever alcoholCountSinceLastWater >= N, reset by water.
    @Test(arguments: [
        ReminderCase(n: 1, pattern: "DDWD", reminders: [0, 1, 3]),
        ReminderCase(n: 2, pattern: "DDDWDD", reminders: [1, 2, 5]),
        ReminderCase(n: 3, pattern: "DDDD", reminders: [2, 3]),
        ReminderCase(n: 2, pattern: "XW", reminders: []),  // a double is one drink for N
        ReminderCase(n: 1, pattern: "WWW", reminders: []),
    ])
    func perDrinkReminders(_ c: ReminderCase) {
        let steps = WaterlineEngine.replay(WaterlineFixture.entries(c.pattern), rules: WaterlineRules(waterEveryNDrinks: c.n, warningThreshold: 2))
        #expect(steps.indices.filter { steps[$0].perDrinkReminder } == c.reminders)
    }

    struct CrossingCase: Sendable, CustomTestStringConvertible {
        var pattern: String
        var threshold: Int
        var warnings: [Int]
        var testDescription: String { "\"\(pattern)\" at \(threshold) → \(warnings)" }
    }

    // US-020: the pacing warning fires once per upward crossing, not on every drink above it.
    @Test(arguments: [
        CrossingCase(pattern: "DDDD", threshold: 2, warnings: [1]),
        CrossingCase(pattern: "DDWDD", threshold: 2, warnings: [1, 3]),
        CrossingCase(pattern: "XDD", threshold: 2, warnings: [0]),
        CrossingCase(pattern: "DDDWDWWDD", threshold: 2, warnings: [1, 7]),
        CrossingCase(pattern: "DDDWWDD", threshold: 2, warnings: [1, 5]),
        CrossingCase(pattern: "DDDDD", threshold: 5, warnings: [4]),
        CrossingCase(pattern: "WWDDD", threshold: 1, warnings: [4]),
    ])
    func pacingWarningOncePerCrossing(_ c: CrossingCase) {
        let steps = WaterlineEngine.replay(WaterlineFixture.entries(c.pattern), rules: WaterlineRules(waterEveryNDrinks: 1, warningThreshold: c.threshold))
        #expect(steps.indices.filter { steps[$0].pacingWarning } == c.warnings)
    }

    @Test func editsAndDeletesRecomputeFromTheRemainingEntries() {
        var s = WaterlineFixture.session("DDWD")
        #expect(s.state.waterlineValue == 2)
        // Delete the water: three drinks in a row.
        s.entries.removeAll { $0.id == "e2" }
        #expect(s.state.waterlineValue == 3)
        #expect(s.state.alcoholCountSinceLastWater == 3)
        // Edit the first into a double.
        s.entries[0].alcoholMeta?.standardDrinkEstimate = 2
        #expect(s.state.waterlineValue == 4)
        #expect(s.state.totalStandardDrinks == 4)
        // Move a water before everything: counts since water change with the order.
        var w = WaterlineFixture.water(50, id: "late")
        s.entries.append(w)
        #expect(s.state.alcoholCountSinceLastWater == 0)
        w.timestamp = WaterlineFixture.at(0)
        s.entries[s.entries.count - 1] = w
        #expect(s.state.alcoholCountSinceLastWater == 3)
        #expect(s.state.waterlineValue == 3)
    }

    @Test func waterDueInDrinks() {
        let s = WaterlineEngine.state(from: WaterlineFixture.entries("WD"), warningThreshold: 2)
        #expect(WaterlineEngine.drinksUntilWaterDue(s, waterEveryNDrinks: 1) == 0)
        #expect(WaterlineEngine.drinksUntilWaterDue(s, waterEveryNDrinks: 3) == 2)
        #expect(WaterlineEngine.drinksUntilWaterDue(WaterlineState(), waterEveryNDrinks: 2) == 2)
    }
}

@Suite struct WaterlineSummaryTests {
    struct AdherenceCase: Sendable, CustomTestStringConvertible {
        var n: Int
        var pattern: String
        var points: Int
        var honoured: Int
        var percent: Double?
        var testDescription: String { "N=\(n) \"\(pattern)\" → \(honoured)/\(points)" }
    }

    // SPEC §5: each alcoholic entry after which the count since water is ≥ N is a reminder
    // point, honoured when the next entry is water; none when there are no points.
    @Test(arguments: [
        AdherenceCase(n: 1, pattern: "DWDWDW", points: 3, honoured: 3, percent: 100),
        AdherenceCase(n: 1, pattern: "DDW", points: 2, honoured: 1, percent: 50),
        AdherenceCase(n: 1, pattern: "DWD", points: 2, honoured: 1, percent: 50),
        AdherenceCase(n: 2, pattern: "DDWDDD", points: 3, honoured: 1, percent: 33.3),
        AdherenceCase(n: 2, pattern: "DDWDDWDDW", points: 3, honoured: 3, percent: 100),
        AdherenceCase(n: 1, pattern: "DDDW", points: 3, honoured: 1, percent: 33.3),
        AdherenceCase(n: 1, pattern: "XWDDWW", points: 3, honoured: 2, percent: 66.7),
        AdherenceCase(n: 3, pattern: "DD", points: 0, honoured: 0, percent: nil),
        AdherenceCase(n: 1, pattern: "", points: 0, honoured: 0, percent: nil),
        AdherenceCase(n: 1, pattern: "WW", points: 0, honoured: 0, percent: nil),
        AdherenceCase(n: 1, pattern: "D", points: 1, honoured: 0, percent: 0),
    ])
    func adherence(_ c: AdherenceCase) {
        let s = WaterlineFixture.session(c.pattern, n: c.n).summary(now: WaterlineFixture.at(120))
        #expect(s.reminderPoints == c.points)
        #expect(s.remindersHonoured == c.honoured)
        #expect(s.adherencePercent == c.percent)
    }

    @Test func totalsRangeAndDuration() {
        var session = WaterlineFixture.session("WDDDW", endAfter: 155)
        session.entries[4] = WaterlineFixture.water(45, id: "e4", amount: 250, units: .ml)
        let s = session.summary(now: WaterlineFixture.at(999))
        #expect(s.totalAlcoholCount == 3)
        #expect(s.totalWaterCount == 2)
        #expect(s.totalStandardDrinks == 3)
        #expect(s.finalWaterlineValue == 1)
        #expect(s.lowestWaterlineValue == -1)
        #expect(s.highestWaterlineValue == 2)
        // 8 oz (236.6 ml) + 250 ml.
        #expect(s.totalWaterMl == 487)
        #expect(s.totalWaterOz == 16.5)
        #expect(s.totalWater(in: .ml) == 487)
        #expect(s.durationMinutes == 155)
    }

    @Test func anActiveSessionsSummaryRunsToNowAndIsNotStored() {
        var session = WaterlineFixture.session("DW")
        #expect(session.summary(now: WaterlineFixture.at(61)).durationMinutes == 61)
        #expect(session.storedSummary == .null)
        session.endTime = WaterlineFixture.at(90)
        session.isActive = false
        session.recomputeDerived()
        #expect(session.storedSummary["durationMinutes"] == .number(90))
        #expect(session.storedSummary["adherencePercent"] == .number(100))
    }

    @Test func anEmptySessionEndsWithAZeroSummary() {
        let s = WaterlineFixture.session("", endAfter: 3).summary(now: WaterlineFixture.at(3))
        #expect(s.totalAlcoholCount == 0 && s.totalWaterCount == 0 && s.durationMinutes == 3)
        #expect(s.adherencePercent == nil)
        #expect(s.finalWaterlineValue == 0 && s.lowestWaterlineValue == 0 && s.highestWaterlineValue == 0)
    }
}

@Suite struct WaterlineReminderScheduleTests {
    func times(_ ts: [Timestamp]) -> [String] {
        ts.map { t in
            let l = t.local
            return (l.hour < 10 ? "0" : "") + "\(l.hour):" + (l.minute < 10 ? "0" : "") + "\(l.minute)"
        }
    }

    func session(logs minutes: [Int], endAfter: Int? = nil) -> Session {
        var s = Session(id: "s", start: WaterlineFixture.start, rules: WaterlineRules())
        s.entries = minutes.map { WaterlineFixture.water($0) }
        if let endAfter {
            s.endTime = WaterlineFixture.at(endAfter)
            s.isActive = false
        }
        return s
    }

    @Test func everyIntervalFromTheStartUntilNinetyMinutesWithoutALog() {
        // Start 21:00, no logs: 21:20 … 22:20 (80 min); 22:40 would be 100 min after the last activity.
        let s = session(logs: [])
        #expect(times(WaterlineEngine.timeReminders(for: s, intervalMinutes: 20, through: WaterlineFixture.at(600), timeZone: WaterlineFixture.zone))
                == ["21:20", "21:40", "22:00", "22:20"])
        // At exactly 90 minutes it still fires.
        #expect(times(WaterlineEngine.timeReminders(for: s, intervalMinutes: 30, through: WaterlineFixture.at(600), timeZone: WaterlineFixture.zone)) == ["21:30", "22:00", "22:30"])
    }

    @Test func aLogResumesRemindersOnTheSameGrid() {
        let s = session(logs: [5, 120])
        #expect(times(WaterlineEngine.timeReminders(for: s, intervalMinutes: 20, through: WaterlineFixture.at(180), timeZone: WaterlineFixture.zone))
                == ["21:20", "21:40", "22:00", "22:20", "23:00", "23:20", "23:40", "00:00"])
    }

    @Test func noneAtOrAfterTheEnd() {
        let s = session(logs: [5, 30], endAfter: 60)
        #expect(times(WaterlineEngine.timeReminders(for: s, intervalMinutes: 20, through: WaterlineFixture.at(600), timeZone: WaterlineFixture.zone)) == ["21:20", "21:40"])
    }

    @Test func theNextReminder() {
        var settings = WaterlineSettings()
        let s = session(logs: [5])
        #expect(WaterlineEngine.nextTimeReminder(for: s, settings: settings, now: WaterlineFixture.at(45), timeZone: WaterlineFixture.zone) == WaterlineFixture.at(60))
        #expect(WaterlineEngine.nextTimeReminder(for: s, settings: settings, now: WaterlineFixture.at(60), timeZone: WaterlineFixture.zone) == WaterlineFixture.at(80))
        // 21:05 + 90 min = 22:35: the 22:40 one does not fire.
        #expect(WaterlineEngine.nextTimeReminder(for: s, settings: settings, now: WaterlineFixture.at(81), timeZone: WaterlineFixture.zone) == nil)
        #expect(WaterlineEngine.remindersPausedForInactivity(s, now: WaterlineFixture.at(96)))
        settings.timeReminderIntervalMinutes = 15
        #expect(WaterlineEngine.nextTimeReminder(for: s, settings: settings, now: WaterlineFixture.at(1), timeZone: WaterlineFixture.zone) == WaterlineFixture.at(15))
        settings.timeRemindersEnabled = false
        #expect(WaterlineEngine.nextTimeReminder(for: s, settings: settings, now: WaterlineFixture.at(1), timeZone: WaterlineFixture.zone) == nil)
        #expect(WaterlineEngine.nextTimeReminder(for: session(logs: [5], endAfter: 30), settings: WaterlineSettings(), now: WaterlineFixture.at(10), timeZone: WaterlineFixture.zone) == nil)
    }

    @Test(arguments: [(719, false), (720, false), (721, true), (24 * 60, true)])
    func abandonedAfterTwelveHours(_ minutes: Int, _ abandoned: Bool) {
        let s = session(logs: [])
        #expect(WaterlineEngine.isAbandoned(s, now: WaterlineFixture.at(minutes), afterHours: 12) == abandoned)
    }

    @Test func abandonmentFollowsTheSettingAndEndedSessionsAreNeverAbandoned() {
        #expect(WaterlineEngine.isAbandoned(session(logs: []), now: WaterlineFixture.at(181), afterHours: 3))
        #expect(!WaterlineEngine.isAbandoned(session(logs: [], endAfter: 10), now: WaterlineFixture.at(2000), afterHours: 12))
        #expect(WaterlineEngine.hoursRunning(session(logs: []), now: WaterlineFixture.at(14 * 60 + 59)) == 14)
    }
}
