import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `ledger waterline …` end to end, in-process, on temporary ledgers.
@Suite struct WaterlineCommandTests {
    static let evening = "2026-11-21T21:00:00+01:00"

    /// A ledger whose clock reads `at(minutes)` after 21:00.
    func at(_ minutes: Int) -> [String: String] {
        ["LEDGER_NOW": Timestamp(iso8601: Self.evening)!.adding(minutes: Double(minutes)).iso8601]
    }

    func started(_ ledger: TestLedger, env: [String: String]? = nil) -> String {
        let r = ledger.run("waterline", "start", "--json", env: env ?? at(0))
        #expect(r.status == 0, "\(r)")
        return r.json["sessionId"]?.stringValue ?? ""
    }

    func sessionFile(_ ledger: TestLedger, _ id: String) -> String { "waterline/sessions/2026/\(id).json" }

    /// The hint that finds the active session without reading every session names git's index
    /// relative to the ledger: recorded through one path to the ledger (`--repo`, a symbolic
    /// link, the current directory), it is the same hint through another. With the index's
    /// absolute path in it, two paths in turn threw each other's hint away, and every command
    /// read every session (0.2 s at a hundred years).
    @Test func theActiveSessionHintIsTheSameWhicheverPathLeadsToTheLedger() throws {
        let ledger = try TestLedger()
        _ = started(ledger)
        let link = ledger.directory.path + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: ledger.root)
        let hint = ledger.root + "/.git/ledger/waterline-active.json"
        func stampedPaths(_ env: [String: String]) throws -> [String] {
            try FileManager.default.removeItem(atPath: hint)
            let r = ledger.run("waterline", "status", env: env)
            #expect(r.status == 0, "\(r)")
            let json = try JSONParser.parse(try #require(FileSystem.readCache(hint, limit: 1 << 20)))
            guard case .object(let stamps)? = json["stamps"] else {
                Issue.record("the hint has no stamps: \(json)")
                return []
            }
            return stamps.map(\.key).sorted()
        }
        let direct = try stampedPaths([:])
        #expect(direct.contains(".git/index") && direct.contains("waterline/sessions"), "\(direct)")
        #expect(direct.allSatisfy { !$0.hasPrefix("/") }, "\(direct)")
        #expect(try stampedPaths(["LEDGER_REPO": link]) == direct)
        #expect(try stampedPaths(["LEDGER_REPO": ledger.root + "/./"]) == direct)
        // A `.git` that is a symbolic link (kept on another disk) is followed to the index.
        let elsewhere = ledger.directory.path + "/git-elsewhere"
        try FileManager.default.moveItem(atPath: ledger.root + "/.git", toPath: elsewhere)
        try FileManager.default.createSymbolicLink(atPath: ledger.root + "/.git", withDestinationPath: elsewhere)
        #expect(try stampedPaths([:]) == direct)
        let stamps = try JSONParser.parse(try #require(FileSystem.readCache(hint, limit: 1 << 20)))["stamps"]
        #expect(stamps?[".git/index"]?.stringValue.map { $0 != "-" } == true, "\(String(describing: stamps))")
    }

    @Test func aNightOutFromStartToSummary() throws {
        let ledger = try TestLedger()
        let id = started(ledger)
        #expect(ledger.run("waterline", "drink", "--preset", "beer", env: at(10)).stdout.contains("1.0 standard drink (preset Beer)"))
        let warned = ledger.run("waterline", "drink", "--preset", "GLASS OF WINE", env: at(25))
        #expect(warned.stdout.contains("→ Water Reminder: You've had 2 drinks — time for water"))
        #expect(warned.stdout.contains("→ Pacing Warning: Your Waterline is high — drink water to return to center"))
        // Above the threshold already: no second warning for the double.
        let double = ledger.run("waterline", "drink", "--preset", "double", env: at(40))
        #expect(double.stdout.contains("2.0 standard drinks (preset Double)"))
        #expect(!double.stdout.contains("Pacing Warning"))
        #expect(ledger.run("waterline", "water", env: at(50)).status == 0)

        let status = ledger.run("waterline", "status", "--json", env: at(55))
        #expect(status.status == 0)
        let s = status.json
        #expect(s["sessionId"] == .string(id))
        #expect(s["waterlineValue"] == .number(3))
        #expect(s["alcoholCountSinceLastWater"] == .number(0))
        #expect(s["totalAlcoholCount"] == .number(3))
        #expect(s["totalWaterCount"] == .number(1))
        #expect(s["totalStandardDrinks"] == .number(4))
        #expect(s["isWarning"] == .bool(true))
        #expect(s["nextReminder"] == .string("2026-11-21T22:00:00+01:00"))

        let text = ledger.run("waterline", "status", env: at(55)).stdout
        for expected in ["Drink water to return to center", "Water due in: 1 drink", "Next reminder: 22:00", "┃"] {
            #expect(text.contains(expected), "\(expected) missing in\n\(text)")
        }

        let entries = ledger.run("waterline", "entries", "--json", env: at(56)).json.arrayValue ?? []
        #expect(entries.map { $0["type"] } == [.string("alcohol"), .string("alcohol"), .string("alcohol"), .string("water")])
        #expect(entries.allSatisfy { $0["id"]?.stringValue != nil && $0["timestamp"]?.stringValue != nil && $0["source"] == .string("cli") })
        #expect(entries[2]["alcoholMeta"]?["standardDrinkEstimate"] == .number(2))
        #expect(entries[3]["waterMeta"] == .object(["amount": .number(8), "units": .string("oz")]))

        let refused = ledger.run("waterline", "end", env: at(60))
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--yes"))
        #expect(ledger.run("waterline", "status", "--json", env: at(60)).json["sessionId"] == .string(id))

        let ended = ledger.run("waterline", "end", "--yes", "--json", env: at(70))
        #expect(ended.status == 0, "\(ended)")
        let summary = ledger.run("waterline", "summary", id, "--json", env: at(80)).json
        #expect(summary["totalAlcoholCount"] == .number(3))
        #expect(summary["totalWaterCount"] == .number(1))
        #expect(summary["totalStandardDrinks"] == .number(4))
        #expect(summary["durationMinutes"] == .number(70))
        // Reminder points after each drink (N = 1); only the double was followed by water.
        #expect(summary["adherencePercent"] == .number(33.3))
        #expect(summary["finalWaterlineValue"] == .number(3))
        #expect(summary["highestWaterlineValue"] == .number(4))
        #expect(ledger.run("waterline", "summary", "--json", env: at(80)).json["sessionId"] == .string(id))

        let sessions = ledger.run("waterline", "sessions", "--json", env: at(80)).json.arrayValue ?? []
        #expect(sessions.count == 1)
        #expect(sessions.first?["id"] == .string(id))
        #expect(sessions.first?["isActive"] == .bool(false))
        #expect(sessions.first?["endTime"] == .string("2026-11-21T22:10:00+01:00"))
        #expect(ledger.run("waterline", "status", "--json", env: at(80)).json["sessionId"] == .null)
        #expect(ledger.run("check").status == 0)
    }

    /// `--preset pivo` and `--preset Pivo` no longer act on two different presets: the exact
    /// id picks "Пиво"; "Pivo" names both (the id in other case, the name) and is refused.
    @Test func aPresetNameThatPicksTwoPresetsIsAUsageError() throws {
        let ledger = try TestLedger()
        _ = started(ledger)
        #expect(ledger.run("waterline", "presets", "add", "Пиво", "--type", "beer").status == 0)
        #expect(ledger.run("waterline", "presets", "add", "Pivo", "--type", "beer").status == 0)
        let byID = ledger.run("waterline", "drink", "--preset", "pivo", "--json", env: at(5))
        #expect(byID.status == 0 && byID.json["entry"]?["alcoholMeta"]?["presetId"] == .string("pivo"), "\(byID)")
        for command in [["drink", "--preset", "Pivo"], ["presets", "edit", "Pivo", "--abv", "6"], ["presets", "delete", "Pivo"]] {
            let r = ledger.run(arguments: ["waterline"] + command, env: at(6))
            #expect(r.status == 2 && r.stderr.contains("\"Pivo\" names 2 presets, \"Пиво\" (id pivo) and \"Pivo\" (id pivo-2); give the id"), "\(command): \(r)")
        }
        // A prefix of both ids is refused the same way (it was "no such preset", exit 1, with
        // "did you mean 'Pivo'", a name that picks two).
        for command in [["drink", "--preset", "piv"], ["presets", "edit", "piv", "--abv", "6"], ["presets", "delete", "piv"]] {
            let r = ledger.run(arguments: ["waterline"] + command, env: at(7))
            #expect(r.status == 2 && r.stderr.contains("\"piv\" begins the ids of 2 presets, \"Пиво\" (id pivo), \"Pivo\" (id pivo-2); give more of the id"),
                    "\(command): \(r)")
        }
        let unknown = ledger.run("waterline", "drink", "--preset", "pivoo", env: at(8))
        #expect(unknown.status == 1 && unknown.stderr.contains("did you mean 'pivo"), "\(unknown)")
        #expect(!unknown.stderr.contains("'Pivo'"), "a name that picks two presets is not offered: \(unknown)")
        // An empty reference is a usage error, as for every other reference.
        for command in [["drink", "--preset", ""], ["presets", "edit", "", "--abv", "6"], ["presets", "delete", " "]] {
            let r = ledger.run(arguments: ["waterline"] + command, env: at(9))
            #expect(r.status == 2 && r.stderr.contains("the preset reference is empty"), "\(command): \(r)")
        }
        #expect(ledger.run("waterline", "presets", "delete", "pivo-2").status == 0)
    }

