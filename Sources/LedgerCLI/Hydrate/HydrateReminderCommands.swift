import ArgumentParser
import LedgerKit

extension HydrateCommand {
    /// `ledger hydrate drank [--slot HH:MM] [--json]`: the seed's "I Drank".
    struct Drank: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "drank",
            abstract: "I Drank: confirm the current reminder, or with --slot the one you were notified of.",
            discussion: """
                Confirms the reminder whose period holds now (from its time until the next \
                reminder), which stops its follow-ups; a second time in the same period does not \
                count twice. It does not move the schedule: the next reminder comes at its planned \
                time. Before the day's first reminder and after the window closes there is no \
                reminder to confirm: the glass is kept as one outside the reminders, shown by \
                `status` and `plan`, and counts for none.

                With --slot it confirms the reminder you were notified of, even when you answer \
                after its period or after the window closed: until the end of the day it came on \
                (for a window past midnight, until the window closes if that is later).
                """)

        @Option(help: ArgumentHelp("The reminder to confirm: its time (09:00), or the `slot` that `hydrate due --json` gives.", valueName: "HH:MM"),
                transform: SlotValue.parse)
        var slot: SlotValue?

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws { try line.run() }

        static func capitalized(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }
    }

    /// `ledger hydrate due [--json]`: for a job run every minute.
    struct Due: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "due",
            abstract: "Whether a reminder or a follow-up is due this minute (for cron or a systemd timer).",
            discussion: """
                Exit status, like grep: 0 when one is due (its discreet text is printed), 1 when \
                none is (nothing is printed), 2 when it cannot tell — no ledger, an invalid \
                schedule or day file, a bad option — with the reason on stderr. So a crontab \
                line can read:

                * * * * * msg=$(ledger hydrate due) && notify-send "$msg"

                and a broken schedule is told apart from a quiet minute by its status and its \
                message (which cron mails to you).

                With --json it prints {"due", "kind", "text", "slot", "slotTime", "time", "date", \
                "awaitsSetup"} and exits 0 whether or not one is due (2 when it cannot tell).
                """)

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let view: HydrateStore.View
            let env: CommandEnvironment
            do {
                env = try global.environment()
                view = try HydrateCommand.view(nil, env)
            } catch let e as LedgerError {
                // Never status 1, which means "nothing is due".
                Console.error(e)
                throw ExitCode(2)
            }
            let day = view.day
            let due = day.due(at: env.now)
            if output.json {
                Output.json([
                    ("due", .bool(due != nil)),
                    ("kind", due.map { .string($0.kind.rawValue) } ?? .null),
                    ("text", due.map { .string($0.text) } ?? .null),
                    ("slot", due.map { .string($0.slot.time.iso8601) } ?? .null),
                    ("slotTime", due.map { .string(HydrateFormat.slotTime($0.slot.time, day.plan)) } ?? .null),
                    ("time", due.map { .string($0.time.iso8601) } ?? .null),
                    ("date", .string(day.date.description)),
                    ("awaitsSetup", .bool(view.awaitsSetup)),
                ])
                return
            }
            // On a terminal (not under cron, whose mail would repeat it every minute), the first use says how to choose a schedule.
            if view.awaitsSetup, CLIContext.current.stdinIsTerminal { Console.error(HydrateFormat.setupHint) }
            guard let due else { throw ExitCode(1) }
            Console.print(due.text)
        }
    }
}

/// `--slot`: a reminder's time, `HH:MM` (or `H:MM`), or the instant of its slot with its offset.
struct SlotValue: OptionValue {
    let reference: SlotReference

    static func parse(_ text: String) throws -> SlotValue {
        if let t = DayTimeValue.clockTime(text) { return SlotValue(reference: .clock(t)) }
        if let t = Timestamp(iso8601: text) { return SlotValue(reference: .instant(t)) }
        throw OptionProblem(text: "must be a reminder's time written HH:MM, like 09:00, or the slot `ledger hydrate due --json` gives, "
            + "like 2026-11-21T09:00:00+01:00 (found \"\(text)\")")
    }
}

