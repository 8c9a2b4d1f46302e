import Foundation
import LedgerKit
import LedgerTestSupport
import Synchronization
import Testing

/// `ledger hydrate …` end to end, in-process, on temporary ledgers.
@Suite struct HydrateCommandTests {
    /// A ledger made on the morning of 2026-11-21 in Paris, with the default schedule.
    static func ledger(_ now: String = "2026-11-21T08:00:00+01:00", zone: String = "Europe/Paris") throws -> TestLedger {
        try TestLedger(now: now, timeZone: zone)
    }

    static func at(_ time: String, on day: String = "2026-11-21") -> [String: String] {
        ["LEDGER_NOW": "\(day)T\(time):00+01:00"]
    }

    static let dayPath = "hydrate/days/2026/2026-11-21.json"

    // MARK: - status

    @Test func aNewLedgerHasTheDefaultScheduleAndShowsItsProgress() throws {
        let ledger = try Self.ledger()
        #expect(ledger.document("hydrate/schedule.json")?["intervalMinutes"] == .number(60))
        let r = ledger.run("hydrate", "status", env: Self.at("13:30"))
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("0 out of 8 reminders completed"))
        #expect(r.stdout.contains("░░░░░░░░"))
        #expect(r.stdout.contains("The 13:00 reminder is open"))
        let json = ledger.run("hydrate", "status", "--json", env: Self.at("07:00")).json
        #expect(json["completed"] == .number(0))
        #expect(json["total"] == .number(8))
        #expect(json["next"] == .string("2026-11-21T09:00:00+01:00"))
    }

    /// A day is planned in the zone its file records; read on another clock (the morning
    /// after a flight to New York), its times carry their offset, so "the 11:00 reminder" is
    /// never read as 11:00 in New York. On the day's own clock they stay bare.
    @Test func aDayReadInAnotherZoneShowsItsOffsets() throws {
        let ledger = try Self.ledger()
        #expect(ledger.run("hydrate", "drank", env: Self.at("09:10")).status == 0)
        let newYork = ["TZ": "America/New_York", "LEDGER_NOW": "2026-11-21T05:30:00-05:00"]  // 11:30 in Paris
        let status = ledger.run("hydrate", "status", env: newYork)
        #expect(status.status == 0, "\(status)")
        #expect(status.stdout.contains("The 11:00 (+01:00) reminder is open"), "\(status)")
        let plan = ledger.run("hydrate", "plan", env: newYork)
        #expect(plan.stdout.contains("09:00 (+01:00)  ✓ done           confirmed at 09:10 (+01:00)"), "\(plan)")
        #expect(plan.stdout.contains("16:00 (+01:00)    upcoming"), "\(plan)")
        // At home, as before.
        let home = ledger.run("hydrate", "plan", env: Self.at("11:30"))
        #expect(home.stdout.contains("  09:00  ✓ done           confirmed at 09:10\n"), "\(home)")
        #expect(!home.stdout.contains("+01:00"), "\(home)")
    }

    @Test func threeOutOfEight() throws {
        let ledger = try Self.ledger()
        for time in ["09:04", "11:30", "12:59"] { #expect(ledger.run("hydrate", "drank", env: Self.at(time)).status == 0) }
        let r = ledger.run("hydrate", "status", env: Self.at("13:30"))
        #expect(r.stdout.hasPrefix("3 out of 8 reminders completed"), "\(r)")
        #expect(r.stdout.contains("███░░░░░"))
        let json = ledger.run("hydrate", "status", "--json", env: Self.at("13:30")).json
        #expect(json["completed"] == .number(3))
        #expect(json["total"] == .number(8))
        #expect(json["upcoming"] == .number(3))
        #expect(json["awaitingConfirmation"] == .string("2026-11-21T13:00:00+01:00"))
        let board = ledger.run("status", env: Self.at("13:30"))
        #expect(board.stdout.contains("Water Reminder  3 out of 8 reminders completed today · the 13:00 reminder is open"), "\(board)")
        #expect(ledger.run("status", "--json", env: Self.at("13:30")).json["hydrate"]?["completed"] == .number(3))
    }

    /// A derived count of the wrong shape is stale, not an error (as Waterline's): the app
    /// reads the day, `check` counts it fixable, `--fix` and the next write recompute it.
    @Test(arguments: ["\"2\"", "1.5", "null", "true"])
    func aDerivedCountOfTheWrongShapeIsStale(_ stored: String) throws {
        let ledger = try Self.ledger()
        for time in ["09:04", "10:10"] { #expect(ledger.run("hydrate", "drank", env: Self.at(time)).status == 0) }
        let text = try #require(ledger.read(Self.dayPath))
        #expect(text.contains("\"total\": 8") && text.contains("\"completed\": 2"))
        try ledger.write(Self.dayPath, text.replacingOccurrences(of: "\"total\": 8", with: "\"total\": \(stored)"))
        let status = ledger.run("hydrate", "status", "--json", env: Self.at("10:30"))
        #expect(status.status == 0, "\(status)")
        #expect(status.json["completed"] == .number(2) && status.json["total"] == .number(8))
        let check = ledger.run("check", "--json")
        #expect(check.status == 0, "\(check)")
        let problems = check.json["problems"]?.arrayValue ?? []
        #expect(problems.map { $0["pointer"] } == [.string("/total")], "\(check)")
        #expect(problems.first?["message"]?.stringValue?.hasPrefix("derived value is stale") == true, "\(check)")
        #expect(problems.first?["fixable"] == .bool(true), "\(check)")
        #expect(ledger.run("check", "--fix").status == 0)
        #expect(ledger.document(Self.dayPath)?["total"] == .number(8))
        #expect(ledger.run("check").stdout.contains("no problems"))
        // The next write recomputes it too.
        try ledger.write(Self.dayPath, text.replacingOccurrences(of: "\"completed\": 2", with: "\"completed\": \(stored)"))
        #expect(ledger.run("hydrate", "drank", env: Self.at("11:05")).status == 0)
        #expect(ledger.document(Self.dayPath)?["completed"] == .number(3))
    }

    @Test func aBadDateIsAUsageError() throws {
        let ledger = try Self.ledger()
        let r = ledger.run("hydrate", "status", "--date", "21/11/2026")
        #expect(r.status == 2)
        #expect(r.stderr.contains("--date"))
    }

    // MARK: - drank

    @Test func drankConfirmsTheCurrentSlotOnce() throws {
        let ledger = try Self.ledger()
        let first = ledger.run("hydrate", "drank", env: Self.at("10:20"))
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout == "Confirmed the 10:00 reminder. 1 out of 8 reminders completed.\n")
        let bytes = ledger.read(Self.dayPath)
        let second = ledger.run("hydrate", "drank", env: Self.at("10:59"))
        #expect(second.status == 0)
        #expect(second.stdout.contains("already confirmed at 10:20; it counts once"))
        // Not recorded again: the file is untouched.
        #expect(ledger.read(Self.dayPath) == bytes)
        let json = ledger.run(arguments: ["hydrate", "drank", "--json"], env: Self.at("11:00")).json
        #expect(json["confirmed"] == .bool(true))
        #expect(json["alreadyConfirmed"] == .bool(false))
        #expect(json["slot"] == .string("2026-11-21T11:00:00+01:00"))
        #expect(json["completed"] == .number(2))
        let day = try #require(ledger.document(Self.dayPath))
        #expect(day["confirmations"]?.arrayValue?.compactMap { $0["confirmedAt"]?.stringValue }
            == ["2026-11-21T10:20:00+01:00", "2026-11-21T11:00:00+01:00"])
        #expect(day["completed"] == .number(2))
        #expect(day["timeZone"] == .string("Europe/Paris"))
        #expect(ledger.run("check").status == 0)
    }

    @Test func concurrentTapsOnTwoTerminalsCountOnce() throws {
        let ledger = try Self.ledger()
        let results = Mutex<[CommandResult?]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            let r = try? ledger.runBinary("hydrate", "drank", env: ["LEDGER_NOW": "2026-11-21T14:0\(i):00+01:00"])
            results.withLock { $0.append(r) }
        }
        let all = results.withLock { $0 }.compactMap { $0 }
        #expect(all.count == 4)
        #expect(all.allSatisfy { $0.status == 0 }, "\(all)")
        #expect(all.filter { $0.stdout.hasPrefix("Confirmed the 14:00 reminder.") }.count == 1)
        #expect(all.filter { $0.stdout.contains("already confirmed") }.count == 3)
        #expect(ledger.document(Self.dayPath)?["confirmations"]?.arrayValue?.count == 1)
    }

    /// "The quick start's `ledger hydrate drank`, typed before the day's first reminder …
    /// exits 1: "nothing to confirm yet: the first reminder … is at 09:00; nothing was
    /// recorded" — … their glass of water is lost." A glass outside the reminders is kept and
    /// shown; it counts for no reminder (the seed's "3 out of 8 reminders completed" counts
    /// reminders), and the reminders still come.
    @Test func drankOutsideTheWindowKeepsTheGlassAndCountsNoReminder() throws {
        let ledger = try Self.ledger()
        let early = ledger.run("hydrate", "drank", env: Self.at("06:10"))
        #expect(early.status == 0, "\(early)")
        #expect(early.stdout == "Noted a glass at 06:10, before the first reminder of the day (09:00). It counts for no reminder. "
            + "0 out of 8 reminders completed.\n", "\(early)")
        let json = ledger.run(arguments: ["hydrate", "drank", "--json"], env: Self.at("08:59")).json
        // `outsideReminders` is the day's glasses outside the reminders, as `status` gives it.
        #expect(json["confirmed"] == .bool(false) && json["slot"] == .null, "\(json)")
        #expect(json["outsideReminders"]?.arrayValue?.compactMap(\.stringValue) == ["2026-11-21T06:10:00+01:00", "2026-11-21T08:59:00+01:00"], "\(json)")
        #expect(json["completed"] == .number(0) && json["total"] == .number(8))
        // The 09:00 reminder still comes, and counts when confirmed.
        #expect(ledger.run("hydrate", "due", env: Self.at("09:00")).stdout == "Time for a glass of water.\n")
        #expect(ledger.run("hydrate", "drank", env: Self.at("09:05")).stdout.hasPrefix("Confirmed the 09:00 reminder. 1 out of 8"))
        let confirmed = ledger.run(arguments: ["hydrate", "drank", "--json"], env: Self.at("09:06")).json
        #expect(confirmed["alreadyConfirmed"] == .bool(true) && confirmed["outsideReminders"]?.arrayValue?.count == 2, "\(confirmed)")
        let late = ledger.run("hydrate", "drank", env: Self.at("23:30"))
        #expect(late.status == 0 && late.stdout.contains("Noted a glass at 23:30, after the day's reminders ended (17:00)"), "\(late)")
        #expect(late.stdout.contains("`ledger hydrate drank --slot HH:MM`"))
        // Kept in the day's file, shown by status and plan.
        #expect(ledger.document(Self.dayPath)?["confirmations"]?.arrayValue?.count == 4)
        #expect(ledger.document(Self.dayPath)?["completed"] == .number(1))
        let status = ledger.run("hydrate", "status", env: Self.at("23:40"))
        #expect(status.stdout.contains("1 out of 8 reminders completed") && status.stdout.contains("Also 3 glasses outside the reminders (06:10, 08:59, 23:30)."), "\(status)")
        let statusJSON = ledger.run("hydrate", "status", "--json", env: Self.at("23:40")).json
        #expect(statusJSON["outsideReminders"]?.arrayValue?.count == 3)
        let plan = ledger.run("hydrate", "plan", env: Self.at("23:40")).stdout.split(separator: "\n").map(String.init)
        #expect(plan.contains("  06:10  ✓ glass          before the first reminder; counts for no reminder"), "\(plan)")
        func row(_ time: String) throws -> Int { try #require(plan.firstIndex { $0.hasPrefix("  " + time) }, "\(time) in \(plan)") }
        #expect(try row("08:59") < row("09:00") && row("23:30") > row("16:00"), "\(plan)")
        #expect(ledger.run("check").status == 0)
    }

    @Test func drankDoesNotMoveTheSchedule() throws {
        let ledger = try Self.ledger()
        ledger.run("hydrate", "drank", env: Self.at("10:45"))
        // The next reminder still comes at 11:00, not 11:45.
        #expect(ledger.run("hydrate", "status", "--json", env: Self.at("10:46")).json["next"] == .string("2026-11-21T11:00:00+01:00"))
        #expect(ledger.run("hydrate", "due", env: Self.at("11:00")).status == 0)
    }

    // MARK: - due

    @Test(arguments: [
        // time, exit status, stdout — default schedule, nothing confirmed before 09:20
        ("08:59", 1, ""),
        ("09:00", 0, "Time for a glass of water.\n"),
        ("09:01", 1, ""),
        ("09:14", 1, ""),
        ("09:15", 0, "Still time for a glass of water.\n"),
        ("09:16", 1, ""),
        ("09:30", 1, ""),  // confirmed at 09:20: the follow-ups stop
        ("10:00", 0, "Time for a glass of water.\n"),
        ("16:45", 0, "Still time for a glass of water.\n"),
        ("17:00", 1, ""),
        ("23:30", 1, ""),
    ] as [(String, Int32, String)])
    func dueAtBeforeAndAfterSlotTimes(time: String, status: Int32, stdout: String) throws {
        let ledger = try Self.ledger()
        #expect(ledger.run("hydrate", "drank", env: Self.at("09:20")).status == 0)
        let r = ledger.run("hydrate", "due", env: Self.at(time))
        #expect(r.status == status, "\(r)")
        #expect(r.stdout == stdout)
        #expect(r.stderr.isEmpty)
        let json = ledger.run("hydrate", "due", "--json", env: Self.at(time))
        #expect(json.status == 0)
        #expect(json.json["due"] == .bool(status == 0))
        let kind: JSONValue = status != 0 ? .null : .string(stdout.hasPrefix("Still") ? "followUp" : "reminder")
        #expect(json.json["kind"] == kind)
    }

    @Test func dueOnARealProcessForAShellOneLiner() throws {
        let ledger = try Self.ledger()
        let due = try ledger.runBinary("hydrate", "due", env: Self.at("09:45"))
        #expect(due.status == 0)
        #expect(due.stdout == "Still time for a glass of water.\n")
        let none = try ledger.runBinary("hydrate", "due", env: Self.at("09:46"))
        #expect(none.status == 1)
        #expect(none.stdout.isEmpty && none.stderr.isEmpty)
    }

    // MARK: - plan

    @Test func planShowsTheTimeline() throws {
        let ledger = try Self.ledger()
        ledger.run("hydrate", "drank", env: Self.at("09:04"))
        ledger.run("hydrate", "drank", env: Self.at("10:20"))
        let r = ledger.run("hydrate", "plan", env: Self.at("12:35"))
        #expect(r.status == 0, "\(r)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("Saturday 21 November 2026 · reminders every 60 min from 09:00 to 17:00, follow-ups every 15 min"))
        #expect(lines.contains("  09:00  ✓ done           confirmed at 09:04"))
        #expect(lines.contains("  10:00  ✓ done           confirmed at 10:20, after a follow-up"))
        #expect(lines.contains("  11:00  · not confirmed  follow-ups 11:15 11:30 11:45"))
        #expect(lines.contains("  12:00  ▸ due            follow-ups sent 12:15 12:30; next follow-ups 12:45"))
        #expect(lines.contains("  13:00    upcoming"))
        #expect(lines.last == "2 out of 8 reminders completed  ██░░░░░░")

        let json = ledger.run("hydrate", "plan", "--json", env: Self.at("12:35")).json
        let slots = try #require(json["slots"]?.arrayValue)
        #expect(slots.compactMap { $0["state"]?.stringValue } == ["done", "done", "unconfirmed", "due", "upcoming", "upcoming", "upcoming", "upcoming"])
        #expect(slots[1]["followUps"] == .array([.string("2026-11-21T10:15:00+01:00")]))
        #expect(slots[0]["confirmedAt"] == .string("2026-11-21T09:04:00+01:00"))
    }

    @Test func planOfAnotherDay() throws {
        let ledger = try Self.ledger()
        let tomorrow = ledger.run("hydrate", "plan", "--date", "2026-11-22", "--json", env: Self.at("23:30")).json
        #expect(tomorrow["slots"]?.arrayValue?.allSatisfy { $0["state"] == .string("upcoming") } == true)
        let past = ledger.run("hydrate", "plan", "--date", "2026-11-20", "--json", env: Self.at("23:30")).json
        #expect(past["slots"]?.arrayValue?.allSatisfy { $0["state"] == .string("unconfirmed") } == true)
        #expect(past["total"] == .number(8))
    }

    @Test func theAutumnNightOfANightShift() throws {
        let ledger = try TestLedger(now: "2026-10-24T12:00:00+02:00", timeZone: "Europe/Paris")
        #expect(ledger.run("hydrate", "setup", "--start", "22:00", "--end", "06:00", "--interval", "60", "--follow-up", "20").status == 0)
        let json = ledger.run("hydrate", "plan", "--json").json
        #expect(json["total"] == .number(9))
        let text = ledger.run("hydrate", "plan").stdout
        // The repeated hour shows its offsets.
        #expect(text.contains("  02:00 (+02:00)    upcoming"), "\(text)")
        #expect(text.contains("  02:00 (+01:00)    upcoming"))
        // At 02:30 the second time, the current slot is the second 02:00 one.
        let r = ledger.run("hydrate", "drank", env: ["LEDGER_NOW": "2026-10-25T02:30:00+01:00"])
        #expect(r.stdout.hasPrefix("Confirmed the 02:00 (+01:00) reminder."), "\(r)")
        #expect(ledger.document("hydrate/days/2026/2026-10-24.json")?["total"] == .number(9))
    }

    @Test func aNightWindowBelongsToTheDayItStarts() throws {
        let ledger = try Self.ledger()
        #expect(ledger.run("hydrate", "setup", "--start", "22:00", "--end", "06:00", "--interval", "120", "--follow-up", "30").status == 0)
        let r = ledger.run("hydrate", "drank", env: Self.at("01:10", on: "2026-11-22"))
        #expect(r.stdout.hasPrefix("Confirmed the 00:00 reminder. 1 out of 4 reminders completed."), "\(r)")
        #expect(ledger.document(Self.dayPath)?["completed"] == .number(1))
        #expect(ledger.run("hydrate", "status", "--json", env: Self.at("05:00", on: "2026-11-22")).json["date"] == .string("2026-11-21"))
        #expect(ledger.run("hydrate", "status", "--json", env: Self.at("06:00", on: "2026-11-22")).json["date"] == .string("2026-11-22"))
        #expect(ledger.run("hydrate", "due", env: Self.at("04:30", on: "2026-11-22")).stdout == "Still time for a glass of water.\n")
    }

    // MARK: - setup

    @Test func setupWithFlags() throws {
        let ledger = try Self.ledger()
        let r = ledger.run("hydrate", "setup", "--start", "8:30", "--end", "20:30", "--interval", "90", "--follow-up", "20")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasPrefix("Saved: 8 reminders a day, every 90 min from 08:30 to 20:30, follow-ups every 20 min."))
        let s = try #require(ledger.document("hydrate/schedule.json"))
        #expect(s["startTime"] == .string("08:30"))
        #expect(s["followUpIntervalMinutes"] == .number(20))
        #expect(s["updatedAt"] == .string("2026-11-21T08:00:00+01:00"))
        #expect(ledger.run("hydrate", "setup", "--interval", "90").stdout.hasPrefix("Unchanged"))
    }

    @Test func withoutATerminalMissingValuesKeepTheirCurrentValue() throws {
        let ledger = try Self.ledger()
        #expect(ledger.run("hydrate", "setup", "--interval", "45").status == 0)
        let s = try #require(ledger.document("hydrate/schedule.json"))
        #expect((s["startTime"], s["endTime"], s["intervalMinutes"], s["followUpIntervalMinutes"])
            == (.string("09:00"), .string("17:00"), .number(45), .number(15)))
    }

    @Test(arguments: [
        (["--start", "25:00"], "--start must be a time of day written HH:MM"),
        (["--end", "noon"], "--end must be a time of day"),
        (["--start", "17:00"], "--end (endTime) must differ from startTime"),
        (["--interval", "0"], "--interval (intervalMinutes) must be at least 2 minutes"),
        (["--interval", "10"], "--follow-up (followUpIntervalMinutes) must be shorter than intervalMinutes (10)"),
        (["--follow-up", "60"], "--follow-up (followUpIntervalMinutes) must be shorter"),
        (["--interval", "ten"], "--interval"),
    ])
    func setupRefusesAnInvalidSchedule(arguments: [String], message: String) throws {
        let ledger = try Self.ledger()
        let before = ledger.read("hydrate/schedule.json")
        let r = ledger.run(arguments: ["hydrate", "setup"] + arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r)")
        #expect(ledger.read("hydrate/schedule.json") == before)
    }

    @Test func setupAsksOnATerminalForWhatTheFlagsLeaveOut() throws {
        let ledger = try Self.ledger()
        // Start 7:30, keep the end, interval 45; follow-up "abc" and 50 are refused, then 10.
        let r = ledger.run(arguments: ["hydrate", "setup"], stdin: ["7:30", "", "45", "abc", "50", "10"], terminal: true)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("Start time (HH:MM) [09:00]: "))
        #expect(r.stdout.contains("[17:00]: "))
        #expect(r.stdout.contains("\"abc\" is not a whole number of minutes; try again."))
        #expect(r.stdout.contains("give a number of minutes from 1 to 44; try again."))
        #expect(r.stdout.contains("Saved: 13 reminders a day, every 45 min from 07:30 to 17:00, follow-ups every 10 min."))
        let s = try #require(ledger.document("hydrate/schedule.json"))
        #expect((s["startTime"], s["endTime"], s["intervalMinutes"], s["followUpIntervalMinutes"])
            == (.string("07:30"), .string("17:00"), .number(45), .number(10)))
        // Only what the flags leave out is asked.
        let partial = ledger.run(arguments: ["hydrate", "setup", "--start", "08:00", "--end", "18:00", "--interval", "60"], stdin: [""], terminal: true)
        #expect(!partial.stdout.contains("Start time"))
        #expect(partial.stdout.contains("Minutes between follow-ups until you confirm (less than 60) [10]: "))
    }

    @Test func setupInterruptedSavesNothing() throws {
        let ledger = try Self.ledger()
        let before = ledger.read("hydrate/schedule.json")
        let r = ledger.run(arguments: ["hydrate", "setup"], stdin: ["10:00"], terminal: true)
        #expect(r.status == 2)
        #expect(r.stderr.contains("nothing was saved"))
        #expect(ledger.read("hydrate/schedule.json") == before)
    }

    @Test func aScheduleChangeAppliesTodayAndLeavesPastDaysAlone() throws {
        let ledger = try Self.ledger()
        ledger.run("hydrate", "drank", env: Self.at("10:05", on: "2026-11-20"))
        ledger.run("hydrate", "drank", env: Self.at("10:05"))
        #expect(ledger.run("hydrate", "setup", "--end", "21:00", env: Self.at("12:00")).status == 0)
        #expect(ledger.run("hydrate", "status", "--json", env: Self.at("12:00")).json["total"] == .number(12))
        #expect(ledger.document(Self.dayPath)?["schedule"]?["endTime"] == .string("21:00"))
        let past = ledger.run("hydrate", "status", "--date", "2026-11-20", "--json", env: Self.at("12:00")).json
        #expect(past["total"] == .number(8))
        #expect(past["completed"] == .number(1))
        #expect(ledger.run("check").status == 0)
    }

    @Test func todayFollowsTheScheduleInForceEvenWhenItsFileRecordsAnother() throws {
        // After a sync, today's file may record another schedule than schedule.json (two
        // machines created the day offline): the schedule in force plans today.
        let ledger = try Self.ledger()
        #expect(ledger.run("hydrate", "setup", "--interval", "30", env: Self.at("08:00")).status == 0)
        try ledger.write(Self.dayPath, """
            {"id": "2026-11-21", "timeZone": "Europe/Paris",
             "schedule": {"startTime": "09:00", "endTime": "18:00", "intervalMinutes": 60, "followUpIntervalMinutes": 15},
             "confirmations": [{"confirmedAt": "2026-11-21T09:05:00+01:00"}, {"confirmedAt": "2026-11-21T10:02:00+01:00"}],
             "completed": 2, "total": 9, "createdAt": "2026-11-21T09:05:00+01:00", "updatedAt": "2026-11-21T10:02:00+01:00"}
            """)
        #expect(ledger.run("check", "--fix").status == 0)  // valid on its own
        let status = ledger.run("hydrate", "status", "--json", env: Self.at("10:40")).json
        #expect(status["total"] == .number(16))
        #expect(status["schedule"]?["intervalMinutes"] == .number(30))
        #expect(ledger.run("hydrate", "status", "--date", "2026-11-21", "--json", env: Self.at("10:40")).json["total"] == .number(16))
        #expect(ledger.run("hydrate", "drank", env: Self.at("10:40")).status == 0)
        let day = try #require(ledger.document(Self.dayPath))
        #expect(day["schedule"]?["intervalMinutes"] == .number(30))
        #expect(day["schedule"]?["endTime"] == .string("17:00"))
        #expect(day["total"] == .number(16) && day["completed"] == .number(3))
        #expect(ledger.run("check").status == 0)
        // Tomorrow, the 21st is a past day and its recorded schedule (now the one in force) stays.
        #expect(ledger.run("hydrate", "setup", "--interval", "60", env: Self.at("09:00", on: "2026-11-22")).status == 0)
        let past = ledger.run("hydrate", "status", "--date", "2026-11-21", "--json", env: Self.at("09:00", on: "2026-11-22")).json
        #expect(past["total"] == .number(16))
    }

    // MARK: - hand edits and check

    @Test func handEditsAreCheckedAndRefused() throws {
        let ledger = try Self.ledger()
        try ledger.write("hydrate/schedule.json", """
            {"createdAt": "2026-11-21T08:00:00+01:00", "updatedAt": "2026-11-21T08:00:00+01:00",
             "startTime": "9:00", "endTime": "17:00", "intervalMinutes": 30, "followUpIntervalMinutes": 45}
            """)
        let check = ledger.run("check", "--json")
        #expect(check.status == 1)
        let problems = check.json["problems"]?.arrayValue ?? []
        #expect(problems.contains { $0["path"] == .string("hydrate/schedule.json") && $0["pointer"] == .string("/startTime") })
        let status = ledger.run("hydrate", "status")
        #expect(status.status == 1)
        #expect(status.stderr.contains("hydrate/schedule.json is invalid"), "\(status)")
        #expect(ledger.run("status").stdout.contains("Water Reminder  hydrate/schedule.json is invalid; see `ledger check`"))
        let json = ledger.run("status", "--json").json["hydrate"]
        #expect(json?["valid"] == .bool(false) && json?["problems"]?.arrayValue?.first?["pointer"] == .string("/startTime"), "\(String(describing: json))")
    }

    /// A day's file renamed by hand (to another date, or moved to another year's folder) is
    /// not where the day's commands look: the day's next glass is refused naming it, rather
    /// than written as a second document with the same id.
    @Test(arguments: ["hydrate/days/2026/2026-11-23.json", "hydrate/days/2026/2026-11-21 (copy).json", "hydrate/days/2025/2026-11-21.json"])
    func drankRefusesToWriteASecondDocumentBesideAMisplacedOne(_ misplaced: String) throws {
        let ledger = try Self.ledger()
        #expect(ledger.run("hydrate", "drank", env: Self.at("09:10")).status == 0)
        let day = try #require(ledger.read(Self.dayPath))
        try ledger.write(misplaced, day)
        try FileManager.default.removeItem(atPath: ledger.root + "/" + Self.dayPath)
        let r = ledger.run("hydrate", "drank", env: Self.at("10:10"))
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("\(misplaced) holds the document of 2026-11-21 (its id), which belongs at \(Self.dayPath); nothing was written"), "\(r)")
        #expect(ledger.read(Self.dayPath) == nil && ledger.read(misplaced) == day)
        // Moved back, the day counts its glasses again and takes the next.
        try FileManager.default.moveItem(atPath: ledger.root + "/" + misplaced, toPath: ledger.root + "/" + Self.dayPath)
        #expect(ledger.run("hydrate", "drank", env: Self.at("10:10")).status == 0)
        #expect(ledger.document(Self.dayPath)?["completed"] == .number(2))
    }

    /// Another day's document whose text mentions the date (a confirmation just past midnight)
    /// is not taken for the day's.
    @Test func anotherDayMentioningTheDateIsNotTakenForItsDocument() throws {
        let ledger = try Self.ledger()
        #expect(ledger.run("hydrate", "drank", env: Self.at("09:10", on: "2026-11-20")).status == 0)
        var yesterday = try #require(ledger.read("hydrate/days/2026/2026-11-20.json"))
        yesterday = yesterday.replacingOccurrences(of: "{\n", with: "{\n  \"note\": \"2026-11-21\",\n")
        try ledger.write("hydrate/days/2026/2026-11-20.json", yesterday)
        let r = ledger.run("hydrate", "drank", env: Self.at("09:10"))
        #expect(r.status == 0, "\(r)")
        #expect(ledger.document(Self.dayPath)?["completed"] == .number(1))
    }

    @Test func aHandAddedConfirmationCountsAfterCheckFix() throws {
        let ledger = try Self.ledger()
        ledger.run("hydrate", "drank", env: Self.at("09:10"))
        var text = try #require(ledger.read(Self.dayPath))
        text = text.replacingOccurrences(of: "\"confirmedAt\": \"2026-11-21T09:10:00+01:00\"\n    }",
                                         with: "\"confirmedAt\": \"2026-11-21T09:10:00+01:00\"\n    },\n    {\"confirmedAt\": \"2026-11-21T11:02:00+01:00\"}")
        try ledger.write(Self.dayPath, text)
        #expect(ledger.run("hydrate", "status", "--json", env: Self.at("12:00")).json["completed"] == .number(2))
        let check = ledger.run("check")
        #expect(check.status == 0)
        #expect(check.stdout.contains("/completed"), "\(check)")
        #expect(ledger.run("check", "--fix").status == 0)
        #expect(ledger.document(Self.dayPath)?["completed"] == .number(2))
    }

    // MARK: - first use

    @Test func untilAScheduleIsChosenTheViewsSayTheDefaultsAreInForce() throws {
        let ledger = try Self.ledger()
        let hint = "No schedule chosen yet: the defaults are in force (every 60 min from 09:00 to 17:00, follow-ups every 15 min). `ledger hydrate setup` sets your own."
        let status = ledger.run("hydrate", "status", env: Self.at("09:30"))
        #expect(status.stdout.hasSuffix(hint + "\n"), "\(status)")
        #expect(ledger.run("hydrate", "status", "--json", env: Self.at("09:30")).json["awaitsSetup"] == .bool(true))
        let plan = ledger.run("hydrate", "plan", env: Self.at("09:30"))
        #expect(plan.stdout.split(separator: "\n")[1] == Substring(hint), "\(plan)")
        #expect(ledger.run("hydrate", "plan", "--json", env: Self.at("09:30")).json["awaitsSetup"] == .bool(true))
        // `due` says it on a terminal only, on stderr: its stdout is a notification's text, and
        // cron would mail the line every minute.
        let dueOnTerminal = ledger.run(arguments: ["hydrate", "due"], env: Self.at("09:15"), terminal: true)
        #expect(dueOnTerminal.stdout == "Still time for a glass of water.\n")
        #expect(dueOnTerminal.stderr == hint + "\n")
        let dueUnderCron = ledger.run("hydrate", "due", env: Self.at("09:15"))
        #expect(dueUnderCron.stdout == "Still time for a glass of water.\n" && dueUnderCron.stderr.isEmpty)
        #expect(ledger.run("hydrate", "due", "--json", env: Self.at("09:15")).json["awaitsSetup"] == .bool(true))
        // Choosing a schedule — the defaults themselves — ends the first use.
        let setup = ledger.run("hydrate", "setup", "--interval", "60")
        #expect(setup.stdout.hasPrefix("Saved: 8 reminders a day"), "\(setup)")
        #expect(ledger.document("hydrate/schedule.json")?["setUpAt"] == .string("2026-11-21T08:00:00+01:00"))
        #expect(!ledger.run("hydrate", "status", env: Self.at("09:30")).stdout.contains("No schedule chosen yet"))
        #expect(!ledger.run("hydrate", "plan", env: Self.at("09:30")).stdout.contains("No schedule chosen yet"))
        #expect(ledger.run(arguments: ["hydrate", "due"], env: Self.at("09:15"), terminal: true).stderr.isEmpty)
        #expect(ledger.run("hydrate", "status", "--json").json["awaitsSetup"] == .bool(false))
        #expect(ledger.run("hydrate", "setup", "--interval", "60").stdout.hasPrefix("Unchanged"))
        #expect(ledger.run("check").status == 0)
    }

    // MARK: - the interval range

    @Test func theDocumentedIntervalRangeIsTheOneThatCanBeSaved() throws {
        let ledger = try Self.ledger()
        let one = ledger.run("hydrate", "setup", "--interval", "1", "--follow-up", "1")
        #expect(one.status == 2)
        #expect(one.stderr.contains("--interval (intervalMinutes) must be at least 2 minutes"), "\(one)")
        #expect(ledger.run("hydrate", "setup", "--help").stdout.contains("Minutes between reminders (2–1440)"))
        #expect(ledger.run("hydrate", "setup", "--interval", "2", "--follow-up", "1").status == 0)
        #expect(ledger.run("hydrate", "setup", "--interval", "1440", "--follow-up", "1439").status == 0)
        // The onboarding refuses 1 too, and says the range.
        let asked = ledger.run(arguments: ["hydrate", "setup"], stdin: ["", "", "1", "30", ""], terminal: true)
        #expect(asked.stdout.contains("give a number of minutes from 2 to 1440; try again."), "\(asked)")
        #expect(ledger.document("hydrate/schedule.json")?["intervalMinutes"] == .number(30))
    }

    // MARK: - output safety

    /// A value that would retitle the terminal, clear the screen and start a new line.
    static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\nrm -rf"

    /// Every byte a command printed is free of ESC and BEL, on both streams.
    static func printedSafely(_ r: CommandResult) -> Bool {
        !(r.stdout + r.stderr).unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }
    }

    @Test func aHandEditedValueCannotDriveTheTerminal() throws {
        let ledger = try Self.ledger()
        ledger.run("hydrate", "drank", env: Self.at("09:10"))
        let json = CanonicalJSON.compact(.string(Self.hostile))
        var day = try #require(ledger.read(Self.dayPath))
        day = day.replacingOccurrences(of: "\"timeZone\": \"Europe/Paris\"", with: "\"timeZone\": \(json)")
        try ledger.write(Self.dayPath, day)
        for command in [["hydrate", "status"], ["hydrate", "plan"], ["hydrate", "drank"], ["hydrate", "due"], ["status"],
                        ["hydrate", "drank", "--slot", "09:00"], ["check", "hydrate"]] {
            let r = ledger.run(arguments: command, env: Self.at("09:30"), terminal: true)
            #expect(r.status != 0 || command == ["status"], "\(command): \(r)")
            #expect(Self.printedSafely(r), "\(command): \(r)")
            // The problem stays on one line, its value shown, not obeyed.
            if command != ["status"] {
                let line = try #require((r.stdout + r.stderr).split(separator: "\n").first { $0.contains("/timeZone") }, "\(command): \(r)")
                #expect(line.contains("\\u001b]0;pwned\\u0007\\u001b[2J\\nrm -rf"), "\(line)")
            }
        }
        // A schedule value too, and a flag's value echoed in a refusal.
        try ledger.write("hydrate/schedule.json", """
            {"createdAt": "2026-11-21T08:00:00+01:00", "updatedAt": "2026-11-21T08:00:00+01:00",
             "startTime": \(json), "endTime": "17:00", "intervalMinutes": 60, "followUpIntervalMinutes": 15}
            """)
        for command in [["hydrate", "status"], ["hydrate", "due"], ["hydrate", "setup", "--start", Self.hostile]] {
            let r = ledger.run(arguments: command, env: Self.at("09:30"), terminal: true)
            #expect(r.status != 0, "\(command): \(r)")
            #expect(Self.printedSafely(r), "\(command): \(r)")
            #expect(r.stderr.contains("\\u001b]0;pwned\\u0007\\u001b[2J\\nrm -rf"), "\(command): \(r)")
        }
    }

    // MARK: - sample data

    @Test func theSampleDataIsValid() throws {
        let ledger = try TestLedger(now: "2026-11-21T23:30:00+01:00")
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("sample-data/hydrate").path
        try FileManager.default.removeItem(atPath: ledger.root + "/hydrate")
        try FileManager.default.copyItem(atPath: sample, toPath: ledger.root + "/hydrate")
        let check = ledger.run("check", "hydrate")
        #expect(check.status == 0)
        #expect(check.stdout.contains("no problems"), "\(check)")
        #expect(ledger.files(under: "hydrate/days").count == 14)
        let status = ledger.run("hydrate", "status", "--json").json
        #expect(status["date"] == .string("2026-11-21"))
        #expect(status["awaitingConfirmation"] == .string("2026-11-21T22:00:00+01:00"))
    }
}
