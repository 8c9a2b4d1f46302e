import LedgerKit

/// How DotLife Moments draws its dots and names its dates in the terminal: monochrome, the
/// same in every locale (English names, ISO weeks), calm words only.
enum MomentsText {
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                         "September", "October", "November", "December"]

    /// A dot: a faint texture, filled, or a subtle ring for several. `current` marks the
    /// bucket holding now (bold, on colour terminals only).
    static func dot(_ mark: DotMark, current: Bool = false) -> String {
        let glyph: String
        switch mark {
        case .texture: glyph = current ? "·" : Style.dim("·")
        case .filled: glyph = "●"
        case .several: glyph = "◉"
        }
        return current ? Style.bold(glyph) : glyph
    }

    /// The legend under every view.
    static var legend: String { Style.dim("● an experience   ◉ several") }

    static func weekday(_ d: LocalDate) -> String { weekdays[d.isoWeekday - 1] }
    static func shortWeekday(_ d: LocalDate) -> String { String(weekday(d).prefix(3)) }
    static func month(_ m: Int) -> String { months[m - 1] }
    static func shortMonth(_ m: Int) -> String { String(month(m).prefix(3)) }

    /// "Saturday 21 November 2026".
    static func longDate(_ d: LocalDate) -> String { "\(weekday(d)) \(d.day) \(month(d.month)) \(d.year)" }

    /// "Sat 21 Nov".
    static func shortDate(_ d: LocalDate) -> String { "\(shortWeekday(d)) \(d.day) \(shortMonth(d.month))" }

    /// "15:42".
    static func clock(_ t: LocalDateTime) -> String { "\(pad2(t.hour)):\(pad2(t.minute))" }

    static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// "16–22 November 2026", "30 November – 6 December 2026", "28 December 2026 – 3 January 2027".
    static func range(_ a: LocalDate, _ b: LocalDate) -> String {
        if a.year != b.year { return "\(a.day) \(month(a.month)) \(a.year) – \(b.day) \(month(b.month)) \(b.year)" }
        if a.month != b.month { return "\(a.day) \(month(a.month)) – \(b.day) \(month(b.month)) \(b.year)" }
        return "\(a.day)–\(b.day) \(month(a.month)) \(a.year)"
    }

    /// A bucket as a heading: "Saturday 21 November 2026, 15:00–16:00", "Week 47 of 2026 · …".
    static func title(_ b: MomentBucket) -> String {
        switch b.scale {
        case .hour: "\(longDate(b.firstDay)), \(pad2(b.hour)):00–\(pad2((b.hour + 1) % 24)):00"
        case .day: longDate(b.firstDay)
        case .week: "Week \(b.isoWeek.week) of \(b.isoWeek.year) · \(range(b.firstDay, b.lastDay))"
        case .month: "\(month(b.firstDay.month)) \(b.firstDay.year)"
        case .year: "\(b.firstDay.year)"
        }
    }

    /// "an hour", "a day", … for sentences.
    static func noun(_ scale: BucketScale) -> String {
        switch scale {
        case .hour: "hour"
        case .day: "day"
        case .week: "week"
        case .month: "month"
        case .year: "year"
        }
    }

    /// A bucket's start as JSON (`start`): its wall-clock time without an offset,
    /// `2026-11-21T15:00:00`, the same for every reader.
    static func start(_ b: MomentBucket) -> String { "\(b.firstDay)T\(pad2(b.hour)):00:00" }

    /// "1 experience", "3 experiences".
    static func experiences(_ n: Int) -> String { Output.plural(n, "experience") }
}