    /// One size limit and one message for drinks and water, to the millilitre at both ends (an
    /// amount that would be shown as 0 ml is refused); the largest N is stated.
    @Test func limitsAreStatedAsTheyAreApplied() throws {
        let ledger = try TestLedger()
        _ = started(ledger)
        for args in [["drink", "--size", "68oz"], ["drink", "--size", "2010ml"], ["water", "--amount", "2001ml"],
                     ["water", "--amount", "0.3ml"], ["water", "--amount", "0.01"], ["drink", "--size", "0.4ml", "--std", "1"]] {
            let r = ledger.run(arguments: ["waterline"] + args, env: at(5))
            #expect(r.status == 2 && r.stderr.contains("\(args[1]) must be at least 1 ml (0.03 oz) and at most 2000 ml (67.6 oz)"), "\(args): \(r)")
        }
        #expect(ledger.run("waterline", "drink", "--size", "2000ml", "--std", "5", env: at(6)).status == 0)
        // The least amount, in ounces (the settings' unit) to the hundredth rather than as 0 oz.
        let least = ledger.run("waterline", "water", "--amount", "1ml", env: at(7))
        #expect(least.status == 0 && least.stdout.contains("Logged water · 0.03 oz."), "\(least)")
        let n = ledger.run("waterline", "settings", "set", "waterEveryNDrinks", "9223372036854775807")
        #expect(n.status == 2 && n.stderr.contains("waterEveryNDrinks must be a whole number of drinks from 1 to 8999999999999999"), "\(n)")
    }

