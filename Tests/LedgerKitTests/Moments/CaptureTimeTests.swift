import Foundation
import LedgerKit
import Testing

@Suite struct CaptureTimeTests {
    static let now = Timestamp(iso8601: "2026-11-21T23:30:00+01:00")!

    @Test(arguments: [
        ("15:30", "Europe/Paris", "2026-11-21T15:30:00+01:00"),
        ("2026-11-18T15:30", "Europe/Paris", "2026-11-18T15:30:00+01:00"),
        ("2026-07-01 08:15", "Europe/Paris", "2026-07-01T08:15:00+02:00"),
        ("2026-07-01T08:15:09", "America/New_York", "2026-07-01T08:15:09-04:00"),
        ("2026-11-18T15:30:00-05:00", "Europe/Paris", "2026-11-18T15:30:00-05:00"),
    ])
    func captureTimes(text: String, zone: String, expected: String) throws {
        let tz = try #require(TimeZone(identifier: zone))
        #expect(CaptureTime.parse(text, now: Self.now, timeZone: tz)?.iso8601 == expected)
    }

    @Test(arguments: ["25:00", "15:60", "2026-13-01T10:00", "yesterday", "15", "2026-11-18", "2026-11-18T1:30"])
    func notCaptureTimes(text: String) {
        #expect(CaptureTime.parse(text, now: Self.now, timeZone: TimeZone(identifier: "Europe/Paris")!) == nil)
    }
}
