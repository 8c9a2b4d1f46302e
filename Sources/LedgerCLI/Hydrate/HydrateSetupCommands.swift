import ArgumentParser
import Foundation
import LedgerKit

extension HydrateCommand {
    /// `ledger hydrate setup [--start HH:MM] [--end HH:MM] [--interval MIN] [--follow-up MIN]`
    struct Setup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "setup",
            abstract: "Set the reminder schedule: start, end, interval and follow-up interval.",
            discussion: """
                On a terminal, asks for what the flags leave out, offering the current values. \
                Without a terminal, what the flags leave out keeps its current value (a new ledger \
                starts with 09:00–17:00, every 60 minutes, follow-ups every 15 minutes). The change \
                applies at once, to the current day too; earlier days keep the schedule they were \
                planned with.
                """)

        @Option(help: ArgumentHelp("The first reminder of the day.", valueName: "HH:MM"), transform: DayTimeValue.parse)
        var start: DayTimeValue?

        @Option(help: ArgumentHelp("The end of the window (exclusive); at or before --start, the window runs past midnight.", valueName: "HH:MM"),
                transform: DayTimeValue.parse)
        var end: DayTimeValue?

        @Option(parsing: .unconditional, help: ArgumentHelp("Minutes between reminders (2–1440).", valueName: "MIN"))
        var interval: Int?

        @Option(name: .customLong("follow-up"), parsing: .unconditional, help: ArgumentHelp("Minutes between follow-ups of an unconfirmed reminder, shorter than the interval.", valueName: "MIN"))
        var followUp: Int?

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let hydrate = HydrateStore(env.store)
            var change = ScheduleChange(startTime: start?.time, endTime: end?.time,
                                        intervalMinutes: interval, followUpIntervalMinutes: followUp)
            if CLIContext.current.stdinIsTerminal, !change.isComplete {
                change = try Self.ask(change, current: hydrate.schedule().reminders)
            }
            switch try hydrate.changeSchedule(change, at: env.now, timeZone: env.clock.timeZone) {
            case .refused(_, let problems):
                let field = problems.first?.pointer.tokens.last ?? ""
                throw LedgerError.usage("\(Self.flags[field] ?? field) (\(field)) \(problems.first.map { Words.text($0.sentence) } ?? "")")
            case .unchanged(let schedule):
                Console.print("Unchanged: " + Self.describe(schedule) + ".")
            case .saved(let schedule):
                Console.print("Saved: " + Self.describe(schedule) + ".")
                if ReminderStore(env.store).runningProcess() != nil {
                    Console.print(Style.dim("`ledger remind` is running: its notifications follow the new schedule at once."))
                } else {
                    Console.print(Style.dim("To be notified: `ledger remind install` (desktop notifications with an I Drank button); "
                        + "or run `ledger hydrate due` every minute from cron (docs/hydrate.md gives a crontab line), "
                        + "or import `ledger hydrate export --ics FILE` into a calendar."))
                }
            }
        }

        /// "8 reminders a day, every 60 min from 09:00 to 17:00, follow-ups every 15 min".
        static func describe(_ r: ReminderSchedule) -> String {
            let count = r.nominalSlotOffsets.count
            return "\(count) reminder\(count == 1 ? "" : "s") a day, " + r.summary
        }

        static let flags = ["startTime": "--start", "endTime": "--end", "intervalMinutes": "--interval", "followUpIntervalMinutes": "--follow-up"]


        /// The onboarding: asks for each value the flags left out, checking each answer at once.
        static func ask(_ given: ScheduleChange, current: ReminderSchedule) throws -> ScheduleChange {
            var a = given
            var r = given.applied(to: current)
            Console.print("Water Reminder reminds you to drink water during your waking hours, and again until you confirm.")
            Console.print(Style.dim("Press Enter to keep the value in brackets."))
            if a.startTime == nil {
                r.startTime = try prompt("Start time (HH:MM)", r.startTime, parse: { DayTimeValue.clockTime($0) }, check: { _ in nil })
                a.startTime = r.startTime
            }
            if a.endTime == nil {
                r.endTime = try prompt("End time (HH:MM; earlier than the start means past midnight)", r.endTime, parse: { DayTimeValue.clockTime($0) },
                                       check: { $0 == r.startTime ? "the end must differ from the start (\(r.startTime))" : nil })
                a.endTime = r.endTime
            }
            if a.intervalMinutes == nil {
                let range = ReminderSchedule.minimumIntervalMinutes...ReminderSchedule.maximumIntervalMinutes
                r.intervalMinutes = try prompt("Minutes between reminders", r.intervalMinutes, parse: { Int($0) }, check: { v in
                    range.contains(v) ? nil : "give a number of minutes from \(range.lowerBound) to \(range.upperBound)"
                })
                a.intervalMinutes = r.intervalMinutes
            }
            if a.followUpIntervalMinutes == nil {
                let suggestion = r.followUpIntervalMinutes < r.intervalMinutes ? r.followUpIntervalMinutes : max(1, r.intervalMinutes / 4)
                let interval = r.intervalMinutes
                r.followUpIntervalMinutes = try prompt("Minutes between follow-ups until you confirm (less than \(interval))", suggestion,
                                                       parse: { Int($0) }, check: { v in
                    (1..<max(2, interval)).contains(v) ? nil : "give a number of minutes from 1 to \(interval - 1)"
                })
                a.followUpIntervalMinutes = r.followUpIntervalMinutes
            }
            return a
        }

        /// One question, asked again until the answer is usable; Enter keeps `current`.
        static func prompt<T: CustomStringConvertible>(_ question: String, _ current: T, parse: (String) -> T?,
                                                       check: (T) -> String?) throws -> T {
            let context = CLIContext.current
            while true {
                Console.prompt("\(question) [\(current)]: ")
                context.stdout.flush()
                guard let line = context.stdin.readLine() else {
                    Console.print()
                    throw LedgerError.usage("setup stopped before \"\(question)\" was answered; nothing was saved")
                }
                let text = line.trimmingWhitespace()
                guard let value = text.isEmpty ? current : parse(text) else {
                    Console.print("  \"\(text)\" is not \(T.self == ClockTime.self ? "a time like 09:00" : "a whole number of minutes"); try again.")
                    continue
                }
                if let problem = check(value) {
                    Console.print("  \(problem); try again.")
                    continue
                }
                return value
            }
        }
    }

    /// `ledger hydrate export --ics FILE [--follow-ups]`
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write the schedule as an iCalendar file, so any calendar application can do the notifying.",
            discussion: """
                One daily event per reminder with a display alarm, at floating local times. A \
                calendar cannot see confirmations, so follow-ups are left out unless --follow-ups \
                asks for alarms that repeat at the follow-up interval regardless.
                """)

        @Option(help: ArgumentHelp("The file to write (- for stdout).", valueName: "FILE"))
        var ics: String

        @Flag(name: .customLong("follow-ups"), help: "Repeat each alarm at the follow-up interval until the next reminder.")
        var followUps = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let schedule = try HydrateStore(env.store).schedule()
            let text = HydrationCalendar.ics(schedule, followUps: followUps)
            if ics == "-" {
                CLIContext.current.stdout.write(text)
                return
            }
            let path = CLIContext.current.absolutePath(ics)
            let directory = (path as NSString).deletingLastPathComponent
            guard FileSystem.stamp(directory)?.type == .directory else {
                throw LedgerError.usage("--ics: there is no directory \(directory) to write \((path as NSString).lastPathComponent) in")
            }
            if FileSystem.stamp(path).map({ $0.type != .file }) == true {
                throw LedgerError.usage("--ics: \(path) exists and is not a regular file")
            }
            try FileSystem.writeAtomically(path, Array(text.utf8))
            let count = schedule.reminders.nominalSlotOffsets.count
            Console.print("Wrote \(count) daily reminder\(count == 1 ? "" : "s") (\(schedule.reminders.summary)) to \(path).")
        }
    }
}
