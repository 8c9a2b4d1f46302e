import CGit2
import Foundation
import LedgerKit
import ProcessRunner

/// One thing `ledger doctor` looked at, and what to do about it.
package struct SetupFinding: Sendable, Hashable {
    package enum Status: String, Sendable, Comparable {
        /// As ledger expects.
        case ok
        /// A fact worth knowing (a version, no remote): not a problem.
        case info
        /// Works, but something will go wrong or is degraded.
        case warning
        /// Broken: a command or plain git will fail or misbehave.
        case error

        private var rank: Int { [.ok: 0, .info: 1, .warning: 2, .error: 3][self] ?? 0 }
        package static func < (a: Status, b: Status) -> Bool { a.rank < b.rank }
    }

    /// What was looked at: "merge driver", "remote".
    package var check: String
    package var status: Status
    /// What was found, one sentence (the commands it names worded by the front end).
    package var message: LedgerError.Sentence
    /// The command (or, where no one command does it, the edit) that fixes it.
    package var fix: String?

    package init(_ check: String, _ status: Status, _ message: LedgerError.Sentence, fix: String? = nil) {
        self.check = check
        self.status = status
        self.message = message
        self.fix = fix
    }

    package init(_ check: String, _ status: Status, _ message: String, fix: String? = nil) {
        self.init(check, status, LedgerError.Sentence(message), fix: fix)
    }
}

