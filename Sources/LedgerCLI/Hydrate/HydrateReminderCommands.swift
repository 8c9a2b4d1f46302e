import ArgumentParser
import LedgerKit

extension HydrateCommand {
    /// `ledger hydrate drank [--json]`: the seed's "I Drank".
    struct Drank: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "drank",
            abstract: "I Drank: confirm the current reminder (a second time in the same slot does not count twice).",
            discussion: """
                Confirms the reminder whose period holds now (from its time until the next \
                reminder), which stops its follow-ups. It does not move the schedule: the next \
                reminder comes at its planned time. Before the day's first reminder and after the \
                window closes there is nothing to confirm, and the command says so (exit 1).
                """)

        @Flag(help: "Print the outcome as JSON: confirmed, alreadyConfirmed, slot, completed, total.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let log = HydrationLog(store: env.store)
            let outcome = try env.store.withWriterLock { try log.confirm(at: env.now, timeZone: env.clock.timeZone) }
            switch outcome {
            case .confirmed(let slot, let day), .alreadyConfirmed(let slot, _, let day):
                let plan = day.plan, progress = day.progress(at: env.now)
                let time = HydrateOutput.clock(slot.time, plan)
                if json {
                    var previous: JSONValue = .null
                    if case .alreadyConfirmed(_, let at, _) = outcome { previous = .string(at.iso8601) }
                    Output.json([
                        ("confirmed", .bool(true)), ("alreadyConfirmed", .bool(previous != .null)),
                        ("slot", .string(slot.time.iso8601)), ("confirmedAt", previous == .null ? .string(env.now.iso8601) : previous),
                        ("completed", .number(Double(progress.completed))), ("total", .number(Double(progress.total))),
                    ])
                } else if case .alreadyConfirmed(_, let at, _) = outcome {
                    Console.print("The \(time) reminder was already confirmed at \(HydrateOutput.clock(at, plan)); it counts once. "
                        + HydrateOutput.progressSentence(progress) + ".")
                } else {
                    Console.print("Confirmed the \(time) reminder. " + HydrateOutput.progressSentence(progress) + ".")
                }
            case .beforeFirstReminder(let day):
                throw LedgerError.invalid("nothing to confirm yet: the first reminder of \(day.date) is at \(HydrateOutput.clock(day.plan.start, day.plan)); nothing was recorded")
            case .windowClosed(let day):
                throw LedgerError.invalid("nothing to confirm: the reminders of \(day.date) ended at \(HydrateOutput.clock(day.plan.end, day.plan)); nothing was recorded")
            }
        }
    }

    /// `ledger hydrate due [--json]`: for a job run every minute.
    struct Due: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "due",
            abstract: "Whether a reminder or a follow-up is due this minute (for cron or a systemd timer).",
            discussion: """
                When one is due, prints its discreet text and exits 0; when none is, prints nothing \
                and exits 1, like grep, so that a crontab line can read:

                * * * * * msg=$(ledger hydrate due) && notify-send "$msg"

                With --json it prints {"due", "kind", "text", "slot", "time", "date"} and exits 0 \
                whether or not one is due. Errors exit as usual, with a message on stderr.
                """)

        @Flag(help: "Print due (true/false), kind (\"reminder\", \"followUp\" or null), text, slot and time as JSON; exit 0 either way.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let day = try HydrationLog(store: env.store).current(at: env.now, timeZone: env.clock.timeZone)
            let due = day.due(at: env.now)
            if json {
                Output.json([
                    ("due", .bool(due != nil)),
                    ("kind", due.map { .string($0.kind.rawValue) } ?? .null),
                    ("text", due.map { .string($0.text) } ?? .null),
                    ("slot", due.map { .string($0.slot.time.iso8601) } ?? .null),
                    ("time", due.map { .string($0.time.iso8601) } ?? .null),
                    ("date", .string(day.date.description)),
                ])
                return
            }
            guard let due else { throw ExitCode(1) }
            Console.print(due.text)
        }
    }
}
