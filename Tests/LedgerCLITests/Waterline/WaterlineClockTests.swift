import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// Waterline on the person's own clock: `$TZ` chooses it, times are shown as it shows them
/// at each instant, and reminders keep coming when its offset changes during a night.
@Suite struct WaterlineClockTests {
    /// A night in New York across the spring change (2026-03-08, 02:00 → 03:00): started at
    /// 01:00, a drink at 01:50.
    func springNight() throws -> TestLedger {
        let ledger = try TestLedger(now: "2026-03-08T01:00:00-05:00", timeZone: "America/New_York")
        #expect(ledger.run("waterline", "start").status == 0)
        #expect(ledger.run(arguments: ["waterline", "drink"], env: ["LEDGER_NOW": "2026-03-08T01:50:00-05:00"]).status == 0)
        return ledger
    }

    /// "`TZ=America/New_York`, start `2026-03-08T01:00-05:00`, drink at `01:50-05:00`; at
    /// `03:05-04:00` `waterline reminders --json` has a `perDrink` item and no `time` item."
    @Test func theTimeReminderIsDueAfterTheClocksGoForward() throws {
        let ledger = try springNight()
        let r = ledger.run(arguments: ["waterline", "reminders", "--json"], env: ["LEDGER_NOW": "2026-03-08T03:05:00-04:00"])
        let items = try #require(r.json["due"]?["items"]?.arrayValue, "\(r)")
        #expect(items.map { $0["kind"]?.stringValue ?? "" } == ["time", "perDrink"], "\(r)")
        #expect(items.first?["since"] == .string("2026-03-08T03:00:00-04:00"))
    }

    /// "After such a change the schedule is shown with the session-start offset: "03:20
    /// -04:00" and "02:20 -05:00" on one screen; `status --json` `nextReminder`
    /// `02:00-05:00`, a time that never existed on that clock."
    @Test func reminderTimesAreTheClockAtThatInstant() throws {
        let ledger = try springNight()
        let before = ledger.run(arguments: ["waterline", "status", "--json"], env: ["LEDGER_NOW": "2026-03-08T01:55:00-05:00"])
        #expect(before.json["nextReminder"] == .string("2026-03-08T03:00:00-04:00"), "\(before)")
        let after = ["LEDGER_NOW": "2026-03-08T03:05:00-04:00"]
        let json = ledger.run(arguments: ["waterline", "reminders", "--json"], env: after).json
        let upcoming = json["timeReminder"]?["upcoming"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(upcoming == ["2026-03-08T03:20:00-04:00", "2026-03-08T03:40:00-04:00", "2026-03-08T04:00:00-04:00", "2026-03-08T04:20:00-04:00"])
        let text = ledger.run(arguments: ["waterline", "reminders"], env: after).stdout
        #expect(text.contains("Next time reminder  03:20 -04:00 (in 15 min)"), "\(text)")
        #expect(text.contains("If nothing is logged: 03:20 -04:00, 03:40 -04:00, 04:00 -04:00, 04:20 -04:00;"), "\(text)")
        #expect(!text.contains(":20 -05:00"), "\(text)")
    }

    /// "`LEDGER_NOW`'s offset beats `TZ` for display and for reading `--time` (README: `$TZ`
    /// chooses the zone)."
    @Test func theZoneIsTZsWhateverOffsetLEDGER_NOWIsWrittenWith() throws {
        let ledger = try TestLedger(now: "2026-11-21T22:30:00+01:00", timeZone: "America/New_York")
        let start = ledger.run("waterline", "start", "--json")
        #expect(start.json["startTime"] == .string("2026-11-21T16:30:00-05:00"), "\(start)")
        let drink = ledger.run(arguments: ["waterline", "drink", "--time", "16:40", "--json"], env: ["LEDGER_NOW": "2026-11-21T23:00:00+01:00"])
        #expect(drink.status == 0, "\(drink)")
        #expect(drink.json["entry"]?["timestamp"] == .string("2026-11-21T16:40:00-05:00"), "\(drink)")
        #expect(ledger.run("waterline", "status").stdout.contains("started 16:30"))
        // Without $TZ, LEDGER_NOW's own offset stands for the clock.
        let plain = try TestLedger(now: "2026-11-21T22:30:00+01:00", timeZone: "")
        #expect(plain.run("waterline", "start", "--json").json["startTime"] == .string("2026-11-21T22:30:00+01:00"))
    }

    /// "the sessions list misaligns for sessions of 24 h or more and shows no offsets on DST
    /// nights (the timeline does)".
    @Test func theSessionsListAlignsAndShowsOffsetsAsTheTimelineDoes() throws {
        let ledger = try springNight()
        #expect(ledger.run(arguments: ["waterline", "end", "--yes"], env: ["LEDGER_NOW": "2026-03-08T03:30:00-04:00"]).status == 0)
        let later = ["LEDGER_NOW": "2026-03-14T20:00:00-04:00"]
        #expect(ledger.run(arguments: ["waterline", "start", "--time", "2026-03-12T18:00"], env: later).status == 0)
        #expect(ledger.run(arguments: ["waterline", "end", "--yes"], env: later).status == 0)
        let list = ledger.run(arguments: ["waterline", "sessions"], env: later).stdout
        let rows = list.split(separator: "\n").map(String.init).filter { !$0.contains("`") }
        #expect(rows.count == 3, "\(list)")
        let idColumn = try #require(rows.first?.range(of: "ID")?.lowerBound.utf16Offset(in: rows[0]))
        let ids = (ledger.run(arguments: ["waterline", "sessions", "--json"], env: later).json.arrayValue ?? []).map { $0["id"]?.stringValue ?? "" }
        for (row, id) in zip(rows.dropFirst(), ids) {
            #expect(row.range(of: id)?.lowerBound.utf16Offset(in: row) == idColumn, "\(list)")
        }
        #expect(rows[1].contains("Thu 12 Mar 18:00–Sat 14 Mar 20:00"), "\(list)")
        #expect(rows[2].contains("01:00 -05:00–03:30 -04:00"), "\(list)")
        let timeline = ledger.run(arguments: ["waterline", "entries", "--session", ids[1]], env: later).stdout
        #expect(timeline.contains("01:50 -05:00"), "\(timeline)")
    }

    /// "A drink stamped slightly ahead of the notifier's clock (1–3 s; or synced from a device
    /// whose clock runs ahead) never becomes due for its per-drink prompt: nothing until the
    /// next timed reminder."
    @Test func aDrinkStampedAheadOfTheReadersClockIsDueAtOnce() throws {
        let ledger = try TestLedger(now: "2026-11-21T21:00:00+01:00")
        #expect(ledger.run("waterline", "start").status == 0)
        #expect(ledger.run(arguments: ["waterline", "drink"], env: ["LEDGER_NOW": "2026-11-21T21:05:02+01:00"]).status == 0)
        for now in ["2026-11-21T21:05:00+01:00", "2026-11-21T20:55:00+01:00"] {
            let due = ledger.run(arguments: ["waterline", "reminders", "--json"], env: ["LEDGER_NOW": now]).json["due"]
            #expect(due?["items"]?.arrayValue?.map { $0["kind"]?.stringValue ?? "" } == ["perDrink"], "at \(now): \(String(describing: due))")
        }
    }
}
