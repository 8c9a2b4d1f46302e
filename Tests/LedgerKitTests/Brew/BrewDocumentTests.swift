import LedgerKit
import Testing

/// Recipe validation (PRD §3.4.4), brew log limits and hints (§3.8), preferences.
@Suite struct BrewDocumentTests {
    func custom() -> Recipe {
        var r = Recipe.starter
        r.id = "my-v60"
        r.name = "My V60"
        return r
    }

    func errors(_ r: Recipe) -> [String] { r.validate().filter { $0.severity == .error }.map { "\($0.pointer) \($0.message)" } }

    @Test func aCopyOfTheStarterIsValid() {
        #expect(custom().validate().isEmpty)
    }

    @Test func negativeTimersAreRefusedWithTheirPointer() {
        var r = custom()
        r.steps[2].timerSeconds = -5
        let e = r.validate()
        #expect(e.count == 1)
        #expect(e.first?.pointer == "/steps/2/timerSeconds")
        #expect(e.first?.message.contains("timers must be from 0 s to 86400 s (24 h)") == true)
        r.steps[2].timerSeconds = 0
        #expect(r.validate().isEmpty)
    }

    /// "a timer that is not 0 s to 24 h" is a value no recipe can have.
    @Test func timersOverADayAreRefusedWithTheirPointer() {
        var r = custom()
        r.steps[5].timerSeconds = 86_401
        let e = r.validate()
        #expect(e.map(\.pointer) == ["/steps/5/timerSeconds"])
        #expect(e.first?.message.contains("the step's timer is 86401 s") == true)
        r.steps[5].timerSeconds = 86_400
        #expect(r.validate().isEmpty)
    }

    /// The steps' water must equal the target yield within ±1 g.
    @Test(arguments: [(250.0, true), (251.0, true), (249.0, true), (252.0, false), (247.5, false)])
    func poursMustMatchTheYield(yield: Double, valid: Bool) {
        var r = custom()
        r.defaultTargetYield = yield
        #expect(r.validate().isEmpty == valid)
        if !valid {
            #expect(r.validate().first?.pointer == "/steps")
            #expect(r.validate().first?.message.contains("adds up to 250 g") == true)
        }
    }

    @Test func structuralErrorsNameTheField() {
        var r = custom()
        r.name = "  "
        r.defaultDose = 0
        r.defaultWaterTemperature = 140
        r.steps[0].water = 10
        r.steps[3].water = nil
        r.steps[4].kind = .bloom
        let e = errors(r)
        #expect(e.contains { $0.hasPrefix("/name ") })
        #expect(e.contains { $0.hasPrefix("/defaultDose ") })
        #expect(e.contains { $0.hasPrefix("/defaultWaterTemperature ") })
        #expect(e.contains { $0.hasPrefix("/steps/0/water ") && $0.contains("make it a \"pour\" step") })
        #expect(e.contains { $0.hasPrefix("/steps/3/water ") })
        #expect(e.contains { $0.hasPrefix("/steps ") && $0.contains("2 bloom steps; a recipe has at most one") })
    }

    @Test func theStartersIdIsReserved() {
        var r = custom()
        r.id = Recipe.starterID
        #expect(errors(r).first?.hasPrefix("/id ") == true)
    }

    @Test func unknownFieldsAreKeptAndTypesChecked() throws {
        var json = custom().json.objectValue!
        json["myNote"] = .string("from Sam")
        json["defaultDose"] = .string("15")
        let (bad, issues) = Recipe.decodeDocument(.object(json))
        #expect(bad == nil)
        #expect(issues.contains { $0.pointer == "/defaultDose" && $0.severity == .error })
        json["defaultDose"] = .number(15)
        let (good, warnings) = Recipe.decodeDocument(.object(json))
        #expect(good?.json["myNote"] == .string("from Sam"))
        #expect(warnings.contains { $0.pointer == "/myNote" && $0.severity == .warning })
    }

    // MARK: - Logs

    @Test(arguments: [
        (TasteTag.tooSour, "try slightly finer or hotter"),
        (TasteTag.tooBitter, "try slightly coarser or cooler"),
        (TasteTag.tooWeak, "try higher dose or finer"),
        (TasteTag.tooStrong, "try lower dose or coarser"),
        (TasteTag.perfect, "great job - no tips!"),
    ])
    func theHintTable(tag: TasteTag, hint: String) {
        #expect(tag.hint == hint)
    }

    @Test(arguments: ["too-sour", "too sour", "Too_Sour", "sour", "TOO SOUR"])
    func tagsAreReadLeniently(text: String) {
        #expect(TasteTag(lenient: text) == .tooSour)
    }

