import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// Hand edits, concurrent processes and the sample data.
@Suite struct WaterlineHandEditTests {
    func at(_ minutes: Int) -> [String: String] {
        ["LEDGER_NOW": Timestamp(iso8601: "2026-11-21T21:00:00+01:00")!.adding(minutes: Double(minutes)).iso8601]
    }

    /// A ledger with a session of two drinks and a water; returns it and the session file.
    func night(end: Bool = false) throws -> (TestLedger, String) {
        let ledger = try TestLedger()
        let id = ledger.run("waterline", "start", "--json", env: at(0)).json["sessionId"]?.stringValue ?? ""
        _ = ledger.run("waterline", "drink", env: at(10))
        _ = ledger.run("waterline", "drink", env: at(20))
        _ = ledger.run("waterline", "water", env: at(30))
        if end { _ = ledger.run("waterline", "end", "--yes", env: at(40)) }
        return (ledger, "waterline/sessions/2026/\(id).json")
    }

    func edit(_ ledger: TestLedger, _ path: String, _ change: (inout String) -> Void) throws {
        var text = try #require(ledger.read(path))
        change(&text)
        try ledger.write(path, text)
    }

    /// A year typed wrong in a hand edit (2027 for 2026) must not end a 40-minute night a
    /// year later ("8762 h 00 min"): `end` refuses, naming the file, the entry and the fix, and
    /// every command says so meanwhile; an entry a few minutes ahead (a device whose clock runs
    /// ahead) still ends the session at that entry.
    @Test func anEntryStampedLongAfterNowIsNamedAndRefusedByEnd() throws {
        let (ledger, path) = try night()
        let water = try #require(ledger.run("waterline", "entries", "--json", env: at(31)).json.arrayValue?
            .first { $0["type"] == .string("water") }?["id"]?.stringValue)
        try edit(ledger, path) { $0 = $0.replacingOccurrences(of: "2026-11-21T21:30:00+01:00", with: "2027-11-21T21:30:00+01:00") }
        let stamped = "is stamped 2027-11-21T21:30:00+01:00, more than 15 minutes after now (2026-11-21T21:40:00+01:00)"
        let status = ledger.run("waterline", "status", env: at(40))
        #expect(status.status == 0 && status.stdout.contains("entry \(water) of session"), "\(status)")
        #expect(status.stdout.contains(stamped) && status.stdout.contains("`ledger waterline edit \(water) --time …`"), "\(status)")
        let end = ledger.run("waterline", "end", "--yes", env: at(40))
        #expect(end.status == 1, "\(end)")
        #expect(end.stderr.contains("\(path): /entries/2/timestamp: entry \(water) \(stamped)"), "\(end)")
        #expect(ledger.document(path)?["endTime"] == .null && ledger.document(path)?["isActive"] == .bool(true))
        // Corrected, the night ends now: 21:00–21:40, 40 minutes.
        #expect(ledger.run("waterline", "edit", water, "--time", "21:30", env: at(40)).status == 0)
        let ended = ledger.run("waterline", "end", "--yes", "--json", env: at(40))
        #expect(ended.status == 0 && ended.json["durationMinutes"] == .number(40), "\(ended)")
        #expect(ended.json["endTime"] == .string("2026-11-21T21:40:00+01:00"), "\(ended)")
    }

    /// A drink stamped ten minutes ahead (synced from a device whose clock runs ahead) is a log,
    /// not a mistake: nothing is said, and `end` ends the night at it.
    @Test func anEntryAFewMinutesAheadEndsTheSessionAtIt() throws {
        let (ledger, path) = try night()
        try edit(ledger, path) { $0 = $0.replacingOccurrences(of: "2026-11-21T21:30:00+01:00", with: "2026-11-21T21:50:00+01:00") }
        #expect(!ledger.run("waterline", "status", env: at(40)).stdout.contains("is stamped"))
        let ended = ledger.run("waterline", "end", "--yes", "--json", env: at(40))
        #expect(ended.status == 0 && ended.json["endTime"] == .string("2026-11-21T21:50:00+01:00"), "\(ended)")
    }

    /// One past night broken by a hand edit does not hide the others: `sessions` lists what it
    /// can, names the broken file and its problem on stderr, and exits 1 (as `ls` does with an
    /// entry it cannot read); `--json` prints the valid ones.
    @Test func aBrokenPastSessionIsNamedWhileTheOthersAreListed() throws {
        let (ledger, path) = try night(end: true)
        let tonight = try #require(ledger.run("waterline", "start", "--json", env: at(60)).json["sessionId"]?.stringValue)
        try edit(ledger, path) { $0 = $0.replacingOccurrences(of: "\"type\": \"water\"", with: "\"type\": \"wasser\"") }
        for flags in [[], ["--all"]] {
            let listed = ledger.run(arguments: ["waterline", "sessions"] + flags, env: at(70))
            #expect(listed.status == 1 && listed.stdout.contains(tonight), "\(flags): \(listed)")
            #expect(listed.stderr.contains("\(path) is invalid") && listed.stderr.contains("/entries/2/type"), "\(flags): \(listed)")
            let json = ledger.run(arguments: ["waterline", "sessions", "--json"] + flags, env: at(70))
            #expect(json.status == 1 && json.json.arrayValue?.compactMap { $0["id"]?.stringValue } == [tonight], "\(flags): \(json)")
        }
    }

    /// The same for presets: a preset with an estimate of 0 (US-016's Beer is 1.0) is named,
    /// and the other four defaults are listed.
    @Test func aBrokenPresetIsNamedWhileTheOthersAreListed() throws {
        let ledger = try TestLedger()
        try edit(ledger, "waterline/presets/beer.json") {
            $0 = $0.replacingOccurrences(of: "\"standardDrinkEstimate\": 1", with: "\"standardDrinkEstimate\": 0")
        }
        let listed = ledger.run("waterline", "presets")
        #expect(listed.status == 1 && ["Glass of Wine", "Shot", "Cocktail", "Double"].allSatisfy(listed.stdout.contains), "\(listed)")
        #expect(!listed.stdout.contains("Beer"), "\(listed)")
        #expect(listed.stderr.contains("waterline/presets/beer.json: /standardDrinkEstimate"), "\(listed)")
        #expect(ledger.run("waterline", "presets", "--json").json.arrayValue?.count == 4)
    }

    @Test func aChangedEstimateIsUsedAtOnceAndItsStaleStateReportedAndFixed() throws {
        let (ledger, path) = try night()
        try edit(ledger, path) { $0 = $0.replacingOccurrences(of: "\"standardDrinkEstimate\": 1", with: "\"standardDrinkEstimate\": 1.5") }
        // Derived values are never trusted: the state is recomputed on read.
        #expect(ledger.run("waterline", "status", "--json", env: at(31)).json["waterlineValue"] == .number(2))
        let check = ledger.run("check", "--json")
        #expect(check.status == 0)
        let problems = check.json["problems"]?.arrayValue ?? []
        #expect(problems.contains { $0["pointer"] == .string("/state/waterlineValue") && $0["fixable"] == .bool(true) })
        #expect(ledger.run("check", "--fix").status == 0)
        #expect(ledger.document(path)?["state"]?["waterlineValue"] == .number(2))
        #expect(ledger.run("check").stdout.contains("no problems"))
    }

    @Test func aRemovedEntryAndAStaleSummaryAreRecomputed() throws {
        let (ledger, path) = try night(end: true)
        var json = try #require(ledger.document(path)?.objectValue)
        var entries = try #require(json["entries"]?.arrayValue)
        entries.removeLast()  // the water
        json["entries"] = .array(entries)
        try ledger.write(path, CanonicalJSON.string(.object(json)))
        let summary = ledger.run("waterline", "summary", "--json", env: at(50)).json
        #expect(summary["totalWaterCount"] == .number(0) && summary["finalWaterlineValue"] == .number(2))
        let check = ledger.run("check").stdout
        #expect(check.contains("\(path): /computedSummary/"))
        #expect(check.contains("derived value is stale"))
        #expect(ledger.run("check", "--fix").status == 0)
        #expect(ledger.document(path)?["computedSummary"]?["totalWaterCount"] == .number(0))
    }

    /// "a removed derived value draws two contradictory lines": one line, the recompute.
    @Test func aRemovedDerivedValueIsToldOnce() throws {
        let (ledger, path) = try night()
        try edit(ledger, path) { text in
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            var kept: [Substring] = []
            var skipping = false
            for line in lines {
                if line.hasPrefix("  \"state\": {") { skipping = true; continue }
                if skipping { if line.hasPrefix("  },") || line.hasPrefix("  }") { skipping = false }; continue }
                kept.append(line)
            }
            text = kept.joined(separator: "\n")
        }
        #expect(ledger.document(path)?["state"] == nil)
        let check = ledger.run("check", "--json")
        let state = (check.json["problems"]?.arrayValue ?? []).filter { $0["pointer"]?.stringValue?.hasPrefix("/state") ?? false }
        #expect(state.count == 1, "\(check)")
        let message = state.first?["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("derived value is stale: missing; a recompute gives {") && !message.contains("ledger writes null"), "\(message)")
        #expect(ledger.run("check", "--fix").status == 0)
        #expect(ledger.document(path)?["state"]?["waterlineValue"] == .number(1))
    }

    /// "`check` says "must be a whole number (found 9007199254740992.0)" for a whole number
    /// out of range."
    @Test func aWholeNumberOutOfRangeIsSaidToBeOutOfRange() throws {
        let ledger = try TestLedger()
        try edit(ledger, "waterline/settings.json") { $0 = $0.replacingOccurrences(of: "\"waterEveryNDrinks\": 1", with: "\"waterEveryNDrinks\": 9007199254740992") }
        let check = ledger.run("check")
        #expect(check.status == 1)
        #expect(check.stdout.contains("waterline/settings.json: /waterEveryNDrinks: error: is out of range: a whole number in a document is from "
            + "-8999999999999999 to 8999999999999999 (found 9007199254740992)"), "\(check)")
        #expect(!check.stdout.contains(".0)"))
    }

    @Test func anInvalidTypeIsReportedAndRefused() throws {
        let (ledger, path) = try night()
        try edit(ledger, path) { $0 = $0.replacingOccurrences(of: "\"type\": \"water\"", with: "\"type\": \"watr\"") }
        let check = ledger.run("check")
        #expect(check.status == 1)
        #expect(check.stdout.contains("\(path): /entries/2/type: error: must be one of \"alcohol\", \"water\" (found \"watr\") (did you mean 'water'?)"))
        let drink = ledger.run("waterline", "drink", env: at(35))
        #expect(drink.status == 1)
        #expect(drink.stderr.contains(path) && drink.stderr.contains("/entries/2/type"))
        #expect(ledger.run("waterline", "status", env: at(35)).status == 1)
        // `ledger status` still shows everything else, and names the file.
        let overall = ledger.run("status", env: at(35))
        #expect(overall.status == 0)
        #expect(overall.stdout.contains("\(path) is invalid; see `ledger check`"))
    }

    @Test func aSyntaxErrorIsReportedWithItsLine() throws {
        let (ledger, path) = try night()
        try edit(ledger, path) { $0 = $0.replacingOccurrences(of: "\"isActive\": true,", with: "\"isActive\": true") }
        let check = ledger.run("check")
        #expect(check.status == 1)
        #expect(check.stdout.contains(path + ":"))
        #expect(ledger.run("waterline", "water", env: at(35)).status == 1)
    }

    @Test func anEntryBeforeTheStartIsAnError() throws {
        let (ledger, path) = try night()
        try edit(ledger, path) { $0 = $0.replacingOccurrences(of: "\"timestamp\": \"2026-11-21T21:10:00+01:00\"", with: "\"timestamp\": \"2026-11-21T20:10:00+01:00\"") }
        let check = ledger.run("check")
        #expect(check.status == 1)
        #expect(check.stdout.contains("/entries/0/timestamp: error: 2026-11-21T20:10:00+01:00 is before the session started"))
    }

    /// Deleting is a fix: a session made invalid by hand (two entries with one id) is
    /// deleted like any other, with the same confirmation rule.
    @Test func anInvalidSessionIsDeletedByItsId() throws {
        let (ledger, path) = try night(end: true)
        let id = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        var json = try #require(ledger.document(path)?.objectValue)
        var entries = try #require(json["entries"]?.arrayValue)
        entries[1] = entries[0]
        json["entries"] = .array(entries)
        try ledger.write(path, CanonicalJSON.string(.object(json)))
        #expect(ledger.run("check").status == 1)
        let refused = ledger.run("waterline", "sessions", "delete", id, env: at(50))
        #expect(refused.status != 0 && ledger.read(path) != nil, "no terminal and no --yes: \(refused)")
        let r = ledger.run("waterline", "sessions", "delete", id, "--yes", env: at(50))
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("Deleted session \(id) (invalid: "), "\(r)")
        #expect(ledger.read(path) == nil)
        #expect(ledger.run("check").status == 0)
    }

    /// An active session renamed by hand (a name that is no id, an extension in capitals) is
    /// an error for `check` and is refused by the commands, naming it and the fix: passing it
    /// by would let a second session start. The rename changes the folder the device-local
    /// hint watches, so the command after it looks again.
    @Test(arguments: ["My_Session.json", "ID.JSON", "ID.Json"])
    func aMisnamedSessionFileIsRefusedNotOverlooked(_ name: String) throws {
        let (ledger, path) = try night()
        let id = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        #expect(ledger.run("waterline", "status", env: at(31)).status == 0)  // the hint names the session
        let renamed = "waterline/sessions/2026/" + name.replacingOccurrences(of: "ID", with: id)
        try FileManager.default.moveItem(atPath: ledger.root + "/" + path, toPath: ledger.root + "/" + renamed)
        let check = ledger.run("check")
        #expect(check.status == 1, "\(check)")
        #expect(check.stdout.contains("\(renamed): /: error: "), "\(check)")
        #expect(check.stdout.contains(name.hasPrefix("ID") ? "rename the file to \(id).json" : "is not a valid document id"), "\(check)")
        for args in [["status"], ["start"], ["drink"], ["water"], ["end", "--yes"]] {
            let r = ledger.run(arguments: ["waterline"] + args, env: at(35))
            #expect(r.status == 1, "\(args): \(r)")
            #expect(r.stderr.contains("\(renamed) is invalid; fix it by hand"), "\(args): \(r)")
            #expect(r.stderr.contains("rename the file to"), "\(args): \(r)")
        }
        #expect(ledger.files(under: "waterline/sessions").count == 1, "no second session was started")
        // Renamed back, the night goes on.
        try FileManager.default.moveItem(atPath: ledger.root + "/" + renamed, toPath: ledger.root + "/" + path)
        #expect(ledger.run("waterline", "drink", env: at(40)).status == 0)
        #expect(ledger.run("waterline", "status", "--json", env: at(41)).json["totalAlcoholCount"] == .number(3))
        #expect(ledger.run("check").status == 0)
    }

    @Test func twoActiveSessionsAreReportedThenMergedByTheNextCommand() throws {
        let (ledger, path) = try night()
        // A second active session of the same night, as a sync from another device would bring.
        var other = try #require(ledger.document(path)?.objectValue)
        other["id"] = .string("otherdevice")
        var entries = try #require(other["entries"]?.arrayValue)
        for i in entries.indices {
            if case .object(var e) = entries[i] { e["id"] = .string("other\(i)"); entries[i] = .object(e) }
        }
        other["entries"] = .array(entries)
        try ledger.write("waterline/sessions/2026/otherdevice.json", CanonicalJSON.string(.object(other)))
        let check = ledger.run("check")
        #expect(check.status == 1)
        #expect(check.stdout.contains("only one session may be active"))
        let status = ledger.run("waterline", "status", env: at(35))
        #expect(status.status == 0)
        #expect(status.stdout.contains("were both active"))
        #expect(ledger.run("waterline", "status", "--json", env: at(35)).json["totalAlcoholCount"] == .number(4))
        #expect(ledger.files(under: "waterline/sessions").count == 1)
        #expect(ledger.run("check").status == 0)
    }

    @Test func anOldSessionReopenedInPlaceIsMergedAsCheckSays() throws {
        let (ledger, path) = try night(end: true)
        let tonight = ledger.run("waterline", "start", "--json", env: at(60)).json["sessionId"]?.stringValue ?? ""
        _ = ledger.run("waterline", "drink", env: at(70))
        // Re-opened by hand, in place (an editor writing into the same file).
        try edit(ledger, path) {
            $0 = $0.replacingOccurrences(of: "\"isActive\": false", with: "\"isActive\": true")
                .replacingOccurrences(of: "\"endTime\": \"2026-11-21T21:40:00+01:00\"", with: "\"endTime\": null")
        }
        let check = ledger.run("check")
        #expect(check.status == 1 && check.stdout.contains("the next `ledger waterline` command merges them"), "\(check)")
        let status = ledger.run("waterline", "status", "--json", env: at(75))
        #expect(status.status == 0)
        #expect(status.stderr.contains("were both active"), "\(status)")
        #expect(status.json["totalAlcoholCount"] == .number(3))
        #expect(ledger.files(under: "waterline/sessions").count == 1, "merged into one night: \(tonight) went into the first")
        #expect(ledger.run("check").status == 0)
    }

    /// Issue: `drink` right after the re-opening edit, with no `check` in between, merges
    /// the two nights first and logs into the merged one.
    @Test func anOldSessionReopenedInPlaceIsMergedByTheNextDrink() throws {
        let (ledger, path) = try night(end: true)
        _ = ledger.run("waterline", "start", env: at(60))
        _ = ledger.run("waterline", "drink", env: at(70))
        try edit(ledger, path) {
            $0 = $0.replacingOccurrences(of: "\"isActive\": false", with: "\"isActive\": true")
                .replacingOccurrences(of: "\"endTime\": \"2026-11-21T21:40:00+01:00\"", with: "\"endTime\": null")
        }
        let drink = ledger.run("waterline", "drink", env: at(75))
        #expect(drink.status == 0 && drink.stdout.contains("were both active"), "\(drink)")
        #expect(ledger.files(under: "waterline/sessions").count == 1)
        #expect(ledger.run("waterline", "status", "--json", env: at(76)).json["totalAlcoholCount"] == .number(4))
        #expect(ledger.run("check").status == 0)
    }

    @Test func anOversizeEndedSessionIsReportedAndSkipped() throws {
        let (ledger, path) = try night(end: true)
        let text = try #require(ledger.read(path))
        // The same session, as ledger writes it, with a note too large for a document at its end.
        let huge = text.replacingOccurrences(of: "\n  \"warningThreshold\"", with: "\n  \"warningThreshold\"")
            .replacingOccurrences(of: "\n}\n", with: ",\n  \"zzzNotes\": \"" + String(repeating: "x", count: 4 * 1024 * 1024) + "\"\n}\n")
        try ledger.write(path, huge)
        #expect(ledger.run("waterline", "start", env: at(60)).status == 0)
        #expect(ledger.run("waterline", "drink", env: at(70)).status == 0)
        #expect(ledger.run("waterline", "status", env: at(71)).status == 0)
        let check = ledger.run("check")
        #expect(check.status == 1 && check.stdout.contains(path) && check.stdout.contains("larger than"), "\(check)")
    }

    /// A hand edit that breaks the active session's syntax: every command that looks for the
    /// active session names the file and check's problem, none says that no session is
    /// active (and sends the user to `start`); a broken file that says it has ended is passed by.
    @Test func aBrokenActiveSessionIsNamedNotTakenForNoSession() throws {
        let (ledger, path) = try night()
        _ = ledger.run("waterline", "status", env: at(31))  // the device-local hint names the session
        let good = try #require(ledger.read(path))
        try ledger.write(path, "{bad\n")
        let problem = "\(path): 1:2: error: bad: a member name takes double quotes (\"bad\")"
        // `ledger status` first, as a user would look: it must not record "no session active" either.
        let status = ledger.run("status", "--json", env: at(40))
        #expect(status.status == 0 && status.json["waterline"]?["error"]?.stringValue?.contains(path) == true, "\(status)")
        #expect(status.json["waterline"]?["sessionId"] == nil, "\(status)")
        for args in [["waterline", "status"], ["waterline", "drink"], ["waterline", "water"], ["waterline", "start"]] {
            let r = ledger.run(arguments: args, env: at(40))
            #expect(r.status == 1 && r.stderr.contains("\(path) is invalid") && r.stderr.contains(problem), "\(args): \(r)")
            #expect(!r.stdout.contains("No active session") && !r.stderr.contains("no session is active"), "\(args): \(r)")
        }
        #expect(ledger.read(path) == "{bad\n", "nothing written")
        // Ended (a file that says so, broken further on): passed by; a new night starts.
        try ledger.write(path, good.replacingOccurrences(of: "\"isActive\": true", with: "\"isActive\": false") + "}")
        #expect(ledger.run("waterline", "status", env: at(41)).stdout.contains("No active session"))
        #expect(ledger.run("check").stdout.contains(path))
    }

    @Test func concurrentDrinkProcessesLoseNothing() throws {
        let ledger = try TestLedger()
        #expect(try ledger.runBinary("waterline", "start").status == 0)
        let count = 8
        let results = ResultBox(count: count)
        let group = DispatchGroup()
        for i in 0..<count {
            DispatchQueue.global().async(group: group) {
                results.set(i, (try? ledger.runBinary("waterline", i % 2 == 0 ? "drink" : "water"))?.status ?? -1)
            }
        }
        group.wait()
        #expect(results.values == Array(repeating: 0, count: count))
        let status = ledger.run("waterline", "status", "--json").json
        #expect(status["totalAlcoholCount"] == .number(4))
        #expect(status["totalWaterCount"] == .number(4))
        #expect(ledger.run("check").status == 0)
    }

    @Test func theSampleDataIsValidAndTellsAStory() throws {
        let ledger = try TestLedger(now: "2026-11-21T23:30:00+01:00")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        let sample = root + "/sample-data/waterline"
        let files = try FileManager.default.subpathsOfDirectory(atPath: sample).filter { $0.hasSuffix(".json") }
        #expect(files.count >= 10)
        for f in files { try ledger.write("waterline/" + f, try String(contentsOfFile: sample + "/" + f, encoding: .utf8)) }
        let check = ledger.run("check")
        #expect(check.stdout.hasSuffix("no problems.\n"), "\(check)")
        let status = ledger.run("waterline", "status", "--json").json
        #expect(status["sessionId"] != .null)
        #expect(status["abandoned"] == .bool(false))
        #expect((ledger.run("waterline", "sessions", "--json").json.arrayValue ?? []).count >= 4)
    }
}

