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

        @Flag(help: "Print the presets as a JSON array.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            _ = try run.active()
            let presets = try run.waterline.presets.all().sorted { a, b in
                a.standardDrinkEstimate != b.standardDrinkEstimate ? a.standardDrinkEstimate < b.standardDrinkEstimate
                    : a.name.lowercased() < b.name.lowercased()
            }
            if json {
                Output.json(.array(presets.map(WaterlineJSON.preset)))
                return
            }
            guard !presets.isEmpty else {
                Console.print("No presets. Add one with `ledger waterline presets add NAME --type beer --size 12`.")
                return
            }
            Console.print(Style.dim("  NAME                  TYPE       SIZE      ABV    STD   ID"))
            for p in presets {
                func col(_ s: String, _ w: Int) -> String { s.padding(toLength: w, withPad: " ", startingAt: 0) }
                Console.print("  " + col(p.name, 22) + col(p.drinkType.rawValue, 11) + col(p.sizeOz.map { WaterlineText.amount($0) + " oz" } ?? "—", 10)
                    + col(p.abv.map { WaterlineText.amount($0) + "%" } ?? "—", 7) + col(WaterlineText.number(p.standardDrinkEstimate), 6) + p.id)
            }
            Console.print(Style.dim("  (log one with `ledger waterline drink --preset NAME`)"))
        }
    }

    /// Options shared by `add` and `edit`.
    struct PresetValues: ParsableArguments {
        @Option(help: ArgumentHelp("beer, wine, liquor or cocktail.", valueName: "type"))
        var type: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Serving size in ounces (or 330ml).", valueName: "oz"))
        var size: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Alcohol by volume, in percent.", valueName: "pct"))
        var abv: String?

        @Option(name: .customLong("std"), parsing: .unconditional, help: ArgumentHelp("Standard drinks it counts for (estimated from size and ABV when left out).", valueName: "n"))
        var standardDrinks: String?

        func parsed() throws -> (type: DrinkType?, size: Double?, abv: Double?, std: Double?) {
            let std = try standardDrinks.map { try WaterlineText.parseStandardDrinks($0, option: "--std") }
            return (try type.map(WaterlineText.parseType), try size.map { try WaterlineText.parseSize($0, option: "--size") },
                    try abv.map(WaterlineText.parseABV), std)
        }
    }

    /// Saves a preset after checking it, naming its file in errors.
    static func save(_ preset: DrinkPreset, run: WaterlineRun) throws {
        let errors = preset.validate().filter { $0.severity == .error }
        if let e = errors.first { throw LedgerError.invalid("the preset's \(e.pointer.description.dropFirst()) \(e.message)") }
        try run.waterline.presets.save(preset)
    }

    /// `ledger waterline presets add NAME --type T [--size OZ] [--abv PCT] [--std N]`
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a drink preset (its id is made from the name).")

        @Argument(help: ArgumentHelp("What you call it (\"Vodka soda\").", valueName: "name"))
        var name: String

        @OptionGroup var values: PresetValues

        @Flag(help: "Print the new preset as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            _ = try run.active()
            let v = try values.parsed()
            guard let type = v.type else { throw LedgerError.usage("give the drink's --type (beer, wine, liquor or cocktail)") }
            let name = self.name.trimmingCharacters(in: .whitespaces)
            if let problem = DrinkPreset.nameProblem(name) { throw LedgerError.usage("NAME \(problem)") }
            let preset = try run.env.store.withWriterLock { () -> DrinkPreset in
                let existing = try run.waterline.presets.all()
                if let same = existing.first(where: { $0.name.lowercased() == name.lowercased() }) {
                    throw LedgerError.invalid("a preset named \"\(same.name)\" already exists (\(same.id)); change it with `ledger waterline presets edit \(same.id)`")
                }
                guard let slug = DocumentID.slug(name) else {
                    throw LedgerError.usage("the name \"\(name)\" needs at least one letter or digit")
                }
                let ids = Set(existing.map(\.id))
                var id = slug, n = 2
                while ids.contains(id) { id = "\(slug)-\(n)"; n += 1 }
                let estimate = DrinkEstimate.resolve(preset: nil, type: type, sizeOz: v.size, abv: v.abv, standardDrinks: v.std)
                try WaterlineText.checkEstimate(estimate, size: values.size, abv: values.abv, type: values.type)
                let p = DrinkPreset(id: id, name: name, drinkType: type, sizeOz: estimate.meta.sizeOz, abv: v.abv,
                                    standardDrinkEstimate: estimate.meta.standardDrinkEstimate, createdAt: run.now)
                try WaterlineCommand.Presets.save(p, run: run)
                return p
            }
            if json { Output.json(WaterlineJSON.preset(preset)); return }
            Console.print("Added preset \(preset.name) (\(preset.id)): \(preset.drinkType.rawValue)"
                + (preset.sizeOz.map { ", \(WaterlineText.amount($0)) oz" } ?? "") + ", \(WaterlineText.standardDrinks(preset.standardDrinkEstimate)).")
            Console.print("Log it with `ledger waterline drink --preset \(preset.id)`.")
        }
    }

    /// `ledger waterline presets edit REF [--name NAME] [--type T] [--size OZ] [--abv PCT] [--std N]`
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a drink preset (entries already logged keep their values).",
            discussion: "Changing the size or ABV without --std re-estimates it.")

        @Argument(help: ArgumentHelp("The preset's name or id.", valueName: "preset"))
        var preset: String

        @Option(help: ArgumentHelp("A new name.", valueName: "name"))
        var name: String?

        @OptionGroup var values: PresetValues

        @Flag(help: "Print the changed preset as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            _ = try run.active()
            let v = try values.parsed()
            guard name != nil || v.type != nil || v.size != nil || v.abv != nil || v.std != nil else {
                throw LedgerError.usage("say what to change: --name, --type, --size, --abv or --std")
            }
            if let name, let problem = DrinkPreset.nameProblem(name.trimmingCharacters(in: .whitespaces)) {
                throw LedgerError.usage("--name \(problem)")
            }
            let (updated, reason) = try run.env.store.withWriterLock { () -> (DrinkPreset, String) in
                var p = try run.waterline.preset(preset)
                if let name {
                    let n = name.trimmingCharacters(in: .whitespaces)
                    if let other = try run.waterline.presets.all().first(where: { $0.id != p.id && $0.name.lowercased() == n.lowercased() }) {
                        throw LedgerError.invalid("another preset is already named \"\(other.name)\" (\(other.id))")
                    }
                    p.name = n
                }
                var reason = ""
                if v.type != nil || v.size != nil || v.abv != nil || v.std != nil {
                    let base = AlcoholMeta(drinkType: p.drinkType, sizeOz: p.sizeOz, abv: p.abv, standardDrinkEstimate: p.standardDrinkEstimate, presetId: p.id)
                    let e = DrinkEstimate.adjusting(base, type: v.type, sizeOz: v.size, abv: v.abv, standardDrinks: v.std)
                    try WaterlineText.checkEstimate(e, size: values.size, abv: values.abv, type: values.type)
                    p.drinkType = e.meta.drinkType ?? p.drinkType
                    p.sizeOz = e.meta.sizeOz
                    p.abv = e.meta.abv
                    p.standardDrinkEstimate = e.meta.standardDrinkEstimate
                    reason = " (\(e.reason))"
                }
                p.updatedAt = run.now
                try WaterlineCommand.Presets.save(p, run: run)
                return (p, reason)
            }
            if json { Output.json(WaterlineJSON.preset(updated)); return }
            Console.print("Preset \(updated.name) (\(updated.id)): \(updated.drinkType.rawValue)"
                + (updated.sizeOz.map { ", \(WaterlineText.amount($0)) oz" } ?? "") + ", \(WaterlineText.standardDrinks(updated.standardDrinkEstimate))\(reason).")
        }
    }

    /// `ledger waterline presets delete REF`
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a drink preset (entries logged with it keep their values).")

        @Argument(help: ArgumentHelp("The preset's name or id.", valueName: "preset"))
        var preset: String

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: false)
            _ = try run.active()
            let p = try run.env.store.withWriterLock { () -> DrinkPreset in
                let p = try run.waterline.preset(preset)
                try run.waterline.presets.delete(id: p.id)
                return p
            }
            Console.print("Deleted preset \(p.name) (\(p.id)). Entries logged with it keep their values.")
        }
    }
}
