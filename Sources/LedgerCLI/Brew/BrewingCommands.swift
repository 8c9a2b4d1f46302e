import ArgumentParser
import LedgerKit

extension BrewCommand {
    /// `ledger brew plan [REF] [--dose G | --yield G] [--temp C] [--grind L] [--reset] [--json]`
    struct Plan: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan",
            abstract: "Confirm a brew's inputs: dose, yield, ratio, temperature, grind, warnings and the scaled steps.",
            discussion: """
                Last edited wins: --dose gives the yield from the recipe's ratio, --yield gives the dose. \
                The inputs confirmed here are remembered for the recipe (in brew/preferences.json) and \
                are what `brew start` and `brew save` use next, until --reset.
                """)

        @Argument(help: ArgumentHelp("The recipe: id, unique id prefix or name (default: the last selected).", valueName: "ref"), completion: LiveCompletion.recipes)
        var recipe: String?

        @OptionGroup var inputs: BrewInputOptions

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let changes = try inputs.inputs(exclusive: true)
            let brew = BrewStore(env.store)
            let confirmed = try brew.confirmInputs(recipe, changes: changes, reset: inputs.reset, now: env.now)
            let (selection, plan) = (confirmed.selection, confirmed.plan)
            if let notice = selection.notice { Console.error("ledger: " + notice) }
            if output.json {
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
            if let p = try? brew.brewInProgress().progress {
                Console.print("A brew of \(p.plan.recipeName) is in progress; `ledger brew start` resumes it.")
            } else {
                Console.print("Brew it with `ledger brew start`, or log it afterwards with `ledger brew save --rating N`.")
            }
            Console.print(Style.dim(selection.inputs.isDefault || selection.inputs == BrewInputs(recipeId: plan.recipeId)
                ? "These are the recipe's defaults."
                : "These inputs are remembered for \(plan.recipeName); `--reset` goes back to its defaults."))
        }
    }

    /// `ledger brew start [REF] [--dose G | --yield G] [--temp C] [--grind L] [--reset]`: the
    /// interactive terminal brew. The flow itself is `BrewFlow` (LedgerKit); this command is its
    /// terminal: raw keys in, frames out, effects carried out.
    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Brew step by step in the terminal: big step text, countdowns, next, pause, guarded restart; then rate and save.",
            discussion: """
                Confirm inputs: enter starts; d dose, y yield, t temperature (type, enter), g grind, \
                r reset to defaults, c change recipe, q quit.

                Brewing: enter or space next step; p pause/resume; r restart (then y, then hold r for \
                1.5 s); q leave (asks; the brew stays in progress).

                After the brew: 1–5 rating; b s w t p taste tag (too bitter, sour, weak, strong, \
                perfect; x clears); n note; enter saves; d discards.

                A brew in progress survives a closed terminal or a crash (.git/ledger, not synced): \
                `ledger brew start` offers to resume it where it was last on screen (the time away is \
                not counted), or to discard it and start over.
                """)

        @Argument(help: ArgumentHelp("The recipe: id, unique id prefix or name (default: the last selected).", valueName: "ref"), completion: LiveCompletion.recipes)
        var recipe: String?

        @OptionGroup var inputs: BrewInputOptions

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ctx = CLIContext.current
            guard ctx.stdinIsTerminal else {
                throw LedgerError.usage("`ledger brew start` is an interactive brew and needs a terminal (stdin is not one); to log a brew from a script use `ledger brew save --rating N` (with --dose, --yield, --tag, --note as needed)")
            }
            let env = try global.environment()
            let changes = try inputs.inputs(exclusive: true)
            let brew = BrewStore(env.store)
            guard let screen = try brew.claimBrewScreen() else {
                throw LedgerError.invalid("a brew is already open in another terminal on this machine; finish it or leave it there first")
            }
            defer { withExtendedLifetime(screen) {} }
            let start = try brew.startBrew(recipe, changes: changes, reset: inputs.reset, now: env.now, ids: env.ids)
            if let setAside = start.setAside { Console.error("ledger: " + setAside) }
            var flow = start.flow
            let hungUp = try BrewTerminalSession(env: env).run(&flow)
            for notice in start.notices(after: flow) { Console.error("ledger: " + notice) }
            switch flow.phase {
            case .done(.saved(let log)):
                Console.print("Saved brew log \(log.id): " + BrewText.summary(log) + ".")
                if let t = log.tasteTag { Console.print(BrewText.hint(t)) }
            case .done(.discarded):
                Console.print("Discarded the brew of \(flow.plan.recipeName); nothing was logged.")
            case .done(.cancelled):
                Console.print("No brew started.")
            default:
                if let p = flow.progress {
                    Console.print("The brew of \(p.plan.recipeName) stays in progress (" + (p.isFinished ? "finished, not saved" : "step \(p.stepIndex + 1) of \(p.plan.steps.count)")
                                  + "); `ledger brew start` resumes it.")
                }
                if hungUp { throw ExitCode(130) }
            }
        }
    }
}