/// Exit statuses written by concurrent threads, each to its own slot.
private final class ResultBox: @unchecked Sendable {
    // @unchecked: every slot is written under `lock`.
    private let lock = NSLock()
    private var storage: [Int32]
    init(count: Int) { storage = Array(repeating: 99, count: count) }
    func set(_ i: Int, _ v: Int32) { lock.withLock { storage[i] = v } }
    var values: [Int32] { lock.withLock { storage } }
}

/// docs/ledger.md: `--fix` "never writes a file `check` would reject"; a derived value is
/// recomputed only from valid input.
extension WaterlineHandEditTests {
    @Test func aDerivedValueIsNotFixedFromAnInputCheckRejects() throws {
        let (ledger, path) = try night(end: true)
        try edit(ledger, path) { $0 = $0.replacingOccurrences(of: "\"standardDrinkEstimate\": 1", with: "\"standardDrinkEstimate\": 1e300") }
        let check = ledger.run("check", "--json")
        #expect(check.status == 1)
        let problems = check.json["problems"]?.arrayValue ?? []
        #expect(problems.contains { $0["pointer"] == .string("/entries/0/alcoholMeta/standardDrinkEstimate") && $0["severity"] == .string("error") }, "\(check)")
        let stale = problems.filter { $0["pointer"] == .string("/state/totalStandardDrinks") }
        #expect(stale.count == 1 && stale.allSatisfy { $0["fixable"] != .bool(true) }, "\(stale)")
        let fix = ledger.run("check", "--fix")
        #expect(fix.status == 1)
        #expect(ledger.document(path)?["state"]?["totalStandardDrinks"] == .number(2), "the stored total stays: \(ledger.read(path) ?? "")")
        #expect(ledger.document(path)?["computedSummary"]?["totalStandardDrinks"] == .number(2))

        // An end before the start: the duration is not rewritten to 0.
        let (other, session) = try night(end: true)
        let duration = try #require(other.document(session)?["computedSummary"]?["durationMinutes"])
        try edit(other, session) { $0 = $0.replacingOccurrences(of: "\"endTime\": \"2026-11-21T21:40:00+01:00\"", with: "\"endTime\": \"2026-11-21T20:00:00+01:00\"") }
        let before = other.run("check", "--json")
        #expect(before.json["problems"]?.arrayValue?.contains { $0["pointer"] == .string("/endTime") && $0["severity"] == .string("error") } == true, "\(before)")
        #expect(before.json["problems"]?.arrayValue?.contains { $0["fixable"] == .bool(true) } == false, "\(before)")
        #expect(other.run("check", "--fix").status == 1)
        #expect(other.document(session)?["computedSummary"]?["durationMinutes"] == duration)
        // Once the error is fixed, --fix recomputes (the first --fix left the file as it was).
        try edit(ledger, path) { $0 = $0.replacingOccurrences(of: "\"standardDrinkEstimate\": 1e300", with: "\"standardDrinkEstimate\": 1.5") }
        #expect(ledger.run("check", "--fix").status == 0)
        #expect(ledger.document(path)?["state"]?["totalStandardDrinks"] == .number(3))
    }
}

