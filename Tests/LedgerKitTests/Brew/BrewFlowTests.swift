import LedgerKit
import Testing

/// The guided brew as a state machine: events and a clock in, state and effects out
/// (PRD §3.6, US-009 … US-020).
@Suite struct BrewFlowTests {
    let start = Timestamp(iso8601: "2026-11-21T08:00:00+01:00")!

    func at(_ seconds: Double) -> Timestamp { start.adding(seconds: seconds) }

    func newFlow(_ inputs: BrewInputs = BrewInputs(recipeId: Recipe.starterID)) throws -> BrewFlow {
        try BrewFlow(recipe: .starter, inputs: inputs, logID: "log1")
    }

    /// A flow started at 0 s and moved to the bloom (step 3) at 10 s.
    func atBloom() throws -> BrewFlow {
        var f = try newFlow()
        f.handle(.start, at: at(0))
        f.handle(.next, at: at(5))
        f.handle(.next, at: at(10))
        return f
    }

    @Test func confirmThenStartLocksThePlanAndPersistsIt() throws {
        var f = try newFlow()
        #expect(f.phase == .confirm)
        f.handle(.edit(.dose), at: at(0))
        for c in "20" { f.handle(.type(c), at: at(0)) }
        f.handle(.confirm, at: at(0))
        #expect(f.plan.dose == 20 && f.plan.targetYield == 333)
        f.handle(.edit(.targetYield), at: at(1))
        for c in "300" { f.handle(.type(c), at: at(1)) }
        f.handle(.confirm, at: at(1))
        #expect(f.plan.dose == 18 && f.plan.targetYield == 300)  // last edited wins
        let effects = f.handle(.start, at: at(2))
        #expect(f.phase == .brewing)
        #expect(effects.count == 2)
        #expect(effects.first == .rememberInputs(BrewInputs(recipeId: Recipe.starterID, targetYield: 300)))
        guard case .persist(let p) = effects.last else { Issue.record("no persist"); return }
        #expect(p.plan.targetYield == 300 && p.stepIndex == 0)
    }

    @Test func theRecipeCanChangeBeforeTheStart() throws {
        var other = Recipe.starter
        other.id = "morning"
        other.name = "Morning V60"
        other.defaultDose = 18
        other.defaultTargetYield = 300
        other.steps = other.scalingStepWater(to: 300)
        var f = try BrewFlow(recipe: .starter, inputs: BrewInputs(recipeId: Recipe.starterID, dose: 20), choices: [RecipeEntry(.starter), RecipeEntry(other)], logID: "x")
        f.handle(.changeRecipe, at: at(0))
        #expect(f.dialog == .chooseRecipe)
        f.handle(.chooseRecipe(7), at: at(0))  // no such recipe: nothing changes
        #expect(f.dialog == .none && f.plan.recipeId == Recipe.starterID)
        f.handle(.changeRecipe, at: at(1))
        f.handle(.chooseRecipe(1), at: at(1))
        #expect(f.plan.recipeId == "morning" && f.plan.dose == 18 && f.inputs == BrewInputs(recipeId: "morning"))
        let effects = f.handle(.start, at: at(2))
        #expect(effects.first == .rememberInputs(BrewInputs(recipeId: "morning")))
        f.handle(.changeRecipe, at: at(3))
        #expect(f.dialog == .none && f.message(at: at(3))?.contains("locked") == true)
    }

    @Test func inputsAreLockedWhileBrewing() throws {
        var f = try atBloom()
        let plan = f.plan
        #expect(f.handle(.edit(.dose), at: at(11)).isEmpty)
        f.handle(.cycleGrind, at: at(11))
        f.handle(.togglePause, at: at(12))
        f.handle(.resetInputs, at: at(12))
        #expect(f.plan == plan)
        #expect(f.dialog == .none)
        #expect(f.message(at: at(12))?.contains("locked") == true)
    }

