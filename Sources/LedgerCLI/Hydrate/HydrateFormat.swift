import Foundation
import LedgerKit

/// How Water Reminder's values are shown in the terminal and in `--json`.
enum HydrateFormat {
    /// "09:00" on the plan's wall clock; with the offset ("09:00 (+01:00)") on a day whose
    /// offset changes, where a time can occur twice, and when the reader's clock is not the
    /// day's (a day planned in Paris read in New York), so a time is never read on the wrong clock.
    static func clock(_ t: Timestamp, _ plan: HydrationPlan) -> String {
        let text = slotTime(t, plan)
        let offset = plan.local(t).utcOffsetSeconds
        let changes = plan.start.utcOffsetSeconds != plan.end.utcOffsetSeconds
        let elsewhere = readerZone.secondsFromGMT(for: t.date) != offset
        return changes || elsewhere ? text + " (" + Timestamp.formatOffset(offset) + ")" : text
    }

    /// The zone the person reads in (`$TZ`, else the system's; see `CommandClock`).
    static var readerZone: TimeZone { (try? CommandClock.current().timeZone) ?? .current }

    /// "09:00" on the plan's wall clock, always without an offset: what `drank --slot` reads.
    static func slotTime(_ t: Timestamp, _ plan: HydrationPlan) -> String {
        let local = plan.local(t).local
        return pad2(local.hour) + ":" + pad2(local.minute)
    }

    static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// "the 09:00 reminder", naming its day when it is not `today` (nil: never).
    static func reminder(_ slot: HydrationPlan.Slot, _ day: PlannedDay, today: LocalDate?) -> String {
        "the \(clock(slot.time, day.plan)) reminder" + (today == nil || day.date == today ? "" : " of \(day.date)")
    }

    /// "3 out of 8 reminders completed" (the seed's words).
    static func progressSentence(_ p: HydrationProgress) -> String {
        "\(p.completed) out of \(p.total) reminder\(p.total == 1 ? "" : "s") completed"
    }

    /// One cell per reminder (scaled down past 32): filled when completed.
    static func bar(_ p: HydrationProgress) -> String {
        guard p.total > 0 else { return "" }
        let width = min(p.total, 32)
        let filled = p.completed == p.total ? width : p.completed * width / p.total
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }

    /// "Saturday 21 November 2026".
    static func title(_ d: LocalDate) -> String {
        let days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        return "\(days[d.isoWeekday - 1]) \(d.day) \(months[d.month - 1]) \(d.year)"
    }

    /// The first-use line (the seed's onboarding): the defaults are in force until `setup`.
    static var setupHint: String {
        "No schedule chosen yet: the defaults are in force (\(ReminderSchedule().summary)). `ledger hydrate setup` sets your own."
    }

    /// "09:00, 10:00, 11:00 … 16:00": a day's reminder times, shortened past eight.
    static func reminderTimes(_ plan: HydrationPlan) -> String {
        let times = plan.slots.map { clock($0.time, plan) }
        guard times.count > 8 else { return times.joined(separator: ", ") }
        return times.prefix(3).joined(separator: ", ") + " … " + times[times.count - 1]
    }

    /// The schedule as JSON (the document's field names).
    static func scheduleJSON(_ r: ReminderSchedule) -> JSONValue {
        .object(["startTime": .string(r.startTime.description), "endTime": .string(r.endTime.description),
                 "intervalMinutes": .number(Double(r.intervalMinutes)), "followUpIntervalMinutes": .number(Double(r.followUpIntervalMinutes))])
    }

    /// The facts `status --json` and `ledger status --json` share.
    static func progressJSON(_ view: HydrateStore.View, _ p: HydrationProgress) -> JSONObject {
        let day = view.day
        let open = p.current.flatMap { $0.state == .due ? $0.slot.time : nil }
        return [
            "date": .string(day.date.description), "timeZone": .string(day.plan.timeZone.identifier),
            "completed": .number(Double(p.completed)), "total": .number(Double(p.total)), "upcoming": .number(Double(p.upcoming)),
            "awaitingConfirmation": open.map { .string($0.iso8601) } ?? .null,
            "next": p.next.map { .string($0.time.iso8601) } ?? .null,
            "windowStart": .string(day.plan.start.iso8601), "windowEnd": .string(day.plan.end.iso8601),
            "schedule": scheduleJSON(day.plan.schedule), "awaitsSetup": .bool(view.awaitsSetup),
            "outsideReminders": outsideJSON(p),
        ]
    }

    /// `outsideReminders`: the instants of the day's glasses outside the reminders.
    static func outsideJSON(_ p: HydrationProgress) -> JSONValue { .array(p.outside.map { .string($0.iso8601) }) }

    /// "1 glass outside the reminders (06:10)", or nil when there is none.
    static func outside(_ p: HydrationProgress, _ plan: HydrationPlan) -> String? {
        guard !p.outside.isEmpty else { return nil }
        let n = p.outside.count
        return "\(n) \(n == 1 ? "glass" : "glasses") outside the reminders (\(p.outside.map { clock($0, plan) }.joined(separator: ", ")))"
    }
}
