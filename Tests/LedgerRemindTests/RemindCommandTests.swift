import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `ledger remind` end to end: the built binary against dunst on a private session bus, its
/// clock started by `LEDGER_NOW` and run 240 times as fast (`LEDGER_CLOCK_RATE`: a minute
/// every quarter second), buttons pressed through dunst's own context menu, the ledger changed
/// and read back by `ledger` run from a shell.
@Suite struct RemindCommandTests {
    static let rate = 240.0

    /// `ledger remind` for `ledger` on `server`'s bus, its clock starting at `now`.
    func remind(_ ledger: TestLedger, on server: NotificationServer, now: String, log: String) throws -> BackgroundProcess {
        var env = ledger.environment.merging(server.bus.environment) { a, _ in a }
        env["DBUS_SESSION_BUS_ADDRESS"] = server.bus.address
        env["LEDGER_NOW"] = now
        env["LEDGER_CLOCK_RATE"] = String(Self.rate)
        return try BackgroundProcess(LedgerBinary.path, ["remind"], environment: env, log: log)
    }

    /// `ledger ARGS` run by `/bin/sh` at `now`, as a person types it in another terminal.
    func shell(_ ledger: TestLedger, _ command: String, at now: String) throws -> CommandResult {
        var env = ledger.environment
        env["LEDGER_NOW"] = now
        return try Processes.run("/bin/sh", ["-c", command], environment: env)
    }

    @Test func theNineOClockReminderItsFollowUpIDrankAndAWithdrawal() throws {
        let server = try NotificationServer()
        let ledger = try TestLedger(now: "2026-11-21T08:59:00+01:00")
        let process = try remind(ledger, on: server, now: "2026-11-21T08:59:30+01:00", log: ledger.directory.url("remind.log"))
        defer { process.stop() }

        // 09:00: the reminder, quiet, with its button.
        #expect(eventually { server.shown().count >= 1 }, "\(process.output)")
        let reminder = try #require(server.shown().first)
        #expect(reminder.summary == "Water Reminder" && reminder.body == "Time for a glass of water.")
        #expect(reminder.urgency == "LOW" && reminder.appName == "ledger" && reminder.timeout == "0")
        // 09:15: its follow-up, in the same notification.
        #expect(eventually { server.shown().count >= 2 }, "\(process.output)")
        let followUp = server.shown()[1]
        #expect(followUp.id == reminder.id && followUp.body == "Still time for a glass of water.")

        // One reminder process per ledger, and `ledger status` names it.
        let status = try shell(ledger, "ledger status --json", at: "2026-11-21T09:20:00+01:00")
        #expect(status.json["remind"] == .object(["running": .bool(true), "pid": .number(Double(process.pid))]), "\(status)")
        let second = try shell(ledger, "ledger remind --terminal", at: "2026-11-21T09:20:00+01:00")
        #expect(second.status == 1)
        #expect(second.stderr == "ledger: a reminder process is already running for this ledger (process \(process.pid)); stop it first (`ledger status` names it)\n")

        // "I Drank" on it, picked in dunst's menu, confirms the 09:00 reminder.
        try server.pick(action: "drank")
        let confirmed = eventually {
            let day = try? shell(ledger, "ledger hydrate plan --json", at: "2026-11-21T09:59:00+01:00").json
            guard case .array(let slots)? = day?["slots"] else { return false }
            return slots.first?["state"] == .string("done")
        }
        #expect(confirmed, "\(process.output)")
        #expect(server.offeredMenu() == ["#I Drank (Water Reminder) [\(reminder.id),drank]"])
        let file = try #require(ledger.document("hydrate/days/2026/2026-11-21.json"))
        guard case .array(let confirmations)? = file["confirmations"] else {
            Issue.record("the day file has no confirmations: \(file)")
            return
        }
        #expect(confirmations.map { $0["slot"] } == [.string("2026-11-21T09:00:00+01:00")])
        #expect(eventually { (try? server.displayedCount()) == 0 })

        // 10:00 and 10:15; then `ledger hydrate drank` from a shell withdraws the follow-up.
        #expect(eventually { server.shown().contains { $0.id != reminder.id && $0.body == "Still time for a glass of water." } }, "\(process.output)")
        let ten = try #require(server.shown().last)
        let drank = try shell(ledger, "ledger hydrate drank", at: "2026-11-21T10:15:00+01:00")
        #expect(drank.stdout == "Confirmed the 10:00 reminder. 2 out of 8 reminders completed.\n", "\(drank)")
        #expect(eventually { (try? server.displayedCount()) == 0 && (try? server.historyIDs().contains(ten.id)) == true }, "\(process.output)")

        process.stop()
        #expect(process.output.contains("ledger remind: stopped after "), "\(process.output)")
        #expect(try shell(ledger, "ledger status --json", at: "2026-11-21T10:20:00+01:00").json["remind"]?["running"] == .bool(false))
    }

