import ArgumentParser
import LedgerKit

extension WaterlineCommand {
    /// `ledger waterline start`
    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Start a night-out session (only one may be active).")

        @OptionGroup var time: TimeOption

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            let start = try time.instant(run.env.clock)
            let result: (session: Session, notes: [String])
            do {
                result = try time.explaining(start ?? run.now, clock: run.env.clock) {
                    try run.waterline.start(at: start, now: run.now, ids: run.env.ids)
                }
            } catch let e as LedgerError where e.code == .invalid {
                _ = try? run.current()  // the abandoned-session prompt, when it applies
                throw e
            }
            let current = try run.waterline.current()
            run.announce(result.notes, active: nil, settings: nil)
            if output.json {
                Output.json(WaterlineJSON.status(current, now: run.now))
                return
            }
            let settings = current.settings
            Console.print("Started session \(result.session.id) at \(WaterlineText.Times(result.session, run.env.clock, now: run.now).show(result.session.startTime)).")
            Console.print("Log with `ledger waterline drink` (presets: `ledger waterline presets`) and `ledger waterline water`.")
            Console.print(Style.dim("Water every \(WaterlineText.count(settings.waterEveryNDrinks, "drink")) · warning at \(settings.warningThreshold)"
                + (settings.timeRemindersEnabled ? " · reminders every \(settings.timeReminderIntervalMinutes) min" : " · time reminders off")))
        }
    }

    /// `ledger waterline end [--yes]`
    struct End: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "end",
            abstract: "End the active session (asks first; --yes for scripts) and show its summary.")

        @OptionGroup var confirmation: YesOption

        @OptionGroup var time: TimeOption

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            let end = try time.instant(run.env.clock)
            let current = try run.waterline.current()
            run.announce(current.notes, active: nil, settings: nil)
            guard let active = current.session else { throw LedgerError.invalid("no session is active; there is nothing to end") }
            let s = current.state
            let session = "this session (started \(WaterlineText.Times(active, run.env.clock, now: run.now).show(active.startTime)), "
                + "\(WaterlineText.count(s.totalAlcoholCount, "drink")), \(s.totalWaterCount) water)"
            guard try Console.confirm("End \(session)?", action: "Ending \(session)", yes: confirmation.yes) else {
                Console.print("The session goes on.")
                return
            }
            let (ended, _) = try time.explaining(end, clock: run.env.clock) {
                try run.waterline.end(at: end, now: run.now)
            }
            if output.json {
                Output.json(WaterlineJSON.summary(ended, settings: current.settings, now: run.now))
                return
            }
            Console.print("Ended session \(ended.id) at \(WaterlineText.Times(ended, run.env.clock).show(ended.endTime ?? run.now)).")
            Console.print("")
            WaterlineCommand.printSummary(ended, settings: current.settings, run: run)
        }
    }

    /// `ledger waterline sessions [list|delete]`
    struct Sessions: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sessions",
            abstract: "Sessions: list (the default; the last 5, or --all), delete.",
            subcommands: [List.self, Delete.self],
            defaultSubcommand: List.self)
    }

    /// `ledger waterline summary [ID] [--json]`
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "summary",
            abstract: "A session's summary: totals, duration, pacing adherence, the Waterline's range and the timeline.",
            discussion: "Without ID: the active session (so far), else the most recent one.")

        @Argument(help: ArgumentHelp("A session id or its first 4+ characters.", valueName: "id"))
        var id: String?

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            let current = try run.current()
            let chosen = try run.waterline.chosenSession(id, active: current.session)
            if output.json {
                Output.json(WaterlineJSON.summary(chosen, settings: current.settings, now: run.now))
                return
            }
            WaterlineCommand.printSummary(chosen, settings: current.settings, run: run)
        }
    }

    /// The summary screen (US-022).
    static func printSummary(_ session: Session, settings: WaterlineSettings, run: WaterlineRun) {
        let s = session.summary(now: run.now)
        let times = WaterlineText.Times(session, run.env.clock, now: run.now)
        let span = times.show(session.startTime) + "–" + (session.endTime.map(times.show) ?? "now")
        Console.print(Style.bold("Session \(session.id)") + " · \(WaterlineText.date(session.startTime)) · \(span) (\(WaterlineText.duration(minutes: s.durationMinutes)))"
            + (session.isActive ? " · active, so far" : ""))
        func row(_ label: String, _ value: String) { Console.print("  " + label.padding(toLength: 18, withPad: " ", startingAt: 0) + value) }
        row("Drinks", "\(s.totalAlcoholCount) · \(WaterlineText.standardDrinks(s.totalStandardDrinks))")
        row("Water", "\(s.totalWaterCount) · \(WaterlineText.amount(s.totalWater(in: settings.units))) \(settings.units.rawValue)")
        if let a = s.adherencePercent {
            // The N each drink was logged under, in order: "water every 1 drink, then 2 drinks".
            var ns: [Int] = []
            for e in WaterlineEngine.ordered(session.entries) where e.type == .alcohol {
                let n = e.rules(in: session.rules).waterEveryNDrinks
                if ns.last != n { ns.append(n) }
            }
            let every = (ns.isEmpty ? [session.waterEveryNDrinks] : ns).map { WaterlineText.count($0, "drink") }.joined(separator: ", then ")
            row("Pacing adherence", "\(WaterlineText.amount(a))% — \(s.remindersHonoured) of \(WaterlineText.count(s.reminderPoints, "reminder")) followed by water (water every \(every))")
        } else {
            row("Pacing adherence", "— (no reminder points)")
        }
        row("Waterline", "final \(WaterlineText.value(s.finalWaterlineValue)) · lowest \(WaterlineText.value(s.lowestWaterlineValue)) · highest \(WaterlineText.value(s.highestWaterlineValue))")
        Console.print("")
        printTimeline(session, settings: settings, run: run)
    }
}