    /// The text agrees with the number when a drink counts the least a drink counts.
    @Test func aDrinkAtZeroPercentSaysWhyItCountsATenth() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("waterline", "settings", "set", "units", "ml").status == 0)
        _ = started(ledger)
        let r = ledger.run("waterline", "drink", "--size", "25", "--type", "liquor", "--abv", "0", env: at(5))
        #expect(r.status == 0 && r.stdout.contains("0.1 standard drinks (25 ml at 0% ABV is 0.0; a drink counts at least 0.1)"), "\(r)")
    }

    @Test func withoutASessionStatusIsEmptyAndLoggingIsRefused() throws {
        let ledger = try TestLedger()
        let status = ledger.run("waterline", "status", "--json").json
        #expect(status["sessionId"] == .null)
        #expect(status["waterlineValue"] == .number(0))
        #expect(status["isWarning"] == .bool(false))
        let drink = ledger.run("waterline", "drink")
        #expect(drink.status == 1)
        #expect(drink.stderr.contains("ledger waterline start"))
        #expect(ledger.run("waterline", "end", "--yes").status == 1)
        #expect(ledger.run("waterline", "summary").status == 1)
        #expect(ledger.run("waterline", "sessions").stdout.contains("No sessions yet"))
    }

    @Test func onlyOneSessionIsActive() throws {
        let ledger = try TestLedger()
        let id = started(ledger)
        let second = ledger.run("waterline", "start", env: at(5))
        #expect(second.status == 1)
        #expect(second.stderr.contains(id))
        #expect(ledger.files(under: "waterline/sessions").count == 1)
    }

    @Test func aSessionCannotStartInsideOrBeforeAnEndedOne() throws {
        let ledger = try TestLedger()
        let id = started(ledger)  // 21:00
        #expect(ledger.run("waterline", "end", "--yes", "--time", "23:00", env: at(150)).status == 0)
        for time in ["22:00", "21:00", "20:00", "2026-11-21T22:59:59+01:00"] {
            let r = ledger.run("waterline", "start", "--time", time, env: at(150))
            #expect(r.status == 1, "\(time): \(r)")
            #expect(r.stderr.contains("session \(id), which ran from 2026-11-21T21:00:00+01:00 to 2026-11-21T23:00:00+01:00"), "\(r)")
            #expect(r.stderr.contains("start it at or after 2026-11-21T23:00:00+01:00"))
        }
        #expect(ledger.files(under: "waterline/sessions").count == 1)
        // Right after it ended is fine.
        #expect(ledger.run("waterline", "start", "--time", "23:00", env: at(150)).status == 0)
    }

    @Test func aSessionAcrossNewYearIsFoundInTheFolderOfItsStart() throws {
        let ledger = try TestLedger(now: "2026-12-31T23:00:00+01:00")
        let id = started(ledger, env: [:])
        #expect(ledger.run("waterline", "end", "--yes", env: ["LEDGER_NOW": "2027-01-01T02:00:00+01:00"]).status == 0)
        // An unreadable file in an old year folder is never read: starting does not look there.
        try ledger.write("waterline/sessions/2019/old.json", "{ not json")
        let r = ledger.run("waterline", "start", "--time", "01:00", env: ["LEDGER_NOW": "2027-01-01T03:00:00+01:00"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("session \(id), which ran from 2026-12-31T23:00:00+01:00 to 2027-01-01T02:00:00+01:00"), "\(r)")
        #expect(ledger.run("waterline", "start", "--time", "02:30", env: ["LEDGER_NOW": "2027-01-01T03:00:00+01:00"]).status == 0)
    }

    /// A drink from a preset at another size than the preset's own says its size, on the line
    /// that logs it and in the entries; at the preset's own size it does not.
    @Test func aPresetAtAnotherSizeSaysTheSize() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("waterline", "settings", "set", "units", "ml").status == 0)
        _ = started(ledger)
        let other = ledger.run("waterline", "drink", "--preset", "beer", "--size", "500ml", "--std", "2", env: at(1))
        #expect(other.status == 0 && other.stdout.contains("Logged Beer · 500 ml — 2.0 standard drinks (as given)."), "\(other)")
        let own = ledger.run("waterline", "drink", "--preset", "beer", "--size", "355ml", env: at(2))
        #expect(own.status == 0 && own.stdout.contains("Logged Beer — 1.0 standard drink ("), "\(own)")
        let entries = ledger.run("waterline", "entries", env: at(3)).stdout
        #expect(entries.contains("Beer · 500 ml · 2.0 std") && entries.contains("Beer · 1.0 std"), "\(entries)")
    }

    @Test func drinkFlagsAndTheEstimateTheyGive() throws {
        let ledger = try TestLedger()
        _ = started(ledger)
        #expect(ledger.run("waterline", "drink", "--type", "liquor", "--size", "3", env: at(1)).stdout.contains("2.0 standard drinks (3 oz at 40% ABV, typical for liquor)"))
        #expect(ledger.run("waterline", "drink", "--type", "beer", "--size", "16", "--std", "1.5", env: at(2)).stdout.contains("1.5 standard drinks (as given)"))
        #expect(ledger.run("waterline", "drink", "--preset", "beer", "--size", "500ml", env: at(3)).stdout.contains("16.9 oz at 5% ABV"))
        #expect(ledger.run("waterline", "drink", env: at(4)).stdout.contains("1.0 standard drink (one standard drink)"))
        let unknown = ledger.run("waterline", "drink", "--preset", "bier", env: at(5))
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("did you mean 'Beer'"))
        #expect(ledger.run("waterline", "drink", "--type", "vodka", env: at(5)).status == 2)
        #expect(ledger.run("waterline", "drink", "--std", "0", env: at(5)).status == 2)
        #expect(ledger.run("waterline", "drink", "--time", "20:00", env: at(5)).status == 1)  // before the start
        #expect(ledger.run("waterline", "status", "--json", env: at(6)).json["totalStandardDrinks"] == .number(5.9))
    }

    @Test func waterAmountsAndUnits() throws {
        let ledger = try TestLedger()
        _ = started(ledger)
        let r = ledger.run("waterline", "water", "--amount", "250ml", "--json", env: at(1))
        #expect(r.json["entry"]?["waterMeta"] == .object(["amount": .number(250), "units": .string("ml")]))
        #expect(ledger.run("waterline", "settings", "set", "units", "ml").stdout.contains("units: oz → ml"))
        let settings = ledger.run("waterline", "settings", "--json").json
        #expect(settings["units"] == .string("ml") && settings["defaultWaterAmount"] == .number(250))
        #expect(ledger.run("waterline", "water", "--json", env: at(2)).json["entry"]?["waterMeta"]?["amount"] == .number(250))
        #expect(ledger.run("waterline", "water", "--amount", "0", env: at(3)).status == 2)
        #expect(ledger.run("waterline", "summary", "--json", env: at(4)).json["totalWaterVolume"] == .number(500))
    }

    @Test func editAndDeleteRecompute() throws {
        let ledger = try TestLedger()
        let id = started(ledger)
        let drink = ledger.run("waterline", "drink", "--json", env: at(10)).json["entry"]?["id"]?.stringValue ?? ""
        let water = ledger.run("waterline", "water", "--json", env: at(20)).json["entry"]?["id"]?.stringValue ?? ""
        #expect(ledger.run("waterline", "status", "--json", env: at(21)).json["waterlineValue"] == .number(0))

        let edit = ledger.run("waterline", "edit", String(drink.prefix(6)), "--std", "2", env: at(22))
        #expect(edit.status == 0, "\(edit)")
        #expect(ledger.run("waterline", "status", "--json", env: at(22)).json["waterlineValue"] == .number(1))

        let before = ledger.read(sessionFile(ledger, id))
        let early = ledger.run("waterline", "edit", water, "--time", "2026-11-21T20:30:00+01:00", env: at(23))
        #expect(early.status == 1)
        #expect(early.stderr.contains("before session"))
        #expect(ledger.read(sessionFile(ledger, id)) == before)
        #expect(ledger.run("waterline", "edit", water, "--std", "2", env: at(23)).status == 2)

        // Moving the water before the drink: the drink is now the last entry, water is due.
        #expect(ledger.run("waterline", "edit", water, "--time", "21:05", env: at(24)).status == 0)
        #expect(ledger.run("waterline", "status", "--json", env: at(24)).json["alcoholCountSinceLastWater"] == .number(1))

        #expect(ledger.run("waterline", "delete", water, env: at(25)).status == 0)
        let s = ledger.run("waterline", "status", "--json", env: at(25)).json
        #expect(s["waterlineValue"] == .number(2) && s["totalWaterCount"] == .number(0))
        #expect(ledger.run("waterline", "delete", water, env: at(26)).status == 1)
        #expect(ledger.run("check").status == 0)
    }

    @Test func endAsksOnATerminalAndWorksWithoutEntries() throws {
        let ledger = try TestLedger()
        _ = started(ledger)
        let no = ledger.run("waterline", "end", env: at(5), stdin: ["n"], terminal: true)
        #expect(no.status == 0 && no.stdout.contains("End this session"))
        #expect(ledger.run("waterline", "status", "--json", env: at(5)).json["sessionId"] != .null)
        let yes = ledger.run("waterline", "end", env: at(6), stdin: ["y"], terminal: true)
        #expect(yes.status == 0)
        #expect(yes.stdout.contains("Pacing adherence  — (no reminder points)"))
        #expect(ledger.run("waterline", "status", "--json", env: at(7)).json["sessionId"] == .null)
    }

    @Test func everyCommandMentionsAnAbandonedSession() throws {
        let ledger = try TestLedger()
        _ = started(ledger)
        _ = ledger.run("waterline", "drink", env: at(30))
        let late = at(13 * 60 + 10)
        for args in [["status"], ["entries"], ["summary"], ["sessions"], ["presets"], ["settings"], ["reminders"], ["settings", "set", "units", "oz"], ["presets", "add", "Cider", "--type", "beer"], ["drink"]] {
            let r = ledger.run(arguments: ["waterline"] + args, env: late)
            #expect(r.status == 0)
            #expect(r.stdout.contains("Your session has been running for 13 hours"), "waterline \(args)")
            #expect(r.stdout.contains("ledger waterline end"))
        }
        let json = ledger.run("waterline", "status", "--json", env: late)
        #expect(json.json["abandoned"] == .bool(true))
        #expect(json.stderr.contains("running for 13 hours"))
        #expect(ledger.run("status", env: late).stdout.contains("running for 13 hours"))
        #expect(!ledger.run("waterline", "status", env: at(11 * 60)).stdout.contains("running for"))
        #expect(ledger.run("waterline", "water", env: at(13 * 60 + 11)).stdout.contains("running for 13 hours"))
        // The notice offers to end at the last log.
        #expect(ledger.run("waterline", "status", env: at(14 * 60)).stdout.contains("--time 2026-11-22T10:11:00+01:00"))
        #expect(ledger.run("waterline", "end", "--yes", "--time", "2026-11-22T10:11:00+01:00", env: at(14 * 60)).status == 0)
        #expect(ledger.run("waterline", "sessions", "--json", env: at(14 * 60)).json.arrayValue?.first?["durationMinutes"] == .number(791))
    }

    /// "'Keep Going' (US-025): after 12 h every command repeats the abandoned-session notice
    /// and there is no way to answer it except raising the setting." The seed's options: "End
    /// Now" and "Keep Going" (session stays active).
    @Test func keepGoingAnswersTheQuestionUntilAsLongAgain() throws {
        let ledger = try TestLedger()
        let id = started(ledger)
        _ = ledger.run("waterline", "drink", env: at(30))
        let late = at(13 * 60)
        let asked = ledger.run(arguments: ["waterline", "status"], env: late).stdout
        #expect(asked.contains("Your session has been running for 13 hours") && asked.contains("`ledger waterline keep-going`"), "\(asked)")
        let kept = ledger.run(arguments: ["waterline", "keep-going"], env: late)
        #expect(kept.status == 0, "\(kept)")
        #expect(kept.stdout.contains("Session \(id) keeps going") && kept.stdout.contains("after 12 more hours"), "\(kept)")
        for args in [["status"], ["drink"], ["entries"], ["summary"]] {
            let r = ledger.run(arguments: ["waterline"] + args, env: at(13 * 60 + 5))
            #expect(r.status == 0 && !r.stdout.contains("running for"), "\(args): \(r)")
        }
        #expect(!ledger.run("status", env: at(13 * 60 + 5)).stdout.contains("running for"))
        #expect(ledger.run(arguments: ["waterline", "status", "--json"], env: at(24 * 60)).json["abandoned"] == .bool(false))
        // Recorded in the session, so every device stops asking once synced.
        #expect(ledger.document(sessionFile(ledger, id))?["keptGoingAt"] == .string("2026-11-22T10:00:00+01:00"))
        // As long again: asked again.
        let again = ledger.run(arguments: ["waterline", "status"], env: at(25 * 60 + 1)).stdout
        #expect(again.contains("Your session has been running for 25 hours"), "\(again)")
        #expect(ledger.run("check").status == 0)
        // Ending stays the other answer.
        #expect(ledger.run(arguments: ["waterline", "end", "--yes"], env: at(25 * 60 + 2)).status == 0)
        #expect(ledger.run(arguments: ["waterline", "keep-going"], env: at(25 * 60 + 3)).status == 1)
    }

    /// "`waterline entries --json` on a ledger with no session exits 1; it should print `[]`
    /// (nothing named was missing)."
    @Test func entriesWithoutAnySessionAreEmpty() throws {
        let ledger = try TestLedger()
        let json = ledger.run("waterline", "entries", "--json")
        #expect(json.status == 0 && json.stdout == "[]\n", "\(json)")
        let text = ledger.run("waterline", "entries")
        #expect(text.status == 0 && text.stdout.contains("No sessions yet"), "\(text)")
        // A session named that does not exist is still "not found".
        #expect(ledger.run("waterline", "entries", "--session", "abcd", "--json").status == 1)
    }

    /// "`ledger waterline --repo DIR status` is rejected ("before or after the subcommand",
    /// README)."
    @Test func repoMayComeBetweenTheCommandsToo() throws {
        let ledger = try TestLedger()
        _ = started(ledger)
        let elsewhere = TemporaryDirectory()
        let env = at(5).merging(["LEDGER_REPO": elsewhere.path]) { $1 }
        for args in [["--repo", ledger.root, "waterline", "status", "--json"], ["waterline", "--repo", ledger.root, "status", "--json"],
                     ["waterline", "status", "--repo", ledger.root, "--json"], ["waterline", "--repo=" + ledger.root, "status", "--json"],
                     ["waterline", "sessions", "--repo", ledger.root, "list", "--json"]] {
            let r = ledger.run(arguments: args, env: env)
            #expect(r.status == 0, "\(args): \(r)")
        }
        #expect(ledger.run(arguments: ["waterline", "--repo", ledger.root, "status", "--json"], env: env).json["isActive"] == .bool(true))
    }

    @Test func anHourIsOneHour() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("waterline", "settings", "set", "abandonedAfterHours", "1", env: at(0)).status == 0)
        _ = started(ledger, env: at(1))
        #expect(ledger.run("waterline", "status", env: at(70)).stdout.contains("Your session has been running for 1 hour."))
        let status = ledger.run("status", env: at(70)).stdout
        #expect(status.contains("running for 1 hour (`ledger waterline end`)"), "\(status)")
    }

    @Test func statusSaysWaterIsDueNowOnceNDrinksAreReached() throws {
        let ledger = try TestLedger()
        _ = started(ledger)
        func dueLine(_ minute: Int) -> String {
            ledger.run("waterline", "status", env: at(minute)).stdout.split(separator: "\n").first { $0.contains("Water due") }.map(String.init) ?? ""
        }
        // N = 1: due after every drink, however many there have been.
        for m in 1...16 { #expect(ledger.run("waterline", "drink", env: at(m)).status == 0) }
        #expect(dueLine(17) == "  Water due now — you've had 16 drinks since water")
        #expect(ledger.run("waterline", "water", env: at(18)).status == 0)
        #expect(dueLine(19) == "  Water due in: 1 drink")
        #expect(ledger.run("waterline", "drink", env: at(20)).status == 0)
        #expect(dueLine(21) == "  Water due now — you've had 1 drink since water")
        // N = 3: counting down, then due.
        #expect(ledger.run("waterline", "settings", "set", "waterEveryNDrinks", "3", env: at(22)).status == 0)
        #expect(dueLine(23) == "  Water due in: 2 drinks")
        #expect(ledger.run("waterline", "drink", env: at(24)).status == 0)
        #expect(dueLine(25) == "  Water due in: 1 drink")
        #expect(ledger.run("waterline", "drink", env: at(26)).status == 0)
        #expect(dueLine(27) == "  Water due now — you've had 3 drinks since water")
    }

    @Test func settingsAreValidatedAndApplyToTheActiveSession() throws {
        let ledger = try TestLedger()
        let id = started(ledger)
        let zero = ledger.run("waterline", "settings", "set", "waterEveryNDrinks", "0")
        #expect(zero.status == 2)
        #expect(zero.stderr.contains("waterEveryNDrinks"))
        let typo = ledger.run("waterline", "settings", "set", "waterEveryNDrink", "2")
        #expect(typo.status == 2 && typo.stderr.contains("did you mean 'waterEveryNDrinks'"))
        #expect(ledger.run("waterline", "settings", "set", "warningThreshold", "0").status == 2)
        #expect(ledger.run("waterline", "settings", "set", "timeRemindersEnabled", "maybe").status == 2)
        _ = ledger.run("waterline", "drink", env: at(5))
        #expect(ledger.run("waterline", "status", "--json", env: at(6)).json["waterDueInDrinks"] == .number(0))
        #expect(ledger.run("waterline", "settings", "set", "waterEveryNDrinks", "2", env: at(7)).status == 0)
        #expect(ledger.document(sessionFile(ledger, id))?["waterEveryNDrinks"] == .number(2))
        #expect(ledger.run("waterline", "status", "--json", env: at(8)).json["waterDueInDrinks"] == .number(1))
        #expect(ledger.run("waterline", "settings", "set", "warningThreshold", "1", env: at(9)).status == 0)
        #expect(ledger.document(sessionFile(ledger, id))?["state"]?["isWarning"] == .bool(true))
        #expect(ledger.run("check").status == 0)
    }

    @Test func presetsCanBeAddedEditedAndDeleted() throws {
        let ledger = try TestLedger()
        let listed = ledger.run("waterline", "presets", "--json").json.arrayValue ?? []
        #expect(Set(listed.compactMap { $0["id"]?.stringValue }) == ["beer", "glass-of-wine", "shot", "cocktail", "double"])
        #expect(listed.allSatisfy { $0["name"] != nil && $0["drinkType"] != nil && $0["standardDrinkEstimate"] != nil })

        let added = ledger.run("waterline", "presets", "add", "Vodka soda", "--type", "liquor", "--json")
        #expect(added.json["id"] == .string("vodka-soda") && added.json["standardDrinkEstimate"] == .number(1))
        #expect(ledger.run("waterline", "presets", "add", "vodka SODA", "--type", "liquor").status == 1)
        #expect(ledger.run("waterline", "presets", "add", "Pint").status == 2)
        // A name taken is said first, even without --type: no type would make it addable.
        let taken = ledger.run("waterline", "presets", "add", "VODKA soda", "--std", "2")
        #expect(taken.status == 1 && taken.stderr.contains("a preset named \"Vodka soda\" already exists (vodka-soda)"), "\(taken)")
        let edited = ledger.run("waterline", "presets", "edit", "beer", "--size", "16", "--json")
        #expect(edited.json["standardDrinkEstimate"] == .number(1.3))
        #expect(ledger.run("waterline", "presets", "edit", "Beer", "--name", "Pint", "--json").json["name"] == .string("Pint"))
        #expect(ledger.run("waterline", "presets", "delete", "cocktail").status == 0)
        #expect(ledger.run("waterline", "presets", "delete", "cocktail").status == 1)
        let after = ledger.run("waterline", "presets", "list", "--json").json.arrayValue ?? []
        #expect(Set(after.compactMap { $0["id"]?.stringValue }) == ["beer", "glass-of-wine", "shot", "double", "vodka-soda"])
        _ = started(ledger)
        #expect(ledger.run("waterline", "drink", "--preset", "pint", "--json", env: at(1)).json["entry"]?["alcoholMeta"]?["presetId"] == .string("beer"))
        #expect(ledger.run("check").status == 0)
    }

    @Test func remindersSayWhatFiresNextAndRespectDiscretion() throws {
        let ledger = try TestLedger()
        _ = started(ledger)
        _ = ledger.run("waterline", "drink", env: at(5))
        var r = ledger.run("waterline", "reminders", "--json", env: at(25)).json
        #expect(r["next"]?["at"] == .string("2026-11-21T21:40:00+01:00"))
        #expect(r["next"]?["body"] == .string("Time for a break"))
        #expect(r["perDrink"]?["dueNow"] == .bool(true))
        #expect(r["perDrink"]?["notification"]?["body"] == .string("Time for some water"))
        #expect(ledger.run("waterline", "reminders", env: at(25)).stdout.contains("21:40"))
        _ = ledger.run("waterline", "settings", "set", "discreetNotifications", "false")
        r = ledger.run("waterline", "reminders", "--json", env: at(25)).json
        #expect(r["next"]?["body"] == .string("Time for water"))
        // The reminder due now is the one after the drinks so far; the next drink's is labelled as such.
        #expect(r["perDrink"]?["notification"]?["body"] == .string("You've had 1 drink — time for water"))
        #expect(r["perDrink"]?["nextDrinkNotification"]?["body"] == .string("You've had 2 drinks — time for water"))
        // 90 minutes after the last log, nothing more fires.
        r = ledger.run("waterline", "reminders", "--json", env: at(100)).json
        #expect(r["next"] == .null)
        #expect(r["timeReminder"]?["pausedForInactivity"] == .bool(true))
    }

    @Test func remindersShowTheTextOfTheReminderDueNow() throws {
        let ledger = try TestLedger()
        _ = started(ledger)
        _ = ledger.run("waterline", "settings", "set", "discreetNotifications", "false")
        for minute in 1...8 { #expect(ledger.run("waterline", "drink", env: at(minute)).status == 0) }
        let text = ledger.run("waterline", "reminders", env: at(10)).stdout
        #expect(text.contains("water is due: 8 drinks since water — \"You've had 8 drinks — time for water\""), "\(text)")
        #expect(text.contains("the next drink would repeat it: \"You've had 9 drinks — time for water\""), "\(text)")
        let json = ledger.run("waterline", "reminders", "--json", env: at(10)).json
        #expect(json["perDrink"]?["notification"]?["detail"] == .string("You've had 8 drinks — time for water"))
        #expect(json["perDrink"]?["nextDrinkNotification"]?["detail"] == .string("You've had 9 drinks — time for water"))
        // Before water is due (N = 3, one drink after water): the text it will have when it fires.
        _ = ledger.run("waterline", "settings", "set", "waterEveryNDrinks", "3")
        _ = ledger.run("waterline", "water", env: at(11))
        _ = ledger.run("waterline", "drink", env: at(12))
        let early = ledger.run("waterline", "reminders", "--json", env: at(13)).json
        #expect(early["perDrink"]?["drinksUntilDue"] == .number(2))
        #expect(early["perDrink"]?["notification"]?["detail"] == .string("You've had 3 drinks — time for water"))
        #expect(early["perDrink"]?["nextDrinkNotification"] == .null)
        #expect(ledger.run("waterline", "reminders", env: at(13)).stdout.contains("after 2 more drinks — \"You've had 3 drinks — time for water\""))
    }

    @Test func theLedgerStatusLine() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("status").stdout.contains("no active session"))
        let id = started(ledger)
        _ = ledger.run("waterline", "drink", "--preset", "double", env: at(5))
        #expect(ledger.run("status", env: at(6)).stdout.contains("session \(id) active since 21:00 · Waterline +2.0 (drink water)"))
        #expect(ledger.run("status", "--json", env: at(6)).json["waterline"]?["sessionId"] == .string(id))
    }
}

