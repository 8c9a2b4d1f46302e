import ArgumentParser
import LedgerKit

/// `ledger moments show BUCKET [--json]`: the experiences of one dot, newest first.
struct MomentsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "The experiences of one hour, day, week, month or year, newest first.",
        discussion: "BUCKET is \(MomentBucket.labelForms).")

    @Argument(help: ArgumentHelp("The bucket, such as 2026-11-18T15, 2026-11-18, 2026-W47, 2026-11 or 2026.", valueName: "bucket"))
    var bucket: String

    @Flag(help: "Print the experiences as JSON.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let env = try global.environment()
        guard let bucket = MomentBucket(self.bucket) else {
            throw LedgerError.usage("BUCKET is \(MomentBucket.labelForms) (found \"\(self.bucket)\")")
        }
        let experiences = try env.store.repository(Experience.self).experiences(in: bucket).sorted { a, b in
            (a.timestamp.epochMilliseconds, a.createdAt.epochMilliseconds, a.id) > (b.timestamp.epochMilliseconds, b.createdAt.epochMilliseconds, b.id)
        }
        let add = addCommand(for: bucket, now: env.now)
        if json {
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
                         "start": .string(MomentsText.start(bucket)), "count": .number(Double(experiences.count)),
                         "experiences": .array(rows), "add": add.map(JSONValue.string) ?? .null]))
            return
        }
        let title = MomentsText.title(bucket)
        Console.print(Style.bold(title) + (title == bucket.label ? "" : Style.dim("  " + bucket.label)))
        guard !experiences.isEmpty else {
            let noun = MomentsText.noun(bucket.scale)
            if let add {
                Console.print("  A quiet \(noun), open for something you appreciate. To add an experience to it:")
                Console.print("    " + add)
            } else {
                Console.print("  This \(noun) is still ahead. When it comes: ledger moments add TEXT")
            }
            return
        }
        let wide = bucket.scale > .day
        for e in experiences {
            let local = e.timestamp.local
            let day = local.date
            let when = (wide ? "\(MomentsText.shortWeekday(day)) \(day.day < 10 ? " " : "")\(day.day) \(MomentsText.shortMonth(day.month)) " : "")
                + MomentsText.clock(local)
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

    /// The command that adds an experience to `bucket` (the seed's call to action): plain
    /// `add` for the bucket holding now, `add --at` for a past one, nil for one still ahead.
    func addCommand(for bucket: MomentBucket, now: Timestamp) -> String? {
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
        return "ledger moments add TEXT --at \(bucket.firstDay)T\(MomentsText.clock(at))" + moment
    }
}