    func log(rating: Int = 4, note: String? = nil) throws -> BrewLog {
        let plan = try RecipeScaler.plan(.starter)
        return BrewLog(id: "abc123", plan: plan, rating: rating, tasteTag: .tooSour, note: note,
                       at: Timestamp(iso8601: "2026-11-21T08:15:00+01:00")!)
    }

    @Test(arguments: [(0, false), (1, true), (3, true), (5, true), (6, false), (-1, false)])
    func ratingsAreOneToFive(rating: Int, valid: Bool) throws {
        let issues = try log(rating: rating).validate()
        #expect(issues.isEmpty == valid)
        if !valid { #expect(issues.first?.pointer == "/rating") }
    }

    @Test(arguments: [(0, true), (279, true), (280, true), (281, false), (1000, false)])
    func notesAreAtMost280Characters(length: Int, valid: Bool) throws {
        let note = String(repeating: "é", count: length)  // characters, not bytes
        let issues = try log(note: note).validate()
        #expect(issues.isEmpty == valid)
        if !valid { #expect(issues.first?.message == "the note is \(length) characters long; the limit is 280") }
    }

    @Test func aLogRecordsTheSeedsFields() throws {
        let l = try log()
        let json = l.json
        for key in ["id", "timestamp", "method", "recipeId", "recipeName", "recipeType", "dose", "targetYield", "waterTemperature",
                    "grindLabel", "rating", "tasteTag", "createdAt", "updatedAt"] {
            #expect(json[key] != nil, "\(key)")
        }
        #expect(json["recipeType"] == .string("starter"))
        #expect(l.path == "brew/logs/2026/abc123.json")
        #expect(l.references.isEmpty)  // the built-in starter is no document
        var custom = l
        custom.recipeId = "k2j4h5g6f7"
        custom.recomputeDerived()
        #expect(custom.recipeType == .custom)
        #expect(custom.references.map(\.id) == ["k2j4h5g6f7"])
    }

    // MARK: - Preferences

    @Test func preferencesRememberInputsForOneRecipe() {
        var p = BrewPreferences()
        #expect(p.selectedRecipeID == Recipe.starterID)
        p.select("my-v60", inputs: BrewInputs(recipeId: "my-v60", dose: 20))
        #expect(p.inputs(for: "my-v60").dose == 20)
        #expect(p.inputs(for: Recipe.starterID).dose == nil)
        p.select(Recipe.starterID, inputs: nil)
        #expect(p.inputs == nil)
        #expect(p.references.isEmpty)
        p.select("gone", inputs: nil)
        #expect(p.references.map(\.pointer.description) == ["/lastRecipeId"])
    }

    @Test func preferencesWithBothDoseAndYieldAreInvalid() {
        var p = BrewPreferences()
        p.inputs = BrewInputs(recipeId: "x", dose: 20, targetYield: 300)
        #expect(p.validate().first?.pointer == "/inputs")
    }

    /// Quantities that round to nothing (a dose under 0.05 g is 0.0 g on a 0.1 g scale, a yield
    /// under 0.5 g is 0 g) would divide by zero in a plan: no recipe, preference or log has them.
    @Test(arguments: [(0.04, false), (0.05, true), (0.1, true), (1000.0, true), (1000.1, false), (-1.0, false)])
    func doseLimits(_ dose: Double, _ valid: Bool) throws {
        var r = custom()
        r.defaultDose = dose
        #expect(errors(r).contains { $0.hasPrefix("/defaultDose ") } == !valid, "\(errors(r))")
        var prefs = BrewPreferences()
        prefs.inputs = BrewInputs(recipeId: "v60-starter", dose: dose)
        #expect(prefs.validate().contains { $0.pointer.description == "/inputs/dose" } == !valid)
        #expect(BrewInputs(recipeId: nil, dose: dose).impossibleValues().isEmpty == valid)
    }

    @Test func aRememberedYieldThatRoundsToZeroIsAnError() throws {
        var prefs = BrewPreferences()
        prefs.inputs = BrewInputs(recipeId: "v60-starter", targetYield: 0.4)
        let issues = prefs.validate()
        #expect(issues.map(\.pointer.description) == ["/inputs/targetYield"])
        #expect(issues.first?.message == "the target yield must be at least 0.5 g (a smaller yield rounds to 0 g) and at most 10000 g (found 0.4)")
    }

    @Test func aGrindDescriptorIsOneLineOfText() {
        var r = custom()
        r.grindDescriptor = "sand\u{1B}[2J"
        #expect(errors(r) == ["/grindDescriptor the grind descriptor contains a control character (a line break, tab or escape); keep it on one line"])
        r.grindDescriptor = String(repeating: "s", count: 201)
        #expect(errors(r).map { $0.prefix(17) } == ["/grindDescriptor "])
        r.grindDescriptor = "coarse; like sea salt"
        #expect(errors(r).isEmpty)
    }
}
