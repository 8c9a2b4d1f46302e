import Foundation
import LedgerKit

/// Hydrate data for the benchmark ledger: one day document per day of the history (about 3,650
/// at scale 1, 36,500 at scale 10), each with the schedule it was
/// planned with and about three quarters of its reminders confirmed, planned in Europe/Paris
/// by the real engine. The schedule changes every couple of years; `hydrate/schedule.json`
/// holds the last one.
enum HydrateGenerator {
    static let schedules = [
        ReminderSchedule(start: ClockTime("09:00")!, end: ClockTime("17:00")!, intervalMinutes: 60, followUpIntervalMinutes: 15),
        ReminderSchedule(start: ClockTime("09:00")!, end: ClockTime("21:00")!, intervalMinutes: 90, followUpIntervalMinutes: 20),
        ReminderSchedule(start: ClockTime("08:00")!, end: ClockTime("00:00")!, intervalMinutes: 120, followUpIntervalMinutes: 30),
        ReminderSchedule(start: ClockTime("22:00")!, end: ClockTime("06:00")!, intervalMinutes: 120, followUpIntervalMinutes: 30),
        ReminderSchedule(start: ClockTime("07:00")!, end: ClockTime("19:00")!, intervalMinutes: 60, followUpIntervalMinutes: 15),
    ]

    static func generate(_ g: inout BenchGenerator) throws {
        let zone = TimeZone(identifier: "Europe/Paris")!
        let first = g.firstDay
        let count = g.lastDay.daysSinceEpoch - first.daysSinceEpoch + 1
        var schedule = schedules[0]
        var changed = g.timestamp(first, hour: 8)
        for n in 0..<count {
            let date = first.adding(days: n)
            // A new schedule every 500–900 days.
            if n > 0, Int.random(in: 0..<700, using: &g.random) == 0 || n % 900 == 0 {
                schedule = schedules[Int.random(in: 0..<schedules.count, using: &g.random)]
                changed = g.timestamp(date, hour: 7, minute: 30)
            }
            // Now and then a day without a single confirmation, hence without a document.
            guard Int.random(in: 0..<100, using: &g.random) >= 3 else { continue }
            let plan = HydrationPlan(date: date, schedule: schedule, timeZone: zone)
            var day = HydrationDay(date: date, schedule: schedule, timeZone: zone, createdAt: plan.start)
            for slot in plan.slots where Int.random(in: 0..<4, using: &g.random) > 0 {
                let room = slot.end.seconds(since: slot.time)
                let delay = Double(Int.random(in: 0..<Int(room), using: &g.random))
                day.confirm(at: ZonedClock.timestamp(slot.time.adding(seconds: delay).epochMilliseconds, in: zone))
            }
            guard let firstConfirmation = day.confirmations.first, let last = day.confirmations.last else { continue }
            day.createdAt = firstConfirmation.confirmedAt
            day.updatedAt = last.confirmedAt
            try g.save(day)
        }
        var document = HydrationSchedule(schedule, createdAt: g.timestamp(first, hour: 8))
        document.updatedAt = changed
        try g.write(HydrationSchedule.kind.path(), document.json)
    }
}
