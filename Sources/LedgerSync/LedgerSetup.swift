import CGit2
import Foundation
import LedgerKit
import ProcessRunner

/// Creating a ledger repository, and the git-level facts `ledger status` shows.
public enum LedgerSetup {
    /// `.gitattributes`: every document merges through the `ledger` merge driver (SPEC §6).
    public static let gitattributes = """
        # ledger: JSON documents merge with ledger's rules (see `ledger merge-driver`)
        *.json merge=ledger

        """

    /// `.gitignore`: editor swap files and auto-saves, backups and interrupted writes are never
    /// synced. (`\#*#`: Emacs's auto-save of a buffer with unsaved edits, `#<id>.json#`; the
    /// backslash keeps git from reading the line as a comment.)
    public static let gitignore = """
        # ledger: hidden files (editor swap files, interrupted writes) and backups are not data
        .*
        !.gitignore
        !.gitattributes
        *~
        *.orig
        *.rej
        *.bak
        \\#*#

        """

    /// The patterns `gitignore` gained after ledgers were first made with it, batch by batch,
    /// each with what it keeps out; `upgradeGitignore` adds them to those ledgers.
    static let gitignoreAdditions: [(patterns: [String], what: String)] = [
        (["*.orig", "*.rej", "*.bak"], "merge tools' backups"),
        (["\\#*#"], "Emacs's auto-save files"),
    ]