extension WaterlineCommand.Sessions {
    /// `ledger waterline sessions [list] [--all] [--json]`
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The last 5 sessions (--all: every one), newest first.")

        @Flag(help: "List every session, not only the last 5.")
        var all = false

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            let (sessions, notes) = try run.waterline.listSessions(limit: all ? nil : 5)
            let settings = try run.waterline.settings()
            run.announce(notes, active: sessions.first(where: \.isActive), settings: settings)
            if output.json {
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
                let times = WaterlineText.Times(session, run.env.clock, now: run.now)
                let span = times.show(session.startTime) + "–" + (session.endTime.map(times.show) ?? "     ")
                let adherence = s.adherencePercent.map { WaterlineText.amount($0) + "%" } ?? "—"
                func col(_ text: String, _ width: Int) -> String { text.padding(toLength: max(width, text.count + 1), withPad: " ", startingAt: 0) }
                Console.print("  " + col(WaterlineText.date(session.startTime), 18) + col(span, 14) + col(WaterlineText.duration(minutes: s.durationMinutes), 14)
                    + col(String(s.totalAlcoholCount), 7) + col(WaterlineText.number(s.totalStandardDrinks), 7)
                    + col(String(s.totalWaterCount), 7) + col(adherence, 11) + session.id + (session.isActive ? "  " + Style.bold("active") : ""))
            }
            if !all { Console.print(Style.dim("  (`ledger waterline sessions --all` lists every session; `ledger waterline summary ID` shows one)")) }
        }
    }

    /// `ledger waterline sessions delete ID [--yes]`
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a whole session and its entries (asks first; --yes for scripts).",
            discussion: "The deletion reaches your other machines with the next `ledger sync`; the session stays in the git history (see the README to remove it for good).")

        @Argument(help: ArgumentHelp("The session's id or its first 4+ characters.", valueName: "id"))
        var id: String

        @OptionGroup var confirmation: YesOption

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            let target = try run.waterline.deletableSession(id)
            // An invalid session (a hand edit) can still be deleted; it is then described by
            // its id and its first problem.
            let what = target.session.map { session in
                let s = session.state
                return "session \(session.id) (\(WaterlineText.date(session.startTime)), \(WaterlineText.count(s.totalAlcoholCount, "drink")), "
                    + "\(s.totalWaterCount) water\(session.isActive ? ", active" : ""))"
            } ?? "session \(target.id) (invalid: \(target.problems.first.map { Words.text($0.issue.sentence) } ?? "it cannot be read"))"
            guard try Console.confirm("Delete \(what)? Its entries go with it.", action: "Deleting \(what)", yes: confirmation.yes) else {
                Console.print("Nothing was deleted.")
                return
            }
            let deleted = try run.waterline.deleteSession(target.id)
            if output.json {
                Output.json(.object(["deleted": deleted.session?.json ?? .object(["id": .string(deleted.id)])]))
                return
            }
            Console.print("Deleted \(what). `ledger sync` deletes it on your other machines too.")
        }
    }
}