    /// A message about one step (inputs locked) does not stay on the next one.
    @Test func aMessageGoesWhenTheStepChanges() throws {
        var f = try atBloom()
        f.handle(.edit(.dose), at: at(11))
        #expect(f.message(at: at(11))?.contains("locked") == true)
        f.handle(.next, at: at(12))
        #expect(f.progress?.stepIndex == 3)
        #expect(f.message(at: at(12)) == nil)
    }

    /// The brew pours a recipe's own steps (within the ±1 g validation allows) at its defaults.
    @Test func theRecipesOwnStepsAreBrewed() throws {
        var r = Recipe.starter
        r.id = "own"
        (r.steps[2].water, r.steps[3].water) = (40, 111)  // 251 g for 250 g
        var f = try BrewFlow(recipe: r, inputs: BrewInputs(recipeId: "own"), logID: "x")
        f.handle(.start, at: at(0))
        #expect(f.progress?.plan.steps.map(\.water) == [0, 0, 40, 111, 99, 0])
    }

    @Test func badInputsAreRefusedAndTheOldPlanKept() throws {
        var f = try newFlow()
        f.handle(.edit(.waterTemperature), at: at(0))
        for c in "120" { f.handle(.type(c), at: at(0)) }
        f.handle(.confirm, at: at(0))
        #expect(f.plan.waterTemperature == 94)
        #expect(f.message(at: at(1))?.contains("at most 100 °C") == true)
        f.handle(.edit(.dose), at: at(2))
        f.handle(.type("x"), at: at(2))
        #expect(f.dialog == .editing(.dose, TypedText(limit: 8)))
        f.handle(.cancel, at: at(2))
        #expect(f.dialog == .none)
    }

    @Test func theCountdownRunsReachesZeroAndWaitsForNext() throws {
        var f = try atBloom()
        let p0 = try #require(f.progress)
        #expect(p0.stepIndex == 2)
        #expect(p0.remainingSeconds(at: at(10)) == 45)
        #expect(p0.remainingSeconds(at: at(40)) == 15)
        #expect(!p0.isReady(at: at(54.9)))
        #expect(p0.isReady(at: at(55)))
        #expect(p0.remainingSeconds(at: at(600)) == 0)
        f.handle(.tick, at: at(100))
        #expect(f.progress?.stepIndex == 2)  // a timer at zero never advances by itself
        f.handle(.next, at: at(100))
        #expect(f.progress?.stepIndex == 3)
        #expect(f.progress?.remainingSeconds(at: at(100)) == 45)
    }

    @Test func nextMovesOnBeforeTheTimerEndsToo() throws {
        var f = try atBloom()
        f.handle(.next, at: at(20))
        #expect(f.progress?.stepIndex == 3)
    }

    @Test func pauseStopsTheCountdownAndResumeContinuesFromThere() throws {
        var f = try atBloom()
        f.handle(.togglePause, at: at(20))  // 10 s into the bloom
        #expect(f.progress?.isPaused == true)
        #expect(f.progress?.remainingSeconds(at: at(500)) == 35)
        #expect(f.progress?.clock(at: at(500)) == 10)
        f.handle(.next, at: at(30))
        #expect(f.progress?.stepIndex == 2)  // Next waits for Resume
        #expect(f.message(at: at(30))?.contains("resume") == true)
        f.handle(.togglePause, at: at(500))
        #expect(f.progress?.remainingSeconds(at: at(505)) == 30)
        #expect(f.progress?.clock(at: at(505)) == 15)
        #expect(f.plan == f.progress?.plan)  // pausing unlocks nothing
    }

