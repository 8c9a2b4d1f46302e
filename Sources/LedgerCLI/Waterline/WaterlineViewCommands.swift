import ArgumentParser
import LedgerKit

extension WaterlineCommand {
    /// `ledger waterline status [--json]`
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "The active session: the Waterline gauge, counts, when water is due and the next reminder.")

        @Flag(help: "Print the state as JSON (sessionId is null when no session is active).")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            let (session, settings) = try run.active()
            if json {
                Output.json(WaterlineJSON.status(session, settings: settings, now: run.now))
                return
            }
            guard let session else {
                Console.print("No active session. Start one with `ledger waterline start`; past ones: `ledger waterline sessions`.")
                return
            }
            let state = session.state
            let minutes = session.summary(now: run.now).durationMinutes
            Console.print(Style.bold("Session \(session.id)") + " · started \(WaterlineText.time(session.startTime, run.env.clock)) · \(WaterlineText.duration(minutes: minutes))")
            Console.print("")
            for line in WaterlineText.gauge(state, threshold: session.warningThreshold) { Console.print(line) }
            let position = WaterlineText.position(state)
            Console.print("  Waterline \(Style.bold(WaterlineText.value(state.waterlineValue))) — " + (state.isWarning ? Style.red(position) : position))
            Console.print("")
            Console.print("  Drinks \(state.totalAlcoholCount) (\(WaterlineText.standardDrinks(state.totalStandardDrinks))) · Water \(state.totalWaterCount)")
            Console.print("  " + WaterlineText.waterDue(state, n: session.waterEveryNDrinks))
            Console.print("  Next reminder: " + WaterlineCommand.nextReminderText(session, settings: settings, run: run))
        }
    }

    /// "23:40", "off (…)" or "none — paused …".
    static func nextReminderText(_ session: Session, settings: WaterlineSettings, run: WaterlineRun) -> String {
        if !settings.timeRemindersEnabled { return "off (turn on with `ledger waterline settings set timeRemindersEnabled true`)" }
        if let t = WaterlineEngine.nextTimeReminder(for: session, settings: settings, now: run.now) {
            return WaterlineText.time(t, run.env.clock)
        }
        return "none — paused after \(WaterlineEngine.inactivityLimitMinutes) minutes without a log; your next log resumes them"
    }

    /// The session named by `reference`, else the active one, else the most recent.
    static func chosenSession(_ reference: String?, run: WaterlineRun, active: Session?) throws -> Session {
        if let reference {
            let repo = run.waterline.sessions
            return try repo.load(id: try repo.resolve(reference, describe: "session"))
        }
        if let active { return active }
        guard let last = try run.waterline.recentSessions(limit: 1).first else {
            throw LedgerError.notFound("there are no sessions yet; start one with `ledger waterline start`")
        }
        return last
    }

    /// `ledger waterline entries [--session ID] [--json]`
    struct Entries: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "entries",
            abstract: "The timeline of the active session (or the most recent, or --session).")

        @Option(help: ArgumentHelp("A session id or prefix.", valueName: "id"))
        var session: String?

        @Flag(help: "Print the entries as a JSON array.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            let (active, _) = try run.active()
            let chosen = try WaterlineCommand.chosenSession(session, run: run, active: active)
            let steps = WaterlineEngine.replay(chosen.entries, rules: chosen.rules)
            if json {
                Output.json(.array(steps.map { WaterlineJSON.entry($0, sessionID: chosen.id) }))
                return
            }
            Console.print(Style.bold("Session \(chosen.id)") + " · \(WaterlineText.date(chosen.startTime)), started \(WaterlineText.time(chosen.startTime, run.env.clock))"
                + (chosen.isActive ? " · active" : ""))
            WaterlineCommand.printTimeline(steps, run: run)
        }
    }

    /// Entries as a table: time, id, what, Waterline after, and what fired.
    static func printTimeline(_ steps: [WaterlineStep], run: WaterlineRun) {
        guard !steps.isEmpty else {
            Console.print("  No entries yet. Log with `ledger waterline drink` and `ledger waterline water`.")
            return
        }
        Console.print(Style.dim("  TIME   ID          ENTRY                                  WATERLINE"))
        for step in steps {
            var marks: [String] = []
            if step.perDrinkReminder { marks.append("water due") }
            if step.pacingWarning { marks.append(Style.red("warning")) }
            let what = WaterlineText.describe(step.entry).padding(toLength: 38, withPad: " ", startingAt: 0)
            let value = WaterlineText.value(step.after.waterlineValue)
            let id = step.entry.id.padding(toLength: 10, withPad: " ", startingAt: 0)
            Console.print("  \(WaterlineText.time(step.entry.timestamp, run.env.clock))  \(id)  \(what) \(String(repeating: " ", count: max(0, 6 - value.count)))\(value)"
                + (marks.isEmpty ? "" : "  " + marks.joined(separator: ", ")))
        }
    }

    /// `ledger waterline summary [ID] [--json]`
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "summary",
            abstract: "A session's summary: totals, duration, pacing adherence, the Waterline's range and the timeline.",
            discussion: "Without ID: the active session (so far), else the most recent one.")

        @Argument(help: ArgumentHelp("A session id or prefix.", valueName: "id"))
        var id: String?

        @Flag(help: "Print the summary as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            let (active, settings) = try run.active()
            let chosen = try WaterlineCommand.chosenSession(id, run: run, active: active)
            if json {
                Output.json(WaterlineJSON.summary(chosen, settings: settings, now: run.now))
                return
            }
            WaterlineCommand.printSummary(chosen, settings: settings, run: run)
        }
    }

    /// The summary screen (US-022).
    static func printSummary(_ session: Session, settings: WaterlineSettings, run: WaterlineRun) {
        let s = session.summary(now: run.now)
        let span = WaterlineText.time(session.startTime, run.env.clock) + "–" + (session.endTime.map { WaterlineText.time($0, run.env.clock) } ?? "now")
        Console.print(Style.bold("Session \(session.id)") + " · \(WaterlineText.date(session.startTime)) · \(span) (\(WaterlineText.duration(minutes: s.durationMinutes)))"
            + (session.isActive ? " · active, so far" : ""))
        func row(_ label: String, _ value: String) { Console.print("  " + label.padding(toLength: 18, withPad: " ", startingAt: 0) + value) }
        row("Drinks", "\(s.totalAlcoholCount) · \(WaterlineText.standardDrinks(s.totalStandardDrinks))")
        row("Water", "\(s.totalWaterCount) · \(WaterlineText.amount(s.totalWater(in: settings.units))) \(settings.units.rawValue)")
        if let a = s.adherencePercent {
            row("Pacing adherence", "\(WaterlineText.amount(a))% — \(s.remindersHonoured) of \(WaterlineText.count(s.reminderPoints, "reminder")) followed by water (water every \(WaterlineText.count(session.waterEveryNDrinks, "drink")))")
        } else {
            row("Pacing adherence", "— (no reminder points)")
        }
        row("Waterline", "final \(WaterlineText.value(s.finalWaterlineValue)) · lowest \(WaterlineText.value(s.lowestWaterlineValue)) · highest \(WaterlineText.value(s.highestWaterlineValue))")
        Console.print("")
        printTimeline(WaterlineEngine.replay(session.entries, rules: session.rules), run: run)
    }

    /// `ledger waterline sessions [--all] [--json]`
    struct Sessions: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sessions",
            abstract: "The last 5 sessions (--all: every one), newest first.")

        @Flag(help: "List every session, not only the last 5.")
        var all = false

        @Flag(help: "Print the sessions as a JSON array.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            if all { _ = try run.waterline.refreshActiveSession() }
            _ = try run.active()
            let sessions = all ? try run.waterline.allSessions() : try run.waterline.recentSessions(limit: 5)
            if json {
                Output.json(.array(sessions.map { WaterlineJSON.sessionLine($0, now: run.now) }))
                return
            }
            guard !sessions.isEmpty else {
                Console.print("No sessions yet. Start one with `ledger waterline start`.")
                return
            }
            Console.print(Style.dim("  DATE              TIME          DURATION      DRINKS STD    WATER  ADHERENCE  ID"))
            for session in sessions {
                let s = session.summary(now: run.now)
                let span = WaterlineText.time(session.startTime, run.env.clock) + "–" + (session.endTime.map { WaterlineText.time($0, run.env.clock) } ?? "     ")
                let adherence = s.adherencePercent.map { WaterlineText.amount($0) + "%" } ?? "—"
                func col(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
                Console.print("  " + col(WaterlineText.date(session.startTime), 18) + col(span, 14) + col(WaterlineText.duration(minutes: s.durationMinutes), 14)
                    + col(String(s.totalAlcoholCount), 7) + col(WaterlineText.number(s.totalStandardDrinks), 7)
                    + col(String(s.totalWaterCount), 7) + col(adherence, 11) + session.id + (session.isActive ? "  " + Style.bold("active") : ""))
            }
            if !all { Console.print(Style.dim("  (`ledger waterline sessions --all` lists every session; `ledger waterline summary ID` shows one)")) }
        }
    }

    /// `ledger waterline reminders [--json]`
    struct Reminders: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reminders",
            abstract: "What fires next, when, and its text: time-based reminders, per-drink reminders and the pacing warning.")

        @Flag(help: "Print the reminders as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            let (session, settings) = try run.active()
            let discreet = settings.discreetNotifications
            guard let session else {
                if json {
                    Output.json(.object(["sessionId": .null, "discreet": .bool(discreet), "next": .null]))
                } else {
                    Console.print("No active session: no reminders will fire. Start one with `ledger waterline start`.")
                }
                return
            }
            let state = session.state
            let n = session.waterEveryNDrinks
            let next = WaterlineEngine.nextTimeReminder(for: session, settings: settings, now: run.now)
            let upcoming = settings.timeRemindersEnabled
                ? WaterlineEngine.timeReminders(for: session, intervalMinutes: settings.timeReminderIntervalMinutes,
                                                through: session.lastActivity.adding(minutes: Double(WaterlineEngine.inactivityLimitMinutes)))
                    .filter { $0 > run.now }
                : []
            let timeText = WaterlineNotification(.timeReminder, discreet: discreet)
            let dueIn = WaterlineEngine.drinksUntilWaterDue(state, waterEveryNDrinks: n)
            // The reminder due now (after the drinks so far), or the one that fires once N is reached.
            let perDrinkText = WaterlineNotification(.perDrinkReminder(drinks: dueIn == 0 ? state.alcoholCountSinceLastWater : n), discreet: discreet)
            // While water is due, each further drink repeats it with one more drink in the text.
            let nextDrinkText = dueIn <= 1 ? WaterlineNotification(.perDrinkReminder(drinks: state.alcoholCountSinceLastWater + 1), discreet: discreet) : nil
            let pacingText = WaterlineNotification(.pacingWarning, discreet: discreet)
            if json {
                var nextJSON = JSONValue.null
                if let next, case .object(var o) = timeText.json {
                    o["at"] = next.json
                    nextJSON = .object(o)
                }
                Output.json(.object([
                    "sessionId": .string(session.id), "discreet": .bool(discreet), "next": nextJSON,
                    "timeReminder": .object([
                        "enabled": .bool(settings.timeRemindersEnabled), "intervalMinutes": .number(Double(settings.timeReminderIntervalMinutes)),
                        "next": next?.json ?? .null, "upcoming": .array(upcoming.map(\.json)),
                        "pausedForInactivity": .bool(settings.timeRemindersEnabled && next == nil && WaterlineEngine.remindersPausedForInactivity(session, now: run.now)),
                        "notification": timeText.json,
                    ]),
                    "perDrink": .object([
                        "waterEveryNDrinks": .number(Double(n)), "alcoholCountSinceLastWater": .number(Double(state.alcoholCountSinceLastWater)),
                        "dueNow": .bool(dueIn == 0), "drinksUntilDue": .number(Double(dueIn)), "notification": perDrinkText.json,
                        "nextDrinkNotification": nextDrinkText?.json ?? .null,
                    ]),
                    "pacingWarning": .object([
                        "warningThreshold": .number(Double(session.warningThreshold)), "waterlineValue": .number(state.waterlineValue),
                        "isWarning": .bool(state.isWarning), "notification": pacingText.json,
                    ]),
                ]))
                return
            }
            Console.print(Style.bold("Session \(session.id)") + " · notifications are "
                + (discreet ? "discreet (previews say \"\(WaterlineNotification.discreetBody)\"; `settings set discreetNotifications false` shows details)" : "detailed"))
            Console.print("")
            func row(_ label: String, _ value: String) { Console.print("  " + label.padding(toLength: 20, withPad: " ", startingAt: 0) + value) }
            if let next {
                let minutes = Int((next.seconds(since: run.now) / 60).rounded(.up))
                row("Next time reminder", "\(WaterlineText.time(next, run.env.clock)) (in \(minutes) min) — \"\(timeText.body)\"")
            } else {
                row("Next time reminder", WaterlineCommand.nextReminderText(session, settings: settings, run: run))
            }
            if dueIn == 0 {
                row("Per-drink reminder", "water is due: \(WaterlineText.count(state.alcoholCountSinceLastWater, "drink")) since water — \"\(perDrinkText.body)\"")
                if let next = nextDrinkText {
                    row("", next.body == perDrinkText.body ? "each further drink repeats it" : "the next drink would repeat it: \"\(next.body)\"")
                }
            } else {
                row("Per-drink reminder", "after \(WaterlineText.count(dueIn, "more drink")) — \"\(perDrinkText.body)\"")
            }
            if state.isWarning {
                row("Pacing warning", "showing: the Waterline \(WaterlineText.value(state.waterlineValue)) is at or above \(session.warningThreshold); it fires again after it drops below")
            } else {
                row("Pacing warning", "fires when the Waterline reaches \(session.warningThreshold) (now \(WaterlineText.value(state.waterlineValue))) — \"\(pacingText.body)\"")
            }
            if upcoming.count > 1 {
                Console.print("")
                Console.print(Style.dim("  If nothing is logged: " + upcoming.map { WaterlineText.time($0, run.env.clock) }.joined(separator: ", ")
                    + "; then they pause until the next log."))
            }
        }
    }
}
