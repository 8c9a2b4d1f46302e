import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync
#if os(Linux)
import LedgerRemind
#endif

/// `ledger autosync [--once]`, and `install`, `uninstall`, `pause`, `resume`, `settings`.
struct AutosyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "autosync",
        abstract: "Sync by itself: a small process that syncs after each change, every interval, and retries when offline.",
        discussion: """
            Syncs at start (pulling first), once the ledger has been quiet for the debounce after \
            a change (hand edits included), and every interval to bring in the other devices' \
            changes. Never during a guided brew or while a changed document fails `ledger check`: \
            it waits, and says so once. When the remote cannot be reached it retries after a \
            growing random wait (30 s up to 30 min), and at once when a change or the interval \
            comes. A desktop notification (when there is a session bus) says when a sync left \
            conflict files or conflicted copies, when syncing has failed for longer than notify-after, or when the remote \
            refused the credentials. One per ledger and device; `ledger status` shows its state.

            --once runs one round (for cron or a timer) and exits with the status `ledger sync` \
            would (0 when paused or in quiet hours). Settings are this device's own (never \
            synced): `ledger autosync settings set interval 15m`.
            """,
        subcommands: [Install.self, Uninstall.self, Pause.self, Resume.self, Settings.self])

    @Flag(help: "Run one round and exit (for cron or a systemd timer).")
    var once = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let env = try global.environment()
        var store = env.store
        // An interactive command holds the writer lock for an instant: autosync waits for it
        // without a word.
        store.lockWait = nil
        let autosync = AutosyncStore(store)
        if once { return try runOnce(store, autosync, now: env.clock) }
        #if os(Linux)
        try AutosyncProcess.start(store, autosync, timeZone: env.clock.timeZone)
        #else
        throw LedgerError.failure("the resident `ledger autosync` needs Linux (inotify, timerfd); `ledger autosync --once` from cron or launchd works everywhere")
        #endif
    }

    /// One round now: what `--once` prints, and its exit status.
    func runOnce(_ store: LedgerStore, _ autosync: AutosyncStore, now clock: CommandClock) throws {
        let settings = autosync.settings()
        let now = clock.now
        if settings.paused {
            Console.print("Autosync is paused on this device (`ledger autosync resume` resumes it): nothing synced.")
            return
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = clock.timeZone
        if let end = settings.quietHours?.end(containing: now.date, calendar: calendar) {
            Console.print("Quiet hours (\(settings.quietHours!)) until \(AutosyncFormat.when(end, clock.timeZone)): nothing synced.")
            return
        }
        // The round's fetch and push share one ssh connection, closed as it ends.
        let environment = CLIContext.current.environment
        let sharing = SSHConnectionSharing(environment: environment)
        defer { sharing?.stop(environment: environment) }
        let result = AutosyncRound.run(store, options: try AutosyncProcessOptions.sync(sharing: sharing), now: now)
        var record = autosync.record()
        AutosyncRound.update(&record, with: result, at: now.date)
        if autosync.runningProcess() == nil { record.nextAttempt = nil }
        try autosync.save(record)
        switch result {
        case .synced(let report):
            report.printText(ledgerRoot: store.root)
            for w in report.warnings { Console.error("ledger: warning: " + w) }
        case .waiting(let why):
            Console.print("Not synced: " + why + ".")
            // A brew waits quietly; an invalid document is the same refusal as `ledger sync`'s.
            if why.hasPrefix("a guided brew") { return }
            throw ExitCode(1)
        case .offline(let why, _):
            Console.error("ledger: " + why)
            throw ExitCode(3)
        case .failed(let why, let status):
            Console.error("ledger: " + why)
            throw ExitCode(status)
        }
    }
}

/// The sync options autosync uses: those of `ledger sync`, without a progress line.
enum AutosyncProcessOptions {
    /// `sharing`: where ssh runs share their connection (`SSHConnectionSharing`).
    static func sync(sharing: SSHConnectionSharing?) throws -> SyncOptions {
        var transport = try SyncEnvironment.transport()
        transport.progress = nil
        transport.sshSharing = sharing
        return SyncOptions(transport: transport, git: GitTool.find(in: CLIContext.current.environment), checkpoint: SyncEnvironment.checkpoint())
    }
}