    @Test func restartNeedsAConfirmationAndAHold() throws {
        var f = try atBloom()
        f.handle(.restart, at: at(20))
        #expect(f.dialog == .restartConfirm)
        f.handle(.cancel, at: at(21))  // any other key: no
        #expect(f.dialog == .none && f.progress?.stepIndex == 2)

        f.handle(.restart, at: at(22))
        f.handle(.confirm, at: at(22.5))
        guard case .restartHold = f.dialog else { Issue.record("expected the hold"); return }
        // Pressed once and released: nothing happens.
        f.handle(.holdRestart, at: at(23))
        f.handle(.tick, at: at(24))
        guard case .restartHold(let released) = f.dialog else { Issue.record("expected the hold"); return }
        #expect(released.progress(at: at(24)) == 0)
        #expect(f.phase == .brewing)
        // Held (auto-repeat every 0.1 s) for 1.5 s: back to the start.
        var effects: [BrewFlow.Effect] = []
        for i in 0...15 { effects = f.handle(.holdRestart, at: at(25 + Double(i) / 10)) }
        #expect(f.phase == .confirm)
        #expect(f.progress == nil)
        #expect(effects == [.clearProgress])
        // The key's further repeats do not act on the confirm screen.
        #expect(f.handle(.holdRestart, at: at(26.6)).isEmpty)
        #expect(f.heldAfterRestart != nil)
        // Starting again begins at step 1 with fresh timers.
        f.handle(.start, at: at(40))
        #expect(f.progress?.stepIndex == 0 && f.progress?.startedAt == at(40))
    }

    @Test func anyOtherKeyCancelsTheHold() throws {
        var f = try atBloom()
        f.handle(.restart, at: at(20))
        f.handle(.confirm, at: at(20))
        f.handle(.holdRestart, at: at(21))
        f.handle(.next, at: at(21.2))
        #expect(f.dialog == .none && f.phase == .brewing && f.progress?.stepIndex == 2)
    }

    @Test func leavingAStartedBrewAsksAndKeepsItResumable() throws {
        var f = try atBloom()
        f.handle(.leave, at: at(20))
        #expect(f.dialog == .leave)
        f.handle(.cancel, at: at(21))  // stay
        #expect(f.dialog == .none && f.phase == .brewing)
        f.handle(.leave, at: at(22))
        #expect(f.handle(.leaveKeepingBrew, at: at(23)) == [.exit])
        #expect(f.phase == .done(.left))

        var g = try atBloom()
        g.handle(.leave, at: at(20))
        #expect(g.handle(.discardBrew, at: at(21)) == [.clearProgress, .exit])
        #expect(g.phase == .done(.discarded))
    }

    @Test func leavingBeforeTheStartNeedsNoQuestion() throws {
        var f = try newFlow()
        #expect(f.handle(.leave, at: at(0)) == [.exit])
        #expect(f.phase == .done(.cancelled))
    }

    /// Runs a whole brew: six Nexts, the post-brew form, save.
    @Test func aWholeBrewEndsInALog() throws {
        var f = try newFlow(BrewInputs(recipeId: Recipe.starterID, dose: 20))
        f.handle(.start, at: at(0))
        f.handle(.next, at: at(30))  // rinse
        f.handle(.next, at: at(60))  // coffee in; the bloom starts the brew clock
        f.handle(.next, at: at(105))
        f.handle(.next, at: at(150))
        f.handle(.next, at: at(195))
        f.handle(.next, at: at(252))  // drawdown done at 3:12 on the brew clock
        #expect(f.phase == .finished)
        #expect(f.progress?.brewSeconds == 192)
        #expect(f.handle(.save, at: at(260)).isEmpty)  // a rating is required
        #expect(f.message(at: at(260))?.contains("rating") == true)
        f.handle(.rate(4), at: at(261))
        f.handle(.tag(.tooSour), at: at(262))
        f.handle(.tag(.tooBitter), at: at(262))
        f.handle(.tag(.tooBitter), at: at(262))  // the same tag again clears it
        #expect(f.progress?.tasteTag == nil)
        f.handle(.tag(.tooSour), at: at(263))
        f.handle(.editNote, at: at(264))
        for c in "Kenya, washed" { f.handle(.type(c), at: at(264)) }
        f.handle(.confirm, at: at(265))
        let effects = f.handle(.save, at: at(270))
        guard case .saveLog(let log) = effects.first else { Issue.record("no log"); return }
        #expect(effects.dropFirst() == [.clearProgress, .exit])
        #expect(log.id == "log1")
        #expect((log.dose, log.targetYield, log.rating, log.tasteTag, log.note) == (20, 333, 4, .tooSour, "Kenya, washed"))
        #expect(log.brewSeconds == 192)
        #expect(log.timestamp == at(270))
        #expect(log.validate().isEmpty)
        #expect(f.phase == .done(.saved(log)))
    }

