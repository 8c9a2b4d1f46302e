import ArgumentParser
import Foundation
import LedgerKit

extension BrewCommand {
    /// `ledger brew recipes [--json]`
    struct Recipes: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recipes",
            abstract: "List the recipes: the built-in V60 starter first, then yours; invalid ones are marked.")

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let brew = BrewStore(env.store)
            let entries = try brew.recipeEntries()
            let selected = try brew.preferences().selectedRecipeID
            if output.json {
                Output.json(.array(entries.map { BrewJSON.recipe($0, selected: $0.isSelected(by: selected)) }))
                return
            }
            let nameWidth = min(32, max(4, entries.map { BrewText.shown($0.name).count + ($0.isStarter ? 10 : 0) }.max() ?? 0))
            let idWidth = max(2, entries.map(\.id.count).max() ?? 0)
            Console.print(Style.dim("  " + BrewText.pad("ID", idWidth) + "  " + BrewText.pad("NAME", nameWidth) + "  " + BrewText.left("DOSE", 6)
                          + "  " + BrewText.left("YIELD", 6) + "  " + BrewText.pad("RATIO", 6) + "  " + BrewText.left("TEMP", 6) + "   GRIND"))
            var invalid = 0
            for e in entries {
                let mark = e.isSelected(by: selected) ? "*" : e.isValid ? " " : "!"
                let name = BrewText.pad(BrewText.truncate(BrewText.shown(e.name) + (e.isStarter ? " (starter)" : ""), nameWidth), nameWidth)
                var line = mark + " " + BrewText.pad(e.id, idWidth) + "  " + name + "  "
                if let r = e.recipe {
                    line += BrewText.left(BrewFormat.dose(r.defaultDose), 6) + "  " + BrewText.left(BrewFormat.grams(r.defaultTargetYield), 6)
                        + "  " + BrewText.pad(BrewFormat.ratio(r.defaultRatio), 6) + "  " + BrewText.left(BrewFormat.temperature(r.defaultWaterTemperature), 6)
                        + "   " + r.defaultGrindLabel.rawValue
                } else {
                    invalid += 1
                    line += Style.red("INVALID: " + BrewText.truncate(Self.describe(e.problems.first), 50))
                }
                Console.print(line)
            }
            Console.print("")
            Console.print(Style.dim("* last selected (the default for plan, start and save)"
                + (invalid > 0 ? "; ! invalid: " + Self.invalidLegend(entries) + ", then `ledger check`)" : "")))
        }

        /// What the `!` of an invalid recipe means and how to fix it, to be closed with ")": a
        /// file ledger cannot read is fixed by access to it, not by an edit through ledger.
        static func invalidLegend(_ entries: [RecipeEntry]) -> String {
            "it cannot be brewed until fixed (`ledger brew recipe edit ID --editor`"
                + (entries.contains(where: \.unreadable) ? "; a file ledger cannot read: make it readable" : "")
        }

        static func describe(_ p: Problem?) -> String {
            guard let p else { return "invalid" }
            return (p.issue.pointer.isRoot ? "" : p.issue.pointer.description + ": ") + Words.text(p.issue.sentence)
        }
    }

    /// `ledger brew recipe show|duplicate|edit|delete`
    struct RecipeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recipe",
            abstract: "Show, duplicate, edit or delete a recipe (REF: an id, a unique id prefix or a name).",
            subcommands: [Show.self, Duplicate.self, Edit.self, Delete.self])
    }
}

extension BrewCommand.RecipeCommand {
    /// `ledger brew recipe show REF [--json]`
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a recipe's defaults and steps.")

