import Foundation

/// Wall-clock times in a real time zone, for the few questions that need one (DST).
public enum ZonedClock {
    /// The instant `epochMilliseconds`, recorded with the offset `zone` has then.
    public static func timestamp(_ epochMilliseconds: Int64, in zone: TimeZone) -> Timestamp {
        let date = Date(timeIntervalSince1970: Double(epochMilliseconds.floorDivided(by: 1000).0))
        return Timestamp(epochMilliseconds: epochMilliseconds, utcOffsetSeconds: zone.secondsFromGMT(for: date))
    }

    /// The instant the wall clock of `zone` shows `local`: the first of two when the time
    /// occurs twice (autumn), the instant just after the gap when it does not exist (spring in
    /// Paris: 02:30 is taken as 03:00, when the clocks jumped from 02:00).
    public static func instant(_ local: LocalDateTime, in zone: TimeZone) -> Timestamp {
        shown(local, in: zone)[0]
    }

    /// The last instant, not later than `now`, at which the wall clock of `zone` showed
    /// `hour:minute:second`: today's once it has come — the later of two when the clocks went
    /// back over it, so at 02:07 after they went back 02:40 is 27 minutes ago — else
    /// yesterday's. A time the clocks skipped is taken just after the gap, as by `instant`.
    public static func lastShowing(hour: Int, minute: Int, second: Int, notAfter now: Timestamp, in zone: TimeZone) -> Timestamp {
        let today = timestamp(now.epochMilliseconds, in: zone).local.date
        func on(_ date: LocalDate) -> [Timestamp] { shown(LocalDateTime(date: date, hour: hour, minute: minute, second: second), in: zone) }
        if let t = on(today).last(where: { $0.epochMilliseconds <= now.epochMilliseconds }) { return t }
        let yesterday = on(today.adding(days: -1))
        return yesterday[yesterday.count - 1]
    }

    /// The instants the wall clock of `zone` shows `local`, earliest first: two when the time
    /// occurs twice (autumn), else one — for a time in a spring gap, the instant the gap ends
    /// (the clocks' jump itself), which the clock shows as the end of the gap (03:00).
    static func shown(_ local: LocalDateTime, in zone: TimeZone) -> [Timestamp] {
        // The wall time read as if it were UTC, in seconds.
        let wall = Int64(local.date.daysSinceEpoch) * 86_400 + Int64(local.hour * 3600 + local.minute * 60 + local.second)
        func offset(_ seconds: Int64) -> Int64 { Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))) }
        // The offsets in force half a day before and after; at most one change lies between.
        let before = offset(wall - 43_200), after = offset(wall + 43_200)
        let seconds = Set([wall - before, wall - after]).filter { wall - offset($0) == $0 }.sorted()
        guard seconds.isEmpty else { return seconds.map { timestamp($0 * 1000 + Int64(local.millisecond), in: zone) } }
        // In the gap: the change lies between the instant read with the later offset (still
        // before it) and the one read with the earlier offset (already after it); find the
        // first second at the later offset.
        var (low, high) = (wall - after, wall - before)
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if offset(middle) == after { high = middle } else { low = middle }
        }
        return [timestamp(high * 1000, in: zone)]
    }
}
