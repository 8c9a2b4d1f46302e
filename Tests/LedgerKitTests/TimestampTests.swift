import Foundation
import LedgerKit
import Testing

@Suite struct TimestampTests {
    @Test(arguments: [
        ("2026-11-21T23:41:07+01:00", "2026-11-21T23:41:07+01:00", Int64(1_795_300_867_000)),
        ("2026-11-21T22:41:07Z", "2026-11-21T22:41:07+00:00", Int64(1_795_300_867_000)),
        ("2026-11-21T17:11:07.5-05:30", "2026-11-21T17:11:07.500-05:30", Int64(1_795_300_867_500)),
        ("1970-01-01T00:00:00+00:00", "1970-01-01T00:00:00+00:00", Int64(0)),
        ("2024-02-29T12:00:00+14:00", "2024-02-29T12:00:00+14:00", Int64(1_709_157_600_000)),
    ])
    func parsesAndWritesISO8601KeepingTheOffset(text: String, canonical: String, epochMs: Int64) throws {
        let t = try #require(Timestamp(iso8601: text))
        #expect(t.iso8601 == canonical)
        #expect(t.epochMilliseconds == epochMs)
        #expect(Timestamp(iso8601: t.iso8601) == t)
    }

    @Test(arguments: ["2026-02-30T10:00:00+01:00", "2026-11-21T24:00:00+01:00", "2026-11-21T10:00:00", "2026-11-21 10:00:00+01:00",
                      "2026-11-21T10:00:00+1:00", "2026-13-01T10:00:00Z", "26-11-21T10:00:00Z", "2026-11-21T10:00:00Zjunk", ""])
    func refusesWhatIsNotATimestampWithOffset(text: String) {
        #expect(Timestamp(iso8601: text) == nil)
    }

    @Test func wallClockIsTheRecordedOne() throws {
        let t = try #require(Timestamp(iso8601: "2026-12-31T23:30:00-08:00"))
        #expect(t.local.date == LocalDate(year: 2026, month: 12, day: 31))
        #expect(t.local.hour == 23)
        #expect(t.withOffset(3600).local.date == LocalDate(year: 2027, month: 1, day: 1))
        #expect(t.adding(minutes: 45).iso8601 == "2027-01-01T00:15:00-08:00")
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        #expect(Timestamp(t.date, in: paris).utcOffsetSeconds == 3600)
        #expect(Timestamp(Date(timeIntervalSince1970: 1_784_000_000), in: paris).utcOffsetSeconds == 7200)
    }

    @Test func localDateArithmeticAndWeekdays() throws {
        let d = try #require(LocalDate("2026-11-21"))
        #expect(d.isoWeekday == 6)  // a Saturday
        #expect(d.adding(days: 41).description == "2027-01-01")
        #expect(LocalDate("2024-03-01")!.adding(days: -1).description == "2024-02-29")
        #expect(LocalDate(daysSinceEpoch: 0).description == "1970-01-01")
        #expect(LocalDate("1969-12-31")!.daysSinceEpoch == -1)
        #expect(LocalDate("2026-02-29") == nil && LocalDate("2026-1-01") == nil)
    }
}