    /// `.gitignore`'s text with the `gitignoreAdditions` it lacks, what was added, and what
    /// that keeps out; nil when it needs nothing. Only a ledger's own block (from its first line,
    /// `# ledger: …`, to the first blank line) is upgraded, and with a batch only while it
    /// holds none of the batch's patterns (a block holding some was upgraded already, or edited
    /// by its owner). The missing lines go at the block's end, so the owner's later lines
    /// (`!keep.bak`) keep their precedence; nothing is reordered or removed, and a pattern the
    /// file already has anywhere is not repeated.
    static func upgradedGitignore(_ text: String) -> (text: String, added: [String], what: [String])? {
        let header = gitignore.prefix { $0 != "\n" }
        // Split on scalars: to Swift's strings, a CRLF is one character, not a "\n".
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
        let pattern = { (line: String) in line.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard let start = lines.firstIndex(where: { pattern($0) == header }) else { return nil }
        let end = lines[(start + 1)...].firstIndex { pattern($0).isEmpty } ?? lines.count
        let block = Set(lines[start..<end].map(pattern)), present = Set(lines.map(pattern))
        let batches = gitignoreAdditions.filter { batch in !batch.patterns.contains(where: block.contains) }
            .map { (patterns: $0.patterns.filter { !present.contains($0) }, what: $0.what) }
            .filter { !$0.patterns.isEmpty }
        guard !batches.isEmpty else { return nil }
        let added = batches.flatMap(\.patterns)
        let newline = lines[start].hasSuffix("\r") ? "\r" : ""
        lines.insert(contentsOf: added.map { $0 + newline }, at: end)
        return (lines.joined(separator: "\n"), added, batches.map(\.what))
    }

    /// Adds to the `.gitignore` of the ledger at `workTree` the patterns its block lacks
    /// (`upgradedGitignore`), in the work tree: the next sync commits it like any change a
    /// command made. Returns a sentence saying what was added, or nil.
    package static func upgradeGitignore(workTree: String) -> String? {
        guard let bytes = try? FileSystem.read(workTree + "/.gitignore", limit: 1 << 20),
              let upgrade = upgradedGitignore(String(decoding: bytes, as: UTF8.self)),
              (try? FileSystem.writeAtomically(".gitignore", under: workTree, Array(upgrade.text.utf8))) != nil
        else { return nil }
        return "added \(upgrade.added.joined(separator: ", ")) to .gitignore (\(upgrade.what.joined(separator: " and ")), which ledgers now leave out of sync)"
    }

    /// The command git runs as the `ledger` merge driver.
    public static let mergeDriverCommand = "ledger merge-driver %O %A %B %P"

    /// What `initialize` did.
    public enum Outcome: Sendable, Equatable {
        /// A new ledger was created, with its first commit.
        case created
        /// The directory already was a ledger; missing setup (attributes, driver, remote) was
        /// restored, as `restored` says (one phrase each; empty when all was in place).
        case alreadyInitialized(restored: [String])
    }

    /// Creates a ledger at `path` (SPEC §7 `ledger init`): a git repository on branch `main`,
    /// `ledger.json` and each app's defaults, `.gitattributes`, `.gitignore`, the merge driver
    /// in `.git/config`, the remote `origin` when given, and a first commit. Idempotent on an
    /// existing ledger; refuses a non-empty directory that is not one.
    package static func initialize(at path: String, remote: String?, now: Timestamp, signature: Signature) throws -> Outcome {
        let store = LedgerStore(gitWorkTree: path)
        if store.exists {
            guard Repository.exists(at: path) else {
                throw LedgerError.invalid("\(path) has a ledger.json but is not a git repository; run `git init -b main` there, then \(next: .createLedger) again")
            }
            let repo = try Repository.open(path)
            let restored = try configure(repo, remote: remote)
            Durability.flush(gitDirectory: repo.gitDirectory)
            return .alreadyInitialized(restored: restored)
        }
        if let entries = try FileSystem.list(path) {
            let emptyGitRepo = entries.map(\.name) == [".git"] && Repository.exists(at: path)
                && (try? Repository.open(path).headCommit()) == .some(nil)
            guard entries.isEmpty || emptyGitRepo else {
                throw LedgerError.invalid("\(path) is not empty and is not a ledger; choose an empty or new directory (ledger will not take over existing files)")
            }
        } else if FileSystem.exists(path) {
            throw LedgerError.invalid("\(path) exists and is not a directory")
        }
        let repo = Repository.exists(at: path) ? try Repository.open(path) : try Repository.initialize(at: path, initialBranch: "main")
        try create(repo, store, remote: remote, now: now, signature: signature)
        return .created
    }

    /// The files of a repository that is new rather than a ledger — at most five, none in a
    /// folder (what a hosting service's "add a README, a licence, a .gitignore" makes), sorted —
    /// or nil. Such a remote gets a ledger on top of its history (`ledger clone`, `ledger sync`).
    package static func newRepositoryFiles(_ paths: [String]) -> [String]? {
        paths.count <= 5 && !paths.contains { $0.contains("/") } ? paths.sorted() : nil
    }

    /// "12 files of another repository (a, b, c, …)": what a remote holds instead of a ledger.
    package static func otherRepository(_ paths: [String]) -> String {
        "\(paths.count) files of another repository (" + paths.prefix(3).joined(separator: ", ") + (paths.count > 3 ? ", …)" : ")")
    }

    /// Makes a ledger in a clone of a new repository (`newRepositoryFiles`), on top of its
    /// history: as `initialize` does, its own `.gitignore` and `.gitattributes` getting ledger's
    /// lines at their end.
    package static func initialize(onTopOf repo: Repository, now: Timestamp, signature: Signature) throws {
        try create(repo, LedgerStore(gitWorkTree: repo.workdir), remote: nil, now: now, signature: signature)
    }

    /// The setup files a new ledger has at its root, by name, with their text.
    static let setupFiles = [(".gitattributes", gitattributes), (".gitignore", gitignore)]

    /// A repository's own setup file (`existing`, the text of a `.gitignore` or `.gitattributes`)
    /// with a new ledger's `text` at its end, a blank line between: what a ledger made on top of
    /// a new repository has, whether `ledger clone` made it there or `ledger sync` took a new
    /// ledger onto it (`joinedSetupFile`).
    static func appending(_ text: String, to existing: String) -> String {
        existing.isEmpty ? text : existing + (existing.hasSuffix("\n") ? "\n" : "\n\n") + text
    }

    /// The setup file at `path` (`.gitignore`, `.gitattributes`) when one side holds it as a new
    /// ledger has it and the other side, with no history in common, holds its own (a ledger
    /// synced onto a new repository): the other's with the ledger's lines at its end, as
    /// `ledger clone` of that repository would have made it; nil for any other file.
    package static func joinedSetupFile(_ path: String, ours: [UInt8], theirs: [UInt8]) -> [UInt8]? {
        guard let text = setupFiles.first(where: { $0.0 == path })?.1 else { return nil }
        let own = Array(text.utf8)
        guard ours == own || theirs == own else { return nil }
        return Array(appending(text, to: String(decoding: ours == own ? theirs : ours, as: UTF8.self)).utf8)
    }

    /// Writes a new ledger's documents and setup files into `repo`'s work tree and commits them.
    static func create(_ repo: Repository, _ store: LedgerStore, remote: String?, now: Timestamp, signature: Signature) throws {
        try store.create(now: now)
        for (name, text) in setupFiles {
            let path = repo.workdir + "/" + name
            let existing = try FileSystem.read(path, limit: 1 << 20).map { String(decoding: $0, as: UTF8.self) } ?? ""
            try FileSystem.writeAtomically(path, Array(appending(text, to: existing).utf8))
        }
        _ = try configure(repo, remote: remote)
        try repo.commitAll(message: "ledger: new ledger", signature: repo.signature(fallback: signature))
        Durability.flush(gitDirectory: repo.gitDirectory)
    }

    /// Registers the merge driver and the remote (refusing to silently change an existing
    /// one); returns what it had to restore or add.
    static func configure(_ repo: Repository, remote: String?) throws -> [String] {
        var done: [String] = []
        if repo.config("merge.ledger.driver") != mergeDriverCommand { done.append("registered the merge driver in .git/config") }
        try registerMergeDriver(repo)
        let attributesPath = repo.workdir + "/.gitattributes"
        if !FileSystem.exists(attributesPath) {
            try FileSystem.writeAtomically(attributesPath, Array(gitattributes.utf8))
            done.append("restored .gitattributes")
        }
        if let upgraded = upgradeGitignore(workTree: repo.workdir) { done.append(upgraded) }
        guard let remote else { return done }
        if let existing = repo.config("remote.origin.url") {
            guard existing == remote else {
                throw LedgerError.invalid("this ledger's remote origin is already \(existing); change it with `git -C \(repo.workdir) remote set-url origin \(remote)`")
            }
            return done
        }
        try repo.setConfig("remote.origin.url", remote)
        try repo.setConfig("remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*")
        try repo.setConfig("branch.main.remote", "origin")
        try repo.setConfig("branch.main.merge", "refs/heads/main")
        done.append("added the remote origin \(Remote.redact(remote))")
        return done
    }

    /// Registers `ledger merge-driver` as the `ledger` merge driver in the repository's config,
    /// so that plain `git merge` and `git pull` merge documents the way `ledger sync` does.
    package static func registerMergeDriver(_ repo: Repository) throws {
        try repo.setConfig("merge.ledger.name", "ledger: merge JSON documents by kind")
        try repo.setConfig("merge.ledger.driver", mergeDriverCommand)
    }

    /// A signature for machines without `user.name`/`user.email`: the device's host name.
    package static func fallbackSignature() -> Signature {
        Signature(name: "ledger on \(Device.hostName)", email: "ledger@\(Device.hostName)")
    }

    /// Why plain git would not run ledger's merge driver although `.gitattributes` sends
    /// documents to it (then its `git pull` writes conflict markers into JSON), or nil when it
    /// would (or when `workTree` is not a git repository). `searchPath` is the `PATH` git runs
    /// the driver's command with. The repository is opened only when its own configuration
    /// file does not name the driver (`Housekeeping.configuredDriver`).
    package static func mergeDriverProblem(workTree: String, searchPath: String) -> String? {
        let attributes = (try? FileSystem.read(workTree + "/.gitattributes", limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let namesDriver = attributes.split(separator: "\n").contains { line in
            !line.hasPrefix("#") && line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().contains("merge=ledger")
        }
        guard namesDriver, FileSystem.exists(workTree + "/.git") else { return nil }
        let configured = Housekeeping.configuredDriver(LedgerStore.gitDirectory(ofWorkTree: workTree))
        guard let command = configured ?? (try? Repository.open(workTree))?.config("merge.ledger.driver") else {
            return "it sends documents to the ledger merge driver, but git has none registered (merge.ledger.driver), so a plain `git pull` would write conflict markers into JSON; any ledger command run in this ledger registers it"
        }
        guard let program = command.split(separator: " ").first.map(String.init), !program.isEmpty else {
            return "it sends documents to the ledger merge driver, but merge.ledger.driver is empty; set it with `git config merge.ledger.driver '\(mergeDriverCommand)'`"
        }
        let found = program.contains("/")
            ? access(program.hasPrefix("/") ? program : workTree + "/" + program, X_OK) == 0
            : ProgramPath.find(program, path: searchPath) != nil
        guard !found else { return nil }
        return "it sends documents to the ledger merge driver, but git would not find \(program) (merge.ledger.driver runs `\(command)`), so a plain `git pull` would fail on documents changed on both sides; put ledger on your PATH (`make install`), or register its full path with `git config merge.ledger.driver '/path/to/ledger merge-driver %O %A %B %P'`"
    }
}

/// Git facts about a ledger for `ledger status`.
public struct RepositoryStatus: Sendable {
    /// The branch HEAD is on (`main`).
    public var branch: String?
    /// Files changed since the last commit (work tree and index).
    public var uncommitted: [String]
    /// The remote HEAD is compared with (`upstream`), when there is one.
    public var remoteName: String?
    public var remoteURL: String?
    /// The remote-tracking branch the counts are against (`origin/main`), as git counts them:
    /// the upstream of HEAD's branch, else the ledger's branch on its remote (for a detached
    /// HEAD, or a branch that tracks nothing).
    public var upstream: String?
    /// Commits not yet pushed and not yet merged, as of the last fetch; nil without a remote
    /// branch to compare with.
    public var ahead: Int?
    public var behind: Int?
    /// Whether `ledger sync` syncs where HEAD is: false on a detached HEAD or another branch
    /// than the ledger's (then said in `unsupported`).
    public var syncsHead = true
    /// This clone's name and id in commit messages.
    public var device: Device
    /// A git operation waiting for the user (a merge with conflicts, a rebase), which
    /// `ledger sync` refuses to run through.
    package var operation: Repository.Operation?
    /// The conflict files in the work tree, found through git (`ConflictStore.list(files:)`
    /// takes them instead of listing every folder).
    package var conflictFiles: [String] = []
    /// What keeps `ledger sync` from working on this setup, one sentence each: a filter driver
    /// git would run on the ledger's files (`FilterUse`), a remote helper that is not installed.
    package var unsupported: [LedgerError.Sentence] = []

    /// Reads the status of the ledger repository at `path`; `environment` (the command's) says
    /// where git's remote helpers are found.
    public static func read(at path: String, environment: [String: String]) throws -> RepositoryStatus {
        let repo = try Repository.open(path)
        let branch = branchName(repo)
        let device = try Device.current(in: LedgerStore(gitWorkTree: path), defaultName: Device.hostName)
        let changes = try repo.workTreeChanges()
        var status = RepositoryStatus(branch: branch, uncommitted: changes.map(\.path), device: device,
                                      operation: repo.operationInProgress)
        status.conflictFiles = try repo.conflictFiles(changes: changes)
        let compared = comparedWith(repo, branch: branch)
        if let compared {
            status.remoteName = compared.remote
            status.remoteURL = repo.config("remote.\(compared.remote).url")
            status.upstream = "\(compared.remote)/\(compared.branch)"
        }
        let head = try headProblem(repo, root: path, changes: changes)
        status.syncsHead = head == nil
        status.unsupported = try unsupported(repo, head: head, changes: changes, remoteURL: status.remoteURL, environment: environment)
        if let compared, let local = repo.headCommit() {
            if let upstream = repo.resolve("refs/remotes/\(compared.remote)/\(compared.branch)") {
                (status.ahead, status.behind) = try repo.aheadBehind(local, upstream)
            } else {
                status.ahead = (try? repo.commitCount(from: local)) ?? nil
                status.behind = 0
            }
        }
        return status
    }

    /// The remote branch HEAD is counted against, as `git status` counts it: the upstream of
    /// HEAD's branch (`branch.<name>.remote` and `.merge`), else — for a detached HEAD or a
    /// branch that tracks nothing — the ledger's branch on its remote.
    static func comparedWith(_ repo: Repository, branch: String?) -> (remote: String, branch: String)? {
        if let branch, let remote = repo.config("branch.\(branch).remote"), remote != ".",
           let merged = SyncTarget.upstreamBranch(repo, of: branch) {
            return (remote, merged)
        }
        guard let ledger = SyncTarget.ledgerBranch(repo) ?? branch, let remote = remoteName(repo, branch: ledger) else { return nil }
        return (remote, SyncTarget.upstreamBranch(repo, of: ledger) ?? ledger)
    }

    /// Whether the ledger repository at `path` has changes since its last commit (`read`'s
    /// `uncommitted` is not empty), without the rest of `read`: the device, the conflict files,
    /// the commits ahead and behind (a walk of the whole history without a remote branch).
    package static func hasUncommittedChanges(at path: String) throws -> Bool {
        try !Repository.open(path).workTreeChanges().isEmpty
    }

    /// `unsupported` alone (what keeps `ledger sync` from working on the ledger at `path`),
    /// for a command that says only that: no device, conflicts or commit counts are read.
    package static func syncObstacles(at path: String, environment: [String: String]) throws -> [LedgerError.Sentence] {
        let repo = try Repository.open(path)
        let remoteURL = comparedWith(repo, branch: branchName(repo)).flatMap { repo.config("remote.\($0.remote).url") }
        let changes = try repo.workTreeChanges()
        return try unsupported(repo, head: headProblem(repo, root: path, changes: changes), changes: changes, remoteURL: remoteURL, environment: environment)
    }

    /// HEAD's branch (`main`).
    static func branchName(_ repo: Repository) -> String? {
        repo.headReferenceName.map { $0.hasPrefix("refs/heads/") ? String($0.dropFirst(11)) : $0 }
    }

    /// The remote `branch` tracks, else `origin` when there is one.
    static func remoteName(_ repo: Repository, branch: String) -> String? {
        repo.config("branch.\(branch).remote") ?? (repo.config("remote.origin.url") != nil ? "origin" : nil)
    }

    /// Where HEAD is when `ledger sync` refuses it there (detached, on another branch:
    /// `SyncTarget.headProblem`) — unless git is in the middle of an operation (a rebase
    /// detaches HEAD), which is said on its own with git's ways out.
    static func headProblem(_ repo: Repository, root: String, changes: [PathChange]) throws -> LedgerError.Sentence? {
        repo.operationInProgress == nil ? try SyncTarget.headProblem(repo, root: root, changes: changes) : nil
    }

    /// `head` (`headProblem`), a filter driver git would run on the ledger's files
    /// (`FilterUse`), and the remote's helper when it is not installed.
    static func unsupported(_ repo: Repository, head: LedgerError.Sentence?, changes: [PathChange], remoteURL: String?,
                            environment: [String: String]) throws -> [LedgerError.Sentence] {
        var out = head.map { [$0] } ?? []
        out += try repo.filterUses(changes: changes).map(\.syncRefusal)
        if let remoteURL, let transport = RemoteHelper.transport(of: remoteURL),
           let missing = RemoteHelper.missingProgram(transport, environment: environment) {
            out.append(LedgerError.Sentence(missing))
        }
        return out
    }
}

extension Repository {
    /// The number of commits reachable from `commit`.
    func commitCount(from commit: ObjectID) throws -> Int {
        var walk: OpaquePointer?
        try check(git_revwalk_new(&walk, pointer), "git_revwalk_new")
        defer { git_revwalk_free(walk) }
        var oid = commit.raw
        try check(git_revwalk_push(walk, &oid), "git_revwalk_push")
        var n = 0
        var next = git_oid()
        while git_revwalk_next(&next, walk) == 0 { n += 1 }
        return n
    }
}
