import ArgumentParser
import LedgerKit

/// `ledger hydrate …`: Water Reminder — daily hydration reminders.
struct HydrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hydrate",
        abstract: "Water Reminder — daily hydration reminders.",
        subcommands: [])

    /// This app's line on `ledger status`.
    static func status(_ env: CommandEnvironment) throws -> AppStatus {
        AppStatus(app: .hydrate, summary: "—", json: [:])
    }
}
