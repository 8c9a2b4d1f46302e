import ArgumentParser
import LedgerKit

extension WaterlineCommand {
    /// `ledger waterline drink [--preset NAME] [--type T] [--size SIZE] [--abv PCT] [--std N]`
    struct Drink: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "drink",
            abstract: "Log an alcoholic drink in the active session.",
            discussion: """
                With no options, logs one standard drink. --preset takes a preset's name or id \
                (`ledger waterline presets`); --type, --size, --abv and --std describe the drink \
                or adjust the preset. --size is in your units (`settings set units`) unless it \
                carries one (330ml, 33cl, 0.5l, 12oz), or names a serving: pint, bottle or can (beer), glass \
                (wine), shot or double (liquor), standard or strong (cocktail). Without --std the \
                estimate comes from the preset, or from size × ABV (a US standard drink is 0.6 oz \
                of alcohol), and is shown.
                """)

        @Option(help: ArgumentHelp("A preset's name (case-insensitive) or id.", valueName: "name"), completion: LiveCompletion.presets)
        var preset: String?

        @OptionGroup var drink: DrinkOptions

        @OptionGroup var time: TimeOption

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws { try line.run() }
    }

    /// `ledger waterline water [--amount N]`
    struct Water: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "water",
            abstract: "Log water in the active session (the default amount unless --amount).")

        @Option(parsing: .unconditional, help: ArgumentHelp("Amount in your units (or with a unit: 250ml, 25cl, 0.5l, 8oz).", valueName: "n"),
                transform: WaterAmountValue.parse)
        var amount: WaterAmountValue?

        @OptionGroup var time: TimeOption

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws { try line.run() }
    }

    /// What `drink` and `water` print.
    static func reportLogged(_ logged: WaterlineStore.Logged, run: WaterlineRun, headline: String) throws {
        run.announce(logged.notes, active: logged.session, settings: logged.settings)
        if run.json {
            Output.json(.object([
                "entry": WaterlineJSON.entry(logged.step, sessionID: logged.session.id),
                "state": WaterlineJSON.status(logged.current, clock: run.env.clock),
                "notifications": .array(logged.notifications.map(\.json)),
                "unused": .array((logged.estimate?.unused ?? []).map { .string(WaterlineText.flag($0)) }),
            ]))
            return
        }
        let state = logged.state
        Console.print(headline)
        Console.print("Waterline \(WaterlineText.value(state.waterlineValue)) · \(WaterlineText.position(state)) · "
            + "\(WaterlineText.count(state.totalAlcoholCount, "drink")), \(state.totalWaterCount) water")
        // In the app itself the full text shows (US-036: discretion is for lock-screen previews).
        for kind in logged.nudges {
            let n = WaterlineNotification(kind, discreet: false)
            let line = "→ \(n.title): \(n.detail)"
            Console.print(kind == .pacingWarning ? Style.red(line) : Style.yellow(line))
        }
        if logged.nudges.isEmpty, logged.entry.type == .alcohol {
            Console.print(Style.dim(WaterlineText.waterDue(state, n: logged.settings.waterEveryNDrinks)))
        }
    }

    /// `ledger waterline edit ID|last [--std N] [--time ISO] …`
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change an entry; the Waterline and summary are recomputed.",
            discussion: "ID is an entry id, its first 4+ characters, or `last` (the newest entry) — see `ledger waterline entries`. Changing the size or ABV of a drink without --std re-estimates it.")

        @Argument(help: ArgumentHelp("The entry's id (or its first 4+ characters), or last.", valueName: "id"), completion: LiveCompletion.entries)
        var id: String

        @OptionGroup var drink: DrinkOptions

        @Option(parsing: .unconditional, help: ArgumentHelp("Water's amount (8, 250ml).", valueName: "n"), transform: WaterAmountValue.parse)
        var amount: WaterAmountValue?

        @OptionGroup var time: TimeOption

        @Option(help: ArgumentHelp("Look in this session (id or its first 4+ characters) instead of the active one and then all.", valueName: "id"))
        var session: String?

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            let change = WaterlineStore.EntryChange(
                standardDrinks: drink.standardDrinks?.count, time: try time.instant(run.env.clock),
                type: drink.type?.given, size: drink.size?.given, abv: drink.abv?.given, amount: amount?.given)
            let current = try run.current()
            let edited = try time.explaining(change.time, clock: run.env.clock) {
                try run.waterline.editEntry(id, inSession: session, change: change, now: run.now)
            }
            drink.values.sayUnused(edited.estimate)
            if output.json {
                Output.json(.object([
                    "entry": WaterlineJSON.entry(edited.step, sessionID: edited.session.id),
                    "state": edited.session.state.json,
                ]))
                return
            }
            let times = WaterlineText.Times(edited.session, run.env.clock, now: run.now)
            let reason = edited.estimate.map { " (\($0.reason))" } ?? ""
            Console.print("Entry \(edited.entry.id) is now \(times.show(edited.entry.timestamp)) \(WaterlineText.describe(edited.entry, units: current.settings.units))\(reason).")
            Console.print("Session \(edited.session.id): Waterline \(WaterlineText.value(edited.session.state.waterlineValue)) after recomputing.")
        }
    }

    /// `ledger waterline delete ID|last`
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete an entry (no confirmation); the Waterline and summary are recomputed.",
            discussion: "ID is an entry id, its first 4+ characters, or `last` (the newest entry). To delete a whole session: `ledger waterline sessions delete ID`.")

        @Argument(help: ArgumentHelp("The entry's id (or its first 4+ characters), or last.", valueName: "id"), completion: LiveCompletion.entries)
        var id: String

        @Option(help: ArgumentHelp("Look in this session (id or its first 4+ characters) instead of the active one and then all.", valueName: "id"))
        var session: String?

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            let current = try run.current()
            let found = try run.waterline.deleteEntry(id, inSession: session, now: run.now)
            if output.json {
                Output.json(.object(["deleted": found.entry.json, "sessionId": .string(found.session.id), "state": found.session.state.json]))
                return
            }
            let times = WaterlineText.Times(found.session, run.env.clock, now: run.now)
            Console.print("Deleted \(found.entry.id) (\(times.show(found.entry.timestamp)) \(WaterlineText.describe(found.entry, units: current.settings.units))).")
            Console.print("Session \(found.session.id): Waterline \(WaterlineText.value(found.session.state.waterlineValue)) after recomputing.")
        }
    }
}

