import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

@Suite struct MomentsViewTests {
    /// A ledger with experiences recorded in several offsets around one week.
    static func ledger(timeZone: String = "Europe/Paris") throws -> TestLedger {
        let ledger = try TestLedger(now: "2026-11-21T23:30:00+01:00", timeZone: timeZone)
        for (i, (t, type, moment)) in [
            ("2026-11-16T08:10:00+01:00", "note", "now"), ("2026-11-18T15:05:00+01:00", "dot", "today"),
            ("2026-11-18T15:55:00-05:00", "note", "now"),  // 15h on its own clock, in New York
            ("2026-11-21T09:00:00+01:00", "link", "thisWeek"), ("2026-11-22T23:59:00+14:00", "dot", "now"),
            ("2026-12-31T23:30:00+01:00", "dot", "now"), ("2027-01-01T00:30:00+01:00", "dot", "now"),
        ].enumerated() {
            let payload = type == "note" ? "\"note \(i)\"" : type == "link" ? "\"https://example.com/\(i)\"" : "null"
            let month = String(t.prefix(7)).replacingOccurrences(of: "-", with: "/")
            try ledger.write("moments/experiences/\(month)/e\(i).json", """
                {"id": "e\(i)", "timestamp": "\(t)", "momentType": "\(moment)", "experienceType": "\(type)",
                 "payload": \(payload), "createdAt": "\(t)", "updatedAt": "\(t)"}
                """)
        }
        return ledger
    }

    static func counts(_ r: CommandResult) -> [String: Int] {
        var out: [String: Int] = [:]
        for b in r.json["buckets"]?.arrayValue ?? [] {
            if case .number(let n)? = b["count"], n > 0, let label = b["bucket"]?.stringValue { out[label] = Int(n) }
        }
        return out
    }

    @Test func todayIs24HourDotsOfTheReadersDate() throws {
        let ledger = try Self.ledger()
        let r = ledger.run("moments", "today", "--date", "2026-11-18", "--json")
        #expect(r.status == 0, "\(r)")
        let buckets = try #require(r.json["buckets"]?.arrayValue)
        #expect(buckets.count == 24)
        #expect(buckets[0]["start"] == .string("2026-11-18T00:00:00"))
        #expect(buckets[15]["start"] == .string("2026-11-18T15:00:00"))
        #expect(Self.counts(r) == ["2026-11-18T15": 2])
        let today = ledger.run("moments", "today", "--json")
        #expect(today.json["date"] == .string("2026-11-21"))
        #expect(Self.counts(today) == ["2026-11-21T09": 1])
    }

    @Test func weekMonthAndYear() throws {
        let ledger = try Self.ledger()
        let week = ledger.run("moments", "week", "--json")
        #expect(week.json["span"] == .string("2026-W47"))
        #expect(week.json["buckets"]?.arrayValue?.count == 7)
        #expect(week.json["buckets"]?.arrayValue?.first?["start"] == .string("2026-11-16T00:00:00"))
        #expect(Self.counts(week) == ["2026-11-16": 1, "2026-11-18": 2, "2026-11-21": 1, "2026-11-22": 1])
        #expect(week.json["total"] == .number(5))
        let month = ledger.run("moments", "month", "--date", "2026-11-02", "--json")
        #expect(month.json["buckets"]?.arrayValue?.count == 30)
        #expect(Self.counts(month).values.reduce(0, +) == 5)
        let year = ledger.run("moments", "year", "--json")
        #expect(year.json["buckets"]?.arrayValue?.count == 365)
        #expect(Self.counts(year)["2026-12-31"] == 1)
        let months = ledger.run("moments", "year", "--months", "--json")
        #expect(months.json["buckets"]?.arrayValue?.count == 12)
        #expect(Self.counts(months) == ["2026-11": 5, "2026-12": 1])
    }

    @Test func theISOWeekAcrossTheNewYear() throws {
        let ledger = try Self.ledger()
        let r = ledger.run("moments", "week", "--date", "2027-01-01", "--json")
        #expect(r.json["span"] == .string("2026-W53"))
        #expect(Self.counts(r) == ["2026-12-31": 1, "2027-01-01": 1])
        let text = ledger.run("moments", "week", "--date", "2026-12-31")
        #expect(text.stdout.hasPrefix("Week 53 of 2026 · 28 December 2026 – 3 January 2027\n"))
    }

