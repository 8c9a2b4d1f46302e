import ArgumentParser
import LedgerKit
import LedgerSync

/// `ledger init [PATH] [--remote URL]`
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a ledger: a git repository on branch main with each app's defaults.",
        discussion: "Running it again on an existing ledger restores its setup (merge driver, .gitattributes) and changes nothing else.")

    @Argument(help: ArgumentHelp("Where to create it (default: the ledger chosen by --repo, $LEDGER_REPO or $XDG_DATA_HOME/ledger).", valueName: "path"), completion: .directory)
    var path: String?

    @Option(help: ArgumentHelp("The git remote to sync with, saved as origin.", valueName: "url"))
    var remote: String?

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let target = path.map { CLIContext.current.absolutePath($0) } ?? global.repositoryPath()
        let clock = try CommandClock.current()
        let outcome = try LedgerSetup.initialize(at: target, remote: remote, now: clock.now, signature: LedgerSetup.fallbackSignature())
        switch outcome {
        case .created:
            Console.print("Created a ledger in \(target) (branch main\(remote.map { ", remote origin \($0)" } ?? "")).")
            Console.print("Next: `ledger status`, or `ledger waterline start` for a night out.")
        case .alreadyInitialized(let restored) where restored.isEmpty:
            Console.print("\(target) is already a ledger; its setup is in place.")
        case .alreadyInitialized(let restored):
            Console.print("\(target) is already a ledger; ledger " + restored.joined(separator: ", ") + ".")
        }
        // A remote on a path where nothing is: the ledger is made all the same (a disk to
        // mount, a remote to make next), and the missing remote said now, not at the first sync.
        if let remote, let missing = Remote.missingLocalPath(remote) {
            Console.error("ledger: warning: nothing is at \(missing), so `ledger sync` cannot reach origin there yet; "
                + "make the remote with `git init --bare -b main \(SetupDoctor.shellQuoted(missing))`, or mount the disk it is on")
        }
    }
}
