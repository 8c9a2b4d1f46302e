import LedgerKit

/// How DotLife Moments draws its dots and names its dates in the terminal: monochrome, the
/// same in every locale (English names, ISO weeks), calm words only.
enum MomentsFormat {

    /// The command that adds an experience to `bucket` (the seed's call to action): plain
    /// `add` for the bucket holding now, `add --at` for a past one, nil for one still ahead.
    static func addCommand(for bucket: MomentBucket, now: Timestamp) -> String? {
        let moment: String
        switch bucket.scale {
        case .hour: moment = ""
        case .day: moment = " --moment today"
        case .week: moment = " --moment week"
        case .month, .year: moment = ""
        }
        if bucket.contains(now) { return "ledger moments add TEXT" + moment }
        if bucket.start > now.local { return nil }
        let at = bucket.scale == .hour ? bucket.start : LocalDateTime(date: bucket.firstDay, hour: 12, minute: 0)
        return "ledger moments add TEXT --at \(bucket.firstDay)T\(clock(at))" + moment
    }
    /// The command that takes a Moments step, in its sentence's place (see `Words`).
    static func command(_ step: LedgerError.NextStep.Moments) -> String {
        switch step {
        case .repairTemplate: "`ledger moments template reset` (or `ledger moments template set TEXT`) repairs it"
        case .listMoments: "`ledger moments show BUCKET --json` lists ids"
        }
    }

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

    // MARK: - Dot matrices

    static func dots(_ matrix: DotMatrix, _ range: Range<Int>, current: MomentBucket, separator: String) -> String {
        range.map { dot(DotMark(count: matrix.counts[$0]), current: matrix.buckets[$0] == current) }
            .joined(separator: separator)
    }

    /// 24 hour dots on one line, labelled every six hours.
    static func drawDay(_ m: DotMatrix, current: MomentBucket) {
        Console.print(Style.dim("  00          06          12          18"))
        Console.print("  " + dots(m, 0..<m.buckets.count, current: current, separator: " "))
    }

    /// 7 day dots under their weekday names, with the dates below.
    static func drawWeek(_ m: DotMatrix, current: MomentBucket) {
        Console.print(Style.dim("  " + m.buckets.map { shortWeekday($0.firstDay) }.joined(separator: "  ")))
        Console.print("   " + dots(m, 0..<m.buckets.count, current: current, separator: "    "))
        Console.print(Style.dim("  " + m.buckets.map { pad(String($0.firstDay.day), 3) }.joined(separator: "  ")))
    }

    /// A calendar: one row per ISO week, Monday to Sunday, labelled with its week and dates.
    static func drawMonth(_ m: DotMatrix, current: MomentBucket) {
        Console.print(Style.dim("        Mo  Tu  We  Th  Fr  Sa  Su"))
        var i = 0
        while i < m.buckets.count {
            let first = m.buckets[i].firstDay
            let weekStart = i
            var cells = String(repeating: "    ", count: first.isoWeekday - 1)
            repeat {
                cells += "   " + dot(DotMark(count: m.counts[i]), current: m.buckets[i] == current)
                i += 1
            } while i < m.buckets.count && m.buckets[i].firstDay.isoWeekday != 1
            let week = MomentBucket.isoWeek(of: first).week
            let last = m.buckets[i - 1].firstDay
            let days = weekStart == i - 1 ? "\(first.day)" : "\(first.day)–\(last.day)"
            let padding = String(repeating: "    ", count: 7 - last.isoWeekday)
            Console.print("  " + Style.dim("W" + pad2(week)) + " " + cells + padding + "   " + Style.dim(days))
        }
    }

    /// Twelve rows of day dots, one per month.
    static func drawYearByDay(_ m: DotMatrix, current: MomentBucket) {
        var header = [Character](repeating: " ", count: 72)
        for day in [1, 5, 10, 15, 20, 25, 30] {
            for (k, c) in String(day).enumerated() { header[7 + 2 * (day - 1) + k] = c }
        }
        while header.last == " " { header.removeLast() }
        Console.print(Style.dim(String(header)))
        var i = 0
        for month in 1...12 {
            let start = i
            while i < m.buckets.count && m.buckets[i].firstDay.month == month { i += 1 }
            Console.print("  " + Style.dim(shortMonth(month)) + "  " + dots(m, start..<i, current: current, separator: " "))
        }
    }

    /// Twelve month dots under their names.
    static func drawYearByMonth(_ m: DotMatrix, current: MomentBucket) {
        Console.print(Style.dim("  " + (1...12).map { shortMonth($0) }.joined(separator: " ")))
        Console.print("   " + dots(m, 0..<m.buckets.count, current: current, separator: "   "))
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }
}
