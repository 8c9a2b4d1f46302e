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

    @Flag(help: "Print the report as JSON.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let store: LedgerStore
        let report: SyncReport
        do {
            store = try global.store()
            let options = SyncOptions(remoteName: remote, transport: try SyncEnvironment.transport(),
                                      git: GitTool.find(in: CLIContext.current.environment), checkpoint: SyncEnvironment.checkpoint())
            report = try Sync.run(store, options: options)
        } catch where json {
            // Scripts get one JSON value whatever happened; the sentence still goes to stderr.
            Output.json(Self.failureJSON(error))
            throw error
        }
        if json { Output.json(report.json(ledgerRoot: store.root)) } else { report.printText(ledgerRoot: store.root) }
        for warning in report.warnings { Console.error("ledger: warning: " + warning) }
        if report.outcome == .offline || report.outcome == .rejected {
            Console.error("ledger: " + (report.error ?? "the remote cannot be reached"))
            throw ExitCode(3)
        }
    }

    /// The `--json` object of a sync that stopped: `outcome` is `refused` (exit 1 or 2: the
    /// data or the request), `offline` (exit 3) or `failed` (exit 4: git, the disk, a damaged
    /// repository), with the sentence printed on stderr and the documents at fault.
    static func failureJSON(_ error: any Error) -> JSONValue {
        let e = error as? LedgerError
        let outcome = switch e?.exitStatus ?? 4 {
        case 1, 2: "refused"
        case 3: "offline"
        default: "failed"
        }
        return .object(["outcome": .string(outcome), "error": .string(e?.message ?? "\(error)"),
                        "problems": .array((e?.problems ?? []).map(\.json))])
    }
}
