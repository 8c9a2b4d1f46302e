import ArgumentParser
import LedgerKit

/// What every view takes: `--date` and `--json`.
struct MomentsViewOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Show the view around this date instead of today.", valueName: "YYYY-MM-DD"))
    var date: String?

    @Flag(help: "Print the dots as JSON: {\"buckets\": [{\"start\", \"bucket\", \"count\"}…]}.")
    var json = false

    @OptionGroup var global: GlobalOptions
}

/// `ledger moments today [--date D] [--json]`
struct MomentsTodayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "today", abstract: "A day as 24 hour dots.")
    @OptionGroup var options: MomentsViewOptions
    func run() throws { try MomentsViews.show(.today, options) }
}

/// `ledger moments week [--date D] [--json]`
struct MomentsWeekCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "week", abstract: "An ISO week (Monday to Sunday) as 7 day dots.")
    @OptionGroup var options: MomentsViewOptions
    func run() throws { try MomentsViews.show(.week, options) }
}

/// `ledger moments month [--date D] [--json]`
struct MomentsMonthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "month", abstract: "A month as a calendar of day dots.")
    @OptionGroup var options: MomentsViewOptions
    func run() throws { try MomentsViews.show(.month, options) }
}

/// `ledger moments year [--date D] [--months] [--json]`
struct MomentsYearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "year", abstract: "A year as its days (or, with --months, its 12 months).")
    @Flag(help: "One dot per month instead of one per day.")
    var months = false
    @OptionGroup var options: MomentsViewOptions
    func run() throws { try MomentsViews.show(.year, options, byMonth: months) }
}

/// Reading and drawing the views.
enum MomentsViews {
    static func show(_ view: MomentView, _ options: MomentsViewOptions, byMonth: Bool = false) throws {
        let env = try options.global.environment()
        let today = env.now.local.date
        var date = today
        if let text = options.date {
            guard let d = LocalDate(text) else { throw LedgerError.usage("--date is a date like 2026-11-18 (found \"\(text)\")") }
            date = d
        }
        let span = view.span(around: date)
        let scale = view.dotScale(byMonth: byMonth)
        let experiences = try env.store.repository(Experience.self).experiences(in: span)
        let matrix = DotMatrix(span: span, scale: scale, experiences: experiences)
        if options.json {
            let buckets = zip(matrix.buckets, matrix.counts).map { b, n -> JSONValue in
                .object(["start": .string(MomentsText.start(b)), "bucket": .string(b.label), "count": .number(Double(n))])
            }
            Output.json(.object(["view": .string(view.rawValue), "date": .string(date.description), "span": .string(span.label),
                         "scale": .string(scale.rawValue), "total": .number(Double(matrix.total)), "buckets": .array(buckets)]))
            return
        }
        let current = MomentBucket(containing: env.now.local, scale: scale)
        Console.print(Style.bold(MomentsText.title(span)))
        Console.print("")
        switch (view, scale) {
        case (.today, _): drawDay(matrix, current: current)
        case (.week, _): drawWeek(matrix, current: current)
        case (.month, _): drawMonth(matrix, current: current)
        case (.year, .month): drawYearByMonth(matrix, current: current)
        case (.year, _): drawYearByDay(matrix, current: current)
        }
        Console.print("")
        if matrix.total > 0 {
            Console.print("  \(MomentsText.experiences(matrix.total))   " + MomentsText.legend)
            Console.print(Style.dim("  A dot's experiences: ledger moments show \(matrix.buckets[matrix.counts.lastIndex { $0 > 0 }!].label)"))
        } else {
            Console.print("  " + MomentsText.legend)
            Console.print(Style.dim("  Add an experience: ledger moments add TEXT"))
        }
    }

    static func dots(_ matrix: DotMatrix, _ range: Range<Int>, current: MomentBucket, separator: String) -> String {
        range.map { MomentsText.dot(DotMark(count: matrix.counts[$0]), current: matrix.buckets[$0] == current) }
            .joined(separator: separator)
    }

    /// 24 hour dots on one line, labelled every six hours.
    static func drawDay(_ m: DotMatrix, current: MomentBucket) {
        Console.print(Style.dim("  00          06          12          18"))
        Console.print("  " + dots(m, 0..<m.buckets.count, current: current, separator: " "))
    }

    /// 7 day dots under their weekday names, with the dates below.
    static func drawWeek(_ m: DotMatrix, current: MomentBucket) {
        Console.print(Style.dim("  " + m.buckets.map { MomentsText.shortWeekday($0.firstDay) }.joined(separator: "  ")))
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
                cells += "   " + MomentsText.dot(DotMark(count: m.counts[i]), current: m.buckets[i] == current)
                i += 1
            } while i < m.buckets.count && m.buckets[i].firstDay.isoWeekday != 1
            let week = MomentBucket.isoWeek(of: first).week
            let last = m.buckets[i - 1].firstDay
            let days = weekStart == i - 1 ? "\(first.day)" : "\(first.day)–\(last.day)"
            let padding = String(repeating: "    ", count: 7 - last.isoWeekday)
            Console.print("  " + Style.dim("W" + MomentsText.pad2(week)) + " " + cells + padding + "   " + Style.dim(days))
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
            Console.print("  " + Style.dim(MomentsText.shortMonth(month)) + "  " + dots(m, start..<i, current: current, separator: " "))
        }
    }

    /// Twelve month dots under their names.
    static func drawYearByMonth(_ m: DotMatrix, current: MomentBucket) {
        Console.print(Style.dim("  " + (1...12).map { MomentsText.shortMonth($0) }.joined(separator: " ")))
        Console.print("   " + dots(m, 0..<m.buckets.count, current: current, separator: "   "))
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }
}
