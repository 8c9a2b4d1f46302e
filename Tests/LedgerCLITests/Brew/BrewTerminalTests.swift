import Foundation
@testable import LedgerCLI
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

    /// The pane's command: `ledger ARGS` in a clean environment (`now` for its clock, else the
    /// ledger's), under a shell that prints `[exit N]` when it ends; `pause` seconds first.
    func command(_ ledger: TestLedger, _ args: String, now: String? = nil, pause: Int = 0) -> String {
        TmuxTerminal.ledgerCommand(ledger, args, now: now, pause: pause)
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
        try term.leaveTheBrew()
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

    // MARK: - The step in large type

    /// BrewGuide's "big step text" at 80 × 24, on the real screen: every step of the starter
    /// shows its words in large type, steps without numbers included, with everything a brew
    /// needs still on screen — where it is, the numbers, the timer's state, the next step, the
    /// keys.
    @Test func everyStepsWordsAreLargeAndTheScreenStaysUsableAt80x24() throws {
        let ledger = try TestLedger(now: "2026-11-21T08:00:00+01:00")
        let term = try TmuxTerminal(command: command(ledger, "brew start v60-starter"))
        defer { term.stop() }
        term.waitFor("Confirm inputs")
        try term.send("Enter")
        let plan = try RecipeScaler.plan(.starter)
        for step in plan.steps {
            guard let screen = term.waitFor("Step \(step.number) of 6") else { return }
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(rows.prefix(24).allSatisfy { $0.count <= 80 }, "\(screen)")
            // The words, in three-row capitals, one block under the other.
            let big = try #require(BigText.words(step.headline, width: 76, maxLines: 3, unicode: true), "\(step.headline)")
            #expect(big.count >= 3 && big.allSatisfy { !$0.isEmpty })
            let top = try #require(rows.firstIndex(of: "  " + big[0]), "step \(step.number) is not in large type:\n\(screen)")
            #expect(Array(rows[top..<min(rows.count, top + big.count)]) == big.map { "  " + $0 }, "\(screen)")
            if step.number == 1 {
                #expect(big[0] == "█▀▄ ▀█▀ █▀▄ ▄▀▀ █▀▀    █▀▀ ▀█▀ █   ▀█▀ █▀▀ █▀▄    ▄▀▄ █▀▄ █▀▄")  // RINSE FILTER AND
            }
            // And in words, with the numbers to reach, the timer's state and what comes next.
            #expect(screen.contains("  " + step.headline + "\n"))
            if step.kind.addsWater { #expect(screen.contains("g on the scale (pour \(BrewFormat.grams(step.water)))"), "\(screen)") }
            if let t = step.timerSeconds { #expect(screen.contains("left of \(BrewFormat.clock(t))"), "\(screen)") }
            // The timer's bar, however far it has run (a loaded machine draws late), or no timer.
            #expect(screen.contains("Press enter when done") || screen.contains("░]") || screen.contains("READY"), "\(screen)")
            #expect(screen.contains(step.number == 6 ? "Next: the brew is complete" : "Next: " + plan.steps[step.number].headline), "\(screen)")
            #expect(screen.contains("[enter] Next step   [p] Pause   [r] Restart   [q] Leave"), "\(screen)")
            try term.send("Enter")
        }
        term.waitFor("Brew complete")
        try term.send("q")
        term.waitFor("Leave?")
        try term.send("l")
        #expect(term.waitForExit() == 0)
    }

    /// "At 40 columns the brew screen drops the countdown and the target scale reading and
    /// cuts the clock off; the one-line fallback is dropped instead of wrapped. … The seed's
    /// big, glanceable numbers must survive every terminal size (test 40×12, 60×12, 80×24 in
    /// tmux)." The scale reading to reach and the countdown, in the five-row font, at the
    /// bloom (45 g, 0:45) and the last pour (250 g, 0:45) of the starter; the step and the brew
    /// clock whole in the header; no line cut.
    @Test(arguments: [(40, 12), (60, 12), (80, 24)])
    func theNumbersStayLargeAtEverySize(columns: Int, rows: Int) throws {
        let ledger = try TestLedger(now: "2026-11-21T08:00:00+01:00")
        let term = try TmuxTerminal(command: command(ledger, "brew start v60-starter"), columns: columns, rows: rows)
        defer { term.stop() }
        func lines(_ screen: String) -> [String] { Array(screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).prefix(rows)) }
        func shows(_ big: [String], in screen: String) -> Bool {
            let rows = lines(screen)
            // tmux leaves out the spaces that end a line.
            let glyphs = big.map { String($0.reversed().drop { $0 == " " }.reversed()) }
            return rows.indices.contains { i in glyphs.indices.allSatisfy { i + $0 < rows.count && rows[i + $0].contains(glyphs[$0]) } }
        }
        guard let confirm = term.waitFor("Confirm inputs") else { return }
        #expect(lines(confirm).allSatisfy { $0.count <= columns && !$0.contains("…") }, "\(confirm)")
        try term.send("Enter")
        for (number, grams) in [(3, "45"), (5, "250")] {
            while term.waitFor("Step ", timeout: 5).map({ !$0.contains("Step \(number) of 6") }) ?? false {
                try term.send("Enter")
                Thread.sleep(forTimeInterval: 0.3)
            }
            guard term.waitFor("Step \(number) of 6") != nil else { return }
            try term.send("p")
            guard let screen = term.waitFor("PAUSED") else { return }
            let rows = lines(screen)
            #expect(rows.allSatisfy { $0.count <= columns }, "\(screen)")
            #expect(rows[0].contains("Step \(number) of 6 · brew clock 0:"), "the clock whole:\n\(screen)")
            #expect(rows.dropFirst().allSatisfy { !$0.contains("…") }, "nothing is cut:\n\(screen)")
            #expect(shows(BigText.render(grams, unicode: true), in: screen), "the scale reading \(grams) in large type:\n\(screen)")
            // Paused within the step's 45 s, however late a loaded machine pressed p.
            let countdowns = (1...45).map { BigText.render(BrewFormat.clock($0), unicode: true) }
            #expect(countdowns.contains { shows($0, in: screen) }, "the countdown in large type:\n\(screen)")
            #expect(screen.contains("pour \(number == 3 ? "45" : "100") g"), "\(screen)")
            try term.send("p")
            term.waitUntil("the pause to end") { !$0.contains("PAUSED") }
            try term.send("Enter")
        }
        try term.leaveTheBrew()
    }

    /// "At 80 columns the picker legend, "fix it first" and the resume prompt are cut."
    @Test func longLinesGoOnOverTheNextAt80Columns() throws {
        let ledger = try ledger()
        let quick = try #require(ledger.read(ledger.files(under: "brew/recipes")[0]))
        let id = try #require(ledger.document(ledger.files(under: "brew/recipes")[0])?["id"]?.stringValue)
        try ledger.write("brew/recipes/a-broken-recipe-with-a-long-id.json", quick.replacingOccurrences(of: #""water": 100"#, with: #""water": 90"#)
            .replacingOccurrences(of: #""name": "Quick""#, with: #""name": "A broken recipe with a long name""#)
            .replacingOccurrences(of: id, with: "a-broken-recipe-with-a-long-id"))
        let term = try TmuxTerminal(command: command(ledger, "brew start Quick"))
        defer { term.stop() }
        term.waitFor("Confirm inputs")
        try term.send("c")
        guard let list = term.waitFor("[1] V60 starter") else { return }
        let joined = list.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(joined.contains("! invalid: it cannot be brewed until fixed (`ledger brew recipe edit ID --editor`)"), "\(list)")
        try term.send("2")
        guard let refused = term.waitFor("fix it first") else { return }
        let said = refused.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(said.contains("fix it first: `ledger brew recipe edit a-broken-recipe-with-a-long-id --editor`"), "\(refused)")
        #expect(!refused.contains("…"), "\(refused)")
        try term.send("Enter")
        term.waitFor("Step 1 of 6")
        try term.leaveTheBrew()
        try term.respawn(command(ledger, "brew start Quick"))
        guard let offer = term.waitFor("A brew is in progress") else { return }
        #expect(offer.contains("[q] Quit (it stays in") && offer.contains("progress)") && !offer.contains("…"), "\(offer)")
        try term.send("q")
        #expect(term.waitForExit() == 0)
    }

    // MARK: - The recipe list, starting over, a brew left for hours

    /// The recipe list of the confirm-inputs screen lists an invalid recipe as `brew recipes`
    /// does, marked, and choosing it says why it cannot be brewed.
    @Test func theRecipeListMarksInvalidRecipes() throws {
        let ledger = try ledger()
        let quick = try #require(ledger.read(ledger.files(under: "brew/recipes")[0]))
        try ledger.write("brew/recipes/broken.json", quick.replacingOccurrences(of: #""water": 100"#, with: #""water": 90"#)
            .replacingOccurrences(of: #""name": "Quick""#, with: #""name": "Broken""#)
            .replacingOccurrences(of: try #require(ledger.document(ledger.files(under: "brew/recipes")[0])?["id"]?.stringValue), with: "broken"))
        #expect(ledger.run("brew", "recipes").stdout.contains("! broken"))
        let term = try TmuxTerminal(command: command(ledger, "brew start Quick"))
        defer { term.stop() }
        term.waitFor("Confirm inputs")
        try term.send("c")
        guard let list = term.waitFor("[1] V60 starter (starter)") else { return }
        #expect(list.contains("![2] Broken") && list.contains("INVALID: /steps"), "\(list)")
        #expect(list.contains("*[3] Quick"))
        try term.send("2")
        term.waitFor("» \"Broken\" is invalid; fix it first: `ledger brew recipe edit broken --editor`")
        #expect(term.screen().contains("BrewGuide · Quick"))
        try term.send("q")
        #expect(term.waitForExit() == 0)
    }

    /// With a brew in progress, `brew start v60-starter` and "discard it and start over"
    /// starts the recipe asked for, with the inputs asked for.
    @Test func startingOverStartsTheRecipeAskedFor() throws {
        let ledger = try ledger()
        let term = try TmuxTerminal(command: command(ledger, "brew start Quick"))
        defer { term.stop() }
        term.waitFor("Confirm inputs")
        try term.send("Enter")
        term.waitFor("Step 1 of 6")
        try term.leaveTheBrew()
        try term.respawn(command(ledger, "brew start v60-starter --dose 18"))
        term.waitFor("A brew is in progress: Quick, step 1 of 6")
        #expect(term.screen().contains("Starting over brews V60 starter."))
        try term.send("d")
        term.waitFor("The earlier brew was discarded")
        guard let screen = term.waitFor("BrewGuide · V60 starter") else { return }
        #expect(screen.contains("Confirm inputs") && screen.contains("18.0 g  (set)"), "\(screen)")
        try term.send("Enter")
        term.waitFor("Step 1 of 6")
        #expect(term.screen().contains("BrewGuide · V60 starter"))
        try term.leaveTheBrew()
        #expect(term.screen().contains("The brew of V60 starter stays in progress"))
        #expect(!term.screen().contains("were not used"), "\(term.screen())")
        #expect(ledger.document("brew/preferences.json")?["lastRecipeId"] == .string("v60-starter"))
        #expect(ledger.document("brew/preferences.json")?["inputs"]?["dose"] == .number(18))
    }

    /// A brew left hours ago: the offer says for how long and offers to discard it; resumed,
    /// its timers go on from where it was last seen, and the log's brew time is the brew's.
    @Test func aBrewResumedHoursLaterDoesNotCountTheTimeAway() throws {
        let ledger = try ledger()
        let term = try TmuxTerminal(command: command(ledger, "brew start Quick"))
        defer { term.stop() }
        term.waitFor("Confirm inputs")
        try term.send("Enter")
        for n in 2...4 {
            term.waitFor(n == 4 ? "READY" : "Step \(n - 1) of 6")
            try term.send("Enter")
        }
        term.waitFor("Step 4 of 6")
        Thread.sleep(forTimeInterval: 6)  // on screen long enough to be written again
        kill(try term.childPID(named: "ledger"), SIGKILL)
        #expect(term.waitForExit() != 0)
        let seen = try #require(ledger.document(".git/ledger/brew-in-progress.json")?["seenAt"]?.stringValue)
        #expect(seen > "2026-11-21T08:00:05+01:00", "\(seen)")

        try term.respawn(command(ledger, "brew start", now: "2026-11-21T11:12:00+01:00"))
        guard let offer = term.waitFor("A brew is in progress: Quick, step 4 of 6") else { return }
        #expect(offer.contains("It was left 3 h 1") && offer.contains(" min ago; the time away is not counted."), "\(offer)")
        #expect(offer.contains("[d] Discard it and start over"))
        try term.send("Enter")
        term.waitFor("Resumed after 3 h 1")
        #expect(!term.screen().contains("READY"))  // its minute-long pour goes on where it was
        for n in 5...6 {
            try term.send("Enter")
            term.waitFor("Step \(n) of 6")
        }
        try term.send("Enter")
        term.waitFor("Brew complete")
        try term.send("4")
        term.waitFor("4/5")
        try term.send("Enter")
        #expect(term.waitForExit() == 0)
        let log = try #require(ledger.run("brew", "logs", "--json").json.arrayValue?.first)
        let seconds = try #require(log["brewSeconds"].flatMap { if case .number(let n) = $0 { n } else { nil } })
        #expect(seconds < 120, "\(log)")
    }

    // MARK: - Output safety

    /// Escape sequences held by a recipe's steps, a recipe's name or a note reach the terminal
    /// written out, never as bytes: the window keeps its title, the screen is not cleared, and
    /// the only escape sequences ledger writes are its own.
    /// Once the brew is over — quit before starting, or left while brewing — the screen is
    /// left as it was last drawn: no frame of the post-brew form ("Brew complete", "[enter]
    /// Save brew") flashes up for a brew that was never finished.
    @Test func quittingOrLeavingDrawsNoPostBrewFrame() throws {
        let ledger = try ledger()
        for (keys, said) in [(["q"], "No brew started."), (["Enter", "q", "l"], "stays in progress")] {
            let bytes = ledger.directory.url("pane-bytes-\(keys.count)")
            let term = try TmuxTerminal(command: command(ledger, "brew start Quick", pause: 1))
            defer { term.stop() }
            try term.tmux(["pipe-pane", "-o", "-t", "t", "cat >> '\(bytes)'"])
            term.waitFor("Confirm inputs")
            for key in keys {
                try term.send(key)
                if key == "Enter" { term.waitFor("Step 1 of 6") }
                if key == "q", keys.count > 1 { term.waitFor("Leave the brew?") }
            }
            #expect(term.waitForExit() == 0)
            #expect(term.screen().contains(said), "\(term.screen())")
            let written = try String(contentsOfFile: bytes, encoding: .utf8)
            #expect(written.contains("Confirm inputs"), "\(keys)")
            #expect(!written.contains("Brew complete") && !written.contains("Save brew"), "\(keys): \(written)")
        }
    }

    @Test func valuesFromDocumentsNeverReachTheTerminalRaw() throws {
        let ledger = try ledger()
        let hostile = BrewOutputSafetyTests.hostile
        let quoted = CanonicalJSON.string(.string(hostile)).trimmingCharacters(in: .newlines)
        let path = try #require(ledger.files(under: "brew/recipes").first)
        let quick = try #require(ledger.read(path))
        // A valid recipe whose steps hold them, and an invalid one (a name may not) named so.
        try ledger.write(path, quick.replacingOccurrences(of: #""title": "Rinse filter and preheat""#, with: #""title": "# + quoted))
        let id = try #require(ledger.document(path)?["id"]?.stringValue)
        try ledger.write("brew/recipes/evil.json", quick.replacingOccurrences(of: id, with: "evil")
            .replacingOccurrences(of: #""name": "Quick""#, with: #""name": "# + quoted))
        #expect(ledger.run("check").status == 1)  // the name, only
        let bytes = ledger.directory.url("pane-bytes")
        let term = try TmuxTerminal(command: command(ledger, "brew start Quick", pause: 1))
        defer { term.stop() }
        try term.tmux(["pipe-pane", "-o", "-t", "t", "cat >> '\(bytes)'"])
        term.waitFor("Confirm inputs")
        #expect(term.screen().contains(BrewOutputSafetyTests.shown))
        try term.send("c")
        term.waitFor("[1] V60 starter (starter)")
        #expect(term.screen().contains("Kenya\\u001b]0;pwned"))
        try term.send("Escape")
        try term.send("Enter")
        term.waitFor("Step 1 of 6")
        #expect(term.screen().contains("  " + BrewOutputSafetyTests.shown))
        try term.leaveTheBrew()
        // The brew in progress, edited by hand: its recipe's name and a note.
        var progress = try #require(ledger.document(".git/ledger/brew-in-progress.json")?.objectValue)
        var plan = try #require(progress["plan"]?.objectValue)
        plan["recipeName"] = .string(hostile)
        progress["plan"] = .object(plan)
        progress["note"] = .string(hostile)
        progress["finishedAt"] = .string("2026-11-21T08:00:30+01:00")
        progress["brewSeconds"] = .number(30)
        progress["runningSince"] = .null
        try ledger.write(".git/ledger/brew-in-progress.json", CanonicalJSON.string(.object(progress)))
        try term.respawn(command(ledger, "brew start"))
        term.waitFor("A brew is in progress: Kenya\\u001b]0;pwned")
        try term.send("Enter")
        term.waitFor("Note    [n]   Kenya\\u001b]0;pwned")
        try term.send("q")
        term.waitFor("Leave?")
        try term.send("l")
        #expect(term.waitForExit() == 0)
        #expect(term.screen().contains("The brew of Kenya\\u001b]0;pwned"))
        let title = try term.tmux(["display-message", "-p", "-t", "t", "#{pane_title}"])
        #expect(!title.contains("pwned"), "\(title)")
        let written = try String(contentsOfFile: bytes, encoding: .utf8)
        #expect(written.contains("\\u001b]0;pwned"))  // it was drawn, written out
        #expect(!written.contains("\u{1B}]") && !written.contains("pwned\u{07}"), "an OSC from the data reached the terminal")
        // The screen's own clear: once per start, when the alternate screen opens (the first
        // may come before the pipe is attached), never once per frame.
        #expect((1...2).contains(written.components(separatedBy: "\u{1B}[2J").count - 1))
    }
}

extension TmuxTerminal {
    /// Leaves a started brew (`q`, then `l`: it stays in progress) and expects the command to
    /// end with status 0.
    func leaveTheBrew(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try send("q")
        waitFor("Leave the brew?", sourceLocation: sourceLocation)
        try send("l")
        #expect(waitForExit(sourceLocation: sourceLocation) == 0, sourceLocation: sourceLocation)
    }
}