/// The git side of a ledger's setup, as `ledger doctor` reports it: what plain git and
/// `ledger sync` rely on and what no document check sees.
package enum SetupDoctor {
    /// The findings about the ledger at `root`: the repository, `.gitattributes`, the merge
    /// driver (its program found on `environment`'s `PATH`), filters, the remote (asked
    /// read-only for its branches when `probeRemote`), and the libgit2 and git versions.
    /// `ledgerExecutable` is the binary to name in a fix that registers the driver by path.
    package static func findings(root: String, transport: TransportOptions, ledgerExecutable: String?,
                                 probeRemote: Bool = true) -> [SetupFinding] {
        var out: [SetupFinding] = []
        let quotedRoot = shellQuoted(root)
        if !LedgerStore(gitWorkTree: root).exists || !Repository.exists(at: root) {
            out.append(SetupFinding("ledger", .error, "there is no ledger at \(root)",
                                    fix: "ledger init \(quotedRoot)   (or: ledger clone URL \(quotedRoot))"))
        } else if let repo = try? Repository.open(root) {
            out.append(SetupFinding("ledger", .ok, "a ledger at \(root), on branch \(repo.headReferenceName.map { $0.replacingOccurrences(of: "refs/heads/", with: "") } ?? "(none)")"))
            out += attributeFindings(repo, quotedRoot: quotedRoot)
            out.append(mergeDriverFinding(repo, searchPath: transport.environment["PATH"] ?? "", ledgerExecutable: ledgerExecutable, quotedRoot: quotedRoot))
            out.append(remoteFinding(repo, transport: transport, probe: probeRemote, quotedRoot: quotedRoot))
        } else {
            out.append(SetupFinding("ledger", .error, "\(root) holds a ledger.json but git cannot open its repository",
                                    fix: "git -C \(quotedRoot) status   (shows what git finds wrong)"))
        }
        out += versionFindings(environment: transport.environment)
        return out
    }

    // MARK: - .gitattributes

    /// Whether `.gitattributes` sends `*.json` to the ledger merge driver, and the filter
    /// drivers git would run on the ledger's files (`Repository.filterUses`, the rule sync
    /// refuses by).
    static func attributeFindings(_ repo: Repository, quotedRoot: String) -> [SetupFinding] {
        var out: [SetupFinding] = []
        var merge: String?
        let text = (try? FileSystem.read(repo.workdir + "/.gitattributes", limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let pattern = words.first, pattern == "*.json" || pattern == "*" else { continue }
            for attribute in words.dropFirst() where attribute.hasPrefix("merge") || attribute == "-merge" || attribute == "!merge" {
                merge = attribute
            }
        }
        if merge == "merge=ledger" {
            out.append(SetupFinding(".gitattributes", .ok, "*.json merges through the ledger merge driver"))
        } else if !FileSystem.exists(repo.workdir + "/.gitattributes") {
            out.append(SetupFinding(".gitattributes", .error, "there is no .gitattributes, so plain git merges documents line by line and may write conflict markers into JSON",
                                    fix: "ledger init \(quotedRoot)   (restores it)"))
        } else {
            let said = merge.map { "sends *.json to \($0) instead of merge=ledger" } ?? "does not send *.json to the ledger merge driver (*.json merge=ledger)"
            out.append(SetupFinding(".gitattributes", .error, ".gitattributes \(said), so plain git merges documents line by line and may write conflict markers into JSON",
                                    fix: "echo '*.json merge=ledger' >> \(shellQuoted(repo.workdir + "/.gitattributes"))"))
        }
        return out + filterFindings(repo, quotedRoot: quotedRoot)
    }

    /// The filter drivers git would run on the ledger's files, each an error since sync
    /// refuses then (one finding saying so when there are none). The attributes are git's
    /// (`.gitattributes` at any depth, `.git/info/attributes`, `core.attributesFile`); a
    /// filter they name but no configuration defines is no filter, for git as for sync.
    static func filterFindings(_ repo: Repository, quotedRoot: String) -> [SetupFinding] {
        let uses: [FilterUse]
        do {
            uses = try repo.filterUses(changes: repo.workTreeChanges())
        } catch {
            let said = (error as? LedgerError)?.message ?? "\(error)"
            return [SetupFinding("filter", .warning, "the filters git would run on the ledger's files cannot be told: \(said)",
                                 fix: "git -C \(quotedRoot) check-attr -a -- ledger.json   (shows git's own view)")]
        }
        guard !uses.isEmpty else {
            return [SetupFinding("filter", .ok, "no filter driver applies to the ledger's files, so \(next: .sync(.sync)) stores them as git does")]
        }
        return uses.map { use in
            SetupFinding("filter", .error, use.syncRefusal, fix: """
                take filter=\(use.filter) out of the attributes that set it for \(use.path) (.gitattributes, .git/info/attributes \
                or the file core.attributesFile names); to keep the ledger encrypted, use an encrypted remote instead (gcrypt::, \
                "Encrypted remote" in the README)
                """)
        }
    }

    // MARK: - Merge driver

    /// Whether git would run ledger as the merge driver: registered, and its program found.
    static func mergeDriverFinding(_ repo: Repository, searchPath: String, ledgerExecutable: String?, quotedRoot: String) -> SetupFinding {
        guard let command = repo.config("merge.ledger.driver"), !command.isEmpty else {
            return SetupFinding("merge driver", .error, "git has no ledger merge driver registered (merge.ledger.driver), so a plain `git pull` cannot merge documents changed on both sides",
                                fix: "ledger init \(quotedRoot)   (registers it)")
        }
        let program = command.split(separator: " ").first.map(String.init) ?? ""
        let found = program.contains("/")
            ? (access(program.hasPrefix("/") ? program : repo.workdir + "/" + program, X_OK) == 0 ? program : nil)
            : ProgramPath.find(program, path: searchPath)
        if let found {
            return SetupFinding("merge driver", .ok, "git runs `\(command)` (\(found))")
        }
        let byPath = (ledgerExecutable ?? "/path/to/ledger") + " merge-driver %O %A %B %P"
        return SetupFinding("merge driver", .error, """
            git runs `\(command)` to merge documents, but \(program) is not on the PATH, so a plain `git pull` fails on documents \
            changed on both sides
            """, fix: "make install   (puts ledger on the PATH; or register it by path: git -C \(quotedRoot) config merge.ledger.driver '\(byPath)')")
    }

    // MARK: - Remote

    /// The remote `main` syncs with: configured, of a kind ledger can reach, and answering.
    static func remoteFinding(_ repo: Repository, transport: TransportOptions, probe: Bool, quotedRoot: String) -> SetupFinding {
        let branch = repo.headReferenceName.map { $0.replacingOccurrences(of: "refs/heads/", with: "") } ?? "main"
        let name = repo.config("branch.\(branch).remote") ?? "origin"
        guard let url = repo.config("remote.\(name).url"), !url.isEmpty else {
            return SetupFinding("remote", .info, "no remote: this ledger syncs with nothing (everything works offline)",
                                fix: "git -C \(quotedRoot) remote add origin URL   (then ledger sync)")
        }
        let shown = Remote.redact(url)
        // `helper::address` remotes go through git's remote helper, as sync takes them: a
        // finding only when the helper is not installed; other schemes libgit2 cannot reach.
        if let helper = RemoteHelper.transport(of: url) {
            if let missing = RemoteHelper.missingProgram(helper, environment: transport.environment) {
                let install = helper == "gcrypt" ? "sudo apt-get install git-remote-gcrypt" : "install git-remote-\(helper)"
                return SetupFinding("remote", .error, "\(name) is \(shown): \(missing)",
                                    fix: "\(install), or git -C \(quotedRoot) remote set-url \(name) URL")
            }
        } else if let scheme = unreachableScheme(url) {
            return SetupFinding("remote", .error, """
                \(name) is \(shown), a URL for git's remote helper git-remote-\(scheme), which ledger's git library (libgit2) cannot run
                """, fix: "git -C \(quotedRoot) remote set-url \(name) URL   (an ssh, https or path remote, or helper::address)")
        }
        guard probe else { return SetupFinding("remote", .info, "\(name) is \(shown) (not asked)") }
        do {
            let heads = try Remote(repo, url: url, name: name).heads(options: transport)
            let tip = heads["refs/heads/" + branch].map { "\(branch) is at \($0.description.prefix(7)) there" } ?? "it has no \(branch) branch yet"
            return SetupFinding("remote", .ok, "\(name) (\(shown)) answered: \(tip)")
        } catch {
            let said = (error as? LedgerError)?.message ?? "\(error)"
            if let path = Remote.missingLocalPath(url) {
                return SetupFinding("remote", .error, "\(name) (\(shown)) cannot be reached: \(said)",
                                    fix: "git init --bare -b main \(shellQuoted(path))   (a new remote there; mount the disk if it is on one, or point at another: git -C \(quotedRoot) remote set-url \(name) URL)")
            }
            return SetupFinding("remote", .error, "\(name) (\(shown)) cannot be reached: \(said)",
                                fix: "git -C \(quotedRoot) ls-remote \(name)   (shows git's own view; ledger sync keeps working offline meanwhile)")
        }
    }

    /// The scheme of a `scheme://` URL libgit2 does not reach itself (git would run
    /// `git-remote-<scheme>` for it), or nil.
    static func unreachableScheme(_ url: String) -> String? {
        if let range = url.range(of: "://") {
            let scheme = url[..<range.lowerBound].lowercased()
            return ["file", "ssh", "git", "http", "https", "git+ssh", "ssh+git"].contains(scheme) ? nil : scheme
        }
        return nil
    }

    // MARK: - Versions

    /// libgit2's version, and git's (missing: its credential helpers and `git gc` are out of reach).
    static func versionFindings(environment: [String: String]) -> [SetupFinding] {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        git_libgit2_version(&major, &minor, &patch)
        var out = [SetupFinding("libgit2", .info, "libgit2 \(major).\(minor).\(patch)")]
        if let git = GitTool.find(in: environment), let run = try? git.capture(["--version"], in: "/"), run.status == 0 {
            out.append(SetupFinding("git", .info, run.output.trimmingWhitespace(newlines: true) + " (\(git.executable))"))
        } else {
            out.append(SetupFinding("git", .warning, "git is not on the PATH: ledger syncs without it, but git's credential helpers (HTTPS passwords) and repository maintenance need it",
                                    fix: "sudo apt-get install git"))
        }
        return out
    }

    /// `path` quoted for a POSIX shell when it needs it; a word holding a control character
    /// (a newline, a tab) as `$'…'` with escapes (bash, zsh, ksh and POSIX.1-2024 sh), since
    /// pasted inside '…' it would not survive a terminal's line editing.
    package static func shellQuoted(_ path: String) -> String {
        if path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            var out = "$'"
            for s in path.unicodeScalars {
                switch s {
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\\", "'": out += "\\" + String(s)
                case _ where s.properties.generalCategory == .control:
                    let hex = String(s.value, radix: 16)
                    out += s.value < 0x80 ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(s)
                }
            }
            return out + "'"
        }
        return path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:@%=,".contains($0) } ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