        @Argument(help: ArgumentHelp("The recipe: id, unique id prefix or name.", valueName: "ref"), completion: LiveCompletion.recipes)
        var recipe: String

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let entry = try BrewStore(env.store).recipe(recipe)
            let r = try entry.usable()
            let plan = try RecipeScaler.plan(r)
            if output.json {
                guard case .object(var o) = r.json else { return }
                o["starter"] = .bool(r.isStarter)
                o["valid"] = .bool(true)
                o["ratio"] = .number(plan.ratio)
                o["path"] = entry.path.map(JSONValue.string) ?? .null
                Output.json(.object(o))
                return
            }
            Console.print(Style.bold(r.name) + "  (\(r.id))")
            if r.isStarter {
                Console.print(Style.dim("  built-in starter, read-only: `ledger brew recipe duplicate \(r.id)` makes a copy you can edit"))
            } else {
                Console.print(Style.dim("  custom recipe, \(entry.path ?? ""), created \(BrewText.when(r.createdAt)), changed \(BrewText.when(r.updatedAt))"))
            }
            Console.print("  Method        " + r.method.title)
            for line in BrewText.inputs(plan) { Console.print(line) }
            Console.print("  Scaling       " + (r.fixedStepWeights
                ? "fixed step weights: the water is kept as written; only the dose can change"
                : "bloom 3 × dose, the rest split evenly over the pours"))
            for w in plan.warnings { Console.print(Style.yellow("  ! " + w)) }
            Console.print("")
            for line in BrewText.steps(plan) { Console.print(line) }
        }
    }

    /// `ledger brew recipe duplicate REF [--name NAME]`
    struct Duplicate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "duplicate",
            abstract: "Copy a recipe into a new custom recipe you can edit; prints the new id.")

        @Argument(help: ArgumentHelp("The recipe to copy: id, unique id prefix or name.", valueName: "ref"), completion: LiveCompletion.recipes)
        var recipe: String

        @Option(parsing: .unconditional, help: ArgumentHelp("The new recipe's name (default: \"<name> copy\").", valueName: "name"))
        var name: String?

        @OptionGroup var global: GlobalOptions

        func run() throws {
            if let name, let problem = Recipe.nameProblem(name.trimmingWhitespace()) {
                throw LedgerError.usage("--name: " + problem)
            }
            let env = try global.environment()
            let copy = try BrewStore(env.store).duplicateRecipe(recipe, name: name, now: env.now, ids: env.ids)
            Console.print(copy.id)
            Console.error("Created \"\(copy.name)\" (\(copy.id)); change it with `ledger brew recipe edit \(copy.id) …`.")
        }
    }

    /// `ledger brew recipe edit REF [--name …] [--dose …] … | --editor`
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a custom recipe, by flags or in $EDITOR; an edit that would make it invalid is not saved.",
            discussion: """
                Steps are numbered from 1 as `recipe show` lists them. Timers take seconds or M:SS \
                (`--step-timer 3=0:40`), or `none`. A recipe is valid when every timer is from 0 s to 24 h and \
                its steps' water adds up to the target yield within ±1 g; `--scale-steps` scales the \
                water of the steps to a new --yield.
                """)

        @Argument(help: ArgumentHelp("The recipe: id, unique id prefix or name.", valueName: "ref"), completion: LiveCompletion.recipes)
        var recipe: String

        @Option(parsing: .unconditional, help: ArgumentHelp("A new name.", valueName: "name"))
        var name: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Default dose, grams.", valueName: "grams"), transform: DecimalNumber.parse)
        var dose: Double?

        @Option(name: .customLong("yield"), parsing: .unconditional, help: ArgumentHelp("Default target yield, grams.", valueName: "grams"), transform: DecimalNumber.parse)
        var targetYield: Double?

        @Option(name: .customLong("temp"), parsing: .unconditional, help: ArgumentHelp("Default water temperature, °C.", valueName: "celsius"), transform: DecimalNumber.parse)
        var temperature: Double?

        @Option(help: ArgumentHelp("Default grind label: fine, medium or coarse.", valueName: "label"), transform: GrindValue.parse)
        var grind: GrindValue?

        @Option(name: .customLong("grind-descriptor"), parsing: .unconditional, help: ArgumentHelp("The tactile descriptor of the grind (\"sand; slightly finer than sea salt\").", valueName: "text"))
        var grindDescriptor: String?

        @Option(name: .customLong("step-water"), help: ArgumentHelp("The water of step N, grams (repeatable).", valueName: "N=grams"))
        var stepWater: [String] = []

        @Option(name: .customLong("step-timer"), help: ArgumentHelp("The timer of step N: seconds, M:SS or none (repeatable).", valueName: "N=time"))
        var stepTimer: [String] = []

        @Flag(inversion: .prefixedNo, help: "Keep the steps' water as written when brewing other doses (the yield is then their total).")
        var fixedStepWeights: Bool?

        @Flag(help: "With --yield: scale the steps' water to the new yield.")
        var scaleSteps = false

        @Flag(help: "Edit the recipe's JSON in $VISUAL or $EDITOR (validated before it is saved).")
        var editor = false

        @OptionGroup var global: GlobalOptions

        var hasFlagChanges: Bool {
            name != nil || dose != nil || targetYield != nil || temperature != nil || grind != nil || grindDescriptor != nil
                || !stepWater.isEmpty || !stepTimer.isEmpty || fixedStepWeights != nil
        }

        func run() throws {
            if editor {
                guard !hasFlagChanges, !scaleSteps else { throw LedgerError.usage("--editor cannot be combined with other changes; make them in the editor") }
                guard CLIContext.current.stdinIsTerminal else {
                    throw LedgerError.usage("--editor opens $VISUAL or $EDITOR and needs a terminal (stdin is not one); from a script, change the recipe with flags (--name, --dose, --yield, --temp, --grind, --step-water, --step-timer), or edit its file and run `ledger check`")
                }
                let env = try global.environment()
                try RecipeEditor(env: env).edit(recipe)
                return
            }
            guard hasFlagChanges else {
                throw LedgerError.usage("nothing to change: give --name, --dose, --yield, --temp, --grind, --grind-descriptor, --step-water, --step-timer, --[no-]fixed-step-weights or --editor")
            }
            if scaleSteps, targetYield == nil { throw LedgerError.usage("--scale-steps scales the steps to a new --yield; give --yield too") }
            let change = try edit()
            let env = try global.environment()
            let saved = try BrewStore(env.store).editRecipe(recipe, change, now: env.now)
            Console.print("Saved \"\(saved.recipe.name)\" (\(saved.recipe.id)).")
            for w in saved.warnings { Console.print(Style.yellow("! its default " + w)) }
        }

        /// The change the flags ask for; values no recipe can have are refused (exit 2, naming
        /// the flag) before anything is read.
        func edit() throws -> BrewStore.RecipeEdit {
            var e = BrewStore.RecipeEdit()
            if let name {
                if let problem = Recipe.nameProblem(name.trimmingWhitespace()) { throw LedgerError.usage("--name: " + problem) }
                e.name = name
            }
            if let dose, let problem = BrewLimits.doseProblem(dose) { throw LedgerError.usage("--dose " + problem) }
            if let targetYield, let problem = BrewLimits.yieldProblem(targetYield) { throw LedgerError.usage("--yield " + problem) }
            if let temperature, let problem = BrewLimits.temperatureProblem(temperature) { throw LedgerError.usage("--temp " + problem) }
            if let grindDescriptor, let problem = Recipe.descriptorProblem(grindDescriptor.trimmingWhitespace()) {
                throw LedgerError.usage("--grind-descriptor: " + problem)
            }
            (e.defaultDose, e.defaultTargetYield, e.scaleSteps, e.defaultWaterTemperature) = (dose, targetYield, scaleSteps, temperature)
            e.defaultGrindLabel = grind?.label
            (e.grindDescriptor, e.fixedStepWeights) = (grindDescriptor, fixedStepWeights)
            e.stepWater = try stepWater.map { assignment in
                try step(assignment, flag: "--step-water") { value in
                    guard let grams = BrewArguments.stepGrams(value) else {
                        throw LedgerError.usage("--step-water \(assignment): \"\(value)\" is not a number of grams from 0 to 10000")
                    }
                    return grams
                }
            }
            e.stepTimers = try stepTimer.map { assignment in
                try step(assignment, flag: "--step-timer") { value -> Int? in
                    if value.lowercased() == "none" { return nil }
                    guard let s = BrewArguments.seconds(value) else {
                        throw LedgerError.usage("--step-timer \(assignment): \"\(value)\" is not a time from 0 to 24 hours (seconds like 45, or M:SS like 1:30, or none)")
                    }
                    return s
                }
            }
            return e
        }

        /// The step change `N=value` gives, its value read by `parse`.
        func step<V>(_ assignment: String, flag: String, _ parse: (String) throws -> V) throws -> BrewStore.StepChange<V> {
            guard let eq = assignment.firstIndex(of: "="), let n = Int(assignment[..<eq]) else {
                throw LedgerError.usage("\(flag) takes N=value, like \(flag) 4=110 (found \"\(assignment)\")")
            }
            let value = try parse(String(assignment[assignment.index(after: eq)...]))
            return BrewStore.StepChange(step: n, value: value, label: "\(flag) \(assignment)")
        }
    }

    /// `ledger brew recipe delete REF [--yes]`
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a custom recipe (asks first; brew logs keep its name).")

        @Argument(help: ArgumentHelp("The recipe: id, unique id prefix or name.", valueName: "ref"), completion: LiveCompletion.recipes)
        var recipe: String

        @OptionGroup var confirmation: YesOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let brew = BrewStore(env.store)
            let entry = try brew.deletableRecipe(recipe)
            let what = "the recipe \"\(entry.name)\" (\(entry.id))"
            guard try Console.confirm("Delete \(what)?", action: "Deleting \(what)", yes: confirmation.yes) else {
                Console.print("Kept \"\(entry.name)\".")
                return
            }
            try brew.deleteRecipe(id: entry.id, now: env.now)
            Console.print("Deleted \"\(entry.name)\" (\(entry.id)); brew logs of it keep its name.")
        }
    }
}
