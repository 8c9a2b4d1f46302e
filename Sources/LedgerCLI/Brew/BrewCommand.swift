import ArgumentParser
import LedgerKit

/// `ledger brew …`: BrewGuide — guided V60 coffee.
struct BrewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "brew",
        abstract: "BrewGuide — guided V60 coffee.",
        discussion: """
            The V60 starter (v60-starter) is built in; duplicate it to make recipes of your own. \
            A recipe is named by its id, a unique id prefix or its name.
            """,
        subcommands: [RecipesCommand.self, RecipeCommand.self, PlanCommand.self, StartCommand.self, SaveCommand.self,
                      LogsCommand.self, LogCommand.self])

    /// This app's line on `ledger status`.
    static func status(_ env: CommandEnvironment) throws -> AppStatus {
        let book = BrewLogBook(store: env.store)
        let count = try book.count()
        let latest = try? book.latest()
        let progress = try? BrewProgressStore(store: env.store).load().progress
        var json: JSONObject = ["logs": .number(Double(count)), "brewInProgress": .bool(progress != nil)]
        json["lastLog"] = latest.map { .object(["id": .string($0.id), "timestamp": $0.timestamp.json, "recipeName": .string($0.recipeName),
                                                "rating": .number(Double($0.rating))]) } ?? .null
        var parts: [String] = []
        if let p = progress {
            parts.append(p.isFinished ? "a finished brew of \(p.plan.recipeName) waits to be saved (`ledger brew start`)"
                : "brew in progress: \(p.plan.recipeName), step \(p.stepIndex + 1) of \(p.plan.steps.count) (`ledger brew start` resumes)")
        }
        if let l = latest {
            parts.append("last brew \(BrewText.when(l.timestamp)), \(l.recipeName), \(l.rating)/5")
        }
        parts.append(count == 0 ? "no brew logs" : Output.plural(count, "brew log"))
        return AppStatus(app: .brew, summary: parts.joined(separator: " · "), json: json)
    }
}
