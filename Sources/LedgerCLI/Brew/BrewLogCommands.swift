import ArgumentParser
import LedgerKit

extension BrewCommand {
    /// `ledger brew save [REF] [--dose G] [--yield G] [--temp C] [--grind L] --rating N [--tag T] [--note TEXT]`
    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "save",
            abstract: "Log a brew without the terminal brew: rating 1–5, optional taste tag and note; prints the adjustment hint.",
            discussion: """
                The recipe and inputs default to the last selected recipe and its remembered inputs (see \
                `brew plan`). Give both --dose and --yield to log a brew made at its own ratio.
                """)

        @Argument(help: ArgumentHelp("The recipe: id, unique id prefix or name (default: the last selected).", valueName: "ref"), completion: LiveCompletion.recipes)
        var recipe: String?

        @OptionGroup var inputs: BrewInputOptions

        @Option(parsing: .unconditional, help: ArgumentHelp("How it turned out, 1 to 5.", valueName: "n"), transform: RatingValue.parse)
        var rating: RatingValue

        @Option(help: ArgumentHelp("Taste tag: too-bitter, too-sour, too-weak, too-strong or perfect.", valueName: "tag"), transform: TasteTagValue.parse)
        var tag: TasteTagValue?

        @Option(parsing: .unconditional, help: ArgumentHelp("A short note, at most 280 characters.", valueName: "text"))
        var note: String?

        @Option(help: ArgumentHelp("When the brew was made, if not now: 07:30, 2026-11-21T07:30 or a timestamp with its offset.", valueName: "time"), transform: ClockText.parse)
        var at: ClockText?

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws { try line.run() }
    }

    /// `ledger brew logs [--recipe REF] [--limit N] [--json]`
    struct Logs: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "logs",
            abstract: "List brew logs in chronological order (the most recent last).")

        @Option(help: ArgumentHelp("Only the logs of this recipe (id, unique id prefix or name; a deleted recipe's id or name).", valueName: "ref"))
        var recipe: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Only the N most recent logs.", valueName: "n"))
        var limit: Int?

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            if let limit, limit < 1 { throw LedgerError.usage("--limit must be 1 or more (found \(limit))") }
            let env = try global.environment()
            let brew = BrewStore(env.store)
            let logs: [BrewLog]
            do {
                logs = try brew.logs(recipe: recipe, limit: limit)
            } catch let e as LedgerError where e.code == .notFound {
                throw LedgerError.notFound("--recipe: " + e.message)
            }
            if output.json {
                Output.json(.array(logs.map(BrewJSON.log)))
                return
            }
            guard !logs.isEmpty else {
                Console.print(recipe == nil ? "No brew logs yet; log one with `ledger brew save --rating N` or `ledger brew start`."
                    : "No brew logs of that recipe yet.")
                return
            }
            let nameWidth = min(28, max(6, logs.map { BrewText.shown($0.recipeName).count }.max() ?? 0))
            // Logs made at several UTC offsets (a journey, the night the clocks change) show
            // each time with its offset, so that the order reads right (as Moments does).
            let offsets = Set(logs.map(\.timestamp.utcOffsetSeconds)).count > 1
            func when(_ t: Timestamp) -> String { BrewText.when(t) + (offsets ? " " + Timestamp.formatOffset(t.utcOffsetSeconds) : "") }
            let dateWidth = BrewText.when(logs[0].timestamp).count + (offsets ? 7 : 0)
            Console.print(Style.dim(BrewText.pad("DATE", dateWidth) + "  RATING  " + BrewText.pad("RECIPE", nameWidth) + "    DOSE   YIELD  TAG         ID"))
            for log in logs {
                Console.print(when(log.timestamp) + "  " + "\(log.rating)/5   " + "  "
                              + BrewText.pad(BrewText.truncate(BrewText.shown(log.recipeName), nameWidth), nameWidth) + "  "
                              + BrewText.left(BrewFormat.dose(log.dose), 6) + "  " + BrewText.left(BrewFormat.grams(log.targetYield), 6) + "  "
                              + BrewText.pad(log.tasteTag?.title ?? "", 10) + "  " + log.id)
            }
            if limit == nil || logs.count < limit! {
                Console.print(Style.dim(Output.plural(logs.count, "log")))
            } else {
                Console.print(Style.dim("the \(Output.plural(logs.count, "most recent log", "most recent logs")) of \(Output.count(try brew.logCount()))"))
            }
        }
    }

    /// `ledger brew log show|delete ID`
    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract: "Show or delete one brew log (ID: an id or a unique prefix).",
            subcommands: [Show.self, Delete.self])
    }
}

extension BrewCommand.Log {
    /// `ledger brew log show ID [--json]`
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a brew log.")

