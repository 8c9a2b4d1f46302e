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
        subcommands: [Recipes.self, RecipeCommand.self, Plan.self, Start.self, Save.self, Logs.self, Log.self])

    /// This app's line on `ledger status`.
    static func status(_ env: CommandEnvironment) throws -> AppStatus {
        let status: BrewStore.Status
        do {
            status = try BrewStore(env.store).status()
        } catch let e as LedgerError {
            return .invalid(.brew, e)  // the newest log, broken by a hand edit or unreadable
        }
        var json: JSONObject = ["logs": .number(Double(status.logCount)), "brewInProgress": .bool(status.brewInProgress != nil)]
        json["lastLog"] = status.latest.map { .object(["id": .string($0.id), "timestamp": $0.timestamp.json, "recipeName": .string($0.recipeName),
                                                       "rating": .number(Double($0.rating))]) } ?? .null
        var parts: [String] = []
        if let p = status.brewInProgress {
            parts.append(p.isFinished ? "a finished brew of \(p.plan.recipeName) waits to be saved (`ledger brew start`)"
                : "brew in progress: \(p.plan.recipeName), step \(p.stepIndex + 1) of \(p.plan.steps.count) (`ledger brew start` resumes)")
        }
        if let l = status.latest {
            parts.append("last brew \(BrewText.when(l.timestamp)), \(l.recipeName), \(l.rating)/5")
        }
        parts.append(status.logCount == 0 ? "no brew logs" : Output.plural(status.logCount, "brew log"))
        return AppStatus(app: .brew, summary: parts.joined(separator: " · "), json: json)
    }
}
