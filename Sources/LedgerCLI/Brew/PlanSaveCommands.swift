import ArgumentParser
import LedgerKit

/// `ledger brew plan [REF] [--dose G | --yield G] [--temp C] [--grind L] [--reset] [--json]`
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Confirm a brew's inputs: dose, yield, ratio, temperature, grind, warnings and the scaled steps.",
        discussion: """
            Last edited wins: --dose gives the yield from the recipe's ratio, --yield gives the dose. \
            The inputs confirmed here are remembered for the recipe (in brew/preferences.json) and \
            are what `brew start` and `brew save` use next, until --reset.
            """)

    @Argument(help: ArgumentHelp("The recipe: id, unique id prefix or name (default: the last selected).", valueName: "ref"))
    var recipe: String?

    @OptionGroup var inputs: BrewInputOptions

    @Flag(help: "Print the plan as JSON.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let env = try global.environment()
        let changes = try inputs.inputs(exclusive: true)
        let (selection, plan) = try env.store.withWriterLock { () -> (BrewSelection, BrewPlan) in
            let s = try BrewSelection.choose(in: env.store, reference: recipe, changes: changes, reset: inputs.reset)
            let plan = try RecipeScaler.plan(s.recipe, inputs: s.inputs)
            try BrewSelection.remember(s.recipe.id, inputs: s.inputs, in: env.store, at: env.now)
            return (s, plan)
        }
        if let notice = selection.notice { Console.error("ledger: " + notice) }
        if json {
            Output.json(plan.json)
            return
        }
        Console.print(Style.bold(plan.recipeName) + "  (\(plan.recipeId))" + Style.dim(" — confirm inputs"))
        Console.print("")
        for line in BrewText.inputs(plan) { Console.print(line) }
        Console.print("")
        if plan.warnings.isEmpty {
            Console.print(Style.dim("  All inputs are within the recommended V60 ranges."))
        } else {
            for w in plan.warnings { Console.print(Style.yellow("  ! " + w)) }
            Console.print(Style.dim("  (a warning only: nothing is clamped)"))
        }
        Console.print("")
        for line in BrewText.steps(plan) { Console.print(line) }
        Console.print("")
        if let p = try? BrewProgressStore(store: env.store).load().progress {
            Console.print("A brew of \(p.plan.recipeName) is in progress; `ledger brew start` resumes it.")
        } else {
            Console.print("Brew it with `ledger brew start`, or log it afterwards with `ledger brew save --rating N`.")
        }
        Console.print(Style.dim(selection.inputs.isDefault || selection.inputs == BrewInputs(recipeId: plan.recipeId)
            ? "These are the recipe's defaults."
            : "These inputs are remembered for \(plan.recipeName); `--reset` goes back to its defaults."))
    }
}

/// `ledger brew save [REF] [--dose G] [--yield G] [--temp C] [--grind L] --rating N [--tag T] [--note TEXT]`
struct SaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract: "Log a brew without the terminal brew: rating 1–5, optional taste tag and note; prints the adjustment hint.",
        discussion: """
            The recipe and inputs default to the last selected recipe and its remembered inputs (see \
            `brew plan`). Give both --dose and --yield to log a brew made at its own ratio.
            """)

    @Argument(help: ArgumentHelp("The recipe: id, unique id prefix or name (default: the last selected).", valueName: "ref"))
    var recipe: String?

    @OptionGroup var inputs: BrewInputOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("How it turned out, 1 to 5.", valueName: "n"))
    var rating: Int

    @Option(help: ArgumentHelp("Taste tag: too-bitter, too-sour, too-weak, too-strong or perfect.", valueName: "tag"))
    var tag: String?

    @Option(help: ArgumentHelp("A short note, at most 280 characters.", valueName: "text"))
    var note: String?

    @Option(help: ArgumentHelp("When the brew was made, if not now: 07:30, 2026-11-21T07:30 or a timestamp with its offset.", valueName: "time"))
    var at: String?

    @Flag(help: "Print the saved log as JSON.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        if let problem = BrewLog.ratingProblem(rating) { throw LedgerError.usage("--rating: " + problem) }
        if let note, let problem = BrewLog.noteProblem(note) { throw LedgerError.usage("--note: " + problem) }
        let tasteTag = try tag.map(BrewArguments.tag)
        let changes = try inputs.inputs(exclusive: false)
        let env = try global.environment()
        let when = try at.map { try TimeArgument.parse($0, option: "--at", clock: env.clock) } ?? env.now
        let log = try env.store.withWriterLock { () -> BrewLog in
            let s = try BrewSelection.choose(in: env.store, reference: recipe, changes: changes, reset: inputs.reset)
            var plan = try RecipeScaler.plan(s.recipe, inputs: s.inputs)
            if let d = changes.dose, let y = inputs.targetYield { plan = plan.measured(dose: d, targetYield: y) }
            let repo = env.store.repository(BrewLog.self)
            var id = env.ids.next()
            while try repo.contains(id: id) { id = env.ids.next() }
            var log = BrewLog(id: id, plan: plan, rating: rating, tasteTag: tasteTag, note: note?.trimmingCharacters(in: .whitespacesAndNewlines),
                              at: when)
            log.createdAt = env.now
            log.updatedAt = env.now
            try repo.save(log)
            try BrewSelection.remember(s.recipe.id, inputs: nil, in: env.store, at: env.now)
            if json { return log }
            for w in plan.warnings { Console.print(Style.yellow("! " + w)) }
            return log
        }
        if json {
            guard case .object(var o) = log.json else { return }
            o["hint"] = log.hint.map(JSONValue.string) ?? .null
            o["ratio"] = .number(log.ratio)
            Output.json(.object(o))
            return
        }
        Console.print("Saved brew log \(log.id): " + LogText.summary(log) + ".")
        if let t = log.tasteTag { Console.print(BrewText.hint(t)) }
    }
}
