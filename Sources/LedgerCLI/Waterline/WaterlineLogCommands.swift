import ArgumentParser
import LedgerKit

extension WaterlineCommand {
    /// `ledger waterline start`
    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Start a night-out session (only one may be active).")

        @Option(help: ArgumentHelp("When it started, if not now: 21:00, 2026-11-21T21:00 or a timestamp with its offset.", valueName: "time"))
        var time: String?

        @Flag(help: "Print the new session as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            let start = try time.map { try TimeArgument.parse($0, option: "--time", clock: run.env.clock) } ?? run.now
            let result: (session: Session, notes: [String])
            do {
                result = try TimeArgument.explaining(time, start, option: "--time", clock: run.env.clock) {
                    try run.waterline.start(id: run.env.ids.next(), at: start, now: run.now)
                }
            } catch let e as LedgerError where e.code == .invalid {
                _ = try? run.active()  // the abandoned-session prompt, when it applies
                throw e
            }
            let settings = try run.waterline.settings()
            run.announce(result.notes, active: nil, settings: nil)
            if json {
                Output.json(WaterlineJSON.status(result.session, settings: settings, now: run.now))
                return
            }
            Console.print("Started session \(result.session.id) at \(WaterlineText.time(start, run.env.clock)).")
            Console.print("Log with `ledger waterline drink` (presets: `ledger waterline presets`) and `ledger waterline water`.")
            Console.print(Style.dim("Water every \(WaterlineText.count(settings.waterEveryNDrinks, "drink")) · warning at \(settings.warningThreshold)"
                + (settings.timeRemindersEnabled ? " · reminders every \(settings.timeReminderIntervalMinutes) min" : " · time reminders off")))
        }
    }

    /// `ledger waterline drink [--preset NAME] [--type T] [--size OZ] [--abv PCT] [--std N]`
    struct Drink: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "drink",
            abstract: "Log an alcoholic drink in the active session.",
            discussion: """
                With no options, logs one standard drink. --preset takes a preset's name or id \
                (`ledger waterline presets`); --type, --size, --abv and --std describe the drink \
                or adjust the preset. Without --std the estimate comes from the preset, or from \
                size × ABV (a US standard drink is 0.6 oz of alcohol), and is shown.
                """)

        @Option(help: ArgumentHelp("A preset's name (case-insensitive) or id.", valueName: "name"))
        var preset: String?

        @Option(help: ArgumentHelp("beer, wine, liquor or cocktail.", valueName: "type"))
        var type: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Serving size in ounces (or with ml: 330ml).", valueName: "oz"))
        var size: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Alcohol by volume, in percent.", valueName: "pct"))
        var abv: String?

        @Option(name: .customLong("std"), parsing: .unconditional, help: ArgumentHelp("Standard drinks it counts for (a double is 2).", valueName: "n"))
        var standardDrinks: String?

        @Option(help: ArgumentHelp("When it was drunk, if not now: 22:15, 2026-11-21T22:15 or a timestamp with its offset.", valueName: "time"))
        var time: String?

        @Flag(help: "Print the entry, the new state and what it triggered as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            let type = try self.type.map(WaterlineText.parseType)
            let size = try self.size.map { try WaterlineText.parseSize($0, option: "--size") }
            let abv = try self.abv.map(WaterlineText.parseABV)
            let std = try standardDrinks.map { try WaterlineText.parseStandardDrinks($0, option: "--std") }
            let when = try time.map { try TimeArgument.parse($0, option: "--time", clock: run.env.clock) } ?? run.now
            let preset = try self.preset.map { try run.waterline.preset($0) }
            let estimate = DrinkEstimate.resolve(preset: preset, type: type, sizeOz: size, abv: abv, standardDrinks: std)
            try WaterlineText.checkEstimate(estimate, size: self.size, abv: self.abv, type: self.type)
            let id = run.env.ids.next()
            let logged = try TimeArgument.explaining(time, when, option: "--time", clock: run.env.clock) {
                try run.waterline.log(now: run.now) { _, _ in LogEntry.alcohol(id: id, at: when, estimate.meta, now: run.now) }
            }
            try WaterlineCommand.reportLogged(logged, run: run, headline:
                "Logged \(WaterlineText.describe(logged.step.entry, estimate: false)) — \(WaterlineText.standardDrinks(estimate.meta.standardDrinkEstimate)) (\(estimate.reason)).")
        }
    }

    /// `ledger waterline water [--amount N]`
    struct Water: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "water",
            abstract: "Log water in the active session (the default amount unless --amount).")

        @Option(parsing: .unconditional, help: ArgumentHelp("Amount in your units (or with a unit: 250ml, 8oz).", valueName: "n"))
        var amount: String?

        @Option(help: ArgumentHelp("When it was drunk, if not now: 22:15, 2026-11-21T22:15 or a timestamp with its offset.", valueName: "time"))
        var time: String?

        @Flag(help: "Print the entry and the new state as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            let when = try time.map { try TimeArgument.parse($0, option: "--time", clock: run.env.clock) } ?? run.now
            let id = run.env.ids.next()
            let logged = try TimeArgument.explaining(time, when, option: "--time", clock: run.env.clock) {
                try run.waterline.log(now: run.now) { _, settings in
                    let (value, unit) = try amount.map { try WaterlineText.parseWater($0, option: "--amount", unit: settings.units) }
                        ?? (settings.waterAmount, settings.units)
                    return LogEntry.water(id: id, at: when, WaterMeta(amount: value, units: unit), now: run.now)
                }
            }
            try WaterlineCommand.reportLogged(logged, run: run, headline: "Logged \(WaterlineText.describe(logged.step.entry)).")
        }
    }

    /// What `drink` and `water` print.
    static func reportLogged(_ logged: WaterlineStore.Logged, run: WaterlineRun, headline: String) throws {
        let settings = try run.waterline.settings()
        run.announce(logged.notes, active: logged.session, settings: settings)
        let nudges = WaterlineNotification.triggered(by: logged.step, discreet: settings.discreetNotifications)
        if run.json {
            Output.json(.object([
                "entry": WaterlineJSON.entry(logged.step, sessionID: logged.session.id),
                "state": WaterlineJSON.status(logged.session, settings: settings, now: run.now),
                "notifications": .array(nudges.map(\.json)),
            ]))
            return
        }
        let state = logged.session.state
        Console.print(headline)
        Console.print("Waterline \(WaterlineText.value(state.waterlineValue)) · \(WaterlineText.position(state)) · "
            + "\(WaterlineText.count(state.totalAlcoholCount, "drink")), \(state.totalWaterCount) water")
        // In the app itself the full text shows (US-036: discretion is for lock-screen previews).
        for n in WaterlineNotification.triggered(by: logged.step, discreet: false) {
            let line = "→ \(n.title): \(n.detail)"
            Console.print(n.kind == .pacingWarning ? Style.red(line) : Style.yellow(line))
        }
        if nudges.isEmpty, logged.step.entry.type == .alcohol {
            Console.print(Style.dim(WaterlineText.waterDue(state, n: logged.session.waterEveryNDrinks)))
        }
    }

    /// `ledger waterline edit ID [--std N] [--time ISO] …`
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change an entry; the Waterline and summary are recomputed.",
            discussion: "ID is an entry id or a unique prefix of one (`ledger waterline entries`). Changing the size or ABV of a drink without --std re-estimates it.")

        @Argument(help: ArgumentHelp("The entry's id (or a unique prefix).", valueName: "id"))
        var id: String

        @Option(name: .customLong("std"), parsing: .unconditional, help: ArgumentHelp("Standard drinks it counts for.", valueName: "n"))
        var standardDrinks: String?

        @Option(help: ArgumentHelp("When it was drunk: 22:15, 2026-11-21T22:15 or a timestamp with its offset.", valueName: "time"))
        var time: String?

        @Option(help: ArgumentHelp("A drink's type: beer, wine, liquor or cocktail.", valueName: "type"))
        var type: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("A drink's size in ounces (or 330ml).", valueName: "oz"))
        var size: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("A drink's alcohol by volume, in percent.", valueName: "pct"))
        var abv: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Water's amount (8, 250ml).", valueName: "n"))
        var amount: String?

        @Option(help: ArgumentHelp("Look in this session (id or prefix) instead of the active one and then all.", valueName: "id"))
        var session: String?

        @Flag(help: "Print the changed entry as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            let std = try standardDrinks.map { try WaterlineText.parseStandardDrinks($0, option: "--std") }
            let when = try time.map { try TimeArgument.parse($0, option: "--time", clock: run.env.clock) }
            let type = try self.type.map(WaterlineText.parseType)
            let size = try self.size.map { try WaterlineText.parseSize($0, option: "--size") }
            let abv = try self.abv.map(WaterlineText.parseABV)
            guard std != nil || when != nil || type != nil || size != nil || abv != nil || amount != nil else {
                throw LedgerError.usage("say what to change: --std, --time, --type, --size, --abv or --amount")
            }
            let (_, settings) = try run.active()
            var reason = ""
            let found = try TimeArgument.explaining(time, when, option: "--time", clock: run.env.clock) {
                try run.waterline.editEntry(id, inSession: session, now: run.now) { entry in
                    if let when { entry.timestamp = when }
                    switch entry.type {
                    case .alcohol:
                        if amount != nil { throw LedgerError.usage("--amount is for water entries; \(entry.id) is a drink (use --size or --std)") }
                        if std != nil || type != nil || size != nil || abv != nil {
                            let e = DrinkEstimate.adjusting(entry.alcoholMeta ?? AlcoholMeta(), type: type, sizeOz: size, abv: abv, standardDrinks: std)
                            try WaterlineText.checkEstimate(e, size: self.size, abv: self.abv, type: self.type)
                            entry.alcoholMeta = e.meta
                            reason = " (\(e.reason))"
                        }
                    case .water:
                        if std != nil || type != nil || size != nil || abv != nil {
                            throw LedgerError.usage("--std, --type, --size and --abv are for drinks; \(entry.id) is water (use --amount)")
                        }
                        if let amount {
                            let (v, u) = try WaterlineText.parseWater(amount, option: "--amount", unit: entry.waterMeta?.units ?? settings.units)
                            entry.waterMeta = WaterMeta(amount: v, units: u)
                        }
                    }
                }
            }
            let step = WaterlineEngine.replay(found.session.entries, rules: found.session.rules).first { $0.entry.id == found.entry.id }!
            if json {
                Output.json(.object([
                    "entry": WaterlineJSON.entry(step, sessionID: found.session.id),
                    "state": found.session.state.json,
                ]))
                return
            }
            Console.print("Entry \(found.entry.id) is now \(WaterlineText.time(found.entry.timestamp, run.env.clock)) \(WaterlineText.describe(found.entry))\(reason).")
            Console.print("Session \(found.session.id): Waterline \(WaterlineText.value(found.session.state.waterlineValue)) after recomputing.")
        }
    }

    /// `ledger waterline delete ID`
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete an entry (no confirmation); the Waterline and summary are recomputed.")

        @Argument(help: ArgumentHelp("The entry's id (or a unique prefix).", valueName: "id"))
        var id: String

        @Option(help: ArgumentHelp("Look in this session (id or prefix) instead of the active one and then all.", valueName: "id"))
        var session: String?

        @Flag(help: "Print the deleted entry and the new state as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            _ = try run.active()
            let found = try run.waterline.deleteEntry(id, inSession: session, now: run.now)
            if json {
                Output.json(.object(["deleted": found.entry.json, "sessionId": .string(found.session.id), "state": found.session.state.json]))
                return
            }
            Console.print("Deleted \(found.entry.id) (\(WaterlineText.time(found.entry.timestamp, run.env.clock)) \(WaterlineText.describe(found.entry))).")
            Console.print("Session \(found.session.id): Waterline \(WaterlineText.value(found.session.state.waterlineValue)) after recomputing.")
        }
    }

    /// `ledger waterline end [--yes]`
    struct End: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "end",
            abstract: "End the active session (asks first; --yes for scripts) and show its summary.")

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        @Option(help: ArgumentHelp("When it ended, if not now: 01:10, 2026-11-22T01:10 or a timestamp with its offset (not before the last entry).", valueName: "time"))
        var time: String?

        @Flag(help: "Print the summary as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            let end = try time.map { try TimeArgument.parse($0, option: "--time", clock: run.env.clock) }
            let (current, notes) = try run.waterline.activeSession()
            run.announce(notes, active: nil, settings: nil)
            guard let current else { throw LedgerError.invalid("no session is active; there is nothing to end") }
            let s = current.session.state
            let session = "this session (started \(WaterlineText.time(current.session.startTime, run.env.clock)), "
                + "\(WaterlineText.count(s.totalAlcoholCount, "drink")), \(s.totalWaterCount) water)"
            guard try Console.confirm("End \(session)?", action: "Ending \(session)", yes: yes) else {
                Console.print("The session goes on.")
                return
            }
            let (ended, _) = try TimeArgument.explaining(time, end, option: "--time", clock: run.env.clock) {
                try run.waterline.end(at: end, now: run.now)
            }
            let settings = try run.waterline.settings()
            if json {
                Output.json(WaterlineJSON.summary(ended, settings: settings, now: run.now))
                return
            }
            Console.print("Ended session \(ended.id) at \(WaterlineText.time(ended.endTime ?? run.now, run.env.clock)).")
            Console.print("")
            WaterlineCommand.printSummary(ended, settings: settings, run: run)
        }
    }
}