    @Test func aWaterlineNightRemindersPromptLogWaterAndNothingAfterTheEnd() throws {
        let server = try NotificationServer()
        let ledger = try TestLedger(now: "2026-11-21T21:00:00+01:00")
        #expect(ledger.run("waterline", "start").status == 0)
        #expect(ledger.run("waterline", "drink", "--preset", "beer", env: ["LEDGER_NOW": "2026-11-21T21:05:00+01:00"]).status == 0)
        let process = try remind(ledger, on: server, now: "2026-11-21T21:06:00+01:00", log: ledger.directory.url("remind.log"))
        defer { process.stop() }

        // The per-drink prompt (N = 1), in discreet text, with both buttons.
        #expect(eventually { server.shown().count >= 1 }, "\(process.output)")
        let prompt = try #require(server.shown().first)
        #expect(prompt.summary == "Waterline" && prompt.body == "Time for some water" && prompt.urgency == "NORMAL")

        // "Log Water" logs water of the default amount; the prompt goes.
        try server.pick(action: "log-water")
        let watered = eventually {
            guard case .array(let entries)? = try? shell(ledger, "ledger waterline entries --json", at: "2026-11-21T21:19:00+01:00").json else { return false }
            return entries.map { $0["type"] } == [.string("alcohol"), .string("water")]
        }
        #expect(watered, "\(process.output)")
        #expect(Set(server.offeredMenu()) == ["#Log Water (Waterline) [\(prompt.id),log-water]", "#Dismiss (Waterline) [\(prompt.id),dismiss]"])
        #expect(eventually { (try? server.displayedCount()) == 0 })

        // 21:20 and 21:40: the time-based reminders, the later replacing the earlier.
        #expect(eventually { server.shown().count >= 2 }, "\(process.output)")
        let twenty = server.shown()[1]
        #expect(twenty.summary == "Waterline" && twenty.body == "Time for a break")
        #expect(eventually { server.shown().count >= 3 }, "\(process.output)")
        let forty = server.shown()[2]
        #expect(forty.id != twenty.id)
        #expect(try server.historyIDs().contains(twenty.id))

        // `ledger waterline end` withdraws it, and nothing comes at 22:00.
        let end = try shell(ledger, "ledger waterline end --yes", at: "2026-11-21T21:40:00+01:00")
        #expect(end.status == 0, "\(end)")
        #expect(eventually { (try? server.displayedCount()) == 0 }, "\(process.output)")
        Thread.sleep(forTimeInterval: 25 * 60 / Self.rate)  // past 22:00 on the process's clock
        #expect(server.shown().count == 3, "\(server.shown())")
        #expect(process.isRunning)
    }

    /// "The pacing warning and the per-drink prompt carry the same discreet text; the
    /// notification server merges them and, after Log Water, the warning that is still due is
    /// not on screen." And: "The service's log gets a "waiting for process N … to finish" line
    /// each time a command runs."
    @Test func thePromptAndTheWarningStayTwoAndAnsweringOneLeavesTheOther() throws {
        let server = try NotificationServer()
        let ledger = try TestLedger(now: "2026-11-21T21:00:00+01:00")
        #expect(ledger.run("waterline", "settings", "set", "timeRemindersEnabled", "false").status == 0)
        #expect(ledger.run("waterline", "start").status == 0)
        // A 4.0 drink: the per-drink prompt (N = 1) and the pacing warning (4 ≥ 2), both due.
        #expect(ledger.run("waterline", "drink", "--std", "4", env: ["LEDGER_NOW": "2026-11-21T21:05:00+01:00"]).status == 0)
        let process = try remind(ledger, on: server, now: "2026-11-21T21:06:00+01:00", log: ledger.directory.url("remind.log"))
        defer { process.stop() }
        #expect(eventually { (try? server.displayedCount()) == 2 }, "two on screen: \(server.shown()) \(process.output)")
        let prompt = try #require(server.shown().first { $0.body == "Time for some water" }, "\(server.shown())")
        let warning = try #require(server.shown().first { $0.body == "Time to slow the pace" }, "\(server.shown())")
        #expect(prompt.id != warning.id && prompt.summary == "Waterline" && warning.summary == "Waterline")

        // "Log Water" on the prompt: the prompt goes, the warning (4 − 1 = 3, still ≥ 2) stays.
        try server.pick(action: "log-water", of: prompt.id)
        #expect(eventually { (try? shell(ledger, "ledger waterline entries --json", at: "2026-11-21T21:09:00+01:00").json.arrayValue?.count) == 2 })
        #expect(eventually { (try? server.historyIDs().contains(prompt.id)) == true && (try? server.displayedCount()) == 1 }, "\(process.output)")
        #expect(try !server.historyIDs().contains(warning.id))

        // A command holding the ledger's lock while a session file changes: the process waits
        // for it without a line in its log.
        let flock = try Processes.require("flock", package: "util-linux")
        let session = ledger.root + "/" + (ledger.files(under: "waterline/sessions").first ?? "")
        let held = try Processes.run(flock, [ledger.root + "/.git/ledger/lock", "/bin/sh", "-c", "cp '\(session)' '\(session).new' && mv '\(session).new' '\(session)' && sleep 1"])
        #expect(held.status == 0, "\(held)")
        _ = try shell(ledger, "ledger waterline water", at: "2026-11-21T21:10:00+01:00")
        Thread.sleep(forTimeInterval: 1)
        #expect(process.isRunning)
        // Stopped, it has written out all it had to say.
        process.stop()
        #expect(eventually { process.output.contains("stopped after") }, "\(process.output)")
        #expect(!process.output.contains("waiting"), "\(process.output)")
    }

