import ArgumentParser
import LedgerKit

extension WaterlineCommand {
    /// `ledger waterline status [--json]`
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "The active session: the Waterline gauge, counts, when water is due and the next reminder.")

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws { try line.run() }
    }

    /// "23:40", "off (…)" or "none — paused …".
    static func nextReminderText(_ session: Session, settings: WaterlineSettings, run: WaterlineRun, times: WaterlineText.Times) -> String {
        if !settings.timeRemindersEnabled { return "off (turn on with `ledger waterline settings set timeRemindersEnabled true`)" }
        if let t = WaterlineEngine.nextTimeReminder(for: session, settings: settings, now: run.now, timeZone: run.env.clock.timeZone) {
            return times.show(t)
        }
        return "none — paused after \(WaterlineEngine.inactivityLimitMinutes) minutes without a log; your next log resumes them"
    }

    /// `ledger waterline entries [--session ID] [--json]`
    struct Entries: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "entries",
            abstract: "The timeline of the active session (or the most recent, or --session).")

        @Option(help: ArgumentHelp("A session id or its first 4+ characters.", valueName: "id"))
        var session: String?

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            let current = try run.current()
            // No session named and none yet: an empty timeline, not a missing one.
            let none = try session == nil && current.session == nil && run.waterline.recentSessions(limit: 1).isEmpty
            guard !none else {
                if output.json { Output.json(.array([])) } else { Console.print("No sessions yet. Start one with `ledger waterline start`.") }
                return
            }
            let chosen = try run.waterline.chosenSession(session, active: current.session)
            if output.json {
                Output.json(.array(WaterlineEngine.replay(chosen.entries, rules: chosen.rules).map { WaterlineJSON.entry($0, sessionID: chosen.id) }))
                return
            }
            let times = WaterlineText.Times(chosen, run.env.clock, now: run.now)
            Console.print(Style.bold("Session \(chosen.id)") + " · \(WaterlineText.date(chosen.startTime)), started \(times.show(chosen.startTime))"
                + (chosen.isActive ? " · active" : ""))
            WaterlineCommand.printTimeline(chosen, settings: current.settings, run: run)
        }
    }

    /// A session's entries as a table: time, id, what (the preset's name when it came from
    /// one; sizes in the user's units), the Waterline after it, and what fired then.
    static func printTimeline(_ session: Session, settings: WaterlineSettings, run: WaterlineRun) {
        guard !session.entries.isEmpty else {
            Console.print(session.isActive ? "  No entries yet. Log with `ledger waterline drink` and `ledger waterline water`." : "  No entries.")
            return
        }
        let times = WaterlineText.Times(session, run.env.clock, now: run.now)
        let presets = (try? run.waterline.presetList()).map { Dictionary($0.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }) } ?? [:]
        let steps = WaterlineEngine.replay(session.entries, rules: session.rules)
        let timeWidth = steps.map { times.show($0.entry.timestamp).count }.max() ?? 5
        Console.print(Style.dim("  " + "TIME".padding(toLength: timeWidth + 2, withPad: " ", startingAt: 0) + "ID          ENTRY                                  WATERLINE"))
        for step in steps {
            var marks: [String] = []
            if step.perDrinkReminder { marks.append("water due") }
            if step.pacingWarning { marks.append(Style.red("warning")) }
            let entry = WaterlineText.describe(step.entry, units: settings.units, presets: presets)
            let what = entry.padding(toLength: max(38, entry.count), withPad: " ", startingAt: 0)
            let value = WaterlineText.value(step.after.waterlineValue)
            let id = step.entry.id.padding(toLength: max(10, step.entry.id.count), withPad: " ", startingAt: 0)
            let time = times.show(step.entry.timestamp).padding(toLength: timeWidth, withPad: " ", startingAt: 0)
            Console.print("  \(time)  \(id)  \(what) \(String(repeating: " ", count: max(0, 6 - value.count)))\(value)"
                + (marks.isEmpty ? "" : "  " + marks.joined(separator: ", ")))
        }
    }

    /// `ledger waterline reminders [--json]`
    struct Reminders: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reminders",
            abstract: "What fires next, when, and its text: time-based reminders, per-drink reminders and the pacing warning.")

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            let current = try run.current()
            let settings = current.settings
            let discreet = settings.discreetNotifications
            let due = WaterlineDue.at(run.now, session: current.session, settings: settings, timeZone: run.env.clock.timeZone)
            guard let session = current.session else {
                if output.json {
                    Output.json(.object(["sessionId": .null, "discreet": .bool(discreet), "next": .null, "due": WaterlineJSON.due(due)]))
                } else {
                    Console.print("No active session: no reminders will fire. Start one with `ledger waterline start`.")
                }
                return
            }
            let state = current.state
            let n = settings.waterEveryNDrinks
            let times = WaterlineText.Times(session, run.env.clock, now: run.now)
            let next = WaterlineEngine.nextTimeReminder(for: session, settings: settings, now: run.now, timeZone: run.env.clock.timeZone)
            let upcoming = settings.timeRemindersEnabled
                ? WaterlineEngine.timeReminders(for: session, intervalMinutes: settings.timeReminderIntervalMinutes,
                                                through: session.lastActivity.adding(minutes: Double(WaterlineEngine.inactivityLimitMinutes)),
                                                timeZone: run.env.clock.timeZone)
                    .filter { $0 > run.now }
                : []
            let timeText = WaterlineNotification(.timeReminder, discreet: discreet)
            let dueIn = WaterlineEngine.drinksUntilWaterDue(state, waterEveryNDrinks: n)
            // The reminder due now (after the drinks so far), or the one that fires once N is reached.
            let perDrinkText = WaterlineNotification(.perDrinkReminder(drinks: dueIn == 0 ? state.alcoholCountSinceLastWater : n), discreet: discreet)
            // While water is due, each further drink repeats it with one more drink in the text.
            let nextDrinkText = dueIn <= 1 ? WaterlineNotification(.perDrinkReminder(drinks: state.alcoholCountSinceLastWater + 1), discreet: discreet) : nil
            let pacingText = WaterlineNotification(.pacingWarning, discreet: discreet)
            if output.json {
                var nextJSON = JSONValue.null
                if let next, case .object(var o) = timeText.json {
                    o["at"] = next.json
                    nextJSON = .object(o)
                }
                Output.json(.object([
                    "sessionId": .string(session.id), "discreet": .bool(discreet), "next": nextJSON, "due": WaterlineJSON.due(due),
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
                        "warningThreshold": .number(Double(settings.warningThreshold)), "waterlineValue": .number(state.waterlineValue),
                        "isWarning": .bool(state.isWarning), "notification": pacingText.json,
                    ]),
                ]))
                return
            }
            Console.print(Style.bold("Session \(session.id)") + " · notifications are "
                + (discreet ? "discreet (previews say \"\(WaterlineNotification.discreetBody(.timeReminder))\" and the like; `settings set discreetNotifications false` shows details)" : "detailed"))
            Console.print("")
            func row(_ label: String, _ value: String) { Console.print("  " + label.padding(toLength: 20, withPad: " ", startingAt: 0) + value) }
            if let next {
                let minutes = Int((next.seconds(since: run.now) / 60).rounded(.up))
                row("Next time reminder", "\(times.show(next)) (in \(minutes) min) — \"\(timeText.body)\"")
            } else {
                row("Next time reminder", WaterlineCommand.nextReminderText(session, settings: settings, run: run, times: times))
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
                row("Pacing warning", "showing: the Waterline \(WaterlineText.value(state.waterlineValue)) is at or above \(settings.warningThreshold); it fires again after it drops below")
            } else {
                row("Pacing warning", "fires when the Waterline reaches \(settings.warningThreshold) (now \(WaterlineText.value(state.waterlineValue))) — \"\(pacingText.body)\"")
            }
            if upcoming.count > 1 {
                Console.print("")
                Console.print(Style.dim("  If nothing is logged: " + upcoming.map(times.show).joined(separator: ", ")
                    + "; then they pause until the next log."))
            }
        }
    }
}

