/// The sizes of time bucket moments are drawn in.
public enum BucketScale: String, Sendable, CaseIterable, Comparable {
    case hour, day, week, month, year

    public static func < (a: BucketScale, b: BucketScale) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One time bucket on the wall clock: an hour, a day, an ISO week (Monday to Sunday, in its
/// ISO week-numbering year), a month or a year.
///
/// Buckets are computed from an experience's recorded wall-clock time (its timestamp read
/// in its own UTC offset), never from the reader's time zone or locale, so every reader
/// puts every experience in the same bucket. A bucket's label is also its name on the
/// command line: `2026-11-18T15`, `2026-11-18`, `2026-W47`, `2026-11`, `2026`.
public struct MomentBucket: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let scale: BucketScale
    /// The bucket's first day (a Monday for weeks, the 1st for months, January 1st for years).
    public let firstDay: LocalDate
    /// The hour (0–23) of an hour bucket; 0 for the others.
    public let hour: Int

    private init(scale: BucketScale, firstDay: LocalDate, hour: Int = 0) {
        self.scale = scale
        self.firstDay = firstDay
        self.hour = hour
    }

    /// The bucket of `scale` that holds the wall-clock time `time`.
    public init(containing time: LocalDateTime, scale: BucketScale) {
        self.init(containing: time.date, scale: scale)
        if scale == .hour { self = MomentBucket(scale: .hour, firstDay: time.date, hour: time.hour) }
    }

    /// The bucket of `scale` that holds `date` (its first hour, for hour buckets).
    public init(containing date: LocalDate, scale: BucketScale) {
        switch scale {
        case .hour, .day: self.init(scale: scale, firstDay: date)
        case .week: self.init(scale: .week, firstDay: date.adding(days: 1 - date.isoWeekday))
        // By day counts, not by the checked initializer: the bucket after 9999's last one (which
        // a view of December 9999 steps to, to know where to stop) is in the year 10000.
        case .month: self.init(scale: .month, firstDay: date.adding(days: 1 - date.day))
        case .year:
            let daysBefore = (1..<date.month).reduce(date.day - 1) { $0 + LocalDate.daysIn(month: $1, year: date.year) }
            self.init(scale: .year, firstDay: date.adding(days: -daysBefore))
        }
    }

    /// The bucket holding the experience's recorded wall-clock time.
    public init(containing timestamp: Timestamp, scale: BucketScale) {
        self.init(containing: timestamp.local, scale: scale)
    }

    /// Parses a label: `2026-11-18T15` (hour), `2026-11-18` (day), `2026-W47` (ISO week),
    /// `2026-11` (month), `2026` (year). Nil for anything else, including weeks a year does
    /// not have.
    public init?(_ label: String) {
        let text = label.uppercased()
        func number(_ s: Substring, digits: Int) -> Int? {
            guard s.count == digits, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(s)
        }
        if let t = text.firstIndex(of: "T") {
            guard let date = LocalDate(String(text[..<t])), let h = number(text[text.index(after: t)...], digits: 2), h < 24 else { return nil }
            self.init(scale: .hour, firstDay: date, hour: h)
        } else if let date = LocalDate(text) {
            self.init(scale: .day, firstDay: date)
        } else if let w = text.range(of: "-W") {
            guard let y = number(text[..<w.lowerBound], digits: 4), let week = number(text[w.upperBound...], digits: 2),
                  let monday = Self.mondayOfISOWeek(week, in: y) else { return nil }
            self.init(scale: .week, firstDay: monday)
        } else if text.count == 7, let y = number(text.prefix(4), digits: 4), text.dropFirst(4).first == "-",
                  let m = number(text.suffix(2), digits: 2), let first = LocalDate(year: y, month: m, day: 1) {
            self.init(scale: .month, firstDay: first)
        } else if let y = number(text[...], digits: 4), let first = LocalDate(year: y, month: 1, day: 1) {
            self.init(scale: .year, firstDay: first)
        } else {
            return nil
        }
    }

    /// The forms `init?(_:)` reads, for messages.
    public static let labelForms = "2026-11-18T15 (an hour), 2026-11-18 (a day), 2026-W47 (an ISO week), 2026-11 (a month) or 2026 (a year)"

    /// `2026-11-18T15`, `2026-11-18`, `2026-W47`, `2026-11`, `2026`.
    public var label: String {
        switch scale {
        case .hour: "\(firstDay)T\(pad(hour))"
        case .day: firstDay.description
        case .week:
            "\(pad(isoWeek.year, 4))-W\(pad(isoWeek.week))"
        case .month: "\(pad(firstDay.year, 4))-\(pad(firstDay.month))"
        case .year: pad(firstDay.year, 4)
        }
    }

    public var description: String { label }

    /// The ISO week-numbering year and week of the bucket's first day.
    public var isoWeek: (year: Int, week: Int) { Self.isoWeek(of: firstDay) }

    /// The bucket's last day.
    public var lastDay: LocalDate {
        switch scale {
        case .hour, .day: firstDay
        case .week: firstDay.adding(days: 6)
        case .month: firstDay.adding(days: LocalDate.daysIn(month: firstDay.month, year: firstDay.year) - 1)
        case .year: firstDay.adding(days: LocalDate.daysIn(month: 2, year: firstDay.year) == 29 ? 365 : 364)
        }
    }

    /// The wall-clock time the bucket starts at.
    public var start: LocalDateTime { LocalDateTime(date: firstDay, hour: hour, minute: 0) }

    /// Whether the wall-clock time `time` falls in the bucket.
    public func contains(_ time: LocalDateTime) -> Bool {
        if scale == .hour { return time.date == firstDay && time.hour == hour }
        return time.date >= firstDay && time.date <= lastDay
    }

    /// Whether the experience's recorded wall-clock time falls in the bucket.
    public func contains(_ timestamp: Timestamp) -> Bool { contains(timestamp.local) }

    /// The bucket after this one.
    public var next: MomentBucket {
        switch scale {
        case .hour: hour == 23 ? MomentBucket(scale: .hour, firstDay: firstDay.adding(days: 1)) : MomentBucket(scale: .hour, firstDay: firstDay, hour: hour + 1)
        default: MomentBucket(containing: lastDay.adding(days: 1), scale: scale)
        }
    }

    /// The buckets of the smaller `scale` that make up this one, in order: a day's 24 hours,
    /// a week's 7 days, a month's days, a year's days or months.
    public func divided(into scale: BucketScale) -> [MomentBucket] {
        precondition(scale <= self.scale, "a \(self.scale) cannot be divided into \(scale)s")
        var out: [MomentBucket] = []
        var b = scale == .hour ? MomentBucket(scale: .hour, firstDay: firstDay, hour: hour) : MomentBucket(containing: firstDay, scale: scale)
        while b.firstDay <= lastDay, self.contains(b.start) {
            out.append(b)
            b = b.next
        }
        return out
    }

    public static func < (a: MomentBucket, b: MomentBucket) -> Bool {
        (a.start, b.scale) < (b.start, a.scale)
    }

    // MARK: - ISO weeks

    /// The ISO-8601 week of `date`: weeks run Monday to Sunday and belong to the year of their
    /// Thursday, so 2026-12-31 (a Thursday) is in 2026-W53 and 2027-01-01 too.
    public static func isoWeek(of date: LocalDate) -> (year: Int, week: Int) {
        let thursday = date.adding(days: 4 - date.isoWeekday)
        let january1 = LocalDate(year: thursday.year, month: 1, day: 1)!
        return (thursday.year, (thursday.daysSinceEpoch - january1.daysSinceEpoch) / 7 + 1)
    }

    /// The number of ISO weeks in ISO year `year` (52 or 53).
    public static func isoWeeks(in year: Int) -> Int {
        isoWeek(of: LocalDate(year: year, month: 12, day: 28)!).week
    }

    /// The Monday of ISO week `week` of `year`, or nil when the year has no such week.
    public static func mondayOfISOWeek(_ week: Int, in year: Int) -> LocalDate? {
        guard (1...9999).contains(year), week >= 1, week <= isoWeeks(in: year) else { return nil }
        let january4 = LocalDate(year: year, month: 1, day: 4)!
        return january4.adding(days: 1 - january4.isoWeekday + 7 * (week - 1))
    }
}
