import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// `ledger clone URL [PATH]`
struct CloneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clone",
        abstract: "Copy a ledger from a remote (a path, file://, ssh, git:// or HTTP(S) URL — whatever `git clone` takes) and check it.",
        discussion: """
            The clone is on branch main, with the ledger merge driver registered. An empty \
            remote gives a new ledger, which the first `ledger sync` publishes.
            """)

    @Argument(help: ArgumentHelp("The remote's URL or path.", valueName: "url"))
    var url: String

    @Argument(help: ArgumentHelp("Where to put the ledger (default: the ledger chosen by --repo, $LEDGER_REPO or $XDG_DATA_HOME/ledger).", valueName: "path"))
    var path: String?

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let ctx = CLIContext.current
        let target = path.map { ctx.absolutePath($0) } ?? global.repositoryPath()
        if let entries = try FileSystem.list(target), !entries.isEmpty {
            throw LedgerError.invalid("\(target) already exists and is not empty; choose a new directory")
        } else if FileSystem.exists(target), FileSystem.stamp(target)?.type != .directory {
            throw LedgerError.invalid("\(target) exists and is not a directory")
        }
        // A local path is cloned as given; relative ones against the working directory.
        let source = url.contains("://") || Self.looksLikeSCP(url) ? url : ctx.absolutePath(url)
        let existed = FileSystem.exists(target)
        let repo: Repository
        do {
            repo = try Repository.clone(source, to: target, options: try SyncEnvironment.transport())
        } catch {
            if !existed { try? FileManager.default.removeItem(atPath: target) }
            throw error
        }
        let store = GlobalOptions.store(at: target)
        let shown = Remote.redact(url)
        if shown != url {
            Console.error("ledger: the password in the URL stays in plain text in \(target)/.git/config (remote.origin.url); to keep it in a git credential helper instead, set one up (`git config --global credential.helper store`, or libsecret, cache, `gh auth setup-git`), run `git -C \(target) remote set-url origin \(Remote.withoutPassword(url))`, and sync once on a terminal to type it")
        }
        if repo.headCommit() == nil {
            let clock = try CommandClock.current()
            _ = try LedgerSetup.initialize(at: target, remote: nil, now: clock.now, signature: LedgerSetup.fallbackSignature())
            Console.print("Cloned \(shown) into \(target): the remote is empty, so this is a new ledger (branch main); `ledger sync` publishes it.")
        } else {
            try LedgerSetup.registerMergeDriver(repo)
            Console.print("Cloned \(shown) into \(target) (branch \(repo.headReferenceName.map { String($0.dropFirst(11)) } ?? "main")).")
        }
        _ = try Device.current(in: store, defaultName: Device.hostName)
        let report = try Checker(store: store).check()
        if report.problems.isEmpty {
            Console.print("Checked \(Output.plural(report.filesChecked, "file")): no problems.")
        } else {
            for p in report.problems { Console.print(p.commandLineDescription) }
            Console.print("Checked \(Output.plural(report.filesChecked, "file")): \(Output.plural(report.errorCount, "error")), \(Output.plural(report.warningCount, "warning")); `ledger check` shows them again.")
        }
    }

    /// `user@host:path` (scp-like ssh).
    static func looksLikeSCP(_ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":") else { return false }
        return !url[..<colon].contains("/") && url[..<colon].count > 1
    }
}
