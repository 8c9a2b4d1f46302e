import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `ledger brew start` driven through a real pseudo-terminal (tmux): the built binary in raw
/// mode, keys sent with send-keys, the screen read with capture-pane.
@Suite(.serialized) struct BrewTerminalTests {
    /// A ledger with "Quick", a copy of the starter whose bloom lasts 2 s and whose first pour
    /// lasts a minute (long enough to watch a pause).
    func ledger() throws -> TestLedger {
        let ledger = try TestLedger(now: "2026-11-21T08:00:00+01:00")
        #expect(ledger.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Quick").status == 0)
        let edit = ledger.run("brew", "recipe", "edit", "quick", "--step-timer", "3=2", "--step-timer", "4=60", "--step-timer", "5=1",
                              "--step-timer", "6=1")
        #expect(edit.status == 0, "\(edit)")
        return ledger
    }

    /// The pane's command: `ledger ARGS` in a clean environment, under a shell that prints
    /// `[exit N]` when it ends.
    func command(_ ledger: TestLedger, _ args: String) -> String {
        func q(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let env = ["HOME": ledger.environment["HOME"]!, "PATH": "/usr/bin:/bin", "LEDGER_REPO": ledger.root,
                   "LEDGER_NOW": ledger.environment["LEDGER_NOW"]!, "TZ": "Europe/Paris", "LANG": "C.UTF-8", "TERM": "xterm",
                   "NO_COLOR": "1"]
        let inner = q(LedgerBinary.path) + " " + args + "; echo \"[exit $?]\""
        return "exec env -i " + env.sorted { $0.key < $1.key }.map { q("\($0.key)=\($0.value)") }.joined(separator: " ")
            + " /bin/sh -c " + q(inner)
    }

    /// The line of the screen containing `text`.
    func line(_ screen: String?, _ text: String) -> String? {
        screen?.split(separator: "\n").first { $0.contains(text) }.map(String.init)
    }

    @Test
    func aWholeBrewWithPauseAndAGuardedRestartEndsInASavedLog() throws {
        let ledger = try ledger()
        let term = try TmuxTerminal(command: command(ledger, "brew start Quick"))
        defer { term.stop() }
        term.waitFor("Confirm inputs")
        #expect(term.screen().contains("Bloom: pour 45 g, start timer 0:02"))
        // Another recipe can be chosen before the start; escape keeps this one.
        try term.send("c")
        term.waitFor("[1] V60 starter (starter)")
        #expect(term.screen().contains("*[2] Quick"))
        try term.send("Escape")
        term.waitFor("Confirm inputs")
        // Inputs can change before the start: the dose, then Start.
        try term.send("d")
        term.waitFor("Dose (g):")
        try term.type("18")
        try term.send("Enter")
        term.waitFor("300 g")
        try term.send("Enter")
        term.waitFor("Step 1 of 6")
        #expect(term.screen().contains("Rinse filter and preheat"))
        try term.send("d")  // inputs are locked now
        term.waitFor("Inputs are locked")
        try term.send("Space")
        term.waitFor("Step 2 of 6")
        #expect(!term.screen().contains("Inputs are locked"))  // the message went with its step
        try term.send("Enter")
        term.waitFor("Step 3 of 6")
        #expect(term.screen().contains("Bloom: pour 54 g, start timer 0:02"))
        // The bloom's 2 s run out: READY, and the brew waits for Next.
        term.waitFor("READY — press enter for the next step")
        #expect(term.screen().contains("Step 3 of 6"))
        try term.send("Enter")
        term.waitFor("Step 4 of 6")

        // Pause: the countdown stops, and Next waits for Resume.
        try term.send("p")
        let paused = term.waitFor("PAUSED — press p to resume")
        let before = line(paused, "left of 1:00")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(line(term.screen(), "left of 1:00") == before)
        try term.send("Enter")
        term.waitFor("Paused: press p to resume first")
        #expect(term.screen().contains("Step 4 of 6"))
        try term.send("p")
        term.waitFor("Resumed")
        #expect(!term.screen().contains("PAUSED"))

        // Restart: a confirmation, then a hold. A single r after the confirmation does nothing.
        try term.send("r")
        term.waitFor("Restart the brew?")
        try term.send("n")
        term.waitFor("Restart cancelled")
        #expect(term.screen().contains("Step 4 of 6"))
        try term.send("r")
        term.waitFor("Restart the brew?")
        try term.send("y")
        term.waitFor("Hold r to restart")
        try term.send("r")
        term.waitFor("Released too early")
        #expect(term.screen().contains("Step 4 of 6"))
        // Holding r: its auto-repeat, every 0.1 s, until the brew is back at the start.
        let deadline = Date().addingTimeInterval(30)
        while !term.screen().contains("Confirm inputs"), Date() < deadline {
            try term.send("r")
            Thread.sleep(forTimeInterval: 0.1)
        }
        term.waitFor("Restarted: timers reset")
        #expect(term.screen().contains("18.0 g"))  // the inputs survive a restart

        // Brew again from step 1, straight through.
        Thread.sleep(forTimeInterval: 1)  // let the held key be released
        try term.send("Enter")
        term.waitFor("Step 1 of 6")
        for n in 2...6 {
            try term.send("Enter")
            term.waitFor("Step \(n) of 6")
        }
        try term.send("Enter")
        term.waitFor("Brew complete")
        try term.send("Enter")
        term.waitFor("Choose a rating first")
        try term.send("4")
        term.waitFor("4/5")
        try term.send("s")
        term.waitFor("Hint (too sour): try slightly finer or hotter")
        try term.send("n")
        term.waitFor("Note    (0/280)")
        try term.type("Kenya, washed")
        try term.send("Enter")
        term.waitFor("Kenya, washed")
        try term.send("Enter")
        #expect(term.waitForExit() == 0)
        let after = term.screen()
        #expect(after.contains("Saved brew log"))
        #expect(after.contains("Hint (too sour): try slightly finer or hotter"))

        let logs = ledger.run("brew", "logs", "--json").json.arrayValue ?? []
        #expect(logs.count == 1)
        let log = try #require(logs.first)
        #expect(log["recipeName"] == .string("Quick"))
        #expect(log["dose"] == .number(18) && log["targetYield"] == .number(300))
        #expect(log["rating"] == .number(4) && log["tasteTag"] == .string("too-sour") && log["note"] == .string("Kenya, washed"))
        #expect(log["brewSeconds"] != nil)
        #expect(!FileManager.default.fileExists(atPath: ledger.root + "/.git/ledger/brew-in-progress.json"))
        #expect(ledger.run("check").status == 0)
    }

    @Test
    func aBrewSurvivesACrashAndAClosedTerminal() throws {
        let ledger = try ledger()
        let progress = ledger.root + "/.git/ledger/brew-in-progress.json"
        let term = try TmuxTerminal(command: command(ledger, "brew start Quick"))
        defer { term.stop() }
        term.waitFor("Confirm inputs")
        try term.send("Enter")
        term.waitFor("Step 1 of 6")
        try term.send("Enter")
        term.waitFor("Step 2 of 6")
        try term.send("Enter")
        term.waitFor("Step 3 of 6")
        // A crash: the process is killed outright.
        kill(try term.childPID(named: "ledger"), SIGKILL)
        #expect(term.waitForExit() != 0)
        #expect(FileManager.default.fileExists(atPath: progress))
        #expect(ledger.run("status").stdout.contains("brew in progress: Quick, step 3 of 6"))

        // `brew start` offers to resume it, where it was.
        try term.respawn(command(ledger, "brew start"))
        term.waitFor("A brew is in progress: Quick, step 3 of 6")
        try term.send("Enter")
        term.waitFor("READY")  // its 2 s bloom ran on meanwhile
        #expect(term.screen().contains("Step 3 of 6"))
        try term.send("Enter")
        term.waitFor("Step 4 of 6")
        // Leaving asks, and keeps the brew.
        try term.send("q")
        term.waitFor("Leave the brew?")
        try term.send("x")  // any other key: stay
        term.waitFor("[p] Pause")
        try term.send("q")
        term.waitFor("Leave the brew?")
        try term.send("l")
        #expect(term.waitForExit() == 0)
        #expect(term.screen().contains("stays in progress (step 4 of 6)"))
        let stored = try #require(ledger.document(".git/ledger/brew-in-progress.json"))
        #expect(stored["stepIndex"] == .number(3))

        // Closing the terminal (SIGHUP) keeps it too, and restores nothing it should not.
        try term.respawn(command(ledger, "brew start"))
        term.waitFor("A brew is in progress: Quick, step 4 of 6")
        try term.send("Enter")
        term.waitFor("Step 4 of 6 · brew clock")
        kill(try term.childPID(named: "ledger"), SIGHUP)
        #expect(term.waitForExit() == 130)
        #expect(FileManager.default.fileExists(atPath: progress))

        // Discarding it from the offer starts over on the confirm-inputs screen.
        try term.respawn(command(ledger, "brew start"))
        term.waitFor("A brew is in progress")
        try term.send("d")
        term.waitFor("The earlier brew was discarded")
        #expect(term.screen().contains("Confirm inputs"))
        #expect(!FileManager.default.fileExists(atPath: progress))
        try term.send("q")
        #expect(term.waitForExit() == 0)
        #expect(term.screen().contains("No brew started."))
        #expect(ledger.run("brew", "logs", "--json").json.arrayValue?.isEmpty == true)
    }

    @Test
    func discardingAfterTheBrewLogsNothing() throws {
        let ledger = try ledger()
        let term = try TmuxTerminal(command: command(ledger, "brew start Quick"))
        defer { term.stop() }
        term.waitFor("Confirm inputs")
        try term.send("Enter")
        for n in 1...6 {
            term.waitFor("Step \(n) of 6")
            try term.send("Enter")
        }
        term.waitFor("Brew complete")
        try term.send("d")
        term.waitFor("Discard this brew without saving a log?")
        try term.send("y")
        #expect(term.waitForExit() == 0)
        #expect(term.screen().contains("nothing was logged"))
        #expect(ledger.run("brew", "logs", "--json").json.arrayValue?.isEmpty == true)
    }
}
