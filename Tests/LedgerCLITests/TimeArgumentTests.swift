import Foundation
@testable import LedgerCLI
import LedgerKit
import LedgerTestSupport
import Testing

/// The one parser of times given on the command line (`--time`, `--at`).
@Suite struct TimeArgumentTests {
    static let paris = TimeZone(identifier: "Europe/Paris")!

    static func clock(_ now: String, _ zone: TimeZone = paris) -> CommandClock {
        CommandClock(now: Timestamp(iso8601: now)!, timeZone: zone)
    }

    @Test(arguments: [
        // HH:MM: today once the clock has shown it, else yesterday.
        ("15:30", "2026-11-21T23:30:00+01:00", "Europe/Paris", "2026-11-21T15:30:00+01:00"),
        ("7:40", "2026-11-21T23:30:00+01:00", "Europe/Paris", "2026-11-21T07:40:00+01:00"),
        ("23:30", "2026-11-21T23:30:00+01:00", "Europe/Paris", "2026-11-21T23:30:00+01:00"),
        ("23:50", "2026-11-22T00:30:00+01:00", "Europe/Paris", "2026-11-21T23:50:00+01:00"),
        ("23:30:01", "2026-11-21T23:30:00+01:00", "Europe/Paris", "2026-11-20T23:30:01+01:00"),
        ("07:00", "2026-11-21T06:30:00+01:00", "Europe/Paris", "2026-11-20T07:00:00+01:00"),
        // Yesterday, before the clocks went back at 03:00, had the summer offset.
        ("23:00", "2026-10-25T10:00:00+01:00", "Europe/Paris", "2026-10-24T23:00:00+02:00"),
        // The autumn night: after the clocks went back at 03:00 to 02:00, the repeated hour's
        // first pass (+02:00) has been shown already, the second (+01:00) up to now.
        ("02:40", "2026-10-25T02:07:00+01:00", "Europe/Paris", "2026-10-25T02:40:00+02:00"),
        ("02:05", "2026-10-25T02:07:00+01:00", "Europe/Paris", "2026-10-25T02:05:00+01:00"),
        ("02:40", "2026-10-25T10:00:00+01:00", "Europe/Paris", "2026-10-25T02:40:00+01:00"),
        ("02:40", "2026-10-25T02:30:00+02:00", "Europe/Paris", "2026-10-24T02:40:00+02:00"),
        // The spring gap: a skipped time is taken just after it — at the gap's end, 03:00, not
        // moved by the whole gap ("02:30 → 03:30; at 03:10 that is 'in the future' and falls
        // back to yesterday").
        ("02:30", "2026-03-29T04:00:00+02:00", "Europe/Paris", "2026-03-29T03:00:00+02:00"),
        ("02:30", "2026-03-29T03:10:00+02:00", "Europe/Paris", "2026-03-29T03:00:00+02:00"),
        ("02:30", "2026-03-08T03:10:00-04:00", "America/New_York", "2026-03-08T03:00:00-04:00"),
        ("2026-03-08T02:59", "2026-03-08T03:10:00-04:00", "America/New_York", "2026-03-08T03:00:00-04:00"),
        // A local date-time: the offset the zone has then.
        ("2026-11-18T15:30", "2026-11-21T23:30:00+01:00", "Europe/Paris", "2026-11-18T15:30:00+01:00"),
        ("2026-07-01 08:15", "2026-11-21T23:30:00+01:00", "Europe/Paris", "2026-07-01T08:15:00+02:00"),
        ("2026-07-01T08:15:09", "2026-11-21T23:30:00+01:00", "America/New_York", "2026-07-01T08:15:09-04:00"),
        // A timestamp names its instant, recorded with the offset of the clock's zone then
        // ("drink --time 2026-11-21T15:30:00-05:00 in a Berlin session is stored with −05:00
        // … Store the user's own offset for that instant"); the seconds may be left out.
        ("2026-11-18T15:30:00-05:00", "2026-11-21T23:30:00+01:00", "Europe/Paris", "2026-11-18T21:30:00+01:00"),
        ("2026-11-18T15:30Z", "2026-11-21T23:30:00+01:00", "Europe/Paris", "2026-11-18T16:30:00+01:00"),
        ("2026-07-01T15:30:00-05:00", "2026-11-21T23:30:00+01:00", "Europe/Berlin", "2026-07-01T22:30:00+02:00"),
    ])
    func times(text: String, now: String, zone: String, expected: String) throws {
        let t = try TimeArgument.parse(text, option: "--at", clock: Self.clock(now, try #require(TimeZone(identifier: zone))))
        #expect(t.iso8601 == expected)
    }

    @Test(arguments: ["25:00", "15:60", "2026-13-01T10:00", "yesterday", "15", "2026-11-18", "2026-11-18T1:30", "", "now", "12:3", "123:00"])
    func notTimes(text: String) {
        #expect(throws: LedgerError.self) { try TimeArgument.parse(text, option: "--time", clock: Self.clock("2026-11-21T23:30:00+01:00")) }
        do {
            _ = try TimeArgument.parse(text, option: "--time", clock: Self.clock("2026-11-21T23:30:00+01:00"))
        } catch let e as LedgerError {
            #expect(e.code == .invalidArgument && e.message.hasPrefix("--time must be"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test(arguments: ["2026-11-22T07:00", "2026-11-21T23:31", "2026-11-21T23:30:01+01:00", "2026-11-21T22:31:00Z"])
    func laterThanNowIsAUsageError(text: String) {
        do {
            _ = try TimeArgument.parse(text, option: "--at", clock: Self.clock("2026-11-21T23:30:00+01:00"))
            Issue.record("\(text) is later than now")
        } catch let e as LedgerError {
            #expect(e.code == .invalidArgument)
            #expect(e.message.contains("--at \(text) is later than now"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func aClockTimeTakenAsYesterdaySaysSoWhenItIsRefused() throws {
        let ledger = try TestLedger(now: "2026-11-21T22:00:00+01:00")
        #expect(ledger.run("waterline", "start", "--time", "21:00").status == 0)
        let late = ["LEDGER_NOW": "2026-11-21T22:10:00+01:00"]
        let expected = "--time 22:15 is taken as yesterday, 2026-11-20 22:15 (the last time the clock showed it), which is before "
        for args in [["waterline", "drink"], ["waterline", "water"], ["waterline", "end", "--yes"]] {
            let r = ledger.run(arguments: args + ["--time", "22:15"], env: late)
            #expect(r.status == 1, "\(args): \(r)")
            #expect(r.stderr.contains(expected) && r.stderr.contains("2026-11-21T21:00:00+01:00"), "\(args): \(r)")
        }
        let entry = ledger.run(arguments: ["waterline", "drink", "--json"], env: late).json["entry"]?["id"]?.stringValue ?? ""
        let edit = ledger.run(arguments: ["waterline", "edit", entry, "--time", "22:15"], env: late)
        #expect(edit.status == 1 && edit.stderr.contains(expected), "\(edit)")
        // A time given with its date, or today's, is refused naming the option and what was
        // typed ("refusals by a session's rules don't name the flag").
        let dated = ledger.run(arguments: ["waterline", "drink", "--time", "20:00"], env: late)
        #expect(dated.status == 1 && dated.stderr.contains("ledger: --time 20:00 (2026-11-21T20:00:00+01:00) is before session")
                && !dated.stderr.contains("yesterday"), "\(dated)")
    }

    /// "refusals by a session's rules don't name the flag (`end --time …`, `edit --time …`)".
    @Test func aRefusalOfATimeNamesTheOption() throws {
        let ledger = try TestLedger(now: "2026-11-21T22:00:00+01:00")
        #expect(ledger.run("waterline", "start", "--time", "21:00").status == 0)
        #expect(ledger.run("waterline", "drink", "--time", "21:30").status == 0)
        let end = ledger.run("waterline", "end", "--yes", "--time", "21:10")
        #expect(end.status == 1)
        #expect(end.stderr.contains("ledger: --time 21:10 (2026-11-21T21:10:00+01:00) is before the session's last entry"), "\(end)")
        let edit = ledger.run("waterline", "edit", "last", "--time", "2026-11-21T20:30")
        #expect(edit.status == 1)
        #expect(edit.stderr.contains("ledger: --time 2026-11-21T20:30 (2026-11-21T20:30:00+01:00) is before session"), "\(edit)")
        let exact = ledger.run("waterline", "edit", "last", "--time", "2026-11-21T20:30:00+01:00")
        #expect(exact.stderr.contains("ledger: --time 2026-11-21T20:30:00+01:00 is before session"), "\(exact)")
    }

    /// "A time the clocks skipped is moved by the whole gap (02:30 → 03:30; at 03:10 that is
    /// 'in the future' and falls back to yesterday), not 'just after the gap' as the README says."
    @Test func aTimeTheClocksSkippedIsTakenJustAfterTheGap() throws {
        let ledger = try TestLedger(now: "2026-03-08T01:00:00-05:00", timeZone: "America/New_York")
        #expect(ledger.run("waterline", "start").status == 0)
        let drink = ledger.run(arguments: ["waterline", "drink", "--time", "02:30", "--json"], env: ["LEDGER_NOW": "2026-03-08T03:10:00-04:00"])
        #expect(drink.status == 0, "\(drink)")
        #expect(drink.json["entry"]?["timestamp"] == .string("2026-03-08T03:00:00-04:00"), "\(drink)")
    }

    /// "`drink --time 2026-11-21T15:30:00-05:00` in a Berlin session is stored with −05:00;
    /// the timeline shows "15:30 -05:00" among +01:00 rows."
    @Test func aTimestampWithAnotherOffsetIsStoredOnTheUsersClock() throws {
        let ledger = try TestLedger(now: "2026-11-21T22:00:00+01:00", timeZone: "Europe/Berlin")
        #expect(ledger.run("waterline", "start", "--time", "20:00").status == 0)
        let drink = ledger.run("waterline", "drink", "--time", "2026-11-21T15:30:00-05:00", "--json")
        #expect(drink.json["entry"]?["timestamp"] == .string("2026-11-21T21:30:00+01:00"), "\(drink)")
        let timeline = ledger.run("waterline", "entries")
        #expect(timeline.stdout.contains("  21:30  ") && !timeline.stdout.contains("-05:00"), "\(timeline)")
    }

    /// `start --time 20:30` at 20:00 starts the session yesterday at 20:30, and says so (on
    /// stderr, so that `--json` stays one value); a time already shown today says nothing.
    @Test func aClockTimeTakenAsYesterdaySaysSoWhenItIsAccepted() throws {
        let ledger = try TestLedger(now: "2026-11-21T20:00:00+01:00")
        let r = ledger.run("waterline", "start", "--time", "20:30", "--json")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("ledger: note: --time 20:30 is taken as yesterday, 2026-11-20 20:30 (the last time the clock showed it)"), "\(r)")
        #expect(r.json["startTime"] == .string("2026-11-20T20:30:00+01:00"), "\(r)")
        let drink = ledger.run("waterline", "drink", "--time", "19:30")
        #expect(drink.status == 0 && !drink.stderr.contains("yesterday"), "\(drink)")
    }

    @Test func everyAppReadsTimesTheSameWay() throws {
        let ledger = try TestLedger(now: "2026-11-21T23:30:00+01:00")
        #expect(ledger.run("waterline", "start", "--time", "21:00").status == 0)
        let drink = ledger.run("waterline", "drink", "--time", "22:15", "--json")
        let moment = ledger.run("moments", "add", "tea", "--at", "22:15", "--json")
        let brew = ledger.run("brew", "save", "--rating", "4", "--at", "22:15", "--json")
        #expect(drink.json["entry"]?["timestamp"] == .string("2026-11-21T22:15:00+01:00"), "\(drink)")
        #expect(moment.json["experience"]?["timestamp"] == .string("2026-11-21T22:15:00+01:00"), "\(moment)")
        #expect(brew.json["timestamp"] == .string("2026-11-21T22:15:00+01:00"), "\(brew)")
        // A time still ahead today is yesterday's, in every app: a brew at 07:00 logged at 06:30 is yesterday's.
        let early = ["LEDGER_NOW": "2026-11-22T06:30:00+01:00"]
        let yesterday = ledger.run(arguments: ["brew", "save", "--rating", "3", "--at", "07:00", "--json"], env: early)
        #expect(yesterday.json["timestamp"] == .string("2026-11-21T07:00:00+01:00"), "\(yesterday)")
        // The future is a usage error everywhere, naming the option.
        for (args, option) in [(["waterline", "water", "--time"], "--time"), (["moments", "add", "tea", "--at"], "--at"),
                               (["brew", "save", "--rating", "3", "--at"], "--at")] {
            let r = ledger.run(arguments: args + ["2026-11-22T07:00"])
            #expect(r.status == 2, "\(args): \(r)")
            #expect(r.stderr.contains("\(option) 2026-11-22T07:00 is later than now"), "\(r)")
        }
    }
}
