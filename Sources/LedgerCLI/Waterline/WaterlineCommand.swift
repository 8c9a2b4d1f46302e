import ArgumentParser
import LedgerKit

/// `ledger waterline …`: Waterline — pacing drinks with water on a night out.
struct WaterlineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waterline",
        abstract: "Waterline — pacing drinks with water on a night out.",
        subcommands: [])

    /// This app's line on `ledger status`.
    static func status(_ env: CommandEnvironment) throws -> AppStatus {
        AppStatus(app: .waterline, summary: "—", json: [:])
    }
}
