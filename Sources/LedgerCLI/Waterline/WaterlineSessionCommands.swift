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
                Output.json(WaterlineJSON.status(current, clock: run.env.clock))
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
                try run.waterline.end(at: end, precision: time.precision, now: run.now)
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

    /// `ledger waterline keep-going [--json]`: US-025's "Keep Going".
    struct KeepGoing: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keep-going",
            abstract: "Keep a long-running session going: stops the question about ending it for as long again.",
            discussion: "A session active longer than `abandonedAfterHours` (12 by default) is mentioned by every command; this answers it, on every device once synced.")

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            let settings = try run.waterline.settings()
            let session = try run.waterline.keepGoing(now: run.now)
            if output.json {
                Output.json(WaterlineJSON.status(try run.waterline.current(), clock: run.env.clock))
                return
            }
            let again = run.now.adding(seconds: Double(settings.abandonedAfterHours) * 3600)
            Console.print("Session \(session.id) keeps going (running for \(WaterlineText.count(WaterlineEngine.hoursRunning(session, now: run.now), "hour"))). "
                + "If it is still active after \(WaterlineText.count(settings.abandonedAfterHours, "more hour")) (\(WaterlineText.Times([run.now, again], run.env.clock).show(again))), you will be asked again.")
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

        @Argument(help: ArgumentHelp("A session id or its first 4+ characters.", valueName: "id"), completion: LiveCompletion.sessions)
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
            let (read, notes) = try run.waterline.listSessions(limit: all ? nil : 5)
            let sessions = read.documents
            let settings = try run.waterline.settings()
            run.announce(notes, active: sessions.first(where: \.isActive), settings: settings)
            if output.json {
                Output.json(.array(sessions.map { WaterlineJSON.sessionLine($0, now: run.now) }))
                return try run.endListing(read.invalid)
            }
            guard !sessions.isEmpty else {
                if read.invalid.isEmpty { Console.print("No sessions yet. Start one with `ledger waterline start`.") }
                return try run.endListing(read.invalid)
            }
            // Columns as wide as their widest cell: a session of 24 hours or more shows dates
            // in its times, a night the clocks changed shows offsets, as its timeline does.
            let header = ["DATE", "TIME", "DURATION", "DRINKS", "STD", "WATER", "ADHERENCE"]
            let rows = sessions.map { session -> [String] in
                let s = session.summary(now: run.now)
                let times = WaterlineText.Times(session, run.env.clock, now: run.now)
                return [WaterlineText.date(session.startTime), times.show(session.startTime) + "–" + (session.endTime.map(times.show) ?? ""),
                        WaterlineText.duration(minutes: s.durationMinutes), String(s.totalAlcoholCount), WaterlineText.number(s.totalStandardDrinks),
                        String(s.totalWaterCount), s.adherencePercent.map { WaterlineText.amount($0) + "%" } ?? "—"]
            }
            let widths = header.indices.map { c in ([header[c]] + rows.map { $0[c] }).map(\.count).max()! + 2 }
            func line(_ cells: [String]) -> String { "  " + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined() }
            Console.print(Style.dim(line(header) + "ID"))
            for (session, row) in zip(sessions, rows) {
                Console.print(line(row) + session.id + (session.isActive ? "  " + Style.bold("active") : ""))
            }
            if !all { Console.print(Style.dim("  (`ledger waterline sessions --all` lists every session; `ledger waterline summary ID` shows one)")) }
            try run.endListing(read.invalid)
        }
    }

    /// `ledger waterline sessions delete ID [--yes]`
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a whole session and its entries (asks first; --yes for scripts).",
            discussion: "The deletion reaches your other machines with the next `ledger sync`; the session stays in the git history (see the README to remove it for good).")

        @Argument(help: ArgumentHelp("The session's id or its first 4+ characters.", valueName: "id"), completion: LiveCompletion.sessions)
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