extension WaterlineCommand.Status: QuickCommand {
    static let path = ["waterline", "status"]

    var line: Line { Line(json: output.json, global: global.choice) }

    static func read(_ words: QuickLine.Words) -> Line { Line(json: words.flag("json"), global: LedgerChoice.read(words)) }

    struct Line: QuickRun {
        var json: Bool
        var global: LedgerChoice

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            let current = try run.current()
            if json {
                Output.json(WaterlineJSON.status(current, clock: run.env.clock))
                return
            }
            guard let session = current.session else {
                Console.print("No active session. Start one with `ledger waterline start`; past ones: `ledger waterline sessions`.")
                return
            }
            let state = current.state, settings = current.settings
            let minutes = session.summary(now: run.now).durationMinutes
            let times = WaterlineText.Times(session, run.env.clock, now: run.now)
            Console.print(Style.bold("Session \(session.id)") + " · started \(times.show(session.startTime)) · \(WaterlineText.duration(minutes: minutes))")
            Console.print("")
            for line in WaterlineText.gauge(state, threshold: settings.warningThreshold) { Console.print(line) }
            let position = WaterlineText.position(state)
            Console.print("  Waterline \(Style.bold(WaterlineText.value(state.waterlineValue))) — " + (state.isWarning ? Style.red(position) : position))
            Console.print("")
            Console.print("  Drinks \(state.totalAlcoholCount) (\(WaterlineText.standardDrinks(state.totalStandardDrinks))) · Water \(state.totalWaterCount)")
            Console.print("  " + WaterlineText.waterDue(state, n: settings.waterEveryNDrinks))
            Console.print("  Next reminder: " + WaterlineCommand.nextReminderText(session, settings: settings, run: run, times: times))
        }
    }
}
