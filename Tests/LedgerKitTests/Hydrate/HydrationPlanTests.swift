import Foundation
import LedgerKit
import Testing

/// Shorthands: schedules and instants written as text.
enum H {
    static let paris = TimeZone(identifier: "Europe/Paris")!
    static let newYork = TimeZone(identifier: "America/New_York")!

    static func schedule(_ start: String, _ end: String, every interval: Int, followUp: Int) -> ReminderSchedule {
        ReminderSchedule(start: ClockTime(start)!, end: ClockTime(end)!, intervalMinutes: interval, followUpIntervalMinutes: followUp)
    }

    static func plan(_ date: String, _ start: String, _ end: String, every interval: Int, followUp: Int = 15,
                     in zone: TimeZone = paris) -> HydrationPlan {
        HydrationPlan(date: LocalDate(date)!, schedule: schedule(start, end, every: interval, followUp: followUp), timeZone: zone)
    }

    static func t(_ iso: String) -> Timestamp { Timestamp(iso8601: iso)! }

    /// A confirmation made at `iso`.
    static func c(_ iso: String) -> HydrationConfirmation { HydrationConfirmation(at: t(iso)) }

    /// Instants as ISO text, for readable comparisons.
    static func iso(_ ts: [Timestamp]) -> [String] { ts.map(\.iso8601) }
}

@Suite struct HydrationPlanTests {
    // MARK: - Windows and slots

    @Test(arguments: [
        // The tables: 09:00–17:00 every 60 gives 8; 22:00–06:00 every 120 gives 4.
        ("09:00", "17:00", 60, 8, "09:00", "16:00"),
        ("22:00", "06:00", 120, 4, "22:00", "04:00"),
        // The seed's example interval with a longer day; an end that is not on a slot.
        ("09:00", "21:00", 60, 12, "09:00", "20:00"),
        ("09:00", "16:30", 60, 8, "09:00", "16:00"),
        ("08:00", "20:00", 90, 8, "08:00", "18:30"),
        // Ending at midnight crosses into the next day.
        ("08:00", "00:00", 120, 8, "08:00", "22:00"),
        ("23:00", "01:00", 30, 4, "23:00", "00:30"),
        // An interval longer than the window: one reminder.
        ("09:00", "10:00", 120, 1, "09:00", "09:00"),
        ("09:00", "09:01", 1, 1, "09:00", "09:00"),
        // Almost a whole day in one-minute steps.
        ("00:00", "23:59", 1, 1439, "00:00", "23:58"),
    ])
    func slotsOfAWindow(start: String, end: String, interval: Int, count: Int, first: String, last: String) {
        let plan = H.plan("2026-11-18", start, end, every: interval, followUp: 1)
        #expect(plan.slots.count == count)
        #expect(plan.schedule.nominalSlotOffsets.count == count)
        let times = plan.slots.map { ClockTime(hour: $0.time.local.hour, minute: $0.time.local.minute)!.description }
        #expect(times.first == first)
        #expect(times.last == last)
        // Evenly spaced by the interval, all inside the window.
        for (a, b) in zip(plan.slots, plan.slots.dropFirst()) {
            #expect(b.time.seconds(since: a.time) == Double(interval * 60))
            #expect(a.end == b.time)
        }
        #expect(plan.slots.last?.end == plan.end)
    }

