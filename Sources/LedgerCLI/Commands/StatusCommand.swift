import ArgumentParser
import LedgerKit
import LedgerSync

/// One app's line on `ledger status`.
struct AppStatus: Sendable {
    var app: AppID
    /// One short line ("no active session · 12 sessions").
    var summary: String
    /// The same facts for `--json`.
    var json: JSONObject

    /// The line of an app whose documents cannot be read: the file to fix and, for `--json`,
    /// the sentence and `check`'s problems — the other apps' lines are still shown. A file
    /// that cannot be read at all (another user's, mode 600) is said as the error says it.
    static func invalid(_ app: AppID, _ e: LedgerError) -> AppStatus {
        var sentence = e.commandLineMessage
        if sentence.hasSuffix(":") { sentence.removeLast() }  // the problems follow in their own field
        let summary = e.problems.first.map { "\($0.path) is invalid" }
            ?? (e.code == .invalid ? "a \(app.title) document is invalid" : sentence)
        return AppStatus(app: app, summary: summary + "; see `ledger check`",
                         json: ["error": .string(sentence), "problems": .array(e.problems.map(\.json))])
    }
}

/// Each app's contribution to `ledger status`.
enum StatusBoard {
    static let providers: [@Sendable (CommandEnvironment) throws -> AppStatus] = [
        WaterlineCommand.status, BrewCommand.status, HydrateCommand.status, MomentsCommand.status,
    ]
}

