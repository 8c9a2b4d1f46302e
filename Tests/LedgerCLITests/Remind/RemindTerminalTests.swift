import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `ledger remind --terminal` in a real pseudo-terminal (tmux): the built binary, its clock
/// started by `LEDGER_NOW` and run 60 times as fast (a minute a second), keys sent with send-keys, the terminal's
/// modes read back with `stty` after it exits.
@Suite struct RemindTerminalTests {
    /// The pane: `ledger remind --terminal` from 08:59:50, then `stty` saying whether canonical
    /// mode and echo are on, one per line.
    func terminal(_ ledger: TestLedger) throws -> TmuxTerminal {
        try TmuxTerminal(command: TmuxTerminal.ledgerCommand(
            ledger, "remind --terminal", now: "2026-11-21T08:59:50+01:00", environment: ["LEDGER_CLOCK_RATE": "60"],
            after: "stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon -e echo -e -echo"))
    }

    /// The lines `stty` printed after the command ended.
    func modes(_ term: TmuxTerminal) -> [String] {
        term.screen().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { ["icanon", "-icanon", "echo", "-echo"].contains($0) }
    }

    @Test func theReminderRingsAndDConfirmsIt() throws {
        let ledger = try TestLedger(now: "2026-11-21T08:59:00+01:00")
        let term = try terminal(ledger)
        defer { term.stop() }
        term.waitFor("Log Water, q = quit.")
        term.waitFor("Time for a glass of water. (the 09:00 reminder)")
        try term.send("d")
        term.waitFor("Confirmed the 09:00 reminder. 1 out of 8 reminders completed.")
        #expect(!term.screen().contains("dConfirmed"))  // not echoed
        let status = ledger.run("hydrate", "status", "--json", env: ["LEDGER_NOW": "2026-11-21T09:59:00+01:00"])
        #expect(status.json["completed"] == .number(1), "\(status)")

        // `w` without a Waterline session says so; `q` quits and the terminal is as it was.
        try term.send("w")
        term.waitFor("no session is active; start one with `ledger waterline start`")
        try term.send("q")
        #expect(term.waitForExit() == 0)
        #expect(term.waitFor("echo") != nil && modes(term) == ["icanon", "echo"], "\(term.screen())")
    }

    /// `hydrate setup` points to the product's own notifier, `ledger remind`, before cron and
    /// the calendar, and says when it already runs (its notifications then follow at once);
    /// `hydrate --help` names it too.
    @Test func setupPointsToRemindAndSaysWhenItRuns() throws {
        let ledger = try TestLedger(now: "2026-11-21T08:59:00+01:00")
        let help = ledger.run("hydrate", "--help")
        #expect(help.stdout.contains("`ledger remind install`"), "\(help)")
        let alone = ledger.run("hydrate", "setup", "--interval", "90")
        #expect(alone.status == 0, "\(alone)")
        #expect(alone.stdout.contains("To be notified: `ledger remind install` (desktop notifications with an I Drank button)"), "\(alone)")
        let term = try terminal(ledger)
        defer { term.stop() }
        term.waitFor("Log Water, q = quit.")
        let running = ledger.run("hydrate", "setup", "--interval", "60")
        #expect(running.status == 0, "\(running)")
        #expect(running.stdout.contains("`ledger remind` is running: its notifications follow the new schedule at once."), "\(running)")
        #expect(!running.stdout.contains("remind install"), "\(running)")
        try term.send("q")
        #expect(term.waitForExit() == 0)
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let ledger = try TestLedger(now: "2026-11-21T08:59:00+01:00")
        let term = try terminal(ledger)
        defer { term.stop() }
        term.waitFor("Time for a glass of water. (the 09:00 reminder)")
        kill(try term.childPID(named: "ledger"), SIGTERM)
        #expect(term.waitForExit() == 0)
        #expect(term.waitFor("echo") != nil && modes(term) == ["icanon", "echo"], "\(term.screen())")
    }
}
