/// A wall-clock time of day to the minute, written `HH:MM` (`09:00`, `22:30`).
///
/// It names a time on whatever day it is applied to and in whatever zone; `HydrationPlan`
/// turns it into an instant.
public struct ClockTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Minutes since midnight, 0 ..< 1440.
    public let minuteOfDay: Int

    /// `hour:minute`, or nil outside 00:00 … 23:59.
    public init?(hour: Int, minute: Int) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        minuteOfDay = hour * 60 + minute
    }

    /// Parses exactly `HH:MM` (two digits each, 00:00 … 23:59).
    public init?(_ text: some StringProtocol) {
        let u = Array(text.utf8)
        func digit(_ i: Int) -> Int? { u[i] >= 0x30 && u[i] <= 0x39 ? Int(u[i] - 0x30) : nil }
        guard u.count == 5, u[2] == UInt8(ascii: ":"), let h1 = digit(0), let h2 = digit(1), let m1 = digit(3), let m2 = digit(4)
        else { return nil }
        self.init(hour: h1 * 10 + h2, minute: m1 * 10 + m2)
    }

    public var hour: Int { minuteOfDay / 60 }
    public var minute: Int { minuteOfDay % 60 }

    /// `09:00`.
    public var description: String { pad(hour) + ":" + pad(minute) }

    public static func < (a: ClockTime, b: ClockTime) -> Bool { a.minuteOfDay < b.minuteOfDay }
}

extension ClockTime: JSONRepresentable {
    public static var expectation: String { "a time of day written HH:MM, from 00:00 to 23:59" }
    package static var jsonSchema: JSONObject {
        ["type": "string", "pattern": .string("^" + TextPattern.clock + TextPattern.end), "description": .string(expectation)]
    }

    package static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> ClockTime? {
        guard case .string(let s) = json else {
            issues.append(mismatch(json, at: pointer))
            return nil
        }
        if let t = ClockTime(s) { return t }
        issues.append(.error(pointer, "must be \(expectation) (found \"\(s)\")"))
        return nil
    }

    package var json: JSONValue { .string(description) }
}

/// When Water Reminder reminds: a daily window from `startTime` to `endTime`, a reminder every
/// `intervalMinutes` from the start, and for a reminder not yet confirmed, follow-ups every
/// `followUpIntervalMinutes` until it is confirmed or the next reminder begins.
///
/// The end is exclusive (09:00–17:00 every 60 minutes gives 8 reminders, the last at 16:00).
/// An end at or before the start means the window runs past midnight (22:00–06:00 for a
/// night shift) and belongs to the day it starts.
public struct ReminderSchedule: JSONModel, Equatable {
    /// The first reminder of the day (wall clock).
    public var startTime = ClockTime(hour: 9, minute: 0)!
    /// The end of the window (exclusive): no reminder or follow-up at or after it.
    public var endTime = ClockTime(hour: 17, minute: 0)!
    /// Minutes between reminders, 2 … 1440.
    public var intervalMinutes = 60
    /// Minutes between follow-ups of an unconfirmed reminder; at least 1 and shorter than the interval.
    public var followUpIntervalMinutes = 15
    package var unknownFields = JSONObject()

    /// The defaults, from the seed's own examples: a 60-minute interval, 15-minute follow-ups,
    /// and a 09:00–17:00 window, which gives the "3 out of 8 reminders completed" day.
    public init() {}

    /// A schedule with these values (check it with `validate`).
    public init(start: ClockTime, end: ClockTime, intervalMinutes: Int, followUpIntervalMinutes: Int) {
        startTime = start
        endTime = end
        self.intervalMinutes = intervalMinutes
        self.followUpIntervalMinutes = followUpIntervalMinutes
    }

    /// The shortest interval: a follow-up comes at least a minute after its reminder and
    /// before the next one, so an interval of one minute could not be saved with any follow-up.
    public static let minimumIntervalMinutes = 2
    /// The longest interval: one reminder a day.
    public static let maximumIntervalMinutes = 1440

    package static let fields: [Field<ReminderSchedule>] = [
        .required("startTime", { $0.startTime }, { $0.startTime = $1 }),
        .required("endTime", { $0.endTime }, { $0.endTime = $1 }),
        .required("intervalMinutes", { $0.intervalMinutes }, { $0.intervalMinutes = $1 }, intervalRule),
        .required("followUpIntervalMinutes", { $0.followUpIntervalMinutes }, { $0.followUpIntervalMinutes = $1 }, followUpRule),
    ]

    /// The rules of each interval on its own, wherever a document records them.
    static let intervalRule = ValueRule<Int>.within(minimumIntervalMinutes...maximumIntervalMinutes) { n in
        n < minimumIntervalMinutes
            ? "must be at least \(minimumIntervalMinutes) minutes, so that a follow-up (at least 1 minute after its reminder) comes before the next reminder (found \(n))"
            : "must be at most \(maximumIntervalMinutes) minutes, one reminder a day (found \(n))"
    }
    static let followUpRule = ValueRule<Int>.atLeast(1) { "must be at least 1 minute (found \($0))" }

    /// Whether the window runs past midnight into the next day.
    public var crossesMidnight: Bool { endTime <= startTime }

    /// The window's length on the wall clock, in minutes (a DST night may be an hour shorter or longer).
    public var windowMinutes: Int {
        crossesMidnight ? 1440 - startTime.minuteOfDay + endTime.minuteOfDay : endTime.minuteOfDay - startTime.minuteOfDay
    }

    /// The rules: an interval of 2 to 1440 minutes, follow-ups of at least a minute and shorter
    /// than the interval, a non-empty window. Pointers are relative to `pointer` (the
    /// schedule's object).
    public func validate(at pointer: JSONPointer) -> [DocumentIssue] {
        Self.ruleIssues(self, at: pointer) + relationIssues(at: pointer)
    }

    /// The rules relating the schedule's values, which only ledger checks.
    func relationIssues(at pointer: JSONPointer) -> [DocumentIssue] {
        var issues: [DocumentIssue] = []
        if startTime == endTime {
            issues.append(.error(pointer.appending("endTime"),
                                 "must differ from startTime (both are \(startTime)): the reminder window would be empty"))
        }
        if followUpIntervalMinutes >= 1, intervalMinutes >= Self.minimumIntervalMinutes, followUpIntervalMinutes >= intervalMinutes {
            issues.append(.error(pointer.appending("followUpIntervalMinutes"),
                                 "must be shorter than intervalMinutes (\(intervalMinutes)), so that follow-ups come between reminders (found \(followUpIntervalMinutes))"))
        }
        return issues
    }

    /// The wall-clock times of the day's reminders, as minutes after the window's start
    /// (ignoring DST; `HydrationPlan` gives the real instants).
    public var nominalSlotOffsets: [Int] {
        guard intervalMinutes >= 1, startTime != endTime else { return [] }
        return Array(stride(from: 0, to: windowMinutes, by: intervalMinutes))
    }

    /// "every 60 min from 09:00 to 17:00, follow-ups every 15 min" ("to midnight", "to 06:00
    /// the next day" for windows past midnight).
    public var summary: String {
        let end = endTime.minuteOfDay == 0 ? "midnight" : crossesMidnight ? "\(endTime) the next day" : endTime.description
        return "every \(intervalMinutes) min from \(startTime) to \(end), follow-ups every \(followUpIntervalMinutes) min"
    }
}