    @Test func theNoteStopsAt280Characters() throws {
        var f = try atBloom()
        for i in 0..<4 { f.handle(.next, at: at(20 + Double(i))) }
        #expect(f.phase == .finished)
        f.handle(.editNote, at: at(30))
        for _ in 0..<300 { f.handle(.type("a"), at: at(30)) }
        guard case .note(let field) = f.dialog else { Issue.record("no note field"); return }
        #expect(field.text.count == 280)
        #expect(f.message(at: at(30)) == "Notes are limited to 280 characters")
        f.handle(.confirm, at: at(31))
        #expect(f.progress?.note?.count == 280)
    }

    @Test func discardAfterTheBrewAsksFirst() throws {
        var f = try atBloom()
        for i in 0..<4 { f.handle(.next, at: at(20 + Double(i))) }
        f.handle(.discard, at: at(30))
        #expect(f.dialog == .discardConfirm)
        f.handle(.cancel, at: at(31))
        #expect(f.phase == .finished)
        f.handle(.discard, at: at(32))
        #expect(f.handle(.confirm, at: at(33)) == [.clearProgress, .exit])
        #expect(f.phase == .done(.discarded))
    }

    @Test func aStoredBrewResumesWhereItWas() throws {
        var f = try atBloom()
        f.handle(.togglePause, at: at(20))
        f.handle(.togglePause, at: at(25))
        let saved = try #require(f.progress)
        // The JSON written to disk reads back as the same brew.
        let (decoded, issues) = BrewProgress.decodeDocument(saved.json)
        #expect(issues.isEmpty)
        let stored = try #require(decoded)
        #expect(stored == saved)
        var resumed = try BrewFlow(recipe: .starter, inputs: stored.inputs, resuming: stored, logID: "log2")
        #expect(resumed.dialog == .resumeOffer && resumed.phase == .brewing)
        resumed.handle(.confirm, at: at(40))
        // The timer ran on while the terminal was closed: 10 s + 15 s of the bloom are gone.
        #expect(resumed.progress?.remainingSeconds(at: at(40)) == 20)
        resumed.handle(.next, at: at(41))
        #expect(resumed.progress?.stepIndex == 3)
    }

    @Test func aResumeOfferCanDiscardTheOldBrew() throws {
        let saved = try #require(try atBloom().progress)
        var f = try BrewFlow(recipe: .starter, inputs: BrewInputs(recipeId: Recipe.starterID), resuming: saved, logID: "log2")
        #expect(f.handle(.discardBrew, at: at(50)) == [.clearProgress])
        #expect(f.phase == .confirm && f.progress == nil)
    }

    @Test func holdGestureTimesItsRepeats() {
        var h = HoldGesture()
        h.press(at: at(0))
        h.press(at: at(0.6))  // a terminal's first auto-repeat comes late
        h.press(at: at(1.2))
        #expect(!h.isComplete)
        #expect(abs(h.progress(at: at(1.2)) - 0.8) < 1e-9)
        h.press(at: at(2.2))  // a gap of 1 s: released and pressed again
        #expect(h.progress(at: at(2.2)) == 0)
        h.press(at: at(2.9))
        h.press(at: at(3.5))
        h.press(at: at(3.7))
        #expect(h.isComplete)
    }