extension HydrateCommand.Drank: QuickCommand {
    static let path = ["hydrate", "drank"]
    static let valueOptions = ["slot"]

    var line: Line { Line(slot: slot, json: output.json, global: global.choice) }

    static func read(_ words: QuickLine.Words) throws -> Line {
        Line(slot: try words.value("slot"), json: words.flag("json"), global: LedgerChoice.read(words))
    }

    struct Line: QuickRun {
        var slot: SlotValue?
        var json: Bool
        var global: LedgerChoice

        func run() throws {
            let reference = slot?.reference
            let env = try global.environment()
            let hydrate = HydrateStore(env.store)
            let zone = env.clock.timeZone
            let outcome = try reference.map { try hydrate.confirm($0, at: env.now, timeZone: zone) } ?? hydrate.confirm(at: env.now, timeZone: zone)
            // A named reminder may be of another day than the current one; then it is named with its date.
            let today = reference == nil ? nil : env.now.local.date
            switch outcome {
            case .confirmed(let slot, let day), .alreadyConfirmed(let slot, _, let day):
                let progress = day.progress(at: env.now)
                let reminder = HydrateFormat.reminder(slot, day, today: today)
                var previous: Timestamp?
                if case .alreadyConfirmed(_, let at, _) = outcome { previous = at }
                if json {
                    Output.json([
                        ("confirmed", .bool(true)), ("alreadyConfirmed", .bool(previous != nil)),
                        ("outsideReminders", HydrateFormat.outsideJSON(progress)),
                        ("slot", .string(slot.time.iso8601)), ("confirmedAt", .string((previous ?? env.now).iso8601)),
                        ("date", .string(day.date.description)),
                        ("completed", .number(Double(progress.completed))), ("total", .number(Double(progress.total))),
                    ])
                } else if let previous {
                    Console.print("\(HydrateCommand.Drank.capitalized(reminder)) was already confirmed at \(HydrateFormat.clock(previous, day.plan)); it counts once. "
                        + HydrateFormat.progressSentence(progress) + ".")
                } else {
                    Console.print("Confirmed \(reminder). " + HydrateFormat.progressSentence(progress) + ".")
                }
            case .beforeFirstReminder(let day), .windowClosed(let day):
                // No reminder to confirm: the glass is kept, outside the reminders.
                let progress = day.progress(at: env.now)
                if json {
                    Output.json([
                        ("confirmed", .bool(false)), ("alreadyConfirmed", .bool(false)), ("outsideReminders", HydrateFormat.outsideJSON(progress)),
                        ("slot", .null), ("confirmedAt", .string(env.now.iso8601)), ("date", .string(day.date.description)),
                        ("completed", .number(Double(progress.completed))), ("total", .number(Double(progress.total))),
                    ])
                    return
                }
                let when = HydrateFormat.clock(env.now, day.plan)
                let whereItIs = env.now < day.plan.start
                    ? "before the first reminder of the day (\(HydrateFormat.clock(day.plan.start, day.plan)))"
                    : "after the day's reminders ended (\(HydrateFormat.clock(day.plan.end, day.plan))); to confirm one you were notified of, "
                        + "name it with `ledger hydrate drank --slot HH:MM`"
                Console.print("Noted a glass at \(when), \(whereItIs). It counts for no reminder. " + HydrateFormat.progressSentence(progress) + ".")
            case .notYet(let slot, let day):
                throw LedgerError.invalid("--slot: \(HydrateFormat.reminder(slot, day, today: today)) has not come yet; nothing was recorded")
            case .tooLate(let slot, let day, let deadline):
                throw LedgerError.invalid("--slot: \(HydrateFormat.reminder(slot, day, today: today)) can no longer be confirmed: a reminder can be "
                    + "confirmed until the end of its day (\(deadline.iso8601)); nothing was recorded")
            case .noSuchReminder(let reference, let day):
                throw LedgerError.invalid("--slot: there is no \(reference) reminder on \(day.date) (its reminders: \(HydrateFormat.reminderTimes(day.plan))); nothing was recorded")
            }
        }
    }
}
