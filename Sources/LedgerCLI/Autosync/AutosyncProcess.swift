import Foundation
import LedgerKit
import LedgerSync
#if os(Linux)
import LedgerRemind
#endif

/// Autosync's words: its log lines and the times it shows.
enum AutosyncFormat {
    /// A line in the process's log (the service's journal), on stderr, at once.
    static func log(_ line: String) {
        Console.error("ledger autosync: " + line)
        Console.flush()
    }

    /// "2026-11-21 22:30" in `timeZone`.
    static func when(_ date: Date, _ timeZone: TimeZone) -> String {
        let l = Timestamp(date, in: timeZone).local
        return "\(l.date) \(HydrateFormat.pad2(l.hour)):\(HydrateFormat.pad2(l.minute))"
    }

    /// `ledger status`'s line about autosync.
    static func statusLine(running: (pid: Int32?, command: String)?, settings: AutosyncSettings, record: AutosyncRecord, timeZone: TimeZone) -> String {
        var parts: [String] = []
        if let running {
            parts.append(running.pid.map { "running (process \($0))" } ?? "running")
        } else {
            parts.append("not running (`ledger autosync install` keeps it running)")
        }
        if settings.paused { parts.append("paused (`ledger autosync resume`)") }
        if let last = record.lastAttempt, let outcome = record.outcome {
            parts.append("last round \(when(last, timeZone)): \(outcome)")
        }
        if let error = record.lastError, record.outcome != "synced", record.outcome != "up-to-date" { parts.append(error) }
        if running != nil, !settings.paused, let next = record.nextAttempt { parts.append("next \(when(next, timeZone))") }
        return parts.joined(separator: "; ")
    }

    /// `ledger status --json`'s `autosync` object.
    static func statusJSON(running: (pid: Int32?, command: String)?, settings: AutosyncSettings, record: AutosyncRecord) -> JSONValue {
        var o = record.json.objectValue ?? [:]
        o["running"] = .bool(running != nil)
        o["pid"] = running?.pid.map { .number(Double($0)) } ?? .null
        o["paused"] = .bool(settings.paused)
        if running == nil { o["nextAttempt"] = .null }
        return .object(o)
    }
}

#if os(Linux)
/// The resident autosync process: one `EventLoop` (inotify on the work tree, its settings and
/// the guided brew's file; a timer for the next round; SIGTERM), an `AutosyncSchedule` that
/// says when the next round is due, and `AutosyncRound`s. It never spins: between two due
/// rounds with nothing changing, it does not wake.
final class AutosyncProcess {
    let store: LedgerStore
    let autosync: AutosyncStore
    let clock: ReminderClock
    let calendar: Calendar
    /// The desktop's notification server, when there is a session bus.
    let notifications: NotificationClient?
    /// Where ssh runs share their connection (`SSHConnectionSharing`).
    let sharing: SSHConnectionSharing?
    private var said: String?
    private var notified: Set<String> = []
    private var record: AutosyncRecord

    init(store: LedgerStore, autosync: AutosyncStore, clock: ReminderClock, notifications: NotificationClient?, sharing: SSHConnectionSharing?) {
        self.sharing = sharing
        self.store = store
        self.autosync = autosync
        self.clock = clock
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = clock.timeZone
        self.calendar = calendar
        self.notifications = notifications
        record = autosync.record()
    }

    /// Claims the ledger's autosync, and runs until SIGTERM or SIGINT.
    static func start(_ store: LedgerStore, _ autosync: AutosyncStore, timeZone: TimeZone) throws {
        let ctx = CLIContext.current
        let holder = "\(getpid()) " + ctx.commandLine.joined(separator: " ")
        var lock: FileLock?
        for _ in 0..<50 where lock == nil {
            switch try autosync.claimProcess(holder: holder) {
            case .claimed(let l): lock = l
            case .heldBy(let record):
                let pid = record.split(separator: " ").first.map(String.init) ?? "?"
                throw LedgerError.invalid("autosync is already running for this ledger (process \(pid)); stop it first (`ledger status` names it)")
            case .busy: usleep(20_000)
            }
        }
        guard let lock else { throw LedgerError.invalid("another process keeps \(autosync.processLockPath) locked; is autosync starting?") }
        defer { lock.release() }
        let clock: ReminderClock
        do {
            clock = try ReminderClock(environment: ctx.environment, timeZone: timeZone)
        } catch {
            throw LedgerError.usage(error.message)
        }
        // Notifications when a desktop is there; autosync runs without one too (a server, a
        // login over ssh), and says in its log what it would have shown.
        let client = try? NotificationClient(environment: ctx.environment)
        // Every round's ssh runs share one connection per server while this process runs.
        let sharing = SSHConnectionSharing(environment: ctx.environment)
        defer { sharing?.stop(environment: ctx.environment) }
        let process = AutosyncProcess(store: store, autosync: autosync, clock: clock, notifications: client, sharing: sharing)
        AutosyncFormat.log("syncing \(store.root) by itself" + (client.map { "; notifications through \($0.server.name)" } ?? "; no desktop notifications (no session bus or notification server)"))
        let wakeUps: Int
        do {
            wakeUps = try process.run()
        } catch {
            throw LedgerError.failure(error.message)
        }
        AutosyncFormat.log("stopped after \(Output.plural(wakeUps, "wake-up"))")
    }

