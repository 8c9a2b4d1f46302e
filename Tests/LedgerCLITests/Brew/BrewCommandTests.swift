import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `ledger brew plan|save|logs|log|start` and BrewGuide's documents under `check`.
@Suite struct BrewCommandTests {
    func number(_ v: JSONValue?) -> Double? { if case .number(let n)? = v { n } else { nil } }

    @Test func planJSONHasTheSpecKeys() throws {
        let ledger = try TestLedger()
        let plan = ledger.run("brew", "plan", "--dose", "20", "--json")
        #expect(plan.status == 0, "\(plan)")
        let j = plan.json
        #expect(number(j["dose"]) == 20 && number(j["targetYield"]) == 333 && number(j["ratio"]) == 16.7)
        #expect(j["warnings"]?.arrayValue == [])
        let steps = j["steps"]?.arrayValue ?? []
        #expect(steps.map { number($0["water"]) } == [0, 0, 60, 137, 136, 0])
        #expect(plan.stdout.hasSuffix("}\n"))
    }

    /// Steps within the ±1 g validation allows are the recipe's own in `plan` and `recipe show`,
    /// the last pour taking up the difference.
    @Test func planKeepsTheRecipesOwnSteps() throws {
        let ledger = try TestLedger()
        let id = ledger.run("brew", "recipe", "duplicate", "v60-starter").stdout.trimmingCharacters(in: .newlines)
        let edit = ledger.run("brew", "recipe", "edit", id, "--step-water", "3=40", "--step-water", "4=111")
        #expect(edit.status == 0, "\(edit)")
        let steps = ledger.run("brew", "plan", id, "--json").json["steps"]?.arrayValue ?? []
        #expect(steps.map { number($0["water"]) } == [0, 0, 40, 111, 99, 0])
        let show = ledger.run("brew", "recipe", "show", id).stdout
        #expect(show.contains("Bloom: pour 40 g") && show.contains("Pour to 151 g"), "\(show)")
    }

    /// With fixed step weights the yield is the steps' total and a dose changes the ratio.
    @Test func aFixedRecipesYieldIsLabelledAsTheStepsTotal() throws {
        let ledger = try TestLedger()
        let id = ledger.run("brew", "recipe", "duplicate", "v60-starter").stdout.trimmingCharacters(in: .newlines)
        #expect(ledger.run("brew", "recipe", "edit", id, "--fixed-step-weights").status == 0)
        let text = ledger.run("brew", "plan", id, "--dose", "20").stdout
        #expect(text.contains("Dose          20.0 g  (set; the ratio follows from the fixed steps)"), "\(text)")
        #expect(text.contains("Target yield  250 g  (the fixed steps' total)"), "\(text)")
        #expect(text.contains("Ratio         1:12.5"))
        #expect(!text.contains("recipe's ratio"))
        let j = ledger.run("brew", "plan", id, "--json").json
        #expect(j["fixedStepWeights"] == .bool(true) && j["edited"] == .string("dose"))
    }

    @Test func planWarnsWithoutClamping() throws {
        let ledger = try TestLedger()
        let j = ledger.run("brew", "plan", "--dose", "45", "--temp", "98", "--json").json
        #expect(number(j["dose"]) == 45)
        #expect(number(j["targetYield"]) == 750)
        #expect(j["warnings"]?.arrayValue?.count == 3)  // dose, yield, temperature
        let text = ledger.run("brew", "plan", "--yield", "150")
        #expect(text.stdout.contains("! target yield 150 g is outside the recommended 180–720 g"))
        #expect(text.stdout.contains("Dose          9.0 g"))
    }

