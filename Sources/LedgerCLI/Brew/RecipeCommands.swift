import ArgumentParser
import Foundation
import LedgerKit

/// `ledger brew recipes [--json]`
struct RecipesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipes",
        abstract: "List the recipes: the built-in V60 starter first, then yours; invalid ones are marked.")

    @Flag(help: "Print the recipes as JSON.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let env = try global.environment()
        let entries = try RecipeLibrary(store: env.store).entries()
        let selected = try env.store.singleton(BrewPreferences.self).load().selectedRecipeID
        if json {
            Output.json(.array(entries.map { Self.json($0, selected: $0.id == selected) }))
            return
        }
        let nameWidth = min(32, max(4, entries.map { $0.name.count + ($0.isStarter ? 10 : 0) }.max() ?? 0))
        let idWidth = max(2, entries.map(\.id.count).max() ?? 0)
        Console.print(Style.dim("  " + BrewText.pad("ID", idWidth) + "  " + BrewText.pad("NAME", nameWidth) + "  " + BrewText.left("DOSE", 6)
                      + "  " + BrewText.left("YIELD", 6) + "  " + BrewText.pad("RATIO", 6) + "  " + BrewText.left("TEMP", 6) + "   GRIND"))
        var invalid = 0
        for e in entries {
            let mark = e.id == selected ? "*" : e.isValid ? " " : "!"
            let name = BrewText.pad(BrewText.truncate(e.name + (e.isStarter ? " (starter)" : ""), nameWidth), nameWidth)
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
            + (invalid > 0 ? "; ! invalid: it cannot be brewed until fixed (`ledger brew recipe edit ID --editor`, then `ledger check`)" : "")))
    }

    static func describe(_ p: Problem?) -> String {
        guard let p else { return "invalid" }
        return (p.issue.pointer.isRoot ? "" : p.issue.pointer.description + ": ") + p.message
    }

    static func json(_ e: RecipeLibrary.Entry, selected: Bool) -> JSONValue {
        var o: JSONObject = ["id": .string(e.id), "name": .string(e.name), "starter": .bool(e.isStarter), "valid": .bool(e.isValid),
                             "selected": .bool(selected), "path": e.path.map(JSONValue.string) ?? .null]
        if let r = e.recipe {
            o["method"] = r.method.json
            o["defaultDose"] = r.defaultDose.json
            o["defaultTargetYield"] = r.defaultTargetYield.json
            o["ratio"] = .number((r.defaultRatio * 10).rounded() / 10)
            o["defaultWaterTemperature"] = r.defaultWaterTemperature.json
            o["defaultGrindLabel"] = r.defaultGrindLabel.json
            o["fixedStepWeights"] = .bool(r.fixedStepWeights)
        }
        o["problems"] = .array(e.problems.map(\.json))
        return .object(o)
    }
}

/// `ledger brew recipe show|duplicate|edit|delete`
struct RecipeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipe",
        abstract: "Show, duplicate, edit or delete a recipe (REF: an id, a unique id prefix or a name).",
        subcommands: [Show.self, Duplicate.self, Edit.self, Delete.self])
}

extension RecipeCommand {
    /// `ledger brew recipe show REF [--json]`
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a recipe's defaults and steps.")

        @Argument(help: ArgumentHelp("The recipe: id, unique id prefix or name.", valueName: "ref"))
        var recipe: String

