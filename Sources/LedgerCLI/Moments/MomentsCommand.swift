import ArgumentParser
import LedgerKit

/// `ledger moments …`: DotLife Moments — a tiny gratitude journal drawn as dots.
struct MomentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moments",
        abstract: "DotLife Moments — a tiny gratitude journal drawn as dots.",
        subcommands: [])

    /// This app's line on `ledger status`.
    static func status(_ env: CommandEnvironment) throws -> AppStatus {
        AppStatus(app: .moments, summary: "—", json: [:])
    }
}