    /// Runs until SIGTERM or SIGINT; returns the loop's wake-ups.
    func run() throws(RemindError) -> Int {
        let settingsPath = autosync.settingsPath
        let brewPath = store.localState("brew-in-progress.json")
        var schedule = AutosyncSchedule(settings: autosync.settings(), start: clock.now)
        let loop = try EventLoop(clock: clock, watching: watchedPaths(settingsPath, brewPath))
        defer {
            record.nextAttempt = nil
            try? autosync.save(record)
        }
        var wasPaused = schedule.settings.paused
        var saved: AutosyncRecord?
        while true {
            let now = clock.now
            if let due = schedule.due(calendar: calendar), due <= now {
                round(&schedule, at: now)
            }
            let next = schedule.due(calendar: calendar)
            if next != record.nextAttempt || record != saved {
                // Written only when it changed: its own write would wake the loop again.
                record.nextAttempt = next
                try? autosync.save(record)
                saved = record
            }
            let events = try loop.next(wakingAt: record.nextAttempt)
            if events.contains(.terminate) { return loop.wakeUps }
            for case .ledgerChanged(let paths) in events {
                if paths.contains(settingsPath) {
                    schedule.update(autosync.settings(), at: clock.now)
                    if schedule.settings.paused != wasPaused {
                        wasPaused = schedule.settings.paused
                        AutosyncFormat.log(wasPaused ? "paused" : "resumed")
                        // Resumed: a round now.
                        if !wasPaused { schedule.changed(at: clock.now.addingTimeInterval(-schedule.settings.debounce)) }
                    }
                }
                if paths.contains(where: { $0 != settingsPath && Self.isLedgerChange($0) }) {
                    schedule.changed(at: clock.now)
                }
                try loop.watch(watchedPaths(settingsPath, brewPath))
            }
        }
    }

    /// A change worth a sync: a document (`AutosyncSchedule.isDocumentChange`), or a folder
    /// (what is written into a new one is seen once it is watched).
    static func isLedgerChange(_ path: String) -> Bool {
        AutosyncSchedule.isDocumentChange((path as NSString).lastPathComponent) || FileSystem.stamp(path)?.type == .directory
    }

    /// The work tree's folders (not `.git`, not hidden ones), the settings and the brew file.
    func watchedPaths(_ settingsPath: String, _ brewPath: String) -> [WatchedPath] {
        var out: [WatchedPath] = [.file(settingsPath), .file(brewPath)]
        var stack = [store.root]
        while let dir = stack.popLast(), out.count < 10_000 {
            out.append(.directory(dir))
            for e in (try? FileSystem.list(dir)) ?? [] where e.type == .directory && !e.name.hasPrefix(".") {
                stack.append(dir + "/" + e.name)
            }
        }
        return out
    }

    /// One round due at `now`: skipped when only a change made it due and nothing is left to
    /// commit (the sync's own checkout, a file saved unchanged); else synced, and what it came
    /// to recorded, logged and — when it matters — shown.
    func round(_ schedule: inout AutosyncSchedule, at now: Date) {
        let onlyChanged = now < schedule.intervalAt && (schedule.retryAt.map { now < $0 } ?? true)
        if onlyChanged, (try? RepositoryStatus.hasUncommittedChanges(at: store.root)) == false,
           (try? BrewStore(store).brewInProgress().progress) == nil, record.outcome != "waiting" {
            schedule.synced(at: now, random: Double.random(in: 0..<1))
            return
        }
        let result: AutosyncRound.Result
        do {
            result = AutosyncRound.run(store, options: try AutosyncProcessOptions.sync(sharing: sharing), now: Timestamp(now, in: clock.timeZone))
        } catch {
            result = .failed((error as? LedgerError)?.commandLineMessage ?? "\(error)", exitStatus: 2)
        }
        let done = clock.now
        AutosyncRound.update(&record, with: result, at: done)
        let random = Double.random(in: 0..<1)
        switch result {
        case .synced(let report):
            schedule.synced(at: done, random: random)
            notified.removeAll()
            say(AutosyncRound.summary(report))
            if let left = AutosyncRound.conflicts(report) {
                let paths = report.conflictFiles + report.conflictedCopies
                notify("conflicts:" + paths.joined(separator: ","), "ledger: \(left) to look at", paths.joined(separator: "\n") + "\n`ledger conflicts` shows them.")
            }
        case .waiting(let why):
            schedule.waiting(at: done, random: random)
            say("waiting: " + why)
            notify("waiting:" + why, "ledger: not syncing", why)
        case .offline(let why, _), .failed(let why, _):
            let credentials = if case .offline(_, true) = result { true } else { false }
            let wait = schedule.failed(at: done, random: random)
            say("not synced: \(why)", then: "; trying again within \(AutosyncSettings.durationText(wait.rounded())), and at once when the ledger changes")
            if credentials {
                notify("credentials", "ledger: the remote refused the credentials", why)
            } else if let since = record.failingSince, done.timeIntervalSince(since) >= schedule.settings.notifyAfter {
                notify("failing", "ledger: not synced since \(AutosyncFormat.when(since, clock.timeZone))", why)
            }
        }
    }

    /// Logs `line` (and `then`) unless `line` is what was said last: a state is said once, not
    /// every round.
    private func say(_ line: String, then more: String = "") {
        guard line != said else { return }
        said = line
        AutosyncFormat.log(line + more)
    }

    /// Shows a notification once per `key` until a sync succeeds again.
    private func notify(_ key: String, _ summary: String, _ body: String) {
        guard notified.insert(key).inserted else { return }
        guard let notifications else { return }
        do {
            _ = try notifications.notify(DesktopNotification(appName: "ledger", summary: summary, body: body))
        } catch {
            AutosyncFormat.log("could not show a notification: \(error.message)")
        }
    }
}
#endif