        @Flag(help: "Print the recipe as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let entry = try RecipeLibrary(store: env.store).resolve(recipe)
            let r = try RecipeLibrary.usable(entry)
            let plan = try RecipeScaler.plan(r)
            if json {
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

        @Argument(help: ArgumentHelp("The recipe to copy: id, unique id prefix or name.", valueName: "ref"))
        var recipe: String

        @Option(help: ArgumentHelp("The new recipe's name (default: \"<name> copy\").", valueName: "name"))
        var name: String?

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let library = RecipeLibrary(store: env.store)
            let copy = try env.store.withWriterLock { () -> Recipe in
                let source = try library.usable(recipe)
                var copy = source
                if let name {
                    let trimmed = name.trimmingCharacters(in: .whitespaces)
                    if let problem = Recipe.nameProblem(trimmed) { throw LedgerError.usage("--name: " + problem) }
                    if let other = try library.named(trimmed) {
                        throw LedgerError.invalid("a recipe named \"\(other.name)\" already exists (\(other.id)); choose another --name")
                    }
                    copy.name = trimmed
                } else {
                    copy.name = try library.copyName(of: source.name)
                }
                repeat { copy.id = env.ids.next() } while try library.repository.contains(id: copy.id)
                copy.createdAt = env.now
                copy.updatedAt = env.now
                try RecipeEditing.save(copy, in: library)
                return copy
            }
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
                (`--step-timer 3=0:40`), or `none`. A recipe is valid when every timer is 0 or more and \
                its steps' water adds up to the target yield within ±1 g; `--scale-steps` scales the \
                water of the steps to a new --yield.
                """)

        @Argument(help: ArgumentHelp("The recipe: id, unique id prefix or name.", valueName: "ref"))
        var recipe: String

        @Option(help: ArgumentHelp("A new name.", valueName: "name"))
        var name: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Default dose, grams.", valueName: "grams"))
        var dose: Double?

        @Option(name: .customLong("yield"), parsing: .unconditional, help: ArgumentHelp("Default target yield, grams.", valueName: "grams"))
        var targetYield: Double?

        @Option(name: .customLong("temp"), parsing: .unconditional, help: ArgumentHelp("Default water temperature, °C.", valueName: "celsius"))
        var temperature: Double?

        @Option(help: ArgumentHelp("Default grind label: fine, medium or coarse.", valueName: "label"))
        var grind: String?

        @Option(name: .customLong("grind-descriptor"), help: ArgumentHelp("The tactile descriptor of the grind (\"sand; slightly finer than sea salt\").", valueName: "text"))
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
            let env = try global.environment()
            let library = RecipeLibrary(store: env.store)
            if editor {
                guard !hasFlagChanges, !scaleSteps else { throw LedgerError.usage("--editor cannot be combined with other changes; make them in the editor") }
                guard CLIContext.current.stdinIsTerminal else {
                    throw LedgerError.usage("--editor opens $VISUAL or $EDITOR and needs a terminal (stdin is not one); from a script, change the recipe with flags (--name, --dose, --yield, --temp, --grind, --step-water, --step-timer), or edit its file and run `ledger check`")
                }
                try RecipeEditor(env: env, library: library).edit(recipe)
                return
            }
            guard hasFlagChanges else {
                throw LedgerError.usage("nothing to change: give --name, --dose, --yield, --temp, --grind, --grind-descriptor, --step-water, --step-timer, --[no-]fixed-step-weights or --editor")
            }
            if scaleSteps, targetYield == nil { throw LedgerError.usage("--scale-steps scales the steps to a new --yield; give --yield too") }
            try checkValues()
            let saved = try env.store.withWriterLock { () -> Recipe in
                let entry = try library.resolve(recipe)
                var r = try RecipeEditing.draft(entry, in: library)
                try apply(to: &r, library: library)
                r.updatedAt = env.now
                try RecipeEditing.save(r, in: library, yieldChanged: targetYield != nil)
                return r
            }
            Console.print("Saved \"\(saved.name)\" (\(saved.id)).")
            let plan = try RecipeScaler.plan(saved)
            for w in plan.warnings { Console.print(Style.yellow("! its default " + w)) }
        }

        /// Refuses values no recipe can have (exit 2, naming the flag) before anything is read.
        func checkValues() throws {
            if let name, let problem = Recipe.nameProblem(name.trimmingCharacters(in: .whitespaces)) {
                throw LedgerError.usage("--name: " + problem)
            }
            if let dose, let problem = BrewLimits.doseProblem(dose) { throw LedgerError.usage("--dose " + problem) }
            if let targetYield, let problem = BrewLimits.yieldProblem(targetYield) { throw LedgerError.usage("--yield " + problem) }
            if let temperature, let problem = BrewLimits.temperatureProblem(temperature) { throw LedgerError.usage("--temp " + problem) }
            if let grind { _ = try BrewArguments.grind(grind) }
            if let grindDescriptor, let problem = Recipe.descriptorProblem(grindDescriptor.trimmingCharacters(in: .whitespaces)) {
                throw LedgerError.usage("--grind-descriptor: " + problem)
            }
        }

        func apply(to r: inout Recipe, library: RecipeLibrary) throws {
            if let name {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                if let other = try library.named(trimmed, except: r.id) {
                    throw LedgerError.invalid("a recipe named \"\(other.name)\" already exists (\(other.id)); choose another --name")
                }
                r.name = trimmed
            }
            if let dose { r.defaultDose = dose }
            if let targetYield {
                if scaleSteps { r.steps = r.scalingStepWater(to: targetYield) }
                r.defaultTargetYield = targetYield
            }
            if let temperature { r.defaultWaterTemperature = temperature }
            if let grind { r.defaultGrindLabel = try BrewArguments.grind(grind) }
            if let grindDescriptor {
                let t = grindDescriptor.trimmingCharacters(in: .whitespaces)
                r.grindDescriptor = t.isEmpty ? nil : t
            }
            if let fixedStepWeights { r.fixedStepWeights = fixedStepWeights }
            for assignment in stepWater {
                let (i, value) = try step(assignment, flag: "--step-water", in: r)
                guard let grams = BrewArguments.stepGrams(value) else {
                    throw LedgerError.usage("--step-water \(assignment): \"\(value)\" is not a number of grams from 0 to 10000")
                }
                r.steps[i].water = grams
            }
            for assignment in stepTimer {
                let (i, value) = try step(assignment, flag: "--step-timer", in: r)
                if value.lowercased() == "none" {
                    r.steps[i].timerSeconds = nil
                } else {
                    guard let s = BrewArguments.seconds(value) else {
                        throw LedgerError.usage("--step-timer \(assignment): \"\(value)\" is not a time from 0 to 24 hours (seconds like 45, or M:SS like 1:30, or none)")
                    }
                    r.steps[i].timerSeconds = s
                }
            }
        }

        /// The step index and value of `N=value`.
        func step(_ assignment: String, flag: String, in r: Recipe) throws -> (Int, String) {
            guard let eq = assignment.firstIndex(of: "="), let n = Int(assignment[..<eq]) else {
                throw LedgerError.usage("\(flag) takes N=value, like \(flag) 4=110 (found \"\(assignment)\")")
            }
            guard n >= 1, n <= r.steps.count else {
                throw LedgerError.usage("\(flag) \(assignment): \"\(r.name)\" has steps 1 to \(r.steps.count)")
            }
            return (n - 1, String(assignment[assignment.index(after: eq)...]))
        }
    }

    /// `ledger brew recipe delete REF [--yes]`
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a custom recipe (asks first; brew logs keep its name).")

        @Argument(help: ArgumentHelp("The recipe: id, unique id prefix or name.", valueName: "ref"))
        var recipe: String

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let library = RecipeLibrary(store: env.store)
            let entry = try library.resolve(recipe)
            if entry.isStarter {
                throw LedgerError.invalid("the V60 starter is built in and cannot be deleted")
            }
            let what = "the recipe \"\(entry.name)\" (\(entry.id))"
            guard try Console.confirm("Delete \(what)?", action: "Deleting \(what)", yes: yes) else {
                Console.print("Kept \"\(entry.name)\".")
                return
            }
            try env.store.withWriterLock {
                try library.repository.delete(id: entry.id)
                let prefs = try env.store.singleton(BrewPreferences.self).load()
                if prefs.lastRecipeId == entry.id || prefs.inputs?.recipeId == entry.id {
                    try BrewSelection.remember(Recipe.starterID, inputs: BrewInputs(recipeId: Recipe.starterID), in: env.store, at: env.now)
                }
            }
            Console.print("Deleted \"\(entry.name)\" (\(entry.id)); brew logs of it keep its name.")
        }
    }
}

/// Saving a changed custom recipe, shared by `duplicate`, `edit` and the editor.
enum RecipeEditing {
    /// The recipe of `entry` to change: never the starter.
    static func draft(_ entry: RecipeLibrary.Entry, in library: RecipeLibrary) throws -> Recipe {
        if entry.isStarter {
            throw LedgerError.invalid("the V60 starter is built in and read-only; duplicate it and edit the copy: `ledger brew recipe duplicate \(Recipe.starterID)`")
        }
        return try library.draft(entry)
    }

    /// Validates and writes `recipe`; an invalid one is refused with every problem and nothing
    /// is written.
    static func save(_ recipe: Recipe, in library: RecipeLibrary, yieldChanged: Bool = false) throws {
        let errors = recipe.validate().filter { $0.severity == .error }
        guard errors.isEmpty else {
            var message = "\"\(recipe.name)\" was not saved: the change would make it invalid:"
            if yieldChanged, errors.contains(where: { $0.pointer == JSONPointer.root.appending("steps") }) {
                message = "\"\(recipe.name)\" was not saved: the change would make it invalid (change the steps with --step-water, or pass --scale-steps to scale them to the new yield):"
            }
            throw LedgerError.invalid(message, problems: errors.map { Problem(recipe.path, $0) })
        }
        try library.repository.save(recipe)
    }
}