    @Test func theDotsAreMonochromeMarks() throws {
        let ledger = try Self.ledger()
        let r = ledger.run("moments", "week")
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "Week 47 of 2026 · 16–22 November 2026")
        #expect(lines[2] == "  Mon  Tue  Wed  Thu  Fri  Sat  Sun")
        #expect(lines[3] == "   ●    ·    ◉    ·    ·    ●    ●")
        #expect(!r.stdout.contains("\u{1B}["), "no colour without a terminal")
    }

    @Test func aBadDateIsAUsageError() throws {
        let ledger = try Self.ledger()
        let r = ledger.run("moments", "month", "--date", "2026-02-30")
        #expect(r.status == 2)
        #expect(r.stderr.contains("--date is a date like 2026-11-18 (found \"2026-02-30\")"))
    }

    /// The same ledger read from six time zones and two locales prints the same, byte for byte.
    @Test func everyViewIsTheSameInEveryTimeZoneAndLocale() throws {
        let commands: [[String]] = [
            ["moments", "today"], ["moments", "today", "--date", "2026-11-18"], ["moments", "week"],
            ["moments", "week", "--date", "2027-01-01"], ["moments", "month"], ["moments", "year"], ["moments", "year", "--months"],
            ["moments", "show", "2026-W47"], ["moments", "show", "2026-11-18T15"], ["moments", "show", "2026-11-20"],
        ]
        let zones: [[String: String]] = [
            ["TZ": "Europe/Paris"], ["TZ": "UTC"], ["TZ": "America/Los_Angeles"], ["TZ": "Asia/Tokyo"],
            ["TZ": "Pacific/Kiritimati"], ["TZ": "Pacific/Pago_Pago", "LC_ALL": "de_DE.UTF-8", "LANG": "ar_EG.UTF-8"],
        ]
        // `$TZ` chooses the reader's clock, so "today" is the date of that clock: each reader
        // reads at the same wall-clock time, 23:30 on 21 November, in their own zone.
        func now(_ zone: String) -> String {
            let z = TimeZone(identifier: zone)!
            let local = LocalDateTime(date: LocalDate(year: 2026, month: 11, day: 21)!, hour: 23, minute: 30)
            return ZonedClock.instant(local, in: z).iso8601
        }
        let settings = zones.map { env in env.merging(["LEDGER_NOW": now(env["TZ"]!)]) { a, _ in a } }
        let ledger = try Self.ledger()
        for command in commands {
            let reference = ledger.run(arguments: command)
            let referenceJSON = ledger.run(arguments: command + ["--json"])
            #expect(reference.status == 0, "\(reference)")
            for env in settings.dropFirst() {
                #expect(ledger.run(arguments: command, env: env).stdout == reference.stdout, "\(command) under \(env)")
                #expect(ledger.run(arguments: command + ["--json"], env: env).stdout == referenceJSON.stdout, "\(command) --json under \(env)")
            }
        }
    }

    /// The real executable, whose Foundation reads TZ and the locale from its environment.
    @Test func theExecutableDrawsTheSameWeekInTokyoAndLosAngeles() throws {
        let ledger = try Self.ledger()
        let tokyo = try ledger.runBinary("moments", "month", "--date", "2026-11-18", env: ["TZ": "Asia/Tokyo", "LC_ALL": "ja_JP.UTF-8"])
        let la = try ledger.runBinary("moments", "month", "--date", "2026-11-18", env: ["TZ": "America/Los_Angeles", "LC_ALL": "C"])
        #expect(tokyo.status == 0, "\(tokyo)")
        #expect(tokyo.stdout == la.stdout)
        #expect(tokyo.stdout == ledger.run("moments", "month", "--date", "2026-11-18").stdout)
    }

    @Test func showListsNewestFirstWithTypeContentAndMoment() throws {
        let ledger = try Self.ledger()
        let r = ledger.run("moments", "show", "2026-11-18T15")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == """
            Wednesday 18 November 2026, 15:00–16:00  2026-11-18T15
              15:55 -05:00  note   note 2  · now
              15:05 +01:00  dot    ●  · today

            """)
        let week = ledger.run("moments", "show", "2026-W47", "--json")
        let rows = try #require(week.json["experiences"]?.arrayValue)
        #expect(rows.map { $0["id"]?.stringValue ?? "" } == ["e4", "e3", "e2", "e1", "e0"])
        #expect(rows.map { $0["momentLabel"]?.stringValue ?? "" } == ["now", "this week", "now", "today", "now"])
        #expect(rows[1]["payload"] == .string("https://example.com/3"))
        #expect(week.json["count"] == .number(5))
    }

    @Test func anEmptyBucketOffersTheCommandThatFillsIt() throws {
        let ledger = try Self.ledger()
        let r = ledger.run("moments", "show", "2026-11-17")
        #expect(r.status == 0)
        #expect(r.stdout.contains("ledger moments add TEXT --at 2026-11-17T12:00 --moment today"), "\(r)")
        let hour = ledger.run("moments", "show", "2026-11-19T07", "--json")
        let add = try #require(hour.json["add"]?.stringValue)
        #expect(add == "ledger moments add TEXT --at 2026-11-19T07:00")
        // Following the suggestion puts an experience in that very bucket.
        var args = add.split(separator: " ").dropFirst().map(String.init)
        args[args.firstIndex(of: "TEXT")!] = "an early swim"
        #expect(ledger.run(arguments: args).status == 0)
        let after = ledger.run("moments", "show", "2026-11-19T07", "--json")
        #expect(after.json["experiences"]?.arrayValue?.first?["payload"] == .string("an early swim"))
        // The bucket holding now needs no --at; one still ahead waits.
        #expect(ledger.run("moments", "show", "2026-11-21T23", "--json").json["add"] == .string("ledger moments add TEXT"))
        #expect(ledger.run("moments", "show", "2026-W48", "--json").json["add"] == .null)
        #expect(ledger.run("moments", "show", "2026-W48").stdout.contains("still ahead"))
    }

    /// "An empty past day (`moments today --date …`) suggests an `add` that would record on
    /// today." Every view suggests the command that records in the span it shows.
    @Test func anEmptyViewOffersTheCommandThatFillsItsOwnSpan() throws {
        let ledger = try TestLedger(now: "2026-11-21T23:30:00+01:00")
        let past = ledger.run("moments", "today", "--date", "2026-11-17")
        #expect(past.stdout.contains("Add an experience: ledger moments add TEXT --at 2026-11-17T12:00 --moment today"), "\(past)")
        let week = ledger.run("moments", "week", "--date", "2026-11-04")
        #expect(week.stdout.contains("Add an experience: ledger moments add TEXT --at 2026-11-02T12:00 --moment week"), "\(week)")
        #expect(ledger.run("moments", "today").stdout.contains("Add an experience: ledger moments add TEXT --moment today"))
        #expect(ledger.run("moments", "today", "--date", "2026-11-25").stdout.contains("This day is still ahead."))
        // Following the suggestion records on that day.
        #expect(ledger.run("moments", "add", "a walk", "--at", "2026-11-17T12:00", "--moment", "today").status == 0)
        let filled = ledger.run("moments", "today", "--date", "2026-11-17", "--json")
        #expect(filled.json["total"] == .number(1), "\(filled)")
    }

    @Test func aNoteCannotDriveTheTerminal() throws {
        let ledger = try Self.ledger()
        try ledger.write("moments/experiences/2026/11/esc.json", """
            {"id": "esc", "timestamp": "2026-11-20T10:00:00+01:00", "momentType": "now", "experienceType": "note",
             "payload": "tea\\u001b[2J and\\ncake", "createdAt": "2026-11-20T10:00:00+01:00", "updatedAt": "2026-11-20T10:00:00+01:00"}
            """)
        let r = ledger.run("moments", "show", "2026-11-20")
        #expect(r.status == 0, "\(r)")
        #expect(!r.stdout.contains("\u{1B}"))
        #expect(r.stdout.contains("\n  10:00  note   tea\\u001b[2J and\n                cake  · now\n"), "\(r)")
    }

    @Test func showNamesTheOffsetsWhenTheListSpansSeveral() throws {
        let ledger = try TestLedger(now: "2026-11-21T22:30:00-05:00", timeZone: "America/New_York")
        // A moment of a journey is recorded on that place's clock by naming its zone ($TZ); an
        // offset typed in --at names only the instant (it is recorded on the zone's clock).
        ledger.run(arguments: ["moments", "add", "in Paris", "--at", "2026-11-18T15:00"], env: ["TZ": "Europe/Paris"])
        ledger.run("moments", "add", "in New York", "--at", "2026-11-18T12:30")
        ledger.run("moments", "add", "earlier in New York", "--at", "2026-11-18T10:30")
        let day = ledger.run("moments", "show", "2026-11-18")
        #expect(day.status == 0, "\(day)")
        #expect(day.stdout.split(separator: "\n").dropFirst().map(String.init) == [
            "  12:30 -05:00  note   in New York  · now",
            "  10:30 -05:00  note   earlier in New York  · now",
            "  15:00 +01:00  note   in Paris  · now",
        ])
        let week = ledger.run("moments", "show", "2026-W47")
        #expect(week.stdout.contains("  Wed 18 Nov 12:30 -05:00  note   in New York  · now"), "\(week)")
        // One offset: none shown.
        #expect(ledger.run("moments", "show", "2026-11-18T10").stdout.contains("\n  10:30  note   earlier in New York  · now\n"))
        // With --ids, each row starts with its id.
        let ids = ledger.run("moments", "show", "2026-11-18", "--ids")
        let rows = ledger.run("moments", "show", "2026-11-18", "--json").json["experiences"]?.arrayValue ?? []
        let first = try #require(rows.first?["id"]?.stringValue)
        #expect(ids.stdout.contains("\n  \(first)  12:30 -05:00  note   in New York  · now\n"), "\(ids)")
    }

    @Test func valuesThatWouldDriveTheTerminalAreShownNotObeyed() throws {
        let ledger = try Self.ledger()
        let hostile = "tea\u{1B}]0;pwned\u{07}\u{1B}[2J\nand cake"
        let add = ledger.run("moments", "add", hostile, "--at", "2026-11-20T11:00", "--json")
        #expect(add.status == 0, "\(add)")
        let id = try #require(add.json["id"]?.stringValue)
        #expect(ledger.document(add.json["path"]?.stringValue ?? "")?["payload"] == .string(hostile), "kept as written")
        let shown = "tea\\u001b]0;pwned\\u0007\\u001b[2J"
        for command in [["moments", "add", hostile], ["moments", "show", "2026-11-20"], ["moments", "show", "2026-W47", "--ids"],
                        ["moments", "today"], ["moments", "week"], ["moments", "month"], ["moments", "year"],
                        ["moments", "template", "set", hostile], ["moments", "delete", id]] {
            let r = ledger.run(arguments: command, terminal: true)
            let printed = r.stdout + r.stderr
            #expect(!printed.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(command): \(r)")
            if command.count > 2, command[1] != "today", command[1] != "week" {
                #expect(printed.contains(shown), "\(command): \(r)")
            }
        }
        // The multi-line display of `show`: the note's second line under its first, both safe.
        let day = ledger.run("moments", "add", hostile, "--at", "2026-11-20T11:30", terminal: true)
        #expect(day.stdout.hasPrefix("I appreciate \(shown)\\nand cake for now\n"), "\(day)")
        let show = ledger.run("moments", "show", "2026-11-20T11", terminal: true)
        #expect(show.stdout.contains("\n  11:30  note   \(shown)\n                and cake  · now\n"), "\(show)")
    }

    @Test(arguments: ["2026-W54", "yesterday", "2026-11-31", "11/18"])
    func aBucketThatIsNotOneIsAUsageError(bucket: String) throws {
        let ledger = try TestLedger()
        let r = ledger.run("moments", "show", bucket)
        #expect(r.status == 2)
        #expect(r.stderr.contains("BUCKET is 2026-11-18T15 (an hour)"), "\(r)")
    }

    @Test func anUnknownMomentIsKeptCountedAndShownAsItIs() throws {
        let ledger = try Self.ledger()
        try ledger.write("moments/experiences/2026/11/later.json", """
            {"id": "later", "timestamp": "2026-11-20T10:00:00+01:00", "momentType": "thisMonth", "experienceType": "note",
             "payload": "a moment from a newer version", "createdAt": "2026-11-20T10:00:00+01:00", "updatedAt": "2026-11-20T10:00:00+01:00"}
            """)
        let check = ledger.run("check", "moments/experiences/2026/11/later.json")
        #expect(check.status == 0, "a warning, not an error: \(check)")
        #expect(check.stdout.contains("/momentType: warning: \"thisMonth\" is a moment this version of ledger does not know"), "\(check)")
        #expect(ledger.run("moments", "show", "2026-11-20").stdout.contains("a moment from a newer version  · thisMonth"))
        #expect(Self.counts(ledger.run("moments", "week", "--json"))["2026-11-20"] == 1)
    }

    @Test func anInvalidExperienceIsRefusedWithWhatCheckSays() throws {
        let ledger = try Self.ledger()
        try ledger.write("moments/experiences/2026/11/bad.json", """
            {"id": "bad", "timestamp": "2026-11-20T10:00:00+01:00", "momentType": "now", "experienceType": "link",
             "payload": "not a link", "createdAt": "2026-11-20T10:00:00+01:00", "updatedAt": "2026-11-20T10:00:00+01:00"}
            """)
        let r = ledger.run("moments", "week")
        #expect(r.status == 1)
        #expect(r.stderr.contains("moments/experiences/2026/11/bad.json is invalid"), "\(r)")
        #expect(r.stderr.contains("/payload: error: links are http or https URLs"), "\(r)")
        // Views of other months do not read it; the status screen says where to look.
        #expect(ledger.run("moments", "month", "--date", "2026-12-01").status == 0)
        let status = ledger.run("status")
        #expect(status.status == 0)
        #expect(status.stdout.contains("DotLife Moments moments/experiences/2026/11/bad.json is invalid; see `ledger check`"), "\(status)")
        // --json: the sentence (no colon left dangling) and check's problems, as Waterline's.
        let json = ledger.run("status", "--json").json["moments"]
        #expect(json?["error"] == .string("moments/experiences/2026/11/bad.json is invalid; fix it by hand and run `ledger check`"), "\(String(describing: json))")
        let problem = json?["problems"]?.arrayValue?.first
        #expect(problem?["path"] == .string("moments/experiences/2026/11/bad.json") && problem?["pointer"] == .string("/payload"), "\(String(describing: json))")
    }

    /// `today` decodes only the files whose `timestamp` (peeked from canonical JSON) is today:
    /// an invalid experience of another day of the month is left to the views that show that
    /// day, which refuse as before; the same file in another layout is decoded, and refuses.
    @Test func todayDecodesOnlyTodaysExperiences() throws {
        let ledger = try Self.ledger()
        let canonical = """
            {
              "createdAt": "2026-11-20T10:00:00+01:00",
              "experienceType": "link",
              "id": "bad",
              "momentType": "now",
              "payload": "not a link",
              "timestamp": "2026-11-20T10:00:00+01:00",
              "updatedAt": "2026-11-20T10:00:00+01:00"
            }

            """
        try ledger.write("moments/experiences/2026/11/bad.json", canonical)
        let today = ledger.run("moments", "today", "--json")
        #expect(today.status == 0, "\(today)")
        #expect(today.json["total"] == .number(1), "\(today)")
        for view in [["week"], ["today", "--date", "2026-11-20"], ["month"]] {
            let r = ledger.run(arguments: ["moments"] + view)
            #expect(r.status == 1 && r.stderr.contains("/payload: error: links are http or https URLs"), "\(view): \(r)")
        }
        try ledger.write("moments/experiences/2026/11/bad.json", canonical.replacingOccurrences(of: "\n  ", with: "\n "))
        #expect(ledger.run("moments", "today").status == 1)
    }

    @Test func theStatusLine() throws {
        let ledger = try Self.ledger()
        let r = ledger.run("status")
        #expect(r.stdout.contains("DotLife Moments 1 experience today · 5 this week"), "\(r)")
        let j = ledger.run("status", "--json")
        #expect(j.json["moments"]?["today"] == .number(1))
        #expect(j.json["moments"]?["thisWeek"] == .number(5))
        let empty = try TestLedger()
        #expect(empty.run("status").stdout.contains("DotLife Moments capture one with `ledger moments add TEXT`"))
    }

    /// December 9999, the last month a date can name: each view shows it (they crashed,
    /// stepping to the bucket after it), and so does `ledger status` on a clock there.
    @Test func theViewsOfTheLastMonthADateCanName() throws {
        let ledger = try TestLedger()
        for words in [["today", "--date", "9999-12-31"], ["week", "--date", "9999-12-31"], ["month", "--date", "9999-12-01"],
                      ["year", "--date", "9999-01-01"], ["year", "--months", "--date", "9999-06-01"], ["show", "9999-12-31T23"],
                      ["show", "9999-W52"], ["show", "9999-12"], ["show", "9999"]] {
            let r = ledger.run(arguments: ["moments"] + words + ["--json"])
            #expect(r.status == 0 && r.stderr.isEmpty && (try? JSONParser.parse(Array(r.stdout.utf8))) != nil, "\(words): \(r)")
        }
        #expect(ledger.run("status", env: ["LEDGER_NOW": "9999-12-15T12:00:00+01:00"]).status == 0)
    }
}
