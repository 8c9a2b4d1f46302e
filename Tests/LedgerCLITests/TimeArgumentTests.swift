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
        // The spring gap: a skipped time is taken just after it.
        ("02:30", "2026-03-29T04:00:00+02:00", "Europe/Paris", "2026-03-29T03:30:00+02:00"),
        // A local date-time: the offset the zone has then.
        ("2026-11-18T15:30", "2026-11-21T23:30:00+01:00", "Europe/Paris", "2026-11-18T15:30:00+01:00"),
        ("2026-07-01 08:15", "2026-11-21T23:30:00+01:00", "Europe/Paris", "2026-07-01T08:15:00+02:00"),
        ("2026-07-01T08:15:09", "2026-11-21T23:30:00+01:00", "America/New_York", "2026-07-01T08:15:09-04:00"),
        // A timestamp keeps its own offset; the seconds may be left out.
        ("2026-11-18T15:30:00-05:00", "2026-11-21T23:30:00+01:00", "Europe/Paris", "2026-11-18T15:30:00-05:00"),
        ("2026-11-18T15:30Z", "2026-11-21T23:30:00+01:00", "Europe/Paris", "2026-11-18T15:30:00+00:00"),
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
        // A time given with its date, or today's, is refused as before.
        let dated = ledger.run(arguments: ["waterline", "drink", "--time", "20:00"], env: late)
        #expect(dated.status == 1 && dated.stderr.contains("2026-11-21T20:00:00+01:00 is before session") && !dated.stderr.contains("yesterday"), "\(dated)")
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
