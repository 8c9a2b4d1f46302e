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
            the next reminder. To be notified, `ledger remind install` shows them as desktop \
            notifications with an I Drank button; or run `due` every minute from cron or a \
            systemd timer.
            """,
        subcommands: [Setup.self, Status.self, Plan.self, Drank.self, Due.self, Export.self])

    /// This app's line on `ledger status`.
    static func status(_ env: CommandEnvironment) throws -> AppStatus {
        let view: HydrateStore.View
        do {
            view = try HydrateStore(env.store).view(nil, at: env.now, timeZone: env.clock.timeZone)
        } catch let e as LedgerError {
            var line = AppStatus.invalid(.hydrate, e)
            line.json["valid"] = .bool(false)
            return line
        }
        let day = view.day
        let progress = day.progress(at: env.now)
        var json = HydrateFormat.progressJSON(view, progress)
        json["valid"] = .bool(true)
        var summary = HydrateFormat.progressSentence(progress) + (day.date == env.now.local.date ? " today" : " (\(day.date))")
        if let open = progress.current, open.state == .due {
            summary += " · the \(HydrateFormat.clock(open.slot.time, day.plan)) reminder is open"
        } else if let next = progress.next {
            summary += " · next at \(HydrateFormat.clock(next.time, day.plan))"
        }
        return AppStatus(app: .hydrate, summary: summary, json: json)
    }

    /// The day a command shows: `--date`, else the current one.
    static func view(_ date: DateValue?, _ env: CommandEnvironment) throws -> HydrateStore.View {
        try HydrateStore(env.store).view(date?.date, at: env.now, timeZone: env.clock.timeZone)
    }
}