    @Test func planRefusesImpossibleOrConflictingInputs() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("brew", "plan", "--dose", "20", "--yield", "300").status == 2)
        #expect(ledger.run("brew", "plan", "--dose", "0").status == 2)
        #expect(ledger.run("brew", "plan", "--temp", "120").status == 2)
        let grind = ledger.run("brew", "plan", "--grind", "meduim")
        #expect(grind.status == 2)
        #expect(grind.stderr.contains("did you mean 'medium'"))
    }

    /// `brew plan --dose 20; brew save --rating 4` (SPEC §1) logs the planned 20 g.
    @Test func plannedInputsAreRememberedUntilReset() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("brew", "plan", "--dose", "20").status == 0)
        #expect(number(ledger.run("brew", "plan", "--json").json["dose"]) == 20)
        let saved = ledger.run("brew", "save", "--rating", "4", "--tag", "too-sour", "--json")
        #expect(saved.status == 0, "\(saved)")
        #expect(number(saved.json["dose"]) == 20 && number(saved.json["targetYield"]) == 333)
        #expect(saved.json["hint"] == .string("try slightly finer or hotter"))
        let reset = ledger.run("brew", "plan", "--reset", "--json").json
        #expect(number(reset["dose"]) == 15 && reset["edited"] == .null)
        #expect(ledger.document("brew/preferences.json")?["inputs"] == nil)
    }

    /// `save --reset` forgets the remembered inputs, as its help says (it logged the recipe's
    /// defaults once and left the 20 g remembered for the next save).
    @Test func saveWithResetForgetsTheRememberedInputs() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("brew", "plan", "--dose", "20").status == 0)
        #expect(ledger.document("brew/preferences.json")?["inputs"] != nil)
        #expect(number(ledger.run("brew", "save", "--reset", "--rating", "4", "--json").json["dose"]) == 15)
        #expect(ledger.document("brew/preferences.json")?["inputs"] == nil)
        #expect(number(ledger.run("brew", "save", "--rating", "4", "--json").json["dose"]) == 15)
        // A save without --reset logs its own inputs and remembers none of them.
        #expect(number(ledger.run("brew", "save", "--dose", "18", "--rating", "4", "--json").json["dose"]) == 18)
        #expect(number(ledger.run("brew", "plan", "--json").json["dose"]) == 15)
    }

    /// A yield remembered before the recipe's steps were made fixed can no longer be brewed:
    /// `plan`, `start` and `save` say it is the remembered one and how to get past it
    /// (seed: the V60 starter's 250 g of pours, 45 + 105 + 100 g; a 300 g yield planned first).
    @Test(arguments: ["plan", "save", "start"])
    func aYieldRememberedBeforeTheStepsWereFixedSaysHowToGetPastIt(_ command: String) throws {
        let ledger = try TestLedger()
        let id = ledger.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Fixed").stdout.trimmingCharacters(in: .newlines)
        #expect(ledger.run("brew", "plan", id, "--yield", "300").status == 0)
        #expect(ledger.run("brew", "recipe", "edit", id, "--fixed-step-weights").status == 0)
        let args = ["brew", command] + (command == "save" ? ["--rating", "4"] : [])
        let r = ledger.run(arguments: args, terminal: command == "start")
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("the yield of 300 g remembered for Fixed cannot be brewed: \"Fixed\" has fixed step weights adding up to 250 g"), "\(r)")
        #expect(r.stderr.contains("--reset"), "\(r)")
        #expect(ledger.run("brew", "logs", "--json").json.arrayValue?.isEmpty == true)
        // The ways past it: another dose, or the recipe's defaults.
        #expect(number(ledger.run("brew", "plan", "--dose", "20", "--json").json["targetYield"]) == 250)
        #expect(ledger.run("brew", "plan", id, "--yield", "300").status == 1)  // a flag is still refused as asked
        #expect(ledger.run(arguments: ["brew", "plan", "--reset"]).status == 0)
    }

    @Test func theLastSelectedRecipeIsTheDefault() throws {
        let ledger = try TestLedger()
        let id = ledger.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Sunday").stdout.trimmingCharacters(in: .newlines)
        #expect(ledger.run("brew", "recipe", "edit", id, "--temp", "92").status == 0)
        #expect(ledger.run("brew", "plan", "sunday").status == 0)
        #expect(ledger.document("brew/preferences.json")?["lastRecipeId"] == .string(id))
        let j = ledger.run("brew", "plan", "--json").json
        #expect(j["recipeId"] == .string(id) && number(j["waterTemperature"]) == 92)
        let log = ledger.run("brew", "save", "--rating", "5", "--json").json
        #expect(log["recipeId"] == .string(id) && log["recipeType"] == .string("custom") && log["recipeName"] == .string("Sunday"))
    }

    @Test(arguments: [
        (["--rating", "0"], "--rating: the rating must be 1 to 5 (found 0)"),
        (["--rating", "6"], "--rating: the rating must be 1 to 5 (found 6)"),
        (["--rating", "3", "--tag", "salty"], "--tag must be one of"),
        (["--rating", "3", "--note", String(repeating: "x", count: 281)], "--note: the note is 281 characters long; the limit is 280"),
        (["--rating", "3", "--at", "yesterday"], "--at must be a time like 22:15"),
        (["--rating", "3", "--at", "2026-12-01T08:00"], "--at 2026-12-01T08:00 is later than now"),
    ])
    func saveRefusesBadValues(args: [String], message: String) throws {
        let ledger = try TestLedger()
        let r = ledger.run(arguments: ["brew", "save"] + args)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r)")
        #expect(ledger.files(under: "brew/logs").isEmpty)
    }

    @Test(arguments: [
        ("too-sour", "Hint (too sour): try slightly finer or hotter"),
        ("too bitter", "Hint (too bitter): try slightly coarser or cooler"),
        ("weak", "Hint (too weak): try higher dose or finer"),
        ("too-strong", "Hint (too strong): try lower dose or coarser"),
        ("perfect", "Hint (perfect): great job - no tips!"),
    ])
    func savePrintsTheSeedsHint(tag: String, hint: String) throws {
        let ledger = try TestLedger()
        let r = ledger.run("brew", "save", "--rating", "3", "--tag", tag)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains(hint))
    }

    @Test func saveWithoutATagGivesNoHintAndANoteOf280Fits() throws {
        let ledger = try TestLedger()
        let note = String(repeating: "ü", count: 280)
        let r = ledger.run("brew", "save", "--rating", "5", "--note", note, "--dose", "16", "--yield", "270")
        #expect(r.status == 0, "\(r)")
        #expect(!r.stdout.contains("Hint"))
        let log = try #require(ledger.run("brew", "logs", "--json").json.arrayValue?.first)
        #expect(log["note"] == .string(note))
        #expect(number(log["dose"]) == 16 && number(log["targetYield"]) == 270)  // both measured values kept
    }

    @Test func logsShowAndDelete() throws {
        let ledger = try TestLedger()
        for (time, rating) in [("2026-11-19T07:45:00+01:00", "3"), ("2026-11-21T08:10:00+01:00", "5"), ("2025-12-31T09:00:00+01:00", "2")] {
            #expect(ledger.run("brew", "save", "--rating", rating, "--at", time).status == 0)
        }
        let logs = ledger.run("brew", "logs", "--json").json.arrayValue ?? []
        #expect(logs.map { number($0["rating"]) } == [2, 3, 5])  // chronological
        #expect(logs.allSatisfy { $0["id"] != nil && $0["recipeId"] == .string("v60-starter") })
        #expect(ledger.files(under: "brew/logs").filter { $0.hasPrefix("brew/logs/2025/") }.count == 1)
        #expect(ledger.run("brew", "logs", "--limit", "1", "--json").json.arrayValue?.map { number($0["rating"]) } == [5])
        let text = ledger.run("brew", "logs").stdout
        #expect(text.contains("2026-11-21 08:10  5/5") && text.contains("V60 starter"))
        let id = try #require(logs.last?["id"]?.stringValue)
        let show = ledger.run("brew", "log", "show", String(id.prefix(5)))
        #expect(show.stdout.contains("Rating        5/5") && show.stdout.contains("Target yield  250 g (1:16.7)"))
        let refused = ledger.run("brew", "log", "delete", id)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("ledger: Deleting the brew log of 2026-11-21 08:10 (V60 starter, 5/5) needs a confirmation: run it on a terminal or pass --yes"), "\(refused)")
        #expect(ledger.run("brew", "log", "delete", id, "--yes").status == 0)
        #expect(ledger.run("brew", "logs", "--json").json.arrayValue?.count == 2)
        #expect(ledger.run("brew", "log", "show", id).status == 1)
    }

    /// "`brew logs` prints local times without offsets when logs span two offsets, so the
    /// order looks wrong (09:10 +01:00 above 03:30 −05:00); show offsets as Moments does."
    @Test func logsAtSeveralOffsetsShowThem() throws {
        let ledger = try TestLedger(now: "2026-11-21T08:00:00+01:00")
        #expect(ledger.run(arguments: ["brew", "save", "--rating", "3", "--at", "2026-11-20T03:30"], env: ["TZ": "America/New_York"]).status == 0)
        #expect(ledger.run("brew", "save", "--rating", "4", "--at", "2026-11-20T09:10").status == 0)
        let text = ledger.run("brew", "logs").stdout
        let rows = text.split(separator: "\n").map(String.init)
        let paris = try #require(rows.firstIndex { $0.hasPrefix("2026-11-20 09:10 +01:00  4/5") }, "\(text)")
        let newYork = try #require(rows.firstIndex { $0.hasPrefix("2026-11-20 03:30 -05:00  3/5") }, "\(text)")
        #expect(paris < newYork, "chronological: 09:10 in Paris came before 03:30 in New York\n\(text)")
        #expect(rows.first?.hasPrefix("DATE                     RATING") == true, "\(text)")
        // One offset: none shown.
        let plain = try TestLedger(now: "2026-11-21T08:00:00+01:00")
        #expect(plain.run("brew", "save", "--rating", "4", "--at", "07:10").status == 0)
        #expect(plain.run("brew", "logs").stdout.contains("\n2026-11-21 07:10  4/5"))
    }

    @Test func startNeedsATerminal() throws {
        let ledger = try TestLedger()
        let r = ledger.run("brew", "start")
        #expect(r.status == 2)
        #expect(r.stderr.contains("needs a terminal") && r.stderr.contains("ledger brew save --rating N"))
    }

    @Test func checkWarnsAboutDanglingRecipesButNotTheStarter() throws {
        let ledger = try TestLedger()
        let id = ledger.run("brew", "recipe", "duplicate", "v60-starter").stdout.trimmingCharacters(in: .newlines)
        #expect(ledger.run("brew", "save", "v60-starter", "--rating", "4").status == 0)
        #expect(ledger.run("brew", "save", id, "--rating", "4").status == 0)
        #expect(ledger.run("check").status == 0)
        try FileManager.default.removeItem(atPath: ledger.root + "/brew/recipes/\(id).json")
        #expect(ledger.run("brew", "logs", "--recipe", id, "--json").json.arrayValue?.count == 1)  // its logs remain
        let check = ledger.run("check", "--json")
        #expect(check.status == 0)  // warnings only
        let problems = check.json["problems"]?.arrayValue ?? []
        #expect(problems.count == 2, "\(check)")  // the log and the preferences refer to it
        #expect(problems.allSatisfy { $0["severity"] == .string("warning") && ($0["message"]?.stringValue?.contains(id) ?? false) })
    }

    /// `logs --recipe` names a recipe, or the recipe of some logs (a deleted one: its id, or
    /// the name its logs keep); a reference to nothing is an error naming the flag, not an
    /// empty list that reads as "never brewed".
    @Test func logsOfARecipeThatNothingHasIsAnError() throws {
        let ledger = try TestLedger()
        let id = ledger.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Morning").stdout.trimmingCharacters(in: .newlines)
        #expect(ledger.run("brew", "save", id, "--rating", "4").status == 0)
        #expect(ledger.run("brew", "save", "v60-starter", "--rating", "3").status == 0)
        let typo = ledger.run("brew", "logs", "--recipe", "mornign")
        #expect(typo.status == 1, "\(typo)")
        #expect(typo.stderr.contains("--recipe: there is no recipe \"mornign\""), "\(typo)")
        #expect(typo.stdout.isEmpty)
        #expect(ledger.run("brew", "logs", "--recipe", "mornign", "--json").status == 1)
        // An existing recipe without logs is an empty list, as before.
        let other = ledger.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Evening").stdout.trimmingCharacters(in: .newlines)
        let none = ledger.run("brew", "logs", "--recipe", other)
        #expect(none.status == 0 && none.stdout.contains("No brew logs of that recipe yet."), "\(none)")
        // Deleted, the recipe is still found by the name and the id its logs keep.
        #expect(ledger.run("brew", "recipe", "delete", id, "--yes").status == 0)
        for ref in ["morning", id] {
            let logs = ledger.run("brew", "logs", "--recipe", ref, "--json")
            #expect(logs.status == 0, "\(ref): \(logs)")
            #expect(logs.json.arrayValue?.map { $0["recipeId"] } == [.string(id)], "\(ref): \(logs)")
        }
    }

    @Test func checkReportsHandEditsOfLogsAndPreferences() throws {
        let ledger = try TestLedger()
        let saved = ledger.run("brew", "save", "--rating", "4", "--json").json
        let id = try #require(saved["id"]?.stringValue)
        let path = "brew/logs/2026/\(id).json"
        let text = try #require(ledger.read(path)).replacingOccurrences(of: "\"rating\": 4", with: "\"rating\": 9")
            .replacingOccurrences(of: "\"grindLabel\": \"medium\"", with: "\"grindLabel\": \"meduim\"")
        try ledger.write(path, text)
        try ledger.write("brew/preferences.json", """
            {"createdAt": "2026-11-21T22:30:00+01:00", "updatedAt": "2026-11-21T22:30:00+01:00", "lastRecipeId": "Not An Id"}
            """)
        let check = ledger.run("check")
        #expect(check.status == 1)
        #expect(check.stdout.contains("\(path): /grindLabel: error"))
        #expect(check.stdout.contains("brew/preferences.json: /lastRecipeId: error"))
        try ledger.write(path, text.replacingOccurrences(of: "meduim", with: "medium"))
        #expect(ledger.run("check", path).stdout.contains("\(path): /rating: error: the rating must be 1 to 5 (found 9)"))
        #expect(ledger.run("brew", "logs").status == 1)  // a read refuses the invalid log, naming it
    }

    /// `recipeType` is derived from `recipeId`: a stale one (a hand edit) is a warning for
    /// `check`, and the commands show the derived value, never the stale one.
    @Test func aStaleRecipeTypeIsNeverShown() throws {
        let ledger = try TestLedger()
        let recipe = ledger.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Mine").stdout.trimmingCharacters(in: .newlines)
        let id = try #require(ledger.run("brew", "save", recipe, "--rating", "4", "--json").json["id"]?.stringValue)
        let path = "brew/logs/2026/\(id).json"
        try ledger.write(path, try #require(ledger.read(path)).replacingOccurrences(of: "\"recipeType\": \"custom\"", with: "\"recipeType\": \"starter\""))
        let check = ledger.run("check", path)
        #expect(check.status == 0 && check.stdout.contains("/recipeType: warning: derived value is stale"), "\(check)")
        let show = ledger.run("brew", "log", "show", id)
        #expect(show.stdout.contains("Mine (\(recipe), custom)"), "\(show)")
        #expect(ledger.run("brew", "log", "show", id, "--json").json["recipeType"] == .string("custom"))
        #expect(ledger.run("brew", "logs", "--json").json.arrayValue?.first?["recipeType"] == .string("custom"))
        #expect(ledger.run("brew", "logs", "--limit", "1", "--json").json.arrayValue?.first?["recipeType"] == .string("custom"))
    }

    @Test func duplicateRecipeNamesAreWarnedAbout() throws {
        let ledger = try TestLedger()
        let id = ledger.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Twin").stdout.trimmingCharacters(in: .newlines)
        let text = try #require(ledger.read("brew/recipes/\(id).json"))
        try ledger.write("brew/recipes/twin2.json", text.replacingOccurrences(of: id, with: "twin2"))
        let check = ledger.run("check")
        #expect(check.stdout.contains("/name: warning: another recipe has the same name"), "\(check)")
        #expect(ledger.run("brew", "plan", "twin").status == 2)  // ambiguous name
    }

    /// sample-data/brew, copied into a new ledger: valid, and read in order on every core.
    @Test func theSampleDataIsValid() throws {
        let ledger = try TestLedger(now: "2026-11-21T23:30:00+01:00")
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("sample-data/brew").path
        try FileManager.default.removeItem(atPath: ledger.root + "/brew")
        try FileManager.default.copyItem(atPath: sample, toPath: ledger.root + "/brew")
        let check = ledger.run("check")
        #expect(check.status == 0 && check.stdout.contains("no problems"), "\(check)")
        let logs = ledger.run("brew", "logs", "--json").json.arrayValue ?? []
        #expect(logs.count >= 40)
        let times = logs.compactMap { $0["timestamp"]?.stringValue.flatMap(Timestamp.init(iso8601:)) }
        #expect(times == times.sorted())
        #expect(times.last?.iso8601.hasPrefix("2026-11-21") == true)
        #expect(ledger.run("brew", "recipes", "--json").json.arrayValue?.count == 3)
    }

    @Test func statusHasABrewLine() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("brew", "save", "--rating", "4").status == 0)
        let status = ledger.run("status", "--json").json["brew"]
        #expect(number(status?["logs"]) == 1)
        #expect(status?["brewInProgress"] == .bool(false))
        #expect(ledger.run("status").stdout.contains("last brew 2026-11-21 22:30, V60 starter, 4/5 · 1 brew log"))
    }

    @Test(arguments: [["--dose", "0.04"], ["--yield", "0.4"], ["--dose", "nan"], ["--dose", "1e300"], ["--yield", "inf"], ["--temp", "1e300"]])
    func inputsNoBrewCanHaveAreUsageErrorsAndAreNotRemembered(_ input: [String]) throws {
        let ledger = try TestLedger()
        for command in ["plan", "save"] {
            let r = ledger.run(arguments: ["brew", command] + input + ["--rating", "3", "--json"].suffix(command == "save" ? 3 : 1))
            #expect(r.status == 2, "\(command) \(input): \(r)")
            #expect(r.stderr.contains(input[0]), "\(r)")
            #expect(r.stdout.isEmpty)
        }
        #expect(ledger.document("brew/preferences.json")?["inputs"] == nil)
        #expect(ledger.run("brew", "logs", "--json").json == .array([]))
        // The next plan is the recipe's, with a finite ratio.
        let plan = ledger.run("brew", "plan", "--json")
        #expect(plan.status == 0 && number(plan.json["ratio"]) == 16.7, "\(plan)")
    }

    /// A dose whose yield is over the 10,000 g a brew log can hold is refused up front, naming
    /// the flag, for every command that scales: nothing is remembered, nothing logged.
    @Test(arguments: ["plan", "save", "start"])
    func aDoseWhoseYieldNoLogCanHoldIsRefusedUpFront(_ command: String) throws {
        let ledger = try TestLedger()
        let r = ledger.run(arguments: ["brew", command, "--dose", "601"] + (command == "save" ? ["--rating", "4"] : []),
                           terminal: command == "start")  // refused before the screen opens
        #expect(r.status == 2, "\(r)")
        #expect(r.stderr.contains("--dose 601: the yield would be 10017 g, over the 10,000 g limit"), "\(r)")
        #expect(ledger.document("brew/preferences.json")?["inputs"] == nil)
        #expect(ledger.run("brew", "logs", "--json").json == .array([]))
        #expect(number(ledger.run("brew", "plan", "--json").json["dose"]) == 15)
    }

    @Test func theSmallestDoseGivesValidJSON() throws {
        let ledger = try TestLedger()
        let r = ledger.run("brew", "plan", "--dose", "0.05", "--json")
        #expect(r.status == 0, "\(r)")
        #expect(number(r.json["dose"]) == 0.1 && number(r.json["ratio"]) == 20)
        #expect(!r.stdout.contains("nan") && !r.stdout.contains("inf"))
    }

    @Test func anInvalidRememberedInputIsReportedByCheckNotPrinted() throws {
        let ledger = try TestLedger()
        try ledger.write("brew/preferences.json", """
            {"createdAt": "2026-11-21T22:30:00+01:00", "updatedAt": "2026-11-21T22:30:00+01:00",
             "lastRecipeId": "v60-starter", "inputs": {"recipeId": "v60-starter", "dose": 0.04}}
            """)
        let check = ledger.run("check")
        #expect(check.status == 1)
        #expect(check.stdout.contains("brew/preferences.json: /inputs/dose: error: the dose must be at least 0.05 g"), "\(check)")
        let plan = ledger.run("brew", "plan", "--json")
        #expect(plan.status == 1)
        #expect(plan.stdout.isEmpty)
        #expect(plan.stderr.contains("brew/preferences.json"))
    }

    /// `save --json` says what the text output warns about (the log itself stores no warnings).
    @Test func saveJSONIncludesTheWarnings() throws {
        let ledger = try TestLedger()
        let r = ledger.run("brew", "save", "--rating", "3", "--dose", "45", "--temp", "98", "--json")
        #expect(r.status == 0, "\(r)")
        let warnings = r.json["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(warnings == [
            "dose 45.0 g is outside the recommended 12–40 g for a V60",
            "target yield 750 g is outside the recommended 180–720 g for a V60",
            "water temperature 98 °C is outside the recommended 90–96 °C for a V60",
        ])
        let id = try #require(r.json["id"]?.stringValue)
        #expect(ledger.document("brew/logs/2026/\(id).json")?["warnings"] == nil)
        #expect(ledger.run("brew", "save", "--rating", "3", "--reset", "--json").json["warnings"] == .array([]))
    }

    /// `ledger status` names a newest brew log broken by a hand edit, as the other apps' lines
    /// name theirs; it used to drop the last-brew part and count the logs as if all were well.
    @Test func aBrokenNewestLogIsNamedOnTheStatusLine() throws {
        let ledger = try TestLedger()
        let saved = ledger.run("brew", "save", "--rating", "4", "--json")
        let id = try #require(saved.json["id"]?.stringValue, "\(saved)")
        let path = "brew/logs/2026/\(id).json"  // the test clock: 2026-11-21
        var text = try #require(ledger.read(path))
        text = text.replacingOccurrences(of: "\"rating\": 4", with: "\"rating\": 9")
        try ledger.write(path, text)
        let status = ledger.run("status")
        #expect(status.status == 0, "\(status)")
        #expect(status.stdout.contains("BrewGuide       \(path) is invalid; see `ledger check`"), "\(status)")
        #expect(status.stdout.contains("Water Reminder"), "\(status)")
        let json = ledger.run("status", "--json").json["brew"]
        #expect(json?["problems"]?.arrayValue?.first?["pointer"] == .string("/rating"), "\(String(describing: json))")
    }
}