    /// "When the notification server goes away, `remind` notices only at its next notification
    /// (32 s in the review); watch the bus for it." Nothing is due for hours on the process's
    /// clock here; it ends at once all the same, saying why (systemd starts it again).
    @Test func aServerThatGoesAwayIsNoticedAtOnce() throws {
        let server = try NotificationServer()
        let ledger = try TestLedger(now: "2026-11-21T21:00:00+01:00")
        let process = try remind(ledger, on: server, now: "2026-11-21T21:06:00+01:00", log: ledger.directory.url("remind.log"))
        defer { process.stop() }
        #expect(eventually { process.output.contains("reminding about") }, "\(process.output)")
        server.stopServer()
        #expect(eventually(8) { !process.isRunning }, "still running: \(process.output)")
        #expect(process.output.contains("the notification server (dunst) left the session bus"), "\(process.output)")
    }

    @Test func withoutANotificationServerItSaysWhatIsMissingAndSuggestsTheTerminal() throws {
        let bus = try PrivateSessionBus()
        let ledger = try TestLedger()
        var env = ledger.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let noServer = try LedgerBinary.run(["remind"], environment: env, currentDirectory: ledger.root)
        #expect(noServer.status == 4)
        #expect(noServer.stderr == "ledger: cannot show desktop notifications: no notification server is running on the session bus (nothing owns org.freedesktop.Notifications); start one, such as your desktop's own, dunst or mako; `ledger remind --terminal` shows the reminders in this terminal instead\n")

        env["DBUS_SESSION_BUS_ADDRESS"] = nil
        env["XDG_RUNTIME_DIR"] = ledger.directory.path
        let noBus = try LedgerBinary.run(["remind"], environment: env, currentDirectory: ledger.root)
        #expect(noBus.status == 4)
        #expect(noBus.stderr.hasPrefix("ledger: cannot show desktop notifications: there is no session bus: "), "\(noBus)")
        #expect(noBus.stderr.hasSuffix("; `ledger remind --terminal` shows the reminders in this terminal instead\n"))
    }

    @Test func installWritesAUnitSystemdAcceptsAndUninstallRemovesIt() throws {
        let analyze = try Processes.require("systemd-analyze", package: "systemd")
        let ledger = try TestLedger()
        let config = ledger.directory.url("config")
        // No user manager here (no XDG_RUNTIME_DIR, no bus): install says the command to run.
        let install = try ledger.runBinary("remind", "install", env: ["XDG_CONFIG_HOME": config])
        let unitPath = config + "/systemd/user/ledger-remind.service"
        #expect(install.status == 0, "\(install)")
        #expect(install.stdout == """
            Wrote \(unitPath) (reminders for \(ledger.root)).
            Start it now and with every graphical session with:
              systemctl --user enable --now ledger-remind.service

            """)
        let unit = try String(contentsOfFile: unitPath, encoding: .utf8)
        let binary = try #require(realpath(LedgerBinary.path, nil).map { p in defer { free(p) }; return String(cString: p) })
        #expect(unit.contains("ExecStart=\(binary) remind --repo \(ledger.root)\n"), "\(unit)")
        #expect(unit.contains("Restart=on-failure\n"))

        let verify = try ledger.verifyUserUnit(unitPath, analyze: analyze)
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify)")

        let uninstall = try ledger.runBinary("remind", "uninstall", env: ["XDG_CONFIG_HOME": config])
        #expect(uninstall.stdout == "Removed \(unitPath) (reminders for \(ledger.root)).\n", "\(uninstall)")
        #expect(!FileManager.default.fileExists(atPath: unitPath))
        let again = try ledger.runBinary("remind", "uninstall", env: ["XDG_CONFIG_HOME": config])
        #expect(again.status == 0 && again.stdout == "ledger-remind.service is not installed (there is no \(unitPath)).\n", "\(again)")
    }
}