    /// The recipe list offers invalid recipes too, marked as `brew recipes` marks them;
    /// choosing one says why it cannot be brewed and keeps the recipe on screen.
    @Test func anInvalidRecipeIsListedAndRefused() throws {
        var broken = Recipe.starter
        broken.id = "broken"
        broken.name = "Broken"
        broken.steps[3].water = 95
        let entry = RecipeEntry(id: "broken", name: "Broken", path: "brew/recipes/broken.json", recipe: nil,
                                problems: broken.validate().map { Problem("brew/recipes/broken.json", $0) })
        var f = try BrewFlow(recipe: .starter, inputs: BrewInputs(recipeId: Recipe.starterID), choices: [.starter, entry], logID: "x")
        f.handle(.changeRecipe, at: at(0))
        #expect(f.dialog == .chooseRecipe && f.choices.map(\.isValid) == [true, false])
        f.handle(.chooseRecipe(1), at: at(1))
        #expect(f.dialog == .none && f.plan.recipeId == Recipe.starterID)
        #expect(f.message(at: at(1)) == "\"Broken\" is invalid; fix it first: edit the recipe")
        #expect(f.sentence(at: at(1))?.nextStep == .brew(.editRecipe(id: "broken")))
        // The message is about the confirm screen: it does not follow onto the brewing screen.
        f.handle(.start, at: at(2))
        #expect(f.phase == .brewing && f.message(at: at(2)) == nil)
    }

    /// Discarding a brew in progress from the resume offer starts what was asked for.
    @Test func startingOverStartsTheSelectionAskedFor() throws {
        let saved = try #require(try atBloom().progress)
        var other = Recipe.starter
        other.id = "morning"
        other.name = "Morning"
        let asked = BrewSelection(recipe: other, inputs: BrewInputs(recipeId: "morning", dose: 18))
        var f = try BrewFlow(recipe: .starter, inputs: saved.inputs, resuming: saved, startOver: asked, logID: "log2")
        #expect(f.handle(.discardBrew, at: at(50)) == [.clearProgress])
        #expect(f.startedOver && f.phase == .confirm && f.progress == nil)
        #expect(f.recipe?.id == "morning" && f.plan.recipeId == "morning" && f.plan.dose == 18 && f.inputs == asked.inputs)
        let effects = f.handle(.start, at: at(51))
        #expect(effects.first == .rememberInputs(asked.inputs))
    }

    /// A brew left for hours: the offer knows for how long, and the time away is not counted
    /// — its timers go on from where it was last seen, and the logged brew time is the brew's.
    @Test func aBrewLeftForHoursDoesNotCountTheTimeAway() throws {
        var f = try atBloom()  // the bloom started at 10 s
        // Every few seconds the running brew is written with the instant it was seen.
        #expect(f.handle(.tick, at: at(12)).isEmpty)
        guard case .persist(let seen)? = f.handle(.tick, at: at(16)).first else { Issue.record("no heartbeat"); return }
        #expect(seen.seenAt == at(16) && f.handle(.tick, at: at(17)).isEmpty)
        // The terminal dies at 18 s; the brew is started again three hours later.
        let later = at(16 + 3 * 3600)
        var resumed = try BrewFlow(recipe: .starter, inputs: seen.inputs, resuming: seen, at: later, logID: "log2")
        #expect(resumed.leftFor == 10_800.0)
        #expect(resumed.progress?.clock(at: later) == 6)  // frozen where it was last seen
        resumed.handle(.confirm, at: later)
        #expect(resumed.message(at: later) == "Resumed after 3 h away; that time is not counted")
        #expect(resumed.progress?.remainingSeconds(at: later.adding(seconds: 10)) == 45 - 16)
        for i in 1...4 { resumed.handle(.next, at: later.adding(seconds: 10 * Double(i))) }
        #expect(resumed.phase == .finished)
        resumed.handle(.rate(4), at: later.adding(seconds: 50))
        guard case .saveLog(let log)? = resumed.handle(.save, at: later.adding(seconds: 51)).first else { Issue.record("no log"); return }
        #expect(log.brewSeconds == 6 + 40)
    }
}