@Suite struct WaterlineReferenceTests {
    @Test func pathsAreNeverTakenForIdsOrNames() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("waterline", "presets", "edit", "glass of wine", "--std", "1.5").status == 0)
        for reference in ["../beer", "beer/..", "/beer", "../../etc/passwd"] {
            let r = ledger.run("waterline", "presets", "edit", reference, "--std", "3")
            #expect(r.status == 1, "\(reference): \(r)")
            #expect(r.stderr.contains("there is no drink preset \"\(reference)\""))
        }
        #expect(ledger.document("waterline/presets/beer.json")?["standardDrinkEstimate"] == .number(1))
        let summary = ledger.run("waterline", "summary", "../../etc/passwd")
        #expect(summary.status == 1 && summary.stderr.contains("there is no session with id \"../../etc/passwd\""))
    }
}

@Suite struct WaterlineSessionDeleteTests {
    @Test func aWholeSessionIsDeletedAfterAConfirmation() throws {
        let ledger = try TestLedger()
        let env = ["LEDGER_NOW": "2026-11-21T21:30:00+01:00"]
        let id = ledger.run("waterline", "start", "--time", "21:00", "--json", env: env).json["sessionId"]?.stringValue ?? ""
        _ = ledger.run("waterline", "drink", env: env)
        let refused = ledger.run("waterline", "sessions", "delete", id, env: env)
        #expect(refused.status == 2 && refused.stderr.contains("--yes"), "\(refused)")
        let no = ledger.run("waterline", "sessions", "delete", String(id.prefix(4)), env: env, stdin: ["n"], terminal: true)
        #expect(no.status == 0 && no.stdout.contains("Delete session \(id) (Sat 21 Nov 2026, 1 drink, 0 water, active)?"), "\(no)")
        #expect(ledger.files(under: "waterline/sessions").count == 1)
        #expect(ledger.run("waterline", "sessions", "delete", String(id.prefix(3)), "--yes", env: env).status == 2, "a prefix needs 4 characters")
        let yes = ledger.run("waterline", "sessions", "delete", id, env: env, stdin: ["y"], terminal: true)
        #expect(yes.status == 0 && yes.stdout.contains("`ledger sync` deletes it on your other machines too"), "\(yes)")
        #expect(ledger.files(under: "waterline/sessions").isEmpty)
        #expect(ledger.run("waterline", "status", "--json", env: env).json["sessionId"] == .null)
        #expect(ledger.run("waterline", "start", env: env).status == 0, "a new session may start")
        #expect(ledger.run("check").status == 0)
    }
}
