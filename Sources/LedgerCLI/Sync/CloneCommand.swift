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

    @Argument(help: ArgumentHelp("Where to put the ledger (default: the ledger chosen by --repo, $LEDGER_REPO or $XDG_DATA_HOME/ledger).", valueName: "path"), completion: .directory)
    var path: String?

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let ctx = CLIContext.current
        let target = path.map { ctx.absolutePath($0) } ?? global.repositoryPath()
        // A local path is cloned as given; relative ones against the working directory.
        let source = url.contains("://") || Self.looksLikeSCP(url) ? url : ctx.absolutePath(url)
        let shown = Remote.redact(url)
        var interrupted = InterruptedClone.none
        if let entries = try FileSystem.list(target), !entries.isEmpty {
            interrupted = InterruptedClone(at: target, of: source, entries: entries.map(\.name))
            if case .none = interrupted {
                throw LedgerError.invalid("\(target) already exists and is not empty; choose a new directory")
            }
        } else if FileSystem.exists(target), FileSystem.stamp(target)?.type != .directory {
            throw LedgerError.invalid("\(target) exists and is not a directory")
        }
        if case .resumable(let repo) = interrupted {
            try finish(repo, shown: shown)
            return
        }
        if case .startOver = interrupted {
            // Nothing of it can be used (no commit arrived): cloned again from the start.
            try FileManager.default.removeItem(atPath: target + "/.git")
            Console.error("ledger: \(target) held a clone of \(shown) interrupted before anything arrived; cloning it again")
        }
        let existed = FileSystem.exists(target)
        let repo: Repository
        var broughtBack: LedgerError?
        do {
            repo = try Repository.clone(source, to: target, options: try SyncEnvironment.transport()) { r in
                try LedgerSetup.registerMergeDriver(r)
                // What a purge removed is never checked out (see `ledger purge`).
                broughtBack = try PurgeGuard.keepNothingBack(r, remote: "origin (\(shown))", git: GitTool.find(in: CLIContext.current.environment))
            }
        } catch {
            if !existed { try? FileManager.default.removeItem(atPath: target) }
            throw error
        }
        let store = GlobalOptions.store(at: target)
        if shown != url {
            Console.error("ledger: the password in the URL stays in plain text in \(target)/.git/config (remote.origin.url); to keep it in a git credential helper instead, set one up (`git config --global credential.helper store`, or libsecret, cache, `gh auth setup-git`), run `git -C \(target) remote set-url origin \(Remote.withoutPassword(url))`, and sync once on a terminal to type it")
        }
        let files = try repo.headCommit().map { try repo.diff(from: nil, to: repo.treeOf(commit: $0)).map(\.path) }
        if repo.headCommit() == nil {
            let clock = try CommandClock.current()
            _ = try LedgerSetup.initialize(at: target, remote: nil, now: clock.now, signature: LedgerSetup.fallbackSignature())
            Console.print("Cloned \(shown) into \(target): the remote is empty, so this is a new ledger (branch main); `ledger sync` publishes it.")
        } else if let files, !files.contains("ledger.json") {
            // No ledger there: a new repository's files get one on top; anything else is not
            // what a ledger's remote holds, and nothing of the clone is kept.
            guard let few = LedgerSetup.newRepositoryFiles(files) else {
                for entry in try FileSystem.list(target) ?? [] { try FileManager.default.removeItem(atPath: target + "/" + entry.name) }
                if !existed { try FileManager.default.removeItem(atPath: target) }
                throw LedgerError.invalid("\(shown) holds no ledger (no ledger.json) but \(LedgerSetup.otherRepository(files)); nothing was cloned: clone a ledger's remote, or an empty repository for a new ledger")
            }
            let clock = try CommandClock.current()
            try LedgerSetup.initialize(onTopOf: repo, now: clock.now, signature: LedgerSetup.fallbackSignature())
            Console.print("Cloned \(shown) into \(target): the remote holds no ledger yet, only \(few.joined(separator: ", ")), so this is a new ledger on top of its history (branch main); `ledger sync` publishes it.")
        } else {
            Console.print("Cloned \(shown) into \(target) (branch \(repo.headReferenceName.map { String($0.dropFirst(11)) } ?? "main")).")
        }
        _ = try Device.current(in: store, defaultName: Device.hostName)
        // Its configuration (the remote, the merge driver) on the disk before it says "cloned".
        Durability.flush(gitDirectory: repo.gitDirectory)
        try checkClone(store)
        if let broughtBack { throw broughtBack }
    }

    /// Finishes a clone of the same remote that was interrupted (killed, or cut by a power
    /// loss) after its commit arrived: repairs what the cut left, writes the files the
    /// checkout had not written yet, registers the merge driver. A clone that was whole is
    /// left as it is.
    func finish(_ repo: Repository, shown: String) throws {
        let store = GlobalOptions.store(at: repo.workdir)
        let notes = try store.withWriterLock { () -> [String] in
            var notes = try RepositoryRepair.repairLedger(repo)
            if let head = repo.headCommit(), !FileSystem.exists(repo.gitDirectory + "/index") {
                try repo.populateWorkTree(from: repo.treeOf(commit: head))
                notes.append("wrote the files the interrupted checkout had not written")
            }
            if repo.config("merge.ledger.driver") == nil { try LedgerSetup.registerMergeDriver(repo) }
            _ = try Device.current(in: store, defaultName: Device.hostName)
            Durability.flush(gitDirectory: repo.gitDirectory)
            return notes
        }
        for note in notes { Console.error("ledger: " + note) }
        Console.print(notes.isEmpty ? "\(repo.workdir) already holds a clone of \(shown); nothing was missing (`ledger sync` brings it up to date)."
                                    : "Finished the interrupted clone of \(shown) into \(repo.workdir).")
        try checkClone(store)
    }

    /// `check` over what was received: problems are listed, the clone is kept either way.
    func checkClone(_ store: LedgerStore) throws {
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

/// What a non-empty target directory of `ledger clone` holds.
enum InterruptedClone {
    /// Something else: the clone is refused.
    case none
    /// Only the `.git` of a clone of the same remote that no commit reached, or of one whose
    /// configuration a power cut emptied before anything was checked out: cloned again.
    case startOver
    /// A clone of the same remote with its commit: finished where it stopped.
    case resumable(Repository)

    init(at target: String, of source: String, entries: [String]) {
        self = .none
        guard entries.contains(".git"), FileSystem.stamp(target + "/.git")?.type == .directory else { return }
        let repo = try? Repository.open(target)
        let origin = repo?.config("remote.origin.url")
        if let repo, origin == source, repo.headCommit() != nil || RepositoryRepair.historyExisted(gitDirectory: repo.gitDirectory, branch: "refs/heads/main") {
            self = .resumable(repo)
        } else if entries == [".git"], origin == source ? repo?.headCommit() == nil : (FileSystem.stamp(target + "/.git/config")?.size ?? 0) == 0 {
            self = .startOver
        }
    }
}
