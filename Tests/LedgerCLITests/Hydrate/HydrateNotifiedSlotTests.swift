import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// "I Drank" confirms the reminder that was notified (`drank --slot`, the slot `due --json`
/// names), and `due`'s exit statuses tell "nothing due" from "cannot tell".
@Suite struct HydrateNotifiedSlotTests {
    static func at(_ time: String, on day: String = "2026-11-21") -> [String: String] {
        HydrateCommandTests.at(time, on: day)
    }

    static let dayPath = HydrateCommandTests.dayPath

    static func confirmations(_ ledger: TestLedger) -> [JSONValue] {
        ledger.document(dayPath)?["confirmations"]?.arrayValue ?? []
    }

    @Test func aLateClickConfirmsTheNotifiedSlotNotTheCurrentOne() throws {
        let ledger = try HydrateCommandTests.ledger()
        // The 09:00 notification answered at 10:05, in the 10:00 reminder's period.
        let r = ledger.run("hydrate", "drank", "--slot", "09:00", env: Self.at("10:05"))
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "Confirmed the 09:00 reminder. 1 out of 8 reminders completed.\n")
        #expect(Self.confirmations(ledger) == [.object(["confirmedAt": .string("2026-11-21T10:05:00+01:00"), "slot": .string("2026-11-21T09:00:00+01:00")])])
        let status = ledger.run("hydrate", "status", "--json", env: Self.at("10:06")).json
        #expect(status["completed"] == .number(1))
        #expect(status["awaitingConfirmation"] == .string("2026-11-21T10:00:00+01:00"), "the 10:00 reminder is still open")
        #expect(ledger.run("hydrate", "due", env: Self.at("10:15")).stdout == "Still time for a glass of water.\n")
        // Plain `drank` keeps its rule: the reminder whose period holds now.
        #expect(ledger.run("hydrate", "drank", env: Self.at("10:20")).stdout == "Confirmed the 10:00 reminder. 2 out of 8 reminders completed.\n")
        // Naming a confirmed reminder again counts once and records nothing.
        let again = ledger.run("hydrate", "drank", "--slot", "9:00", "--json", env: Self.at("10:25"))
        #expect(again.json["alreadyConfirmed"] == .bool(true) && again.json["confirmedAt"] == .string("2026-11-21T10:05:00+01:00"), "\(again)")
        #expect(Self.confirmations(ledger).count == 2)
        #expect(ledger.run("check").status == 0)
    }

    @Test func aClickAfterTheWindowClosedStillConfirmsItsReminderThatDay() throws {
        let ledger = try HydrateCommandTests.ledger()
        let plain = ledger.run("hydrate", "drank", env: Self.at("18:30"))
        #expect(plain.status == 0)
        #expect(plain.stdout.contains("name it with `ledger hydrate drank --slot HH:MM`"), "\(plain)")
        let late = ledger.run("hydrate", "drank", "--slot", "16:00", env: Self.at("18:30"))
        #expect(late.status == 0, "\(late)")
        #expect(late.stdout == "Confirmed the 16:00 reminder. 1 out of 8 reminders completed.\n")
        let plan = ledger.run("hydrate", "plan", env: Self.at("18:31"))
        #expect(plan.stdout.contains("  16:00  ✓ done           confirmed at 18:30, after 3 follow-ups"), "\(plan)")
        // After midnight, yesterday's reminder can no longer be confirmed; "16:00" is then today's.
        let slot = "2026-11-21T15:00:00+01:00"
        let tooLate = ledger.run("hydrate", "drank", "--slot", slot, env: Self.at("00:05", on: "2026-11-22"))
        #expect(tooLate.status == 1)
        #expect(tooLate.stderr.contains("the 15:00 reminder of 2026-11-21 can no longer be confirmed: a reminder can be confirmed until the end of its day (2026-11-22T00:00:00+01:00)"), "\(tooLate)")
        let notYet = ledger.run("hydrate", "drank", "--slot", "16:00", env: Self.at("00:05", on: "2026-11-22"))
        #expect(notYet.status == 1)
        #expect(notYet.stderr.contains("--slot: the 16:00 reminder has not come yet; nothing was recorded"), "\(notYet)")
        #expect(ledger.files(under: "hydrate/days") == [Self.dayPath])
    }

    @Test func dueJSONNamesTheSlotThatDrankConfirms() throws {
        let ledger = try HydrateCommandTests.ledger()
        let due = ledger.run("hydrate", "due", "--json", env: Self.at("11:30")).json
        #expect(due["kind"] == .string("followUp"))
        #expect(due["slot"] == .string("2026-11-21T11:00:00+01:00"))
        #expect(due["slotTime"] == .string("11:00"))
        #expect(due["time"] == .string("2026-11-21T11:30:00+01:00"))
        // Answered at 12:40: both forms name the 11:00 reminder.
        let slot = try #require(due["slot"]?.stringValue)
        let r = ledger.run("hydrate", "drank", "--slot", slot, "--json", env: Self.at("12:40"))
        #expect(r.json["slot"] == .string(slot) && r.json["alreadyConfirmed"] == .bool(false), "\(r)")
        #expect(r.json["date"] == .string("2026-11-21"))
        #expect(ledger.run("hydrate", "drank", "--slot", "11:00", env: Self.at("12:41")).stdout.contains("already confirmed at 12:40"))
        // Not due: every member is there, null.
        let quiet = ledger.run("hydrate", "due", "--json", env: Self.at("12:41")).json
        #expect(quiet["due"] == .bool(false) && quiet["slot"] == .null && quiet["slotTime"] == .null)
    }

    @Test(arguments: [
        ("25:00", Int32(2), "--slot must be a reminder's time written HH:MM"),
        ("noon", 2, "--slot must be a reminder's time"),
        ("09:30", 1, "--slot: there is no 09:30 reminder on 2026-11-21 (its reminders: 09:00, 10:00, 11:00, 12:00, 13:00, 14:00, 15:00, 16:00); nothing was recorded"),
        ("2026-11-21T09:30:00+01:00", 1, "there is no 2026-11-21T09:30:00+01:00 reminder on 2026-11-21"),
        ("15:00", 1, "--slot: the 15:00 reminder has not come yet"),
    ])
    func aSlotThatCannotBeConfirmedIsRefused(slot: String, status: Int32, message: String) throws {
        let ledger = try HydrateCommandTests.ledger()
        let r = ledger.run("hydrate", "drank", "--slot", slot, env: Self.at("14:30"))
        #expect(r.status == status, "\(r)")
        #expect(r.stderr.contains(message), "\(r)")
        #expect(ledger.files(under: "hydrate/days").isEmpty)
    }

    @Test func aNightShiftsLastReminderCanBeConfirmedThatMorning() throws {
        let ledger = try HydrateCommandTests.ledger()
        #expect(ledger.run("hydrate", "setup", "--start", "22:00", "--end", "06:00", "--interval", "120", "--follow-up", "30").status == 0)
        let r = ledger.run("hydrate", "drank", "--slot", "04:00", env: Self.at("07:10", on: "2026-11-22"))
        #expect(r.stdout == "Confirmed the 04:00 reminder of 2026-11-21. 1 out of 4 reminders completed.\n", "\(r)")
        #expect(ledger.document(Self.dayPath)?["completed"] == .number(1))
    }

    // MARK: - due's exit statuses

    @Test func dueTellsABrokenScheduleFromAQuietMinute() throws {
        let ledger = try HydrateCommandTests.ledger()
        let quiet = ledger.run("hydrate", "due", env: Self.at("09:05"))
        #expect(quiet.status == 1 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
        try ledger.write("hydrate/schedule.json", """
            {"createdAt": "2026-11-21T08:00:00+01:00", "updatedAt": "2026-11-21T08:00:00+01:00",
             "startTime": "09:00", "endTime": "17:00", "intervalMinutes": 60, "followUpIntervalMinutes": 90}
            """)
        for args in [["hydrate", "due"], ["hydrate", "due", "--json"]] {
            let broken = ledger.run(arguments: args, env: Self.at("09:05"))
            #expect(broken.status == 2, "\(args): \(broken)")
            #expect(broken.stdout.isEmpty)
            #expect(broken.stderr.contains("hydrate/schedule.json is invalid"), "\(broken)")
            #expect(broken.stderr.contains("/followUpIntervalMinutes: error: must be shorter than intervalMinutes (60)"), "\(broken)")
        }
        let nowhere = ledger.run(arguments: ["hydrate", "due"], env: ["LEDGER_REPO": ledger.directory.path + "/nothing-here"])
        #expect(nowhere.status == 2 && nowhere.stderr.contains("there is no ledger"), "\(nowhere)")
    }

    @Test func aCronLineAndAShellToldApart() throws {
        // The README's crontab line, run by a real shell against the built binary, with the
        // statuses a wrapper script would branch on.
        let ledger = try HydrateCommandTests.ledger()
        let script = #"msg=$(ledger hydrate due) && echo "notify: $msg"; s=$?; [ $s -le 1 ] || echo "cannot tell: $s""#
        func cron(_ time: String) throws -> CommandResult {
            try Processes.run("/bin/sh", ["-c", #"msg=$(ledger hydrate due); s=$?; echo "$s $msg""#],
                              environment: ledger.environment.merging(Self.at(time)) { $1 }, currentDirectory: ledger.root)
        }
        #expect(try cron("10:00").stdout == "0 Time for a glass of water.\n")
        #expect(try cron("10:01").stdout == "1 \n")
        let notify = try Processes.run("/bin/sh", ["-c", script], environment: ledger.environment.merging(Self.at("10:15")) { $1 },
                                       currentDirectory: ledger.root)
        #expect(notify.stdout == "notify: Still time for a glass of water.\n", "\(notify)")
        try ledger.write("hydrate/schedule.json", "{\"startTime\": \"09:00\"")
        let broken = try cron("10:00")
        #expect(broken.stdout == "2 \n", "\(broken)")
        #expect(broken.stderr.contains("hydrate/schedule.json is invalid"), "\(broken)")
        let wrapped = try Processes.run("/bin/sh", ["-c", script], environment: ledger.environment.merging(Self.at("10:15")) { $1 },
                                        currentDirectory: ledger.root)
        #expect(wrapped.stdout == "cannot tell: 2\n", "\(wrapped)")
    }
}