/// `ledger status [--json]`
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "One screen about the ledger: this device's name, each app's state, and what is not yet committed or synced.")

    @OptionGroup var output: JSONOption

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let env = try global.environment()
        // What a power cut left under the ledger is repaired first; what cannot be is said.
        let condition = Housekeeping.repairRepository(env.store)
        for note in condition.repairs { Console.error("ledger: " + note) }
        var damage = RepositoryDamage(condition)
        var git: RepositoryStatus?
        if damage == nil {
            do { git = try RepositoryStatus.read(at: env.store.root, environment: CLIContext.current.environment) } catch { damage = RepositoryDamage(unreadable: "\(error)") }
        }
        let device = try git?.device ?? Device.current(in: env.store, defaultName: Device.hostName)
        let apps = try StatusBoard.providers.map { try $0(env) }
        let reminders = ReminderStore(env.store).runningProcess()
        let autosync = AutosyncStore(env.store)
        let (autosyncRunning, autosyncSettings, autosyncRecord) = (autosync.runningProcess(), autosync.settings(), autosync.record())
        let conflicts = try ConflictStore(env.store).list(files: git?.conflictFiles ?? [])
        let (files, copies) = (conflicts.filter { $0.kind == .file }.count, conflicts.filter { $0.kind == .copy }.count)
        if output.json {
            var sync: JSONObject = ["uncommitted": git.map { .number(Double($0.uncommitted.count)) } ?? .null]
            sync["branch"] = git?.branch.map(JSONValue.string) ?? .null
            sync["remote"] = git?.remoteURL.map(JSONValue.string) ?? .null
            sync["upstream"] = git?.upstream.map(JSONValue.string) ?? .null
            sync["ahead"] = git?.ahead.map { .number(Double($0)) } ?? .null
            sync["behind"] = git?.behind.map { .number(Double($0)) } ?? .null
            sync["gitOperation"] = git?.operation.map { .string($0.name) } ?? .null
            sync["damage"] = damage.map { .string($0.sentence) } ?? .null
            sync["unsupported"] = .array((git?.unsupported ?? []).map { .string(Words.text($0)) })
            var o: JSONObject = ["path": .string(env.store.root), "sync": .object(sync),
                                 "device": .object(["id": .string(device.id), "name": .string(device.name)])]
            for a in apps { o[a.app.rawValue] = .object(a.json) }
            o["remind"] = .object(["running": .bool(reminders != nil), "pid": reminders?.pid.map { .number(Double($0)) } ?? .null])
            o["autosync"] = AutosyncFormat.statusJSON(running: autosyncRunning, settings: autosyncSettings, record: autosyncRecord)
            o["conflicts"] = .object(["files": .number(Double(files)), "copies": .number(Double(copies)),
                                      "paths": .array(conflicts.map { .string($0.path) })])
            Output.json(.object(o))
        } else {
            Console.print(Style.bold("ledger") + " at \(env.store.root), device \(device.name)")
            for a in apps {
                Console.print("  " + a.app.title.padding(toLength: 16, withPad: " ", startingAt: 0) + a.summary)
            }
            Console.print("  " + "Reminders".padding(toLength: 16, withPad: " ", startingAt: 0) + remindLine(reminders))
            Console.print("  " + "Autosync".padding(toLength: 16, withPad: " ", startingAt: 0)
                          + AutosyncFormat.statusLine(running: autosyncRunning, settings: autosyncSettings, record: autosyncRecord, timeZone: env.clock.timeZone))
            Console.print("  " + "Conflicts".padding(toLength: 16, withPad: " ", startingAt: 0) + conflictLine(files: files, copies: copies))
            Console.print("")
            if let git {
                Console.print(syncLine(git))
                for problem in git.unsupported { Console.print(Style.yellow("Cannot sync") + ": " + Words.text(problem) + ".") }
                if let operation = git.operation {
                    Console.print(Style.yellow("git is in the middle of \(operation.name)") + ": \(operation.waysOut); `ledger sync` waits for it.")
                }
            }
        }
        if let damage {
            Console.error("ledger: " + damage.sentence)
            throw ExitCode(4)
        }
    }

    /// "none", or "1 conflict file, 1 conflicted copy (`ledger conflicts` shows them)".
    func conflictLine(files: Int, copies: Int) -> String {
        guard let counted = Output.conflicts(files: files, copies: copies) else { return "none" }
        return Style.yellow(counted) + " (`ledger conflicts` shows them, `ledger resolve` settles one)"
    }

    /// Whether `ledger remind` runs for this ledger on this device.
    func remindLine(_ running: (pid: Int32?, command: String)?) -> String {
        guard let running else { return "not running (`ledger remind install` keeps desktop reminders running)" }
        return running.pid.map { "running (process \($0))" } ?? "running"
    }

    func syncLine(_ git: RepositoryStatus) -> String {
        var parts: [String] = []
        parts.append(git.uncommitted.isEmpty ? "no uncommitted changes"
            : Output.plural(git.uncommitted.count, "uncommitted change") + " (`ledger sync` commits them)")
        if let url = git.remoteURL, !git.syncsHead {
            // Counted as git counts them, for a HEAD the sync will not sync ("Cannot sync" below).
            let here = git.branch.map { "the branch \($0)" } ?? "the detached HEAD"
            let against = "\(git.upstream ?? "the remote") (\(url))"
            switch (git.ahead ?? 0, git.behind ?? 0) {
            case (0, 0): parts.append("\(here) is in step with \(against) as of the last fetch")
            case (let a, 0): parts.append("\(here) is \(Output.plural(a, "commit")) ahead of \(against)")
            case (0, let b): parts.append("\(here) is \(Output.plural(b, "commit")) behind \(against)")
            case (let a, let b): parts.append("\(here) is \(Output.plural(a, "commit")) ahead of and \(b) behind \(against)")
            }
        } else if let url = git.remoteURL {
            switch (git.ahead ?? 0, git.behind ?? 0) {
            case (0, 0): parts.append("in step with \(url) as of the last sync")
            case (let a, 0): parts.append("\(Output.plural(a, "commit")) not yet pushed to \(url)")
            case (0, let b): parts.append("\(Output.plural(b, "commit")) fetched but not merged")
            case (let a, let b): parts.append("\(a) to push and \(b) to merge with \(url)")
            }
        } else {
            parts.append("no remote (add one with `ledger init --remote URL`)")
        }
        return "Sync: " + parts.joined(separator: "; ") + "."
    }
}

/// Damage under the ledger that `status` and `check` report (documents are fine; git is not).
struct RepositoryDamage {
    /// One sentence with what to run.
    let sentence: String

    /// What remains of `condition`, or nil when the repository is healthy.
    init?(_ condition: Housekeeping.RepositoryCondition) {
        if let refusal = condition.refusal {
            sentence = refusal
        } else if !condition.damage.isEmpty {
            sentence = Self.found(condition.damage)
        } else {
            return nil
        }
    }

    /// What a glance found ("refs/heads/main holds only zeros"), and the command that repairs it.
    init(found: [String]) { sentence = Self.found(found) }

    /// git could not read the repository at all.
    init(unreadable error: String) {
        sentence = "the git repository under the ledger cannot be read (\(error)); `ledger sync` repairs what a power cut leaves (and names what it cannot)"
    }

    static func found(_ damage: [String]) -> String {
        "the git repository under the ledger is damaged (\(damage.joined(separator: "; "))), although the documents may be fine; `ledger sync` repairs it (and names what it cannot)"
    }
}
