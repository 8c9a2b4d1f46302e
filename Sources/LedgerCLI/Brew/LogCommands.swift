import ArgumentParser
import LedgerKit

/// `ledger brew logs [--recipe REF] [--limit N] [--json]`
struct LogsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logs",
        abstract: "List brew logs in chronological order (the most recent last).")

    @Option(help: ArgumentHelp("Only the logs of this recipe (id, unique id prefix or name).", valueName: "ref"))
    var recipe: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Only the N most recent logs.", valueName: "n"))
    var limit: Int?

    @Flag(help: "Print the logs as JSON.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        if let limit, limit < 1 { throw LedgerError.usage("--limit must be 1 or more (found \(limit))") }
        let env = try global.environment()
        // A deleted recipe's logs remain: its id is accepted even when no recipe has it now.
        let recipeID = try recipe.map { ref -> String in
            do {
                return try RecipeLibrary(store: env.store).resolve(ref).id
            } catch let e as LedgerError where e.code == .notFound && DocumentID.isValid(ref.lowercased()) {
                return ref.lowercased()
            }
        }
        let book = BrewLogBook(store: env.store)
        let logs = try book.logs(recipeID: recipeID, limit: limit)
        if json {
            Output.json(.array(logs.map(LogText.json)))
            return
        }
        guard !logs.isEmpty else {
            Console.print(recipeID == nil ? "No brew logs yet; log one with `ledger brew save --rating N` or `ledger brew start`."
                : "No brew logs of that recipe yet.")
            return
        }
        let nameWidth = min(28, max(6, logs.map(\.recipeName.count).max() ?? 0))
        Console.print(Style.dim("DATE              RATING  " + BrewText.pad("RECIPE", nameWidth) + "    DOSE   YIELD  TAG         ID"))
        for log in logs {
            Console.print(BrewText.when(log.timestamp) + "  " + "\(log.rating)/5   " + "  "
                          + BrewText.pad(BrewText.truncate(log.recipeName, nameWidth), nameWidth) + "  "
                          + BrewText.left(BrewFormat.dose(log.dose), 6) + "  " + BrewText.left(BrewFormat.grams(log.targetYield), 6) + "  "
                          + BrewText.pad(log.tasteTag?.title ?? "", 10) + "  " + log.id)
        }
        if limit == nil || logs.count < limit! {
            Console.print(Style.dim(Output.plural(logs.count, "log")))
        } else {
            Console.print(Style.dim("the \(Output.plural(logs.count, "most recent log", "most recent logs")) of \(Output.count(try book.count()))"))
        }
    }
}

/// `ledger brew log show|delete ID`
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Show or delete one brew log (ID: an id or a unique prefix).",
        subcommands: [Show.self, Delete.self])
}

extension LogCommand {
    /// `ledger brew log show ID [--json]`
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a brew log.")

        @Argument(help: ArgumentHelp("The log's id or a unique prefix.", valueName: "id"))
        var id: String

        @Flag(help: "Print the log as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let repo = env.store.repository(BrewLog.self)
            let log = try repo.load(id: try repo.resolve(id, describe: "brew log"))
            if json {
                Output.json(LogText.json(log))
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

        @Argument(help: ArgumentHelp("The log's id or a unique prefix.", valueName: "id"))
        var id: String

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let repo = env.store.repository(BrewLog.self)
            let resolved = try repo.resolve(id, describe: "brew log")
            // An invalid log can still be deleted; it is then described by its id alone.
            let what = (try? repo.load(id: resolved)).map { "the brew log of \(BrewText.when($0.timestamp)) (\($0.recipeName), \($0.rating)/5)" }
                ?? "the brew log \(resolved)"
            guard try Console.confirm("Delete \(what)?", action: "Deleting \(what)", yes: yes) else {
                Console.print("Kept \(what).")
                return
            }
            try env.store.withWriterLock { try repo.delete(id: resolved) }
            Console.print("Deleted \(what).")
        }
    }
}

/// How brew logs are described.
enum LogText {
    /// "V60 starter · 20.0 g · 333 g · 1:16.7 · 94 °C · medium · rated 4/5 · too sour".
    static func summary(_ log: BrewLog) -> String {
        var parts = [log.recipeName, BrewFormat.dose(log.dose), BrewFormat.grams(log.targetYield), BrewFormat.ratio(log.ratio),
                     BrewFormat.temperature(log.waterTemperature), log.grindLabel.rawValue, "rated \(log.rating)/5"]
        if let t = log.tasteTag { parts.append(t.title) }
        return parts.joined(separator: " · ")
    }

    /// The log's JSON with its ratio and hint.
    static func json(_ log: BrewLog) -> JSONValue {
        guard case .object(var o) = log.json else { return log.json }
        o["ratio"] = .number(log.ratio)
        o["hint"] = log.hint.map(JSONValue.string) ?? .null
        return .object(o)
    }
}
