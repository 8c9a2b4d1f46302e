import ArgumentParser
import Foundation
import LedgerKit

/// `ledger hydrate …`: Water Reminder — daily hydration reminders.
struct HydrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hydrate",
        abstract: "Water Reminder — daily hydration reminders.",
        discussion: """
            Reminders come every interval from the start to the end of your window; one not yet \
            confirmed with `drank` is followed up every follow-up interval until it is, or until \
            the next reminder. Run `due` every minute from cron or a systemd timer to be notified.
            """,
        subcommands: [Setup.self, Status.self, Plan.self, Drank.self, Due.self, Export.self])

    /// This app's line on `ledger status`.
    static func status(_ env: CommandEnvironment) throws -> AppStatus {
        let day: PlannedDay
        do {
            day = try HydrationLog(store: env.store).current(at: env.now, timeZone: env.clock.timeZone)
        } catch let e as LedgerError where e.code == .invalid {
            return AppStatus(app: .hydrate, summary: "a document is invalid (run `ledger check hydrate`)", json: ["valid": .bool(false)])
        }
        let progress = day.progress(at: env.now)
        var json = HydrateOutput.progressJSON(day, progress)
        json["valid"] = .bool(true)
        var summary = HydrateOutput.progressSentence(progress) + (day.date == env.now.local.date ? " today" : " (\(day.date))")
        if let open = progress.current, open.state == .due {
            summary += " · the \(HydrateOutput.clock(open.slot.time, day.plan)) reminder is open"
        } else if let next = progress.next {
            summary += " · next at \(HydrateOutput.clock(next.time, day.plan))"
        }
        return AppStatus(app: .hydrate, summary: summary, json: json)
    }
}

/// Reading the day a command is about, and showing it.
enum HydrateOutput {
    /// The day named by `--date`, else the current one.
    static func day(_ date: String?, _ env: CommandEnvironment) throws -> PlannedDay {
        let log = HydrationLog(store: env.store)
        guard let date else { return try log.current(at: env.now, timeZone: env.clock.timeZone) }
        guard let d = LocalDate(date) else {
            throw LedgerError.usage("--date must be a date written YYYY-MM-DD, like 2026-11-21 (found \"\(date)\")")
        }
        return try log.day(d, at: env.now, timeZone: env.clock.timeZone)
    }

    /// "09:00" on the plan's wall clock; with the offset on a day whose offset changes, where
    /// a time can occur twice.
    static func clock(_ t: Timestamp, _ plan: HydrationPlan) -> String {
        let local = plan.local(t)
        let text = pad2(local.local.hour) + ":" + pad2(local.local.minute)
        return plan.start.utcOffsetSeconds == plan.end.utcOffsetSeconds ? text : text + " (" + Timestamp.formatOffset(local.utcOffsetSeconds) + ")"
    }

    static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

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

    /// The schedule as JSON (the document's field names).
    static func scheduleJSON(_ r: ReminderSchedule) -> JSONValue {
        .object(["startTime": .string(r.startTime.description), "endTime": .string(r.endTime.description),
                 "intervalMinutes": .number(Double(r.intervalMinutes)), "followUpIntervalMinutes": .number(Double(r.followUpIntervalMinutes))])
    }

    /// The facts `status --json` and `ledger status --json` share.
    static func progressJSON(_ day: PlannedDay, _ p: HydrationProgress) -> JSONObject {
        let open = p.current.flatMap { $0.state == .due ? $0.slot.time : nil }
        return [
            "date": .string(day.date.description), "timeZone": .string(day.plan.timeZone.identifier),
            "completed": .number(Double(p.completed)), "total": .number(Double(p.total)), "upcoming": .number(Double(p.upcoming)),
            "awaitingConfirmation": open.map { .string($0.iso8601) } ?? .null,
            "next": p.next.map { .string($0.time.iso8601) } ?? .null,
            "windowStart": .string(day.plan.start.iso8601), "windowEnd": .string(day.plan.end.iso8601),
            "schedule": scheduleJSON(day.plan.schedule),
        ]
    }
}
