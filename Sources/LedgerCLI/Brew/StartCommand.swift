import ArgumentParser
import LedgerKit

/// `ledger brew start [REF] [--dose G | --yield G] [--temp C] [--grind L] [--reset]`: the
/// interactive terminal brew. The flow itself is `BrewFlow` (LedgerKit); this command is its
/// terminal: raw keys in, frames out, effects carried out.
struct StartCommand: ParsableCommand {
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
            `ledger brew start` offers to resume it.
            """)

    @Argument(help: ArgumentHelp("The recipe: id, unique id prefix or name (default: the last selected).", valueName: "ref"))
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
        // One terminal brew per ledger per machine.
        guard let sessionLock = try FileLock.attempt(path: env.store.localState("brew.lock")) else {
            throw LedgerError.invalid("a brew is already open in another terminal on this machine; finish it or leave it there first")
        }
        defer { withExtendedLifetime(sessionLock) {} }
        let progressStore = BrewProgressStore(store: env.store)
        let (existing, setAside) = try progressStore.load()
        if let setAside { Console.error("ledger: " + setAside) }
        var flow: BrewFlow
        var notice: String?
        let choices = try RecipeLibrary(store: env.store).entries().compactMap(\.recipe)
        if let existing {
            // Resuming: the brew's own recipe (for a restart), when it still exists and is valid.
            let own = try? RecipeLibrary(store: env.store).usable(existing.plan.recipeId)
            flow = try BrewFlow(recipe: own, inputs: existing.inputs, resuming: existing, choices: choices, logID: env.ids.next())
            if recipe != nil || !changes.isDefault || inputs.reset {
                notice = "a brew of \(existing.plan.recipeName) was in progress, so the recipe and inputs given were not used"
            }
        } else {
            let selection = try BrewSelection.choose(in: env.store, reference: recipe, changes: changes, reset: inputs.reset)
            notice = selection.notice
            flow = try BrewFlow(recipe: selection.recipe, inputs: selection.inputs, choices: choices, logID: env.ids.next())
        }
        let session = BrewTerminalSession(env: env, progressStore: progressStore)
        let hungUp = try session.run(&flow)
        if let notice { Console.error("ledger: " + notice) }
        switch flow.phase {
        case .done(.saved(let log)):
            Console.print("Saved brew log \(log.id): " + LogText.summary(log) + ".")
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

/// One terminal brew: draws the flow, reads keys, carries out effects.
struct BrewTerminalSession {
    let env: CommandEnvironment
    let progressStore: BrewProgressStore

    /// Runs `flow` until it is done or the terminal goes away; true when it was interrupted
    /// (a signal, a closed terminal), in which case the brew stays in progress.
    func run(_ flow: inout BrewFlow) throws -> Bool {
        let clock = BrewClock(origin: env.now)
        let environment = CLIContext.current.environment
        let locale = environment["LC_ALL"] ?? environment["LC_CTYPE"] ?? environment["LANG"] ?? ""
        let terminal = try RawTerminal()
        defer { terminal.restore() }
        var screen = BrewScreen()
        screen.unicode = locale.lowercased().replacingOccurrences(of: "-", with: "").contains("utf8")
        screen.color = environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        var lastFrame: [String] = []
        var wasReady = false
        while true {
            let now = clock.now
            (screen.rows, screen.columns) = terminal.size
            let frame = screen.lines(flow, at: now)
            if frame != lastFrame {
                terminal.write("\u{1B}[H" + frame.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J")
                lastFrame = frame
            }
            let ready = flow.phase == .brewing && flow.progress?.isReady(at: now) == true
            if ready, !wasReady { terminal.write("\u{07}") }
            wasReady = ready
            if case .done = flow.phase { return false }
            let input = terminal.poll(timeout: 0.1)
            for key in input.keys {
                guard let event = BrewKeys.event(for: key, in: flow, at: clock.now) else { continue }
                try perform(flow.handle(event, at: clock.now), clock: clock)
                if case .done = flow.phase { break }
            }
            if input.hangUp { return true }
            flow.handle(.tick, at: clock.now)
        }
    }

    /// Carries out the flow's effects in order; the first failure stops them (so a log that
    /// could not be saved leaves the brew in progress).
    func perform(_ effects: [BrewFlow.Effect], clock: BrewClock) throws {
        for effect in effects {
            switch effect {
            case .persist(let p):
                try progressStore.save(p)
            case .clearProgress:
                try progressStore.clear()
            case .rememberInputs(let inputs):
                guard let id = inputs.recipeId else { continue }
                try env.store.withWriterLock { _ = try BrewSelection.remember(id, inputs: inputs, in: env.store, at: clock.now) }
            case .saveLog(let log):
                try env.store.withWriterLock {
                    try env.store.repository(BrewLog.self).save(log)
                    let known = try log.recipeId == Recipe.starterID || env.store.repository(Recipe.self).contains(id: log.recipeId)
                    if known {
                        try BrewSelection.remember(log.recipeId, inputs: nil, in: env.store, at: clock.now)
                    }
                }
            case .exit:
                break
            }
        }
    }
}
