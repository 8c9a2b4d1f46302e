import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// `ledger sync [--remote NAME] [--json]`
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Commit local changes, fetch, merge with each kind's rules, and push.",
        discussion: """
            Refuses (exit 1, nothing committed) when a changed document is invalid, when git is \
            in the middle of a merge or a rebase, or on another branch than the ledger's. Prints \
            what was committed, pulled, resolved and pushed, per app and per document, and the \
            repository maintenance it ran when due. Exit 3 when the remote cannot be reached or \
            keeps refusing the push: local changes stay committed and safe.
            """)

    @Option(help: ArgumentHelp("The remote to sync with (default: the branch's remote, else origin).", valueName: "name"))
    var remote: String?

    @OptionGroup var output: JSONOption

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let store = try global.store()
        let options = SyncOptions(remoteName: remote, transport: try SyncEnvironment.transport(),
                                  git: GitTool.find(in: CLIContext.current.environment), checkpoint: SyncEnvironment.checkpoint())
        let report: SyncReport
        do {
            report = try Sync.run(store, options: options)
        } catch let e as LedgerError where output.json {
            // Scripts get one JSON value whatever happened; the sentence still goes to stderr.
            Output.json(.object(["outcome": .string("refused"), "error": .string(e.commandLineMessage),
                                 "problems": .array(e.problems.map(\.json))]))
            throw e
        }
        if output.json { Output.json(report.json(ledgerRoot: store.root)) } else { report.printText(ledgerRoot: store.root) }
        for warning in report.warnings { Console.error("ledger: warning: " + warning) }
        if report.outcome == .offline || report.outcome == .rejected {
            Console.error("ledger: " + (report.error ?? "the remote cannot be reached"))
            throw ExitCode(3)
        }
    }
}
