import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

@Suite struct HydrationLogTests {
    let paris = TimeZone(identifier: "Europe/Paris")!

    func at(_ time: String) -> Timestamp { Timestamp(iso8601: "2026-11-21T\(time):00+01:00")! }

    @Test func aConfirmationStampedAfterNowStillCountsForItsSlot() throws {
        // Two processes (or devices) whose clocks differ: the one at 14:02 takes the writer
        // lock first; the one at 14:01 must see the 14:00 reminder as confirmed.
        let dir = TemporaryDirectory()
        let log = HydrationLog(store: LedgerStore.plain(dir.path))
        guard case .confirmed = try log.confirm(at: at("14:02"), timeZone: paris) else {
            Issue.record("the first tap should confirm")
            return
        }
        guard case .alreadyConfirmed(_, let earlier, let day) = try log.confirm(at: at("14:01"), timeZone: paris) else {
            Issue.record("the second tap should find the slot confirmed")
            return
        }
        #expect(earlier == at("14:02"))
        #expect(day.document?.confirmations.count == 1)
    }

    /// Two machines each changed the schedule and then created today's document offline (their
    /// first `drank`), each recording its own schedule. After the merge — the schedule field by
    /// field, the day's recorded schedule field by field without a base — the two disagree.
    func mergedLedger() throws -> (HydrationLog, merged: ReminderSchedule, recorded: ReminderSchedule, TemporaryDirectory) {
        let defaults = HydrationSchedule(ReminderSchedule(), createdAt: at("08:00"))
        var a = defaults, b = defaults
        a.reminders.intervalMinutes = 30  // 09:00–17:00 every 30
        a.updatedAt = at("08:10")
        b.reminders.endTime = ClockTime(hour: 18, minute: 0)!  // 09:00–18:00 every 60
        b.updatedAt = at("08:20")
        let day = LocalDate("2026-11-21")!
        var dayA = HydrationDay(date: day, schedule: a.reminders, timeZone: paris, createdAt: at("09:05"))
        dayA.confirm(at: at("09:05"))
        var dayB = HydrationDay(date: day, schedule: b.reminders, timeZone: paris, createdAt: at("09:10"))
        dayB.confirm(at: at("09:10"))
        dayB.confirm(at: at("10:02"))
        let schedule = HydrationSchedule.merge(base: defaults, ours: a, theirs: b, context: MergeContext()).document
        let merged = HydrationDay.merge(base: nil, ours: dayA, theirs: dayB, context: MergeContext()).document
        let dir = TemporaryDirectory()
        let store = LedgerStore.plain(dir.path)
        try store.singleton(HydrationSchedule.self).save(schedule)
        try store.repository(HydrationDay.self).save(merged)
        return (HydrationLog(store: store), schedule.reminders, merged.schedule, dir)
    }

    @Test func theCurrentDayIsPlannedWithTheScheduleInForce() throws {
        let (log, inForce, recorded, dir) = try mergedLedger()
        defer { withExtendedLifetime(dir) {} }
        #expect(inForce == H.schedule("09:00", "18:00", every: 30, followUp: 15))
        #expect(recorded != inForce)  // the situation this is about
        let today = try log.current(at: at("10:15"), timeZone: paris)
        #expect(today.plan.schedule == inForce)
        #expect(today.progress(at: at("10:15")).total == 18)
        #expect(today.progress(at: at("10:15")).completed == 2)  // 09:00 and 10:00
        // `status --date` of today is the same day.
        #expect(try log.day(LocalDate("2026-11-21")!, at: at("10:15"), timeZone: paris).plan.schedule == inForce)
        // The next write records the schedule in force.
        guard case .confirmed(_, let after) = try log.confirm(at: at("10:35"), timeZone: paris) else {
            Issue.record("10:35 confirms the 10:30 reminder")
            return
        }
        #expect(after.document?.schedule == inForce)
        let stored = try #require(try log.document(for: LocalDate("2026-11-21")!))
        #expect(stored.schedule == inForce)
        #expect(stored.total == 18 && stored.completed == 3)
    }

    @Test func aPastDayKeepsItsRecordedSchedule() throws {
        let (log, inForce, recorded, dir) = try mergedLedger()
        defer { withExtendedLifetime(dir) {} }
        // The next day: the 21st is past and keeps the schedule its file records.
        let tomorrow = Timestamp(iso8601: "2026-11-22T10:00:00+01:00")!
        let past = try log.day(LocalDate("2026-11-21")!, at: tomorrow, timeZone: paris)
        #expect(past.plan.schedule == recorded)
        #expect(try log.current(at: tomorrow, timeZone: paris).plan.schedule == inForce)
    }
}
