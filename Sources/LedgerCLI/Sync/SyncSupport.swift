import Foundation
import LedgerKit
import LedgerSync
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What clone and sync take from the command's surroundings: credentials, trust, progress
/// and the testing aid `LEDGER_SYNC_KILL_AT`.
enum SyncEnvironment {
    /// Transport options from the environment, which LedgerSync reads as git would (its
    /// configuration files, `GIT_SSH_COMMAND`, the credential helpers…); plus
    /// `LEDGER_HTTP_USER`/`LEDGER_HTTP_PASSWORD`, `LEDGER_NETWORK_TIMEOUT`, and a progress
    /// line on stderr when stdout is a terminal.
    static func transport() throws -> TransportOptions {
        let ctx = CLIContext.current
        let env = ctx.environment
        var progress: ((TransferProgress) -> Void)?
        if ctx.stdoutIsTerminal {
            let line = ProgressLine()
            progress = { line.update($0) }
        }
        for name in ["LEDGER_SSH_KEY", "LEDGER_SSH_PASSPHRASE"] where !(env[name] ?? "").isEmpty {
            Console.error("ledger: \(name) is no longer read: ssh runs through your OpenSSH client, so name the key with IdentityFile in ~/.ssh/config (or GIT_SSH_COMMAND=\"ssh -i KEY\") and let ssh-agent or ssh's prompt unlock it")
        }
        var options = TransportOptions(environment: env, httpUser: env["LEDGER_HTTP_USER"], httpPassword: env["LEDGER_HTTP_PASSWORD"],
                                       progress: progress)
        if let text = env["LEDGER_NETWORK_TIMEOUT"], !text.isEmpty {
            guard let seconds = NumberText.decimal(text), seconds.isFinite, seconds >= 0 else {
                throw LedgerError.usage("LEDGER_NETWORK_TIMEOUT must be a number of seconds (0 waits forever), not \"\(text)\"")
            }
            options.stallTimeout = seconds
        }
        return options
    }

    /// A testing aid: when `LEDGER_SYNC_KILL_AT` names a checkpoint (`after-commit`,
    /// `during-fetch`, … see `SyncCheckpoint`), the process kills itself with SIGKILL there,
    /// to prove that a crash at that point loses nothing.
    static func checkpoint() -> (SyncCheckpoint) -> Void { killer(at: "LEDGER_SYNC_KILL_AT") }

    /// Kills the process with SIGKILL at the point the environment variable `variable` names.
    static func killer<Point: RawRepresentable<String>>(at variable: String) -> (Point) -> Void {
        guard let target = CLIContext.current.environment[variable], !target.isEmpty else { return { _ in } }
        let out = CLIContext.current.stdout, err = CLIContext.current.stderr
        return { point in
            guard point.rawValue == target else { return }
            out.flush()
            err.flush()
            kill(getpid(), SIGKILL)
        }
    }
}

/// "Receiving objects:  45% (450/1000), 1.2 MiB" on stderr, rewritten in place.
final class ProgressLine: @unchecked Sendable {
    // @unchecked: updated only from the thread running the transfer.
    private var last = ""
    private let output = CLIContext.current.stderr

    func update(_ p: TransferProgress) {
        guard p.total > 0 else { return }
        let label = switch p.phase {
        case .receiving: "Receiving objects"
        case .resolving: "Resolving deltas"
        case .sending: "Sending objects"
        }
        let percent = p.current * 100 / p.total
        var line = "\(label): \(String(repeating: " ", count: max(0, 3 - String(percent).count)))\(percent)% (\(p.current)/\(p.total))"
        if p.phase != .resolving, p.bytes > 0 { line += ", " + FileSystem.formatBytes(p.bytes) }
        guard line != last else { return }
        last = line
        output.write("\r" + line + (p.current == p.total ? "\n" : ""))
        output.flush()
    }
}

extension DocumentChange {
    var json: JSONValue {
        var o: JSONObject = ["path": .string(path), "change": .string(change.rawValue)]
        o["app"] = app.map { .string($0.rawValue) } ?? .null
        o["kind"] = kind.map(JSONValue.string) ?? .null
        o["id"] = .string(name)
        return .object(o)
    }
}

