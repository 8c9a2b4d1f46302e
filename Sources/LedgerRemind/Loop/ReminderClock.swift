import CLinux
import Foundation
import LedgerKit

/// The reminder process's clock: the real clock, or real time scaled from a chosen start so a
/// test or a demo runs an hour of reminders in seconds.
///
/// It shows `start` at the real instant `realStart` and advances `rate` simulated seconds per
/// real second from there. The real clock is `CLOCK_REALTIME`, so setting the system clock
/// moves this one too (by the jump times the rate) and the event loop reports it.
///
/// From the environment (`init(environment:timeZone:)`):
/// - `LEDGER_NOW` — an ISO-8601 instant with offset: the clock starts there when the process
///   starts (every other command treats it as a fixed "now"; a resident process needs time to
///   pass);
/// - `LEDGER_CLOCK_RATE` — simulated seconds per real second, a positive number (default 1;
///   `3600` runs an hour a second). Without `LEDGER_NOW` the clock starts at the real now.
public struct ReminderClock: Sendable {
    /// What the clock showed at `realStart`, in nanoseconds since 1970.
    let startNanoseconds: Int64
    /// The real time (`CLOCK_REALTIME`) at which it showed `start`, in nanoseconds since 1970.
    let realStartNanoseconds: Int64
    /// Simulated seconds per real second.
    public let rate: Double
    /// The zone in which days begin (for `LoopEvent.newDay`).
    public let timeZone: TimeZone

    /// A clock showing `start` now and advancing `rate` times as fast as real time.
    public init(start: Date, rate: Double = 1, timeZone: TimeZone) {
        self.init(startNanoseconds: Self.nanoseconds(start), rate: rate, timeZone: timeZone)
    }

    private init(startNanoseconds: Int64?, rate: Double, timeZone: TimeZone) {
        precondition(rate > 0 && rate.isFinite, "a clock rate is a positive number")
        realStartNanoseconds = Self.realNanoseconds()
        self.startNanoseconds = startNanoseconds ?? realStartNanoseconds
        self.rate = rate
        self.timeZone = timeZone
    }

    /// The real clock.
    public static func system(timeZone: TimeZone = .current) -> ReminderClock {
        ReminderClock(startNanoseconds: nil, rate: 1, timeZone: timeZone)
    }

    /// The clock `LEDGER_NOW` and `LEDGER_CLOCK_RATE` ask for (the real clock when neither is set).
    public init(environment: [String: String], timeZone: TimeZone) throws(RemindError) {
        var rate = 1.0
        if let text = environment["LEDGER_CLOCK_RATE"], !text.isEmpty {
            guard let r = NumberText.decimal(text), r > 0, r.isFinite else {
                throw RemindError(.invalidClock, "LEDGER_CLOCK_RATE must be a positive number of simulated seconds per second, like 60 (found \"\(text)\")")
            }
            rate = r
        }
        var start: Int64?
        if let text = environment["LEDGER_NOW"], !text.isEmpty {
            guard let now = Timestamp(iso8601: text) else {
                throw RemindError(.invalidClock, "LEDGER_NOW must be an ISO-8601 timestamp with a UTC offset, like 2026-11-21T22:30:00+01:00 (found \"\(text)\")")
            }
            start = now.epochMilliseconds * 1_000_000
        }
        self.init(startNanoseconds: start, rate: rate, timeZone: timeZone)
    }

    /// The current instant on this clock.
    public var now: Date { Date(timeIntervalSince1970: Double(nowNanoseconds) / 1e9) }

    var nowNanoseconds: Int64 {
        startNanoseconds + Int64((Double(Self.realNanoseconds() - realStartNanoseconds) * rate).rounded(.down))
    }

    /// The real instant (nanoseconds since 1970) at which this clock shows `instant`, a
    /// microsecond late so that "now" read on waking is never before it despite rounding.
    func realNanoseconds(at instant: Date) -> Int64 {
        let simulated = Double(Self.nanoseconds(instant) - startNanoseconds)
        return realStartNanoseconds + Int64((simulated / rate).rounded(.up)) + 1_000
    }

    /// The start of the day after the one `instant` falls in, in `timeZone`.
    func nextDay(after instant: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: instant))!
    }

    /// The day `instant` falls in, as days since 1970-01-01 in `timeZone`.
    func day(of instant: Date) -> Int {
        let local = instant.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: instant))
        return Int((local / 86_400).rounded(.down))
    }

    static func nanoseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1e9).rounded())
    }

    static func realNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
