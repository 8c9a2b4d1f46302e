import ArgumentParser
import Foundation
import LedgerKit
#if os(Linux)
import LedgerRemind
#endif

/// `ledger remind [--terminal]`, `ledger remind install`, `ledger remind uninstall`.
struct RemindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remind",
        abstract: "Desktop notifications for Water Reminder and Waterline, with their buttons: a small process that stays running.",
        discussion: """
            Shows each Water Reminder reminder and follow-up at its time with an "I Drank" \
            button that confirms that reminder, and during a Waterline session its reminders, \
            per-drink prompts and pacing warning with "Log Water" and "Dismiss". A notification \
            is withdrawn as soon as it is answered another way (`ledger hydrate drank`, a sync). \
            It sleeps until something is due or the ledger changes. One per ledger and device; \
            `ledger status` says whether it runs.

            Needs a session bus and a notification server (your desktop's own, dunst, mako); \
            --terminal shows the reminders in this terminal instead. `ledger remind install` \
            keeps it running with your graphical session (a systemd user service).
            """,
        subcommands: [Install.self, Uninstall.self])

    @Flag(help: "Show the reminders in this terminal, with a bell, instead of desktop notifications; keys: d = I Drank, w = Log Water, q = quit.")
    var terminal = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        #if os(Linux)
        let env = try global.environment()
        let ctx = CLIContext.current
        // A command that changes the ledger holds its lock for an instant, and the change wakes
        // this process: it waits for it without a word (a person is not waiting, and the
        // service's log would get a line per command).
        var store = env.store
        store.lockWait = nil
        let reminders = ReminderStore(store)
        let claim = try Self.claim(reminders)
        defer { claim.release() }
        let clock: ReminderClock
        do {
            clock = try ReminderClock(environment: ctx.environment, timeZone: env.clock.timeZone)
        } catch {
            throw LedgerError.usage(error.message)
        }
        let frontEnd: any ReminderFrontEnd
        if terminal {
            frontEnd = TerminalFrontEnd(ledger: env.store.root)
        } else {
            let client: NotificationClient
            do {
                client = try NotificationClient(environment: ctx.environment)
            } catch where error.code == .noSessionBus || error.code == .noNotificationServer {
                throw LedgerError.failure("cannot show desktop notifications: \(error.message); `ledger remind --terminal` shows the reminders in this terminal instead")
            } catch {
                throw LedgerError.failure(error.message)
            }
            frontEnd = DesktopFrontEnd(client: client)
            RemindFormat.log("reminding about \(env.store.root) through \(client.server.name) \(client.server.version)")
        }
        let process = ReminderProcess(reminders: reminders, clock: clock, frontEnd: frontEnd, ids: env.ids)
        process.onOutcome = { result, now in
            let line: String
            switch result {
            case .success(let outcome): line = RemindFormat.outcome(outcome, at: now)
            case .failure(let error): line = (error as? LedgerError)?.commandLineMessage ?? "\(error)"
            }
            if terminal { RemindFormat.say(line, at: now) } else { RemindFormat.log(line) }
        }
        process.onProblems = { problems in
            for p in problems { RemindFormat.log(Words.text(p) + " (shown again once the file is fixed)") }
        }
        let report: ReminderProcess.Report
        do {
            report = try process.run()
        } catch {
            throw LedgerError.failure(error.message)
        }
        RemindFormat.log("stopped after \(Output.plural(report.wakeUps, "wake-up")); \(report.shown) shown, \(report.answered) answered")
        #else
        throw LedgerError.failure("`ledger remind` is not available on this system: it needs Linux (desktop notifications over D-Bus); `ledger hydrate due` can run from cron instead")
        #endif
    }

    #if os(Linux)
    /// This process as the ledger's only reminder process, or a refusal naming the one running.
    static func claim(_ reminders: ReminderStore) throws -> FileLock {
        let holder = "\(getpid()) " + CLIContext.current.commandLine.joined(separator: " ")
        // `busy`: another process holds the lock for an instant (a `ledger status` looking).
        for _ in 0..<50 {
            switch try reminders.claimProcess(holder: holder) {
            case .claimed(let lock): return lock
            case .heldBy(let record):
                let pid = record.split(separator: " ").first.map(String.init) ?? "?"
                throw LedgerError.invalid("a reminder process is already running for this ledger (process \(pid)); stop it first (`ledger status` names it)")
            case .busy: usleep(20_000)
            }
        }
        throw LedgerError.invalid("another process keeps \(reminders.processLockPath) locked; is a reminder process starting?")
    }
    #endif
}
