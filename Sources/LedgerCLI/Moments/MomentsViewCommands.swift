import ArgumentParser
import LedgerKit

/// What every view takes: `--date` and `--json`.
struct MomentsViewOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Show the view around this date instead of today.", valueName: "YYYY-MM-DD"), transform: DateValue.parse)
    var date: DateValue?

    @OptionGroup var output: JSONOption

    @OptionGroup var global: GlobalOptions

    /// The values given, for what depends on them.
    var given: MomentsViewGiven { MomentsViewGiven(date: date, json: output.json, global: global.choice) }
}

/// `--date`, `--json` and `--repo` as given (`MomentsViewOptions` without argument-parser's
/// wrappers, for `today`'s quick reading).
struct MomentsViewGiven {
    var date: DateValue?
    var json: Bool
    var global: LedgerChoice
}

extension MomentsCommand {
    /// `ledger moments today [--date D] [--json]`
    struct Today: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "today", abstract: "A day as 24 hour dots.")
        @OptionGroup var options: MomentsViewOptions
        func run() throws { try line.run() }
    }

    /// `ledger moments week [--date D] [--json]`
    struct Week: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "week", abstract: "An ISO week (Monday to Sunday) as 7 day dots.")
        @OptionGroup var options: MomentsViewOptions
        func run() throws { try options.given.show(.week) }
    }

    /// `ledger moments month [--date D] [--json]`
    struct Month: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "month", abstract: "A month as a calendar of day dots.")
        @OptionGroup var options: MomentsViewOptions
        func run() throws { try options.given.show(.month) }
    }

    /// `ledger moments year [--date D] [--months] [--json]`
    struct Year: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "year", abstract: "A year as its days (or, with --months, its 12 months).")
        @Flag(help: "One dot per month instead of one per day.")
        var months = false
        @OptionGroup var options: MomentsViewOptions
        func run() throws { try options.given.show(.year, byMonth: months) }
    }
    /// `ledger moments show BUCKET [--ids] [--json]`: the experiences of one dot, newest first.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "The experiences of one hour, day, week, month or year, newest first.",
            discussion: "BUCKET is \(MomentBucket.labelForms). Times are the wall-clock times the experiences were recorded at; "
                + "when the list holds several UTC offsets (a journey, a change of the clocks), each shows its offset.")

        @Argument(help: ArgumentHelp("The bucket, such as 2026-11-18T15, 2026-11-18, 2026-W47, 2026-11 or 2026.", valueName: "bucket"), completion: LiveCompletion.momentBuckets,
                  transform: BucketValue.parse)
        var bucket: BucketValue

        @Flag(help: "Also print each experience's id (for `ledger moments delete`).")
        var ids = false

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let bucket = self.bucket.bucket
            let experiences = try MomentsStore(env.store).experiences(in: bucket)
            let add = MomentsFormat.addCommand(for: bucket, now: env.now)
            if output.json {
                let rows = experiences.map { e -> JSONValue in
                    var o: JSONObject = [
                        "id": .string(e.id), "path": .string(e.path), "timestamp": e.timestamp.json,
                        "experienceType": .string(e.experienceType.rawValue), "momentType": e.momentType.json,
                        "momentLabel": .string(e.momentType.label), "payload": e.payload.map(JSONValue.string) ?? .null,
                    ]
                    if e.experienceType == .photo, let p = e.payload { o["file"] = .string(env.store.absolute(p)) }
                    return .object(o)
                }
                Output.json(.object(["bucket": .string(bucket.label), "scale": .string(bucket.scale.rawValue),
                             "start": .string(MomentsFormat.start(bucket)), "count": .number(Double(experiences.count)),
                             "experiences": .array(rows), "add": add.map(JSONValue.string) ?? .null]))
                return
            }
            let title = MomentsFormat.title(bucket)
            Console.print(Style.bold(title) + (title == bucket.label ? "" : Style.dim("  " + bucket.label)))
            guard !experiences.isEmpty else {
                let noun = MomentsFormat.noun(bucket.scale)
                if let add {
                    Console.print("  A quiet \(noun), open for something you appreciate. To add an experience to it:")
                    Console.print("    " + add)
                } else {
                    Console.print("  This \(noun) is still ahead. When it comes: ledger moments add TEXT")
                }
                return
            }
            let wide = bucket.scale > .day
            let offsets = Set(experiences.map(\.timestamp.utcOffsetSeconds)).count > 1
            for e in experiences {
                let local = e.timestamp.local
                let day = local.date
                var when = (wide ? "\(MomentsFormat.shortWeekday(day)) \(day.day < 10 ? " " : "")\(day.day) \(MomentsFormat.shortMonth(day.month)) " : "")
                    + MomentsFormat.clock(local)
                if offsets { when += " " + Timestamp.formatOffset(e.timestamp.utcOffsetSeconds) }
                if ids { when = e.id + "  " + when }
                let type = e.experienceType.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)
                let lines = content(e, store: env.store).split(separator: "\n", omittingEmptySubsequences: false)
                let indent = String(repeating: " ", count: when.count + 2 + 5 + 2)
                let label = Style.dim("· " + e.momentType.label)
                Console.print("  \(when)  \(type)  \(lines[0])" + (lines.count == 1 ? "  " + label : ""))
                for (i, line) in lines.dropFirst().enumerated() {
                    Console.print("  \(indent)\(line)" + (i == lines.count - 2 ? "  " + label : ""))
                }
            }
        }

        /// What a row shows: the note's text, the link, the photo file's path, a dot.
        func content(_ e: Experience, store: LedgerStore) -> String {
            switch e.experienceType {
            case .note, .link: e.payload ?? ""
            case .photo: e.payload.map { store.absolute($0) } ?? ""
            case .dot: "●"
            }
        }

    }
}

