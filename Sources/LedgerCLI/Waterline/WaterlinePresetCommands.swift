import ArgumentParser
import LedgerKit

extension WaterlineCommand {
    /// `ledger waterline presets [list|add|edit|delete]`
    struct Presets: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "presets",
            abstract: "Drink presets: list (the default), add, edit, delete.",
            subcommands: [List.self, Add.self, Edit.self, Delete.self],
            defaultSubcommand: List.self)
    }
}

extension WaterlineCommand.Presets {
    /// `ledger waterline presets [list] [--json]`
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the drink presets.")

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            let units = try run.current().settings.units
            let read = try run.waterline.readablePresets()
            let presets = read.documents
            if output.json {
                Output.json(.array(presets.map(WaterlineJSON.preset)))
                return try run.endListing(read.invalid)
            }
            guard !presets.isEmpty else {
                if read.invalid.isEmpty { Console.print("No presets. Add one with `ledger waterline presets add NAME --type beer --size 12`.") }
                return try run.endListing(read.invalid)
            }
            func col(_ s: String, _ w: Int) -> String { s.padding(toLength: max(w, s.count + 1), withPad: " ", startingAt: 0) }
            Console.print(Style.dim("  NAME                  TYPE       SIZE      ABV    STD   ID"))
            for p in presets {
                Console.print("  " + col(p.name, 22) + col(p.drinkType.rawValue, 11) + col(WaterlineText.size(p.sizeOz, units: units), 10)
                    + col(p.abv.map { WaterlineText.amount($0) + "%" } ?? "—", 7) + col(WaterlineText.number(p.standardDrinkEstimate), 6) + p.id)
            }
            Console.print(Style.dim("  (log one with `ledger waterline drink --preset NAME`)"))
            try run.endListing(read.invalid)
        }
    }

    /// The order `values` give, with `name` as given.
    static func order(name: Given<String>?, _ values: DrinkOptions) -> WaterlineStore.PresetOrder {
        WaterlineStore.PresetOrder(name: name, type: values.type?.given, size: values.size?.given, abv: values.abv?.given,
                                   standardDrinks: values.standardDrinks?.count)
    }

    /// "beer, 12 oz, 1.0 standard drink".
    static func describe(_ p: DrinkPreset, units: VolumeUnit) -> String {
        p.drinkType.rawValue + (p.sizeOz.map { ", " + units.describe(ounces: $0) } ?? "") + ", \(WaterlineText.standardDrinks(p.standardDrinkEstimate))"
    }

    /// `ledger waterline presets add NAME [--type T] [--size SIZE] [--abv PCT] [--std N]`
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a drink preset (its id is made from the name).",
            discussion: "Give its --type, or a --size that names a serving of one (pint, glass, double, …).")

        @Argument(help: ArgumentHelp("What you call it (\"Vodka soda\").", valueName: "name"))
        var name: String

        @OptionGroup var values: DrinkOptions

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            let order = WaterlineCommand.Presets.order(name: Given(name, input: .waterline(.name), text: name), values)
            let current = try run.current()
            let (preset, estimate) = try run.waterline.addPreset(order, now: run.now, ids: run.env.ids)
            values.values.sayUnused(estimate)
            if output.json { Output.json(WaterlineJSON.preset(preset)); return }
            Console.print("Added preset \(preset.name) (\(preset.id)): \(WaterlineCommand.Presets.describe(preset, units: current.settings.units)).")
            Console.print("Log it with `ledger waterline drink --preset \(preset.id)`.")
        }
    }

    /// `ledger waterline presets edit REF [--name NAME] [--type T] [--size SIZE] [--abv PCT] [--std N]`
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a drink preset (entries already logged keep their values).",
            discussion: "Changing the size or ABV without --std re-estimates it.")

        @Argument(help: ArgumentHelp("The preset's name or id.", valueName: "preset"), completion: LiveCompletion.presets)
        var preset: String

        @Option(parsing: .unconditional, help: ArgumentHelp("A new name.", valueName: "name"))
        var name: String?

        @OptionGroup var values: DrinkOptions

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            let order = WaterlineCommand.Presets.order(name: name.map { Given($0, input: .waterline(.newName), text: $0) }, values)
            let current = try run.current()
            let (updated, estimate) = try run.waterline.editPreset(preset, order, now: run.now)
            values.values.sayUnused(estimate)
            if output.json { Output.json(WaterlineJSON.preset(updated)); return }
            Console.print("Preset \(updated.name) (\(updated.id)): \(WaterlineCommand.Presets.describe(updated, units: current.settings.units))"
                + (estimate.map { " (\($0.reason))" } ?? "") + ".")
        }
    }

    /// `ledger waterline presets delete REF`
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a drink preset (no confirmation; entries logged with it keep their values).",
            discussion: "The deletion reaches your other machines with the next `ledger sync`.")

        @Argument(help: ArgumentHelp("The preset's name or id.", valueName: "preset"), completion: LiveCompletion.presets)
        var preset: String

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            _ = try run.current()
            let p = try run.waterline.deletePreset(preset)
            if output.json { Output.json(.object(["deleted": WaterlineJSON.preset(p)])); return }
            Console.print("Deleted preset \(p.name) (\(p.id)). Entries logged with it keep their values.")
        }
    }
}