extension WaterlineCommand.Drink: QuickCommand {
    static let path = ["waterline", "drink"]
    static let valueOptions = ["preset", "type", "size", "abv", "std", "time"]

    var line: Line { Line(preset: preset, drink: drink.values, time: time.given, json: output.json, global: global.choice) }

    static func read(_ words: QuickLine.Words) throws -> Line {
        let drink = DrinkValues(type: try words.value("type"), size: try words.value("size"), abv: try words.value("abv"),
                                standardDrinks: try words.value("std"))
        return Line(preset: words["preset"], drink: drink, time: try TimeGiven.read(words), json: words.flag("json"), global: LedgerChoice.read(words))
    }

    struct Line: QuickRun {
        var preset: String?
        var drink: DrinkValues
        var time: TimeGiven
        var json: Bool
        var global: LedgerChoice

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            let order = WaterlineStore.DrinkOrder(
                preset: preset, type: drink.type?.given, size: drink.size?.given, abv: drink.abv?.given,
                standardDrinks: drink.standardDrinks?.count, time: try time.instant(run.env.clock))
            let logged = try time.explaining(order.time ?? run.now, clock: run.env.clock) {
                try run.waterline.logDrink(order, now: run.now, ids: run.env.ids)
            }
            let estimate = logged.estimate?.meta.standardDrinkEstimate ?? 0
            drink.sayUnused(logged.estimate)
            try WaterlineCommand.reportLogged(logged, run: run, headline:
                "Logged \(WaterlineText.describe(logged.entry, units: logged.settings.units, presets: logged.preset.map { [$0.id: $0] } ?? [:], estimate: false)) — \(WaterlineText.standardDrinks(estimate)) (\(logged.estimate?.reason ?? "")).")
        }
    }
}

extension WaterlineCommand.Water: QuickCommand {
    static let path = ["waterline", "water"]
    static let valueOptions = ["amount", "time"]

    var line: Line { Line(amount: amount, time: time.given, json: output.json, global: global.choice) }

    static func read(_ words: QuickLine.Words) throws -> Line {
        Line(amount: try words.value("amount"), time: try TimeGiven.read(words), json: words.flag("json"), global: LedgerChoice.read(words))
    }

    struct Line: QuickRun {
        var amount: WaterAmountValue?
        var time: TimeGiven
        var json: Bool
        var global: LedgerChoice

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            let when = try time.instant(run.env.clock)
            let logged = try time.explaining(when ?? run.now, clock: run.env.clock) {
                try run.waterline.logWater(amount?.given, at: when, now: run.now, ids: run.env.ids)
            }
            try WaterlineCommand.reportLogged(logged, run: run, headline: "Logged \(WaterlineText.describe(logged.entry, units: logged.settings.units)).")
        }
    }
}
