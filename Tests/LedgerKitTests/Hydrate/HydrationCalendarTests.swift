import Foundation
import LedgerKit
import Testing

@Suite struct HydrationCalendarTests {
    @Test(arguments: [0, 1, 74, 75, 76, 149, 150, 151, 400])
    func foldingKeepsEveryLineWithin75Octets(length: Int) {
        let line = "DESCRIPTION:" + String(repeating: "a", count: length)
        let folded = HydrationCalendar.fold(line)
        let parts = folded.components(separatedBy: "\r\n")
        #expect(parts.allSatisfy { $0.utf8.count <= 75 })
        #expect(parts.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        // Unfolding (RFC 5545 §3.1: remove CRLF + one space) gives the line back.
        #expect(folded.replacingOccurrences(of: "\r\n ", with: "") == line)
    }

    @Test func foldingNeverSplitsAUTF8Sequence() {
        let line = "DESCRIPTION:" + String(repeating: "💧é", count: 40)
        let folded = HydrationCalendar.fold(line)
        // Split as bytes: each line on its own must be valid UTF-8.
        var lines: [[UInt8]] = [[]]
        for b in Array(folded.utf8) {
            if b == 0x0A, lines[lines.count - 1].last == 0x0D { lines[lines.count - 1].removeLast(); lines.append([]) } else { lines[lines.count - 1].append(b) }
        }
        #expect(lines.count > 2)
        for bytes in lines {
            #expect(bytes.count <= 75)
            #expect(String(validating: bytes, as: UTF8.self) != nil)
        }
        #expect(folded.replacingOccurrences(of: "\r\n ", with: "") == line)
    }

    @Test func textIsEscaped() {
        #expect(HydrationCalendar.escape("a, b; c\\d\ne") == "a\\, b\\; c\\\\d\\ne")
    }

    @Test func oneDailyEventWithAnAlarmPerReminder() {
        var s = HydrationSchedule(H.schedule("22:00", "06:00", every: 120, followUp: 30), createdAt: H.t("2026-11-01T09:00:00+01:00"))
        s.updatedAt = H.t("2026-11-21T23:30:00+01:00")
        let ics = HydrationCalendar.ics(s, followUps: true)
        #expect(ics.hasSuffix("END:VCALENDAR\r\n"))
        #expect(!ics.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let lines = ics.components(separatedBy: "\r\n")
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 4)
        #expect(lines.filter { $0 == "RRULE:FREQ=DAILY" }.count == 4)
        #expect(lines.filter { $0 == "BEGIN:VALARM" }.count == 4)
        #expect(lines.filter { $0.hasPrefix("DTSTART:") } == ["DTSTART:20261121T220000", "DTSTART:20261122T000000",
                                                             "DTSTART:20261122T020000", "DTSTART:20261122T040000"])
        #expect(lines.filter { $0.hasPrefix("UID:") } == ["UID:hydrate-2200@ledger", "UID:hydrate-0000@ledger",
                                                         "UID:hydrate-0200@ledger", "UID:hydrate-0400@ledger"])
        // The stamp is the schedule's last change, in UTC: the same schedule gives the same bytes.
        #expect(lines.contains("DTSTAMP:20261121T223000Z"))
        #expect(lines.filter { $0 == "REPEAT:3" }.count == 4)
        #expect(HydrationCalendar.ics(s, followUps: true) == ics)
        #expect(!HydrationCalendar.ics(s).contains("REPEAT:"))
        #expect(ics.contains("X-WR-CALDESC:Water Reminder: 4 reminders a day\\, every 120 min"))
    }

    @Test func aSingleDailyReminderIsSingular() {
        let s = HydrationSchedule(H.schedule("09:00", "10:00", every: 120, followUp: 30), createdAt: H.t("2026-11-01T09:00:00+01:00"))
        let ics = HydrationCalendar.ics(s)
        #expect(ics.contains("X-WR-CALDESC:Water Reminder: 1 reminder a day\\, every 120 min"), "\(ics)")
    }
}
