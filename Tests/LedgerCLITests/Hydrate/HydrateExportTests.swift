import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `ledger hydrate export --ics`, read back by a real iCalendar parser (Python's `icalendar`,
/// installed by `scripts/install-deps.sh test`).
@Suite struct HydrateExportTests {
    /// Parses `path` with icalendar and prints what a calendar application would see, as JSON.
    static let reader = #"""
        import json, sys
        import icalendar
        cal = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
        events = []
        for ev in cal.walk("VEVENT"):
            start = ev.decoded("dtstart")
            alarms = []
            for a in ev.walk("VALARM"):
                alarms.append({
                    "action": str(a.get("action")),
                    "trigger": a.decoded("trigger").total_seconds(),
                    "repeat": int(a.get("repeat")) if a.get("repeat") is not None else None,
                    "duration": a.decoded("duration").total_seconds() if a.get("duration") is not None else None,
                    "description": str(a.get("description")),
                })
            events.append({
                "uid": str(ev.get("uid")),
                "summary": str(ev.get("summary")),
                "start": start.isoformat(),
                "floating": start.tzinfo is None,
                "duration": ev.decoded("duration").total_seconds(),
                "rrule": ev.get("rrule").to_ical().decode(),
                "description": str(ev.get("description")),
                "alarms": alarms,
            })
        print(json.dumps({"version": str(cal.get("version")), "name": str(cal.get("x-wr-calname")), "events": events}))
        """#

    static func parse(_ path: String) throws -> JSONValue {
        let r = try Processes.run("/usr/bin/env", ["python3", "-c", reader, path])
        guard r.status == 0 else {
            throw LedgerError.failure("python3 could not read the calendar (is icalendar installed? run scripts/install-deps.sh test): " + r.stderr)
        }
        return try JSONParser.parse(r.stdout)
    }

    @Test func theExportIsARealCalendarWithDailyAlarms() throws {
        let ledger = try TestLedger(now: "2026-11-21T23:30:00+01:00")
        let path = ledger.directory.url("water.ics")
        let r = ledger.run("hydrate", "export", "--ics", path)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("Wrote 8 daily reminders"))
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let text = String(decoding: bytes, as: UTF8.self)
        // CRLF everywhere, no line over 75 octets, and long lines really folded.
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.last == "")
        #expect(!lines.contains { $0.contains("\n") || $0.contains("\r") })
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(lines.contains { $0.hasPrefix(" ") })

        let cal = try Self.parse(path)
        #expect(cal["version"] == .string("2.0"))
        #expect(cal["name"] == .string("Water Reminder"))
        let events = try #require(cal["events"]?.arrayValue)
        #expect(events.count == 8)
        #expect(events.compactMap { $0["start"]?.stringValue } == (9...16).map { "2026-11-21T\($0 < 10 ? "0" : "")\($0):00:00" })
        #expect(events.allSatisfy { $0["floating"] == .bool(true) && $0["rrule"] == .string("FREQ=DAILY") && $0["summary"] == .string("Water") })
        #expect(Set(events.compactMap { $0["uid"]?.stringValue }).count == 8)
        #expect(events[0]["uid"] == .string("hydrate-0900@ledger"))
        // The folded, escaped description comes back whole.
        #expect(events[0]["description"] == .string(
            "Reminder 1 of 8: every 60 min from 09:00 to 17:00, follow-ups every 15 min. Had a glass? Confirm it with: ledger hydrate drank"))
        let alarm = try #require(events[0]["alarms"]?.arrayValue?.first)
        #expect(alarm["action"] == .string("DISPLAY"))
        #expect(alarm["trigger"] == .number(0))
        #expect(alarm["repeat"] == .null)
        #expect(alarm["description"] == .string("Time for a glass of water."))

        // The same schedule gives the same file: stable UIDs and stamp.
        let again = ledger.directory.url("again.ics")
        ledger.run("hydrate", "export", "--ics", again, env: ["LEDGER_NOW": "2026-12-01T10:00:00+01:00"])
        #expect(FileManager.default.contents(atPath: again) == bytes)
    }

    @Test func aNightScheduleWithFollowUpAlarms() throws {
        let ledger = try TestLedger(now: "2026-11-21T12:00:00+01:00")
        #expect(ledger.run("hydrate", "setup", "--start", "22:00", "--end", "06:00", "--interval", "120", "--follow-up", "45").status == 0)
        let path = ledger.directory.url("night.ics")
        #expect(ledger.run("hydrate", "export", "--ics", path, "--follow-ups").status == 0)
        let events = try #require(try Self.parse(path)["events"]?.arrayValue)
        #expect(events.compactMap { $0["start"]?.stringValue }
            == ["2026-11-21T22:00:00", "2026-11-22T00:00:00", "2026-11-22T02:00:00", "2026-11-22T04:00:00"])
        for e in events {
            let alarm = try #require(e["alarms"]?.arrayValue?.first)
            // 120 minutes with a follow-up every 45: at +45 and +90.
            #expect(alarm["repeat"] == .number(2))
            #expect(alarm["duration"] == .number(45 * 60))
        }
        // `-` writes to stdout.
        let stdout = ledger.run("hydrate", "export", "--ics", "-")
        #expect(stdout.stdout.hasPrefix("BEGIN:VCALENDAR\r\n"))
    }
}
