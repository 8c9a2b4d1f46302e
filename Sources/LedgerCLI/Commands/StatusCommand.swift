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
        let git = try RepositoryStatus.read(at: env.store.root)
        let apps = try StatusBoard.providers.map { try $0(env) }
        let reminders = ReminderStore(env.store).runningProcess()
        let conflicts = try ConflictStore(env.store).list(files: git.conflictFiles)
        let (files, copies) = (conflicts.filter { $0.kind == .file }.count, conflicts.filter { $0.kind == .copy }.count)
        if output.json {
            var sync: JSONObject = ["uncommitted": .number(Double(git.uncommitted.count))]
            sync["branch"] = git.branch.map(JSONValue.string) ?? .null
            sync["remote"] = git.remoteURL.map(JSONValue.string) ?? .null
            sync["ahead"] = git.ahead.map { .number(Double($0)) } ?? .null
            sync["behind"] = git.behind.map { .number(Double($0)) } ?? .null
            sync["gitOperation"] = git.operation.map { .string($0.name) } ?? .null
            var o: JSONObject = ["path": .string(env.store.root), "sync": .object(sync),
                                 "device": .object(["id": .string(git.device.id), "name": .string(git.device.name)])]
            for a in apps { o[a.app.rawValue] = .object(a.json) }
            o["remind"] = .object(["running": .bool(reminders != nil), "pid": reminders?.pid.map { .number(Double($0)) } ?? .null])
            o["conflicts"] = .object(["files": .number(Double(files)), "copies": .number(Double(copies)),
                                      "paths": .array(conflicts.map { .string($0.path) })])
            Output.json(.object(o))
            return
        }
        Console.print(Style.bold("ledger") + " at \(env.store.root), device \(git.device.name)")
        for a in apps {
            Console.print("  " + a.app.title.padding(toLength: 16, withPad: " ", startingAt: 0) + a.summary)
        }
        Console.print("  " + "Reminders".padding(toLength: 16, withPad: " ", startingAt: 0) + remindLine(reminders))
        Console.print("  " + "Conflicts".padding(toLength: 16, withPad: " ", startingAt: 0) + conflictLine(files: files, copies: copies))
        Console.print("")
        Console.print(syncLine(git))
        if let operation = git.operation {
            Console.print(Style.yellow("git is in the middle of \(operation.name)") + ": \(operation.waysOut); `ledger sync` waits for it.")
        }
    }

    /// "none", or "1 conflict file, 1 conflicted copy (`ledger conflicts` shows them)".
    func conflictLine(files: Int, copies: Int) -> String {
        guard files + copies > 0 else { return "none" }
        let parts = (files > 0 ? [Output.plural(files, "conflict file")] : []) + (copies > 0 ? [Output.plural(copies, "conflicted copy", "conflicted copies")] : [])
        return Style.yellow(parts.joined(separator: ", ")) + " (`ledger conflicts` shows them, `ledger resolve` settles one)"
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
        if let url = git.remoteURL {
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
