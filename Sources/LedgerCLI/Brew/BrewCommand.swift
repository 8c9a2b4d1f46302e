import ArgumentParser
import LedgerKit

/// `ledger brew …`: BrewGuide — guided V60 coffee.
struct BrewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "brew",
        abstract: "BrewGuide — guided V60 coffee.",
        subcommands: [])

    /// This app's line on `ledger status`.
    static func status(_ env: CommandEnvironment) throws -> AppStatus {
        AppStatus(app: .brew, summary: "—", json: [:])
    }
}