    @Test func aWindowPastMidnightBelongsToTheDayItStarts() {
        let plan = H.plan("2026-11-21", "22:00", "06:00", every: 120)
        #expect(H.iso(plan.slots.map(\.time)) == [
            "2026-11-21T22:00:00+01:00", "2026-11-22T00:00:00+01:00", "2026-11-22T02:00:00+01:00", "2026-11-22T04:00:00+01:00",
        ])
        #expect(plan.end == H.t("2026-11-22T06:00:00+01:00"))
    }

    // MARK: - Follow-ups

    @Test(arguments: [
        // interval, follow-up, the first slot's follow-ups (minutes after it)
        (60, 15, [15, 30, 45]),
        (60, 20, [20, 40]),
        (60, 25, [25, 50]),
        (60, 59, [59]),
        (60, 1, Array(1...59)),
        (90, 30, [30, 60]),
        (120, 45, [45, 90]),
    ])
    func followUpsEveryFollowUpIntervalUntilTheNextReminder(interval: Int, followUp: Int, offsets: [Int]) {
        let plan = H.plan("2026-11-18", "09:00", "17:00", every: interval, followUp: followUp)
        let first = plan.slots[0]
        #expect(first.followUps.map { Int($0.seconds(since: first.time)) / 60 } == offsets)
    }

    @Test func theLastSlotsFollowUpsStopAtTheWindowsEnd() {
        // 09:00–16:30 every 60: the 16:00 reminder has half an hour, so one follow-up at 16:15.
        let plan = H.plan("2026-11-18", "09:00", "16:30", every: 60, followUp: 15)
        #expect(H.iso(plan.slots.last!.followUps) == ["2026-11-18T16:15:00+01:00"])
        // Nothing at or after the end, nothing before the start.
        let events = plan.slots.flatMap { [$0.time] + $0.followUps }
        #expect(events.allSatisfy(plan.contains))
        #expect(events.count == 8 + 7 * 3 + 1)
    }

    @Test func followUpsStopOnceConfirmed() {
        let plan = H.plan("2026-11-18", "09:00", "17:00", every: 60, followUp: 15)
        // Confirmed at 10:20 after the 10:15 follow-up: only that one was sent.
        let p = plan.progress(confirmations: [H.c("2026-11-18T10:20:00+01:00")], at: H.t("2026-11-18T10:50:00+01:00"))
        #expect(p.slots[1].state == .done)
        #expect(H.iso(p.slots[1].followUps) == ["2026-11-18T10:15:00+01:00"])
        #expect(plan.due(confirmations: [H.c("2026-11-18T10:20:00+01:00")], at: H.t("2026-11-18T10:30:00+01:00")) == nil)
        #expect(plan.due(confirmations: [], at: H.t("2026-11-18T10:30:00+01:00"))?.kind == .followUp)
    }

    // MARK: - Confirmations and progress

    @Test(arguments: [
        // A confirmation at … confirms the slot at … (nil: none, outside the window)
        ("2026-11-18T08:59:59+01:00", nil as String?),
        ("2026-11-18T09:00:00+01:00", "09:00"),
        ("2026-11-18T09:59:59+01:00", "09:00"),
        ("2026-11-18T10:00:00+01:00", "10:00"),
        ("2026-11-18T10:00:00.001+01:00", "10:00"),
        ("2026-11-18T16:59:59.999+01:00", "16:00"),
        ("2026-11-18T17:00:00+01:00", nil),
        // The same instant recorded elsewhere counts the same.
        ("2026-11-18T04:00:00-05:00", "10:00"),
    ])
    func confirmationsAtSlotEdges(at: String, slot: String?) {
        let plan = H.plan("2026-11-18", "09:00", "17:00", every: 60)
        let found = plan.slot(containing: H.t(at)).map { ClockTime(hour: $0.time.local.hour, minute: $0.time.local.minute)!.description }
        #expect(found == slot)
        let p = plan.progress(confirmations: [H.c(at)])
        #expect(p.completed == (slot == nil ? 0 : 1))
        #expect(p.total == 8)
    }

    @Test func aSlotCountsOnceAndLaterConfirmationsHaveNotHappenedYet() {
        let plan = H.plan("2026-11-18", "09:00", "17:00", every: 60)
        let confirmations = ["09:05", "09:40", "11:10", "12:00", "12:01", "15:30"].map { H.c("2026-11-18T\($0):00+01:00") }
        // "3 out of 8 reminders completed" at 13:30: 09:00, 11:00 and 12:00.
        let p = plan.progress(confirmations: confirmations, at: H.t("2026-11-18T13:30:00+01:00"))
        #expect((p.completed, p.total) == (3, 8))
        #expect(p.slots.map(\.state) == [.done, .unconfirmed, .done, .done, .due, .upcoming, .upcoming, .upcoming])
        #expect(p.upcoming == 3)
        #expect(p.slots[0].confirmedAt == confirmations[0].confirmedAt)
        #expect(p.current?.slot.index == 4)
        #expect(p.next?.time == H.t("2026-11-18T14:00:00+01:00"))
        // Once the day is over every confirmation counts.
        #expect(plan.progress(confirmations: confirmations).completed == 4)
        #expect(plan.confirmedSlotCount(confirmations) == 4)
    }

    // MARK: - Days with 23 and 25 hours

    @Test(arguments: [
        // zone, date, window, interval, slots — a normal day, then the two DST days of each zone
        ("Europe/Paris", "2026-03-28", "00:00", "23:59", 60, 24),
        ("Europe/Paris", "2026-03-29", "00:00", "23:59", 60, 23),
        ("Europe/Paris", "2026-10-25", "00:00", "23:59", 60, 25),
        ("America/New_York", "2026-03-08", "00:00", "23:59", 60, 23),
        ("America/New_York", "2026-11-01", "00:00", "23:59", 60, 25),
        // Night windows spanning the change: one hour shorter or longer, same spacing.
        ("Europe/Paris", "2026-03-28", "22:00", "06:00", 60, 7),
        ("Europe/Paris", "2026-10-24", "22:00", "06:00", 60, 9),
        ("Europe/Paris", "2026-03-28", "22:00", "06:00", 120, 4),
        ("Europe/Paris", "2026-10-24", "22:00", "06:00", 120, 5),
        ("America/New_York", "2026-03-07", "22:00", "06:00", 60, 7),
        ("America/New_York", "2026-10-31", "22:00", "06:00", 60, 9),
        // Daytime windows are untouched by the night's change.
        ("Europe/Paris", "2026-03-29", "09:00", "17:00", 60, 8),
        ("Europe/Paris", "2026-10-25", "09:00", "17:00", 60, 8),
    ])
    func daysWith23Or25Hours(zone: String, date: String, start: String, end: String, interval: Int, count: Int) {
        let plan = H.plan(date, start, end, every: interval, followUp: 15, in: TimeZone(identifier: zone)!)
        #expect(plan.slots.count == count)
        for (a, b) in zip(plan.slots, plan.slots.dropFirst()) {
            #expect(b.time.seconds(since: a.time) == Double(interval * 60))
        }
        let events = plan.slots.flatMap { [$0.time] + $0.followUps }
        #expect(events.allSatisfy(plan.contains))
        #expect(Set(events.map(\.epochMilliseconds)).count == events.count)
        // Every instant carries the offset the zone really has then.
        #expect(events.allSatisfy { $0 == ZonedClock.timestamp($0.epochMilliseconds, in: TimeZone(identifier: zone)!) })
    }

    @Test func theAutumnNightShowsTheRepeatedHourWithItsOffsets() {
        let plan = H.plan("2026-10-24", "22:00", "06:00", every: 60)
        #expect(H.iso(plan.slots.map(\.time)) == [
            "2026-10-24T22:00:00+02:00", "2026-10-24T23:00:00+02:00", "2026-10-25T00:00:00+02:00", "2026-10-25T01:00:00+02:00",
            "2026-10-25T02:00:00+02:00", "2026-10-25T02:00:00+01:00", "2026-10-25T03:00:00+01:00", "2026-10-25T04:00:00+01:00",
            "2026-10-25T05:00:00+01:00",
        ])
    }

    @Test func theSpringNightSkipsTheMissingHour() {
        let plan = H.plan("2026-03-28", "22:00", "06:00", every: 60)
        #expect(H.iso(plan.slots.map(\.time)) == [
            "2026-03-28T22:00:00+01:00", "2026-03-28T23:00:00+01:00", "2026-03-29T00:00:00+01:00", "2026-03-29T01:00:00+01:00",
            "2026-03-29T03:00:00+02:00", "2026-03-29T04:00:00+02:00", "2026-03-29T05:00:00+02:00",
        ])
        #expect(plan.end == H.t("2026-03-29T06:00:00+02:00"))
    }

    @Test(arguments: [
        // A wall time in the spring gap is taken just after it — when the gap ends, 03:00 —
        // and a repeated one at its first occurrence.
        ("Europe/Paris", "2026-03-29", 2, 30, "2026-03-29T03:00:00+02:00"),
        ("Europe/Paris", "2026-03-29", 2, 0, "2026-03-29T03:00:00+02:00"),
        ("Europe/Paris", "2026-03-29", 3, 0, "2026-03-29T03:00:00+02:00"),
        ("Europe/Paris", "2026-03-29", 1, 59, "2026-03-29T01:59:00+01:00"),
        ("Europe/Paris", "2026-10-25", 2, 30, "2026-10-25T02:30:00+02:00"),
        ("Europe/Paris", "2026-10-25", 3, 0, "2026-10-25T03:00:00+01:00"),
        ("America/New_York", "2026-03-08", 2, 15, "2026-03-08T03:00:00-04:00"),
        ("Australia/Lord_Howe", "2026-10-04", 2, 15, "2026-10-04T02:30:00+11:00"),
        ("America/New_York", "2026-11-01", 1, 30, "2026-11-01T01:30:00-04:00"),
        ("America/New_York", "2026-11-01", 9, 0, "2026-11-01T09:00:00-05:00"),
    ])
    func wallClockTimesAroundTheChanges(zone: String, date: String, hour: Int, minute: Int, expected: String) {
        let t = ZonedClock.instant(LocalDateTime(date: LocalDate(date)!, hour: hour, minute: minute), in: TimeZone(identifier: zone)!)
        #expect(t.iso8601 == expected)
    }

    @Test(arguments: [
        // now, time shown, expected: the later pass through the repeated hour that has come.
        ("2026-10-25T02:07:00+01:00", 2, 40, "2026-10-25T02:40:00+02:00"),
        ("2026-10-25T02:50:00+01:00", 2, 40, "2026-10-25T02:40:00+01:00"),
        ("2026-10-25T02:30:00+02:00", 2, 40, "2026-10-24T02:40:00+02:00"),
        ("2026-11-21T22:10:00+01:00", 22, 15, "2026-11-20T22:15:00+01:00"),
        ("2026-11-21T22:15:00+01:00", 22, 15, "2026-11-21T22:15:00+01:00"),
    ])
    func theLastTimeTheClockShowedATime(now: String, hour: Int, minute: Int, expected: String) {
        let t = ZonedClock.lastShowing(hour: hour, minute: minute, second: 0, notAfter: Timestamp(iso8601: now)!, in: TimeZone(identifier: "Europe/Paris")!)
        #expect(t.iso8601 == expected)
    }

    @Test func aWindowStartingInTheSpringGapStartsAfterIt() {
        let plan = H.plan("2026-03-29", "02:30", "06:00", every: 60)
        #expect(H.iso(plan.slots.map(\.time)) == ["2026-03-29T03:00:00+02:00", "2026-03-29T04:00:00+02:00", "2026-03-29T05:00:00+02:00"])
    }

    // MARK: - Due

    @Test(arguments: [
        // now, due kind (nil: nothing due) — 09:00–17:00 every 60, follow-ups every 15, nothing confirmed
        ("2026-11-18T08:59:59+01:00", nil as DueReminder.Kind?),
        ("2026-11-18T09:00:00+01:00", .reminder),
        ("2026-11-18T09:00:59.999+01:00", .reminder),
        ("2026-11-18T09:01:00+01:00", nil),
        ("2026-11-18T09:14:59+01:00", nil),
        ("2026-11-18T09:15:00+01:00", .followUp),
        ("2026-11-18T09:15:30+01:00", .followUp),
        ("2026-11-18T09:45:00+01:00", .followUp),
        ("2026-11-18T10:00:00+01:00", .reminder),
        ("2026-11-18T16:45:00+01:00", .followUp),
        ("2026-11-18T17:00:00+01:00", nil),
        ("2026-11-18T03:00:00-05:00", .reminder),
    ])
    func dueAtBeforeAndAfterSlotTimes(now: String, kind: DueReminder.Kind?) {
        let plan = H.plan("2026-11-18", "09:00", "17:00", every: 60)
        let due = plan.due(confirmations: [], at: H.t(now))
        #expect(due?.kind == kind)
        if let due { #expect(due.text.contains("water")) }
    }

    @Test func nothingIsDueForAConfirmedSlot() {
        let plan = H.plan("2026-11-18", "09:00", "17:00", every: 60)
        let confirmed = [H.c("2026-11-18T09:10:00+01:00")]
        #expect(plan.due(confirmations: confirmed, at: H.t("2026-11-18T09:15:00+01:00")) == nil)
        #expect(plan.due(confirmations: confirmed, at: H.t("2026-11-18T10:00:00+01:00"))?.kind == .reminder)
        // A confirmation recorded later than now has not happened yet.
        #expect(plan.due(confirmations: [H.c("2026-11-18T09:20:00+01:00")], at: H.t("2026-11-18T09:15:00+01:00"))?.kind == .followUp)
    }

    // MARK: - The current day

    @Test(arguments: [
        // now, the day whose plan is current — for a 22:00–06:00 window
        ("2026-11-22T01:30:00+01:00", "2026-11-21"),
        ("2026-11-22T05:59:59+01:00", "2026-11-21"),
        ("2026-11-22T06:00:00+01:00", "2026-11-22"),
        ("2026-11-22T12:00:00+01:00", "2026-11-22"),
        ("2026-11-22T23:00:00+01:00", "2026-11-22"),
    ])
    func aNightWindowIsCurrentUntilItEnds(now: String, day: String) {
        let schedule = H.schedule("22:00", "06:00", every: 120, followUp: 30)
        let current = PlannedDay.current(at: H.t(now), in: H.paris) {
            PlannedDay(plan: HydrationPlan(date: $0, schedule: schedule, timeZone: H.paris), document: nil)
        }
        #expect(current.date.description == day)
    }

    @Test func aDaytimeWindowIsTheCalendarDay() {
        let schedule = H.schedule("09:00", "17:00", every: 60, followUp: 15)
        for now in ["2026-11-22T00:10:00+01:00", "2026-11-22T08:00:00+01:00", "2026-11-22T23:59:00+01:00"] {
            let current = PlannedDay.current(at: H.t(now), in: H.paris) {
                PlannedDay(plan: HydrationPlan(date: $0, schedule: schedule, timeZone: H.paris), document: nil)
            }
            #expect(current.date.description == "2026-11-22")
        }
    }
}