extension AutosyncCommand {
    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pause", abstract: "Stop syncing by itself on this device until `ledger autosync resume` (the process keeps running).")
        @OptionGroup var global: GlobalOptions
        func run() throws {
            try AutosyncStore(try global.store()).update { $0.paused = true }
            Console.print("Autosync is paused on this device; `ledger sync` still syncs by hand, `ledger autosync resume` resumes.")
        }
    }

    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "resume", abstract: "Sync by itself again (a sync runs now).")
        @OptionGroup var global: GlobalOptions
        func run() throws {
            try AutosyncStore(try global.store()).update { $0.paused = false }
            Console.print("Autosync resumed on this device.")
        }
    }

    struct Settings: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "settings",
            abstract: "Show this device's autosync settings, or change one: `settings set KEY VALUE`.",
            discussion: "Keys: " + AutosyncSettings.keys.map { "\($0.key) — \($0.help)" }.joined(separator: "; ") + ".")

        // Everything that is not one of ledger's own options, so that a value starting with a
        // dash (-1) reaches the setting's check instead of being taken for a flag.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("set KEY VALUE to change a setting", valueName: "set KEY VALUE"),
                  completion: .custom { words, index, _ in Self.completions(words[..<min(index, words.count)]) })
        var words: [String] = []

        /// What TAB offers after `settings`: `set`, then the keys.
        static func completions(_ typed: ArraySlice<String>) -> [String] {
            guard let at = typed.lastIndex(of: "settings") else { return [] }
            var words = Array(typed[(at + 1)...])
            if let repo = words.firstIndex(of: "--repo") { words.removeSubrange(repo..<min(repo + 2, words.count)) }
            switch words.filter({ !$0.hasPrefix("-") }) {
            case []: return ["set"]
            case ["set"]: return AutosyncSettings.keys.map(\.key)
            default: return []
            }
        }

        @OptionGroup var output: JSONOption
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let autosync = AutosyncStore(try global.store())
            if !words.isEmpty {
                if let option = words.enumerated().first(where: { $0.element.hasPrefix("-") && !(words.count == 3 && $0.offset == 2) })?.element {
                    throw LedgerError.usage("`ledger autosync settings` has no option \(option)")
                }
                guard words.count == 3, words[0] == "set" else {
                    throw LedgerError.usage("`ledger autosync settings` takes nothing, or `set KEY VALUE` (keys: " + AutosyncSettings.keys.map(\.key).joined(separator: ", ") + ")")
                }
                try autosync.update { try $0.set(words[1], words[2]) }
            }
            let settings = autosync.settings()
            if output.json {
                var o: JSONObject = ["paused": .bool(settings.paused)]
                for (key, _) in AutosyncSettings.keys { o[key] = .string(settings.text(key)) }
                Output.json(.object(o))
                return
            }
            for (key, help) in AutosyncSettings.keys {
                Console.print(key.padding(toLength: 14, withPad: " ", startingAt: 0) + settings.text(key).padding(toLength: 14, withPad: " ", startingAt: 0) + Style.dim(help))
            }
            if settings.paused { Console.print("paused        yes (`ledger autosync resume`)") }
        }
    }

    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Write the systemd user service that runs `ledger autosync` from login, and start it.",
            discussion: """
                Writes ~/.config/systemd/user/ledger-autosync.service ($XDG_CONFIG_HOME when set) \
                for this ledger and this binary, both resolved now. When `systemctl --user` can \
                reach your user manager it runs `systemctl --user enable --now \
                ledger-autosync.service`; otherwise it prints that command.
                """)
        @OptionGroup var global: GlobalOptions
        func run() throws {
            #if os(Linux)
            try UserService.install(.autosync, ledger: try global.store().root)
            #else
            throw LedgerError.failure("`ledger autosync install` is not available on this system: it installs a systemd user service, on Linux")
            #endif
        }
    }

    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "uninstall", abstract: "Stop the autosync service and remove its unit file.")
        @OptionGroup var global: GlobalOptions
        func run() throws {
            #if os(Linux)
            try UserService.uninstall(.autosync)
            #else
            throw LedgerError.failure("`ledger autosync uninstall` is not available on this system: it removes a systemd user service, on Linux")
            #endif
        }
    }
}