extension SyncReport {
    /// The `--json` form (keys documented in the README's Sync section).
    func json(ledgerRoot: String) -> JSONValue {
        var o: JSONObject = [
            "outcome": .string(outcome.rawValue), "remote": .string(remote), "url": .string(url), "branch": .string(branch),
            "device": .object(["id": .string(device.id), "name": .string(device.name)]),
            "committed": .array(localChanges.map(\.json)), "pulled": .array(pulled.map(\.json)), "pushed": .array(pushed.map(\.json)),
            "pulledKept": .array(pulledKept.map(\.json)),
            "conflicts": .array(conflictFiles.map(JSONValue.string)),
            "problems": .array(problems.map(\.json)), "pushAttempts": .number(Double(pushAttempts)),
            "pulledCommits": .number(Double(pulledCommits)), "pushedCommits": .number(Double(pushedCommits)),
        ]
        o["commit"] = committed.map { .string($0.description) } ?? .null
        o["head"] = head.map { .string($0.description) } ?? .null
        o["mergeCommit"] = mergeCommit.map { .string($0.description) } ?? .null
        o["error"] = error.map(JSONValue.string) ?? .null
        o["resolved"] = .array(resolutions.map { r in
            var x = r.document.json.objectValue ?? [:]
            x["notes"] = .array(r.notes.map(JSONValue.string))
            x["created"] = .array(r.created.map(JSONValue.string))
            x["conflictFile"] = r.conflictFile.map(JSONValue.string) ?? .null
            return .object(x)
        })
        o["reconciled"] = .array(reconciled.map(JSONValue.string))
        o["housekeeping"] = .array(housekeeping.map(JSONValue.string))
        o["purges"] = .array(purges.map(JSONValue.string))
        o["maintenance"] = .array(maintenance.map { $0.json(ledgerRoot: ledgerRoot) })
        o["warnings"] = .array(warnings.map(JSONValue.string))
        o["dryRun"] = .bool(preview != nil)
        if let preview {
            o["commitsToPush"] = .array(preview.commitsToPush.map { .object(["subject": .string($0.subject)]) })
            o["documents"] = .array(preview.documents.map(HistoryFormat.json))
            o["committedDocuments"] = .array(preview.committed.map(HistoryFormat.json))
        }
        return .object(o)
    }

    /// The preview (`sync --dry-run`): what a sync would commit, change here and push.
    func printPreview() {
        guard let preview else { return }
        let target = "\(remote) (\(url))"
        Console.print("A sync now would:")
        if !preview.committed.isEmpty {
            Console.print("  commit \(Output.plural(localChanges.count, "change")) on \(device.name):")
            HistoryFormat.printChanges(preview.committed, indent: "    ")
        }
        if outcome == .offline {
            Console.print("  not reach \(target): \(error ?? "it cannot be reached").")
        } else if !preview.documents.isEmpty {
            Console.print("  change here, from \(target):")
            HistoryFormat.printChanges(preview.documents, indent: "    ")
        } else if pulledCommits > 0 {
            Console.print("  bring in \(pulledSentence(from: target))")
        }
        for r in reconciled { Console.print("  adjust: \(r).") }
        for p in purges { Console.print("  \(p).") }
        if !conflictFiles.isEmpty {
            Console.print("  leave \(Output.plural(conflictFiles.count, "conflict file")): " + conflictFiles.joined(separator: ", "))
        }
        if outcome == .offline, !preview.commitsToPush.isEmpty {
            Console.print("  keep \(Output.plural(preview.commitsToPush.count, "commit")) to push to \(target) when it can be reached.")
        } else if !preview.commitsToPush.isEmpty {
            Console.print("  push \(Output.plural(preview.commitsToPush.count, "commit")) to \(target) (\(Output.plural(pushed.count, "file")) changed there).")
        }
        if outcome == .upToDate { Console.print("  nothing: already in step with \(target).") }
        Console.print(Style.dim("Dry run: nothing was changed (the work tree, the index, HEAD, every reference — remote-tracking ones too — and the remote are as they were)."))
    }