        @Argument(help: ArgumentHelp("The log's id or a unique prefix.", valueName: "id"), completion: LiveCompletion.brewLogs)
        var id: String

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let brew = BrewStore(env.store)
            let log = try brew.log(id: brew.logID(id))
            if output.json {
                Output.json(BrewJSON.log(log))
                return
            }
            let offset = Timestamp.formatOffset(log.timestamp.utcOffsetSeconds)
            Console.print(Style.bold("Brew log \(log.id)"))
            Console.print("  When          \(BrewText.when(log.timestamp)) (\(offset))")
            Console.print("  Recipe        \(log.recipeName) (\(log.recipeId), \(log.recipeType.rawValue))")
            Console.print("  Method        \(log.method.title)")
            Console.print("  Dose          \(BrewFormat.dose(log.dose))")
            Console.print("  Target yield  \(BrewFormat.grams(log.targetYield)) (\(BrewFormat.ratio(log.ratio)))")
            Console.print("  Temperature   \(BrewFormat.temperature(log.waterTemperature))")
            Console.print("  Grind         \(log.grindLabel.rawValue)")
            if let s = log.brewSeconds { Console.print("  Brew time     \(BrewFormat.clock(s))") }
            Console.print("  Rating        \(log.rating)/5")
            Console.print("  Taste         " + (log.tasteTag.map { "\($0.title) — hint: \($0.hint)" } ?? "—"))
            Console.print("  Note          " + (log.note ?? "—"))
        }
    }

    /// `ledger brew log delete ID [--yes]`
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a brew log (asks first).")

        @Argument(help: ArgumentHelp("The log's id or a unique prefix.", valueName: "id"), completion: LiveCompletion.brewLogs)
        var id: String

        @OptionGroup var confirmation: YesOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let brew = BrewStore(env.store)
            let resolved = try brew.logID(id)
            // An invalid log can still be deleted; it is then described by its id alone.
            let what = (try? brew.log(id: resolved)).map { "the brew log of \(BrewText.when($0.timestamp)) (\($0.recipeName), \($0.rating)/5)" }
                ?? "the brew log \(resolved)"
            guard try Console.confirm("Delete \(what)?", action: "Deleting \(what)", yes: confirmation.yes) else {
                Console.print("Kept \(what).")
                return
            }
            try brew.deleteLog(id: resolved)
            Console.print("Deleted \(what).")
        }
    }
}

extension BrewCommand.Save: QuickCommand {
    static let path = ["brew", "save"]
    static let valueOptions = ["dose", "yield", "temp", "grind", "rating", "tag", "note", "at"]
    static let flags = ["reset"]
    static let positionals = 1

    var line: Line {
        Line(recipe: recipe, inputs: inputs.given, rating: rating, tag: tag, note: note, at: at, json: output.json, global: global.choice)
    }

    static func read(_ words: QuickLine.Words) throws -> Line {
        let inputs = BrewInputsGiven(dose: try words.value("dose", as: DecimalNumber.parse), targetYield: try words.value("yield", as: DecimalNumber.parse),
                                     temperature: try words.value("temp", as: DecimalNumber.parse), grind: try words.value("grind"), reset: words.flag("reset"))
        guard let rating: RatingValue = try words.value("rating") else { throw ValidationError("--rating") }
        return Line(recipe: words.positionals.first, inputs: inputs, rating: rating, tag: try words.value("tag"), note: words["note"],
                    at: try words.value("at"), json: words.flag("json"), global: LedgerChoice.read(words))
    }

    struct Line: QuickRun {
        var recipe: String?
        var inputs: BrewInputsGiven
        var rating: RatingValue
        var tag: TasteTagValue?
        var note: String?
        var at: ClockText?
        var json: Bool
        var global: LedgerChoice

        func run() throws {
            if let note, let problem = BrewLog.noteProblem(note) { throw LedgerError.usage("--note: " + problem) }
            var record = BrewStore.BrewRecord(rating: rating.rating)
            record.tasteTag = tag?.tag
            record.inputs = try inputs.inputs(exclusive: false)
            (record.recipe, record.resetInputs, record.note) = (recipe, inputs.reset, note)
            let env = try global.environment()
            record.brewedAt = try at.map { try TimeArgument.parse($0.text, option: "--at", clock: env.clock) }
            let logged = try BrewStore(env.store).logBrew(record, now: env.now, ids: env.ids)
            let log = logged.log
            if let notice = logged.notice { Console.error("ledger: " + notice) }
            if json {
                guard case .object(var o) = BrewJSON.log(log) else { return }
                o["warnings"] = .array(logged.warnings.map(JSONValue.string))
                Output.json(.object(o))
                return
            }
            for w in logged.warnings { Console.print(Style.yellow("! " + w)) }
            Console.print("Saved brew log \(log.id): " + BrewText.summary(log) + ".")
            if let t = log.tasteTag { Console.print(BrewText.hint(t)) }
        }
    }
}
