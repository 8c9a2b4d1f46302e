import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// What the Waterline commands show people: times that cannot be misread, the user's units,
/// preset names, the gauge — and never a control character from the data.
@Suite struct WaterlineOutputTests {
    func at(_ minutes: Int) -> [String: String] {
        ["LEDGER_NOW": Timestamp(iso8601: "2026-11-21T21:00:00+01:00")!.adding(minutes: Double(minutes)).iso8601]
    }

    func lines(_ text: String, containing needle: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.contains(needle) }
    }

    // MARK: - Output safety

    @Test func aPresetNameHoldingEscapeSequencesIsShownNotObeyed() throws {
        let ledger = try TestLedger()
        let hostile = "Hazy\u{1B}]0;pwned\u{07}\u{1B}[2J\nIPA"
        #expect(ledger.run("waterline", "presets", "add", hostile, "--type", "beer", "--size", "16").status == 0)
        // Hand-edited into another preset's file too, as a synced file could bring it.
        let path = "waterline/presets/beer.json"
        let text = try #require(ledger.read(path))
        try ledger.write(path, text.replacingOccurrences(of: "\"name\": \"Beer\"", with: "\"name\": \"Be\\u001b[31mer\\u001b]0;x\\u0007\\n!\""))
        let presets = try ledger.runBinary("waterline", "presets")
        #expect(presets.status == 0, "\(presets)")
        #expect(!presets.stdout.utf8.contains(0x1B), "no ESC byte reaches the terminal")
        #expect(!presets.stdout.utf8.contains(0x07))
        let rows = presets.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(rows.count == 6 + 2, "one line per preset, a header and a footer: \(rows)")
        #expect(presets.stdout.contains("Hazy\\u001b]0;pwned\\u0007\\u001b[2J\\nIPA"))
        // The name travels into the entries logged with it, and every view shows it safely.
        _ = ledger.run("waterline", "start", env: at(0))
        let id = try #require(ledger.run("waterline", "presets", "--json").json.arrayValue?.first { $0["name"] == .string(hostile) }?["id"]?.stringValue)
        #expect(ledger.run("waterline", "drink", "--preset", id, env: at(5)).status == 0)
        for args in [["entries"], ["summary"], ["status"], ["sessions"], ["reminders"], ["drink", "--preset", id]] {
            let r = try ledger.runBinary(arguments: ["waterline"] + args, env: at(10))
            #expect(r.status == 0, "\(args): \(r)")
            #expect(!r.stdout.utf8.contains(0x1B) && !r.stderr.utf8.contains(0x1B), "\(args)")
        }
        let entries = try ledger.runBinary("waterline", "entries", env: at(10)).stdout
        // Two drinks with it (one logged just above): two rows, each whole.
        #expect(lines(entries, containing: "Hazy").count == 2, "\(entries)")
        #expect(lines(entries, containing: "Hazy").allSatisfy { $0.contains("IPA · 1.3 std") }, "\(entries)")
    }

    // MARK: - Times, dates, units, names (issue of the review: human output)

    @Test func aNightWhenTheClocksGoBackShowsOffsets() throws {
        // Paris, 25 Oct 2026: at 03:00 CEST the clocks go back to 02:00 CET.
        let ledger = try TestLedger(now: "2026-10-25T02:40:00+01:00")
        #expect(ledger.run("waterline", "start", "--time", "2026-10-24T23:30:00+02:00").status == 0)
        for t in ["2026-10-25T02:10:00+02:00", "2026-10-25T02:10:00+01:00"] {
            #expect(ledger.run("waterline", "drink", "--time", t).status == 0)
        }
        let entries = ledger.run("waterline", "entries").stdout
        #expect(entries.contains("02:10 +02:00") && entries.contains("02:10 +01:00"), "\(entries)")
        #expect(entries.contains("started 23:30 +02:00"), "\(entries)")
        // A night with one offset shows plain times.
        let plain = try TestLedger()
        _ = plain.run("waterline", "start", env: at(0))
        _ = plain.run("waterline", "drink", env: at(10))
        #expect(!plain.run("waterline", "entries", env: at(11)).stdout.contains("+01:00"))
    }

    @Test func aSessionOfSeveralDaysShowsDates() throws {
        let ledger = try TestLedger()
        _ = ledger.run("waterline", "start", env: at(0))
        _ = ledger.run("waterline", "drink", env: at(10))
        _ = ledger.run("waterline", "water", env: at(26 * 60))
        let entries = ledger.run("waterline", "entries", env: at(26 * 60 + 1)).stdout
        #expect(entries.contains("Sat 21 Nov 21:10") && entries.contains("Sun 22 Nov 23:00"), "\(entries)")
        let summary = ledger.run("waterline", "summary", env: at(26 * 60 + 1)).stdout
        #expect(summary.contains("Sat 21 Nov 21:00–now"), "\(summary)")
    }

    @Test func theTimelineNamesThePresetAndSizesFollowTheUnits() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("waterline", "presets", "add", "Hazy IPA", "--type", "beer", "--size", "16", "--abv", "7").status == 0)
        _ = ledger.run("waterline", "start", env: at(0))
        _ = ledger.run("waterline", "drink", "--preset", "hazy ipa", env: at(5))
        _ = ledger.run("waterline", "drink", "--type", "wine", "--size", "glass", env: at(6))
        let entries = ledger.run("waterline", "entries", env: at(7)).stdout
        #expect(entries.contains("Hazy IPA · 1.9 std"), "\(entries)")
        #expect(entries.contains("wine · 5 oz · 1.0 std"), "\(entries)")
        _ = ledger.run("waterline", "settings", "set", "units", "ml")
        let inMl = ledger.run("waterline", "entries", env: at(8)).stdout
        #expect(inMl.contains("wine · 148 ml · 1.0 std"), "\(inMl)")
        #expect(ledger.run("waterline", "presets").stdout.contains("355 ml"))
        // With units ml, a bare size is in ml (25 ml of liquor, not 25 oz).
        let shot = ledger.run("waterline", "drink", "--type", "liquor", "--size", "25", env: at(9))
        #expect(shot.stdout.contains("Logged liquor · 25 ml — 0.6 standard drinks (25 ml at 40% ABV, typical for liquor)."), "\(shot)")
    }

    @Test func theSummarySaysWhichNEachPartOfTheNightWasPacedWith() throws {
        let ledger = try TestLedger()
        _ = ledger.run("waterline", "settings", "set", "waterEveryNDrinks", "3")
        _ = ledger.run("waterline", "start", env: at(0))
        for m in [10, 20, 30] { _ = ledger.run("waterline", "drink", env: at(m)) }
        _ = ledger.run("waterline", "water", env: at(40))
        _ = ledger.run("waterline", "settings", "set", "waterEveryNDrinks", "1", env: at(45))
        _ = ledger.run("waterline", "drink", env: at(50))
        let summary = ledger.run("waterline", "summary", env: at(55)).stdout
        #expect(summary.contains("50% — 1 of 2 reminders followed by water (water every 3 drinks, then 1 drink)"), "\(summary)")
    }

    @Test func anEndedEmptySessionDoesNotSuggestLoggingIntoIt() throws {
        let ledger = try TestLedger()
        _ = ledger.run("waterline", "start", env: at(0))
        let active = ledger.run("waterline", "entries", env: at(1)).stdout
        #expect(active.contains("Log with `ledger waterline drink`"))
        let ended = ledger.run("waterline", "end", "--yes", env: at(2)).stdout
        #expect(ended.contains("No entries.") && !ended.contains("Log with"), "\(ended)")
    }

    @Test func theGaugeShowsTheValueAndNamesAnyThreshold() throws {
        let ledger = try TestLedger()
        _ = ledger.run("waterline", "start", env: at(0))
        _ = ledger.run("waterline", "drink", "--std", "1.25", env: at(1))
        let status = ledger.run("waterline", "status", env: at(2)).stdout
        #expect(status.contains("Waterline +1.25 — Above center"), "\(status)")
        for threshold in ["1", "50"] {
            _ = ledger.run("waterline", "settings", "set", "warningThreshold", threshold)
            let text = ledger.run("waterline", "status", env: at(3)).stdout
            #expect(text.contains("warning \(threshold)"), "threshold \(threshold):\n\(text)")
        }
    }

    @Test func notificationsOfLoggingCarryTheirActions() throws {
        let ledger = try TestLedger()
        _ = ledger.run("waterline", "start", env: at(0))
        let r = ledger.run("waterline", "drink", "--json", env: at(1)).json
        let n = try #require(r["notifications"]?.arrayValue?.first)
        #expect(n["actions"] == .array([
            .object(["id": .string("log-water"), "title": .string("Log Water")]),
            .object(["id": .string("dismiss"), "title": .string("Dismiss")]),
        ]))
        let due = ledger.run("waterline", "reminders", "--json", env: at(2)).json["due"]
        #expect(due?["items"]?.arrayValue?.first?["actions"] == n["actions"])
        #expect(due?["nextChange"] == .string("2026-11-21T21:20:00+01:00"))
    }

    // MARK: - One rule for the numbers shown

    /// "The words and the number disagree: `drink --std 0.96` → "+1.0 · Balanced — at
    /// center"; at 1.96 "+2.0 — Above center" on the warning-2 mark, with no warning. What is
    /// shown and what is decided must agree (one rounding rule, stated)."
    @Test func whatIsShownIsWhatTheRulesDecide() throws {
        let ledger = try TestLedger()
        _ = ledger.run("waterline", "start", env: at(0))
        let first = ledger.run("waterline", "drink", "--std", "0.96", env: at(1)).stdout
        #expect(first.contains("Waterline +0.96 · Balanced — at center"), "\(first)")
        let second = ledger.run("waterline", "drink", "--std", "1", env: at(2)).stdout
        #expect(second.contains("Waterline +1.96 · Above center"), "\(second)")
        #expect(!second.contains("Pacing Warning"))
        let status = ledger.run("waterline", "status", env: at(3)).stdout
        #expect(status.contains("Waterline +1.96 — Above center"), "\(status)")
        // The value's mark stays short of the warning mark it has not reached.
        let gauge = try #require(lines(status, containing: "┃").first)
        let marker = try #require(gauge.firstIndex(of: "●")), warning = try #require(gauge.firstIndex(of: "┊"))
        #expect(marker < warning, "\(gauge)")
        // More decimals than two are cut, not rounded up to a mark not reached.
        let cut = try TestLedger()
        _ = cut.run("waterline", "start", env: at(0))
        let close = cut.run("waterline", "drink", "--std", "1.996", env: at(1)).stdout
        #expect(close.contains("Waterline +1.99 · Above center") && !close.contains("Pacing Warning"), "\(close)")
        // At the threshold: on the mark, with the warning.
        let third = ledger.run("waterline", "drink", "--std", "0.04", env: at(4)).stdout
        #expect(third.contains("Waterline +2.0 · Drink water to return to center") && third.contains("Pacing Warning"), "\(third)")
    }

    /// "Standard-drink totals are shown with two decimals ("1.96 standard drinks") beside a
    /// one-decimal Waterline": the total and the value are written alike.
    @Test func totalsAndTheWaterlineAreWrittenAlike() throws {
        let ledger = try TestLedger()
        _ = ledger.run("waterline", "start", env: at(0))
        _ = ledger.run("waterline", "drink", "--std", "0.96", env: at(1))
        _ = ledger.run("waterline", "drink", "--std", "1", env: at(2))
        let status = ledger.run("waterline", "status", env: at(3)).stdout
        #expect(status.contains("Drinks 2 (1.96 standard drinks)") && status.contains("Waterline +1.96"), "\(status)")
        _ = ledger.run("waterline", "drink", "--std", "0.04", env: at(4))
        let round = ledger.run("waterline", "status", env: at(5)).stdout
        #expect(round.contains("Drinks 3 (2.0 standard drinks)") && round.contains("Waterline +2.0"), "\(round)")
        let summary = ledger.run("waterline", "summary", env: at(6)).stdout
        #expect(summary.contains("3 · 2.0 standard drinks") && summary.contains("final +2.0"), "\(summary)")
    }
}

extension TestLedger {
    /// Runs the built executable with an argument array (see `runBinary(_:env:stdin:)`).
    func runBinary(arguments: [String], env: [String: String] = [:]) throws -> CommandResult {
        try LedgerBinary.run(arguments, environment: environment.merging(env) { $1 }, currentDirectory: root)
    }
}