/// docs/waterline.md: `end --time` takes a time for the whole minute it names — the minute the
/// timeline shows for the last entry ends the session at that entry.
extension WaterlineHandEditTests {
    @Test func theMinuteShownForTheLastEntryEndsTheSessionAtIt() throws {
        let ledger = try TestLedger()
        let at = { (t: String) in ["LEDGER_NOW": "2026-11-21T\(t)+01:00"] }
        #expect(ledger.run("waterline", "start", env: at("22:00:00")).status == 0)
        #expect(ledger.run("waterline", "drink", "--preset", "beer", env: at("23:47:41")).status == 0)
        #expect(ledger.run("waterline", "entries", env: at("23:50:00")).stdout.contains("  23:47  "))
        let early = ledger.run("waterline", "end", "--yes", "--time", "23:46", env: at("23:50:00"))
        #expect(early.status == 1 && early.stderr.contains("before the session's last entry"), "\(early)")
        let end = ledger.run("waterline", "end", "--yes", "--time", "23:47", "--json", env: at("23:50:00"))
        #expect(end.status == 0, "\(end)")
        #expect(end.json["durationMinutes"] == .number(107))
        let session = ledger.run("waterline", "sessions", "--json", env: at("23:50:00")).json.arrayValue?.first
        #expect(session?["endTime"] == .string("2026-11-21T23:47:41+01:00"))
        #expect(ledger.run("check").status == 0)
    }

    @Test func theAbandonedSessionHintsLastLogMinuteIsAccepted() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("waterline", "start", env: ["LEDGER_NOW": "2026-11-21T22:00:00+01:00"]).status == 0)
        #expect(ledger.run("waterline", "water", env: ["LEDGER_NOW": "2026-11-22T02:30:15+01:00"]).status == 0)
        let late = ["LEDGER_NOW": "2026-11-22T12:30:00+01:00"]
        let status = ledger.run("waterline", "status", env: late)
        #expect(status.stderr.contains("your last log, 02:30") || status.stdout.contains("your last log, 02:30"), "\(status)")
        let end = ledger.run("waterline", "end", "--yes", "--time", "02:30", env: late)
        #expect(end.status == 0, "\(end)")
        #expect(ledger.run("waterline", "sessions", "--json", env: late).json.arrayValue?.first?["endTime"] == .string("2026-11-22T02:30:15+01:00"))
    }
}
