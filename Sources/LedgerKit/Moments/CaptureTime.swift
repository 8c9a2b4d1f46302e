import Foundation

/// When a capture happened, as given on the command line (`--at`).
public enum CaptureTime {
    /// The forms `parse` reads, for messages.
    public static let forms = "15:30 (today), 2026-11-18T15:30 (on the local clock) or 2026-11-18T15:30:00+01:00"

    /// Parses `15:30` (on `now`'s date), `2026-11-18T15:30[:SS]` or `2026-11-18 15:30`
    /// (wall-clock time in `timeZone`, with the offset it has there then), or a full
    /// ISO-8601 timestamp with its offset; nil for anything else.
    public static func parse(_ text: String, now: Timestamp, timeZone: TimeZone) -> Timestamp? {
        if let t = Timestamp(iso8601: text) { return t }
        let parts = text.replacingOccurrences(of: " ", with: "T").split(separator: "T", omittingEmptySubsequences: false)
        let date: LocalDate
        let clock: Substring
        switch parts.count {
        case 1: date = now.local.date; clock = parts[0]
        case 2:
            guard let d = LocalDate(String(parts[0])) else { return nil }
            date = d; clock = parts[1]
        default: return nil
        }
        let hms = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(hms.count), hms.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(hms[0]), let m = Int(hms[1]), h < 24, m < 60 else { return nil }
        let s = hms.count == 3 ? Int(hms[2]) ?? 60 : 0
        guard s < 60 else { return nil }
        return resolve(LocalDateTime(date: date, hour: h, minute: m, second: s), in: timeZone)
    }

    /// The wall-clock time `local` in `timeZone`, with the UTC offset the zone has then (in
    /// a daylight-saving gap or overlap, the offset in force just before the change).
    public static func resolve(_ local: LocalDateTime, in timeZone: TimeZone) -> Timestamp {
        let asUTC = Timestamp(local: local, utcOffsetSeconds: 0)
        var offset = timeZone.secondsFromGMT(for: asUTC.date)
        offset = timeZone.secondsFromGMT(for: asUTC.adding(seconds: Double(-offset)).date)
        return Timestamp(local: local, utcOffsetSeconds: offset)
    }
}