extension MomentsViewGiven {
    /// Reads the span of `view` around `--date` and draws it (or prints it as JSON).
    func show(_ view: MomentView, byMonth: Bool = false) throws {
        let env = try global.environment()
        let day = date?.date ?? env.now.local.date
        let span = view.span(around: day)
        let scale = view.dotScale(byMonth: byMonth)
        let experiences = try MomentsStore(env.store).experiences(in: span)
        let matrix = DotMatrix(span: span, scale: scale, experiences: experiences)
        if json {
            let buckets = zip(matrix.buckets, matrix.counts).map { b, n -> JSONValue in
                .object(["start": .string(MomentsFormat.start(b)), "bucket": .string(b.label), "count": .number(Double(n))])
            }
            Output.json(.object(["view": .string(view.rawValue), "date": .string(day.description), "span": .string(span.label),
                         "scale": .string(scale.rawValue), "total": .number(Double(matrix.total)), "buckets": .array(buckets)]))
            return
        }
        let current = MomentBucket(containing: env.now.local, scale: scale)
        Console.print(Style.bold(MomentsFormat.title(span)))
        Console.print("")
        switch (view, scale) {
        case (.today, _): MomentsFormat.drawDay(matrix, current: current)
        case (.week, _): MomentsFormat.drawWeek(matrix, current: current)
        case (.month, _): MomentsFormat.drawMonth(matrix, current: current)
        case (.year, .month): MomentsFormat.drawYearByMonth(matrix, current: current)
        case (.year, _): MomentsFormat.drawYearByDay(matrix, current: current)
        }
        Console.print("")
        if matrix.total > 0 {
            Console.print("  \(MomentsFormat.experiences(matrix.total))   " + MomentsFormat.legend)
            Console.print(Style.dim("  A dot's experiences: ledger moments show \(matrix.buckets[matrix.counts.lastIndex { $0 > 0 }!].label)"))
        } else {
            // The command that records in this very span: a past day's needs its date.
            Console.print("  " + MomentsFormat.legend)
            Console.print(Style.dim(MomentsFormat.addCommand(for: span, now: env.now).map { "  Add an experience: " + $0 }
                ?? "  This \(span.scale.rawValue) is still ahead."))
        }
    }
}

/// `BUCKET`: an hour, day, ISO week, month or year (`MomentBucket`'s labels).
struct BucketValue: OptionValue {
    let bucket: MomentBucket

    static func parse(_ text: String) throws -> BucketValue {
        guard let b = MomentBucket(text) else { throw LedgerError.usage("BUCKET is \(MomentBucket.labelForms) (found \"\(text)\")") }
        return BucketValue(bucket: b)
    }
}

extension MomentsCommand.Today: QuickCommand {
    static let path = ["moments", "today"]
    static let valueOptions = ["date"]

    var line: Line { Line(view: options.given) }

    static func read(_ words: QuickLine.Words) throws -> Line {
        Line(view: MomentsViewGiven(date: try words.value("date"), json: words.flag("json"), global: LedgerChoice.read(words)))
    }

    struct Line: QuickRun {
        var view: MomentsViewGiven

        func run() throws { try view.show(.today) }
    }
}