    /// The human report: per app, then per document.
    func printText(ledgerRoot: String) {
        let target = "\(remote) (\(url))"
        for note in housekeeping { Console.print(Output.sentence(note)) }
        for note in purges { Console.print(Output.sentence(note)) }
        if !localChanges.isEmpty {
            Console.print("Committed \(Output.plural(localChanges.count, "change")) on \(device.name):")
            Self.printChanges(localChanges)
        }
        if !pulled.isEmpty {
            Console.print("Pulled \(Output.plural(pulled.count, "change")) from \(target):")
            Self.printChanges(pulled)
        } else if pulledCommits > 0 {
            Console.print("Pulled \(pulledSentence(from: target))")
        }
        for r in resolutions {
            Console.print("Resolved \(r.document.path): " + (r.notes.isEmpty ? "merged both versions." : r.notes.joined(separator: "; ") + "."))
        }
        for r in reconciled { Console.print("Adjusted: \(r).") }
        if !conflictFiles.isEmpty {
            Console.print(Style.yellow("\(Output.plural(conflictFiles.count, "conflict file")) to look at") + ": compare each with the document beside it, keep what you want in the document, delete the conflict file, then `ledger sync` (until then `ledger check` reports those in the apps' folders).")
        }
        for p in problems { Console.print("  " + p.commandLineDescription) }
        if !pushed.isEmpty {
            Console.print("Pushed \(Output.plural(pushed.count, "change")) to \(target).")
        } else if pushedCommits > 0 {
            Console.print("Pushed \(Self.changingNoFile(pushedCommits, "to \(target)"))")
        }
        for m in maintenance { Console.print(m.sentence(ledgerRoot: ledgerRoot)) }
        switch outcome {
        case .upToDate: Console.print("Already in step with \(target).")
        case .synced: Console.print("In step with \(target) at \(head?.short ?? "an empty branch").")
        case .offline: Console.print("Not synced: \(localChanges.isEmpty ? "" : "your changes are committed here and safe; ")run `ledger sync` again when \(remote) can be reached.")
        case .rejected: Console.print("Not synced: \(remote) refused the push\(localChanges.isEmpty ? "" : "; your changes are committed here and safe").")
        }
    }

    /// Commits pulled that change no file here: they change only what this device changed
    /// too, and the merge keeps this device's version ("1 commit from origin (URL); it changes
    /// only what this device changed too — deleted brew/recipes/….json — and the merge keeps
    /// this device's version, so no file changes here."), or together they change nothing.
    func pulledSentence(from target: String) -> String {
        guard !pulledKept.isEmpty else { return Self.changingNoFile(pulledCommits, "from \(target)") }
        let told = pulledKept.prefix(10).map { "\($0.change == .modified ? "changed" : $0.change.rawValue) \($0.path)" }
            + (pulledKept.count > 10 ? ["and \(pulledKept.count - 10) more"] : [])
        return "\(Output.plural(pulledCommits, "commit")) from \(target); \(pulledCommits == 1 ? "it changes" : "they change") only what this device "
            + "changed too — \(told.joined(separator: ", ")) — and the merge keeps this device's version, so no file changes here."
    }

    /// Commits exchanged that, together, change no file (one adds what another takes back, or
    /// an empty commit): "2 commits to origin (URL); together they change no file."
    static func changingNoFile(_ commits: Int, _ place: String) -> String {
        "\(Output.plural(commits, "commit")) \(place); \(commits == 1 ? "it changes" : "together they change") no file."
    }

    static func printChanges(_ changes: [DocumentChange]) {
        let groups = Dictionary(grouping: changes) { $0.app }
        for (app, text) in DocumentChange.summary(changes) {
            Console.print("  \(app?.title ?? "Other files"): \(text)")
            let list = (groups[app] ?? []).sorted { $0.path < $1.path }
            for c in list.prefix(10) { Console.print("    \(c.change == .modified ? "changed" : c.change.rawValue) \(c.path)") }
            if list.count > 10 { Console.print("    … and \(list.count - 10) more") }
        }
    }
}
