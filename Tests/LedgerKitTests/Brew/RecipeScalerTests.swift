import LedgerKit
import Testing

/// The scaling engine against BrewGuide's numbers (PRD §3.5, §3.7).
@Suite struct RecipeScalerTests {
    let starter = Recipe.starter

    func pours(_ plan: BrewPlan) -> [Double] { plan.steps.filter { $0.kind.addsWater }.map(\.water) }

    @Test func theStarterIsTheSeedsRecipe() throws {
        #expect(starter.id == "v60-starter")
        #expect(starter.defaultDose == 15)
        #expect(starter.defaultTargetYield == 250)
        #expect(starter.defaultWaterTemperature == 94)
        #expect(starter.defaultGrindLabel == .medium)
        #expect(starter.grindDescriptor == "sand; slightly finer than sea salt")
        #expect(starter.ruleIssues().isEmpty)
        let plan = try RecipeScaler.plan(starter)
        #expect(plan.ratio == 16.7)
        #expect(plan.steps.map(\.headline) == [
            "Rinse filter and preheat",
            "Add coffee, level bed",
            "Bloom: pour 45 g, start timer 0:45",
            "Pour to 150 g by 1:30",
            "Pour to 250 g by 2:15",
            "Wait for drawdown",
        ])
        #expect(plan.steps[5].instruction == "Target finish 3:00–3:30.")
        #expect(plan.steps[5].endsAtSeconds == 180)
        #expect(plan.warnings.isEmpty)
    }

    /// Dose edited last: yield = dose × 250/15, bloom = 3 × dose, the rest 50/50.
    @Test(arguments: [
        (15.0, 250.0, 45.0, [45.0, 105.0, 100.0]),  // the recipe's own steps at its defaults
        (20.0, 333.0, 60.0, [60.0, 137.0, 136.0]),
        (18.0, 300.0, 54.0, [54.0, 123.0, 123.0]),
        (12.0, 200.0, 36.0, [36.0, 82.0, 82.0]),
        (15.4, 257.0, 46.0, [46.0, 106.0, 105.0]),
        (30.0, 500.0, 90.0, [90.0, 205.0, 205.0]),
    ])
    func doseGivesYieldAndPours(dose: Double, yield: Double, bloom: Double, water: [Double]) throws {
        let plan = try RecipeScaler.plan(starter, inputs: BrewInputs(recipeId: nil, dose: dose))
        #expect(plan.dose == dose)
        #expect(plan.targetYield == yield)
        #expect(pours(plan).first == bloom)
        #expect(pours(plan) == water)
        #expect(pours(plan).reduce(0, +) == yield)
    }

    /// Yield edited last: dose = yield × 15/250, rounded to 0.1 g.
    @Test(arguments: [(300.0, 18.0), (257.0, 15.4), (250.0, 15.0), (333.0, 20.0), (180.0, 10.8), (720.0, 43.2)])
    func yieldGivesDose(yield: Double, dose: Double) throws {
        let plan = try RecipeScaler.plan(starter, inputs: BrewInputs(recipeId: nil, targetYield: yield))
        #expect(plan.dose == dose)
        #expect(plan.targetYield == yield)
        #expect(plan.edited == .targetYield)
        #expect(pours(plan).reduce(0, +) == yield)
    }

    @Test func everyPlansPoursSumExactlyToItsYield() throws {
        var checked = 0
        for tenth in stride(from: 50, through: 800, by: 7) {
            let plan = try RecipeScaler.plan(starter, inputs: BrewInputs(recipeId: nil, dose: Double(tenth) / 10))
            #expect(pours(plan).reduce(0, +) == plan.targetYield, "dose \(plan.dose)")
            #expect(plan.steps.last(where: { $0.kind.addsWater })?.totalWater == plan.targetYield)
            checked += 1
        }
        for y in stride(from: 60, through: 1200, by: 13) {
            let plan = try RecipeScaler.plan(starter, inputs: BrewInputs(recipeId: nil, targetYield: Double(y)))
            #expect(pours(plan).reduce(0, +) == plan.targetYield, "yield \(y)")
            checked += 1
        }
        #expect(checked > 150)
    }

    @Test func roundingIsToATenthOfAGramForDoseAndAGramForWater() throws {
        let plan = try RecipeScaler.plan(starter, inputs: BrewInputs(recipeId: nil, dose: 15.25))
        #expect(plan.dose == 15.3)
        #expect(plan.targetYield == 255)  // 15.3 × 16.67 = 255.0
        #expect(pours(plan) == [46, 105, 104])  // 3 × 15.3 = 45.9 → 46; the rest 209 → 105 + 104
        #expect(RecipeScaler.roundWater(102.5) == 103)
        #expect(RecipeScaler.roundDose(15.45) == 15.5)
    }

    @Test func lastEditedWins() throws {
        var inputs = BrewInputs(recipeId: nil)
        inputs.setDose(20)
        inputs.setTargetYield(300)
        #expect(inputs.dose == nil)
        var plan = try RecipeScaler.plan(starter, inputs: inputs)
        #expect((plan.dose, plan.targetYield) == (18.0, 300.0))
        inputs.setDose(20)
        plan = try RecipeScaler.plan(starter, inputs: inputs)
        #expect((plan.dose, plan.targetYield) == (20.0, 333.0))
        #expect(plan.edited == .dose)
    }

    /// Out-of-range inputs warn and are kept as given (no clamping).
    @Test(arguments: [
        (BrewInputs(recipeId: nil, dose: 45), "dose 45.0 g is outside the recommended 12–40 g for a V60"),
        (BrewInputs(recipeId: nil, dose: 10), "dose 10.0 g is outside the recommended 12–40 g for a V60"),
        (BrewInputs(recipeId: nil, targetYield: 800), "target yield 800 g is outside the recommended 180–720 g for a V60"),
        (BrewInputs(recipeId: nil, targetYield: 150), "target yield 150 g is outside the recommended 180–720 g for a V60"),
        (BrewInputs(recipeId: nil, waterTemperature: 98), "water temperature 98 °C is outside the recommended 90–96 °C for a V60"),
        (BrewInputs(recipeId: nil, waterTemperature: 85), "water temperature 85 °C is outside the recommended 90–96 °C for a V60"),
    ])
    func outOfRangeWarnsWithoutClamping(inputs: BrewInputs, warning: String) throws {
        let plan = try RecipeScaler.plan(starter, inputs: inputs)
        #expect(plan.warnings.contains(warning))
        if let d = inputs.dose { #expect(plan.dose == d) }
        if let y = inputs.targetYield { #expect(plan.targetYield == y) }
        if let t = inputs.waterTemperature { #expect(plan.waterTemperature == t) }
        #expect(pours(plan).reduce(0, +) == plan.targetYield)
    }

    @Test func ratioOutsideTheRangeWarns() throws {
        var strong = Recipe.starter
        strong.id = "strong"
        strong.defaultTargetYield = 195  // 1:13
        strong.steps = strong.scalingStepWater(to: 195)
        let plan = try RecipeScaler.plan(strong)
        #expect(plan.ratio == 13)
        #expect(plan.warnings == ["ratio 1:13.0 is outside the recommended 1:14–1:18 for a V60"])
        #expect(try RecipeScaler.plan(starter, inputs: BrewInputs(recipeId: nil, dose: 14)).warnings.isEmpty)
    }

    @Test func fixedStepWeightsAreKept() throws {
        var fixed = Recipe.starter
        fixed.id = "fixed"
        fixed.fixedStepWeights = true
        let plan = try RecipeScaler.plan(fixed, inputs: BrewInputs(recipeId: nil, dose: 17))
        #expect(pours(plan) == [45, 105, 100])
        #expect(plan.targetYield == 250)
        #expect(plan.dose == 17)
        #expect(plan.ratio == 14.7)
        #expect(plan.fixedStepWeights && plan.edited == .dose)
        #expect(try !RecipeScaler.plan(starter).fixedStepWeights)
        #expect(throws: LedgerError.self) { try RecipeScaler.plan(fixed, inputs: BrewInputs(recipeId: nil, targetYield: 300)) }
        #expect(try RecipeScaler.plan(fixed, inputs: BrewInputs(recipeId: nil, targetYield: 250)).targetYield == 250)
    }

    /// Steps that pass validation (within ±1 g of the yield) are the recipe's own at its
    /// defaults, the last pour taking up the difference so the pours add up to the yield.
    @Test(arguments: [
        ([40.0, 111.0, 100.0], [40.0, 111.0, 99.0]),  // 251 g for 250 g
        ([45.0, 105.0, 99.0], [45.0, 105.0, 100.0]),  // 249 g
        ([45.0, 105.0, 100.5], [45.0, 105.0, 100.0]),
        ([45.0, 205.5, 0.5], [45.0, 205.0, 0.0]),  // a last pour too small for the difference: the one before helps
    ])
    func stepsWithinTheToleranceAreKept(written: [Double], planned: [Double]) throws {
        var r = Recipe.starter
        r.id = "own"
        (r.steps[2].water, r.steps[3].water, r.steps[4].water) = (written[0], written[1], written[2])
        #expect(r.ruleIssues().isEmpty)
        let plan = try RecipeScaler.plan(r)
        #expect(pours(plan) == planned)
        #expect(plan.targetYield == 250 && plan.edited == nil)
        // Once the dose changes, the V60 rule applies.
        #expect(pours(try RecipeScaler.plan(r, inputs: BrewInputs(recipeId: nil, dose: 20))) == [60, 137, 136])
    }

    @Test func pourStepsBeyondTwoShareTheRestEvenly() throws {
        var r = Recipe.starter
        r.id = "three-pours"
        r.steps.insert(RecipeStep(.pour, "Pour", water: 0, timerSeconds: 30), at: 5)
        r.steps[3].water = 70
        r.steps[4].water = 70
        r.steps[5].water = 65
        #expect(r.validate().isEmpty)
        let plan = try RecipeScaler.plan(r, inputs: BrewInputs(recipeId: nil, dose: 20))
        #expect(pours(plan) == [60, 91, 91, 91])
        #expect(pours(plan).reduce(0, +) == 333)
    }

    @Test func aBloomLargerThanTheYieldIsRefused() {
        var r = Recipe.starter
        r.id = "tiny"
        r.defaultTargetYield = 30  // 1:2, so the bloom of 3 × dose exceeds the yield
        r.steps = r.scalingStepWater(to: 30)
        #expect(throws: LedgerError.self) { try RecipeScaler.plan(r, inputs: BrewInputs(recipeId: nil, dose: 20)) }
    }

    @Test func measuredDoseAndYieldKeepBoth() throws {
        let plan = try RecipeScaler.plan(starter).measured(dose: 16, targetYield: 300)
        #expect((plan.dose, plan.targetYield, plan.ratio) == (16.0, 300.0, 18.8))
        #expect(plan.warnings == ["ratio 1:18.8 is outside the recommended 1:14–1:18 for a V60"])
    }

    @Test func noPlanHasANonFiniteRatio() throws {
        // The smallest dose that rounds to 0.1 g still gives a finite plan.
        let small = try RecipeScaler.plan(starter, inputs: BrewInputs(recipeId: nil, dose: 0.05))
        #expect(small.dose == 0.1 && small.targetYield == 2 && small.ratio == 20)
        // A dose that follows from a yield through an extreme ratio and rounds to 0.0 g is refused.
        var thin = starter
        thin.id = "thin"
        thin.defaultDose = 0.1
        thin.defaultTargetYield = 10_000
        thin.steps = [RecipeStep(.bloom, "Bloom", water: 300), RecipeStep(.pour, "Pour", water: 9_700)]
        #expect(thin.ruleIssues().isEmpty)
        #expect(throws: LedgerError.self) { try RecipeScaler.plan(thin, inputs: BrewInputs(recipeId: nil, targetYield: 1)) }
        let plan = try RecipeScaler.plan(thin, inputs: BrewInputs(recipeId: nil, targetYield: 5_000))
        #expect(plan.ratio.isFinite && plan.dose == 0.1)
    }

    @Test func quantitiesFormatWithoutTrapping() {
        #expect(BrewFormat.number(1e300) == "1e+300")
        #expect(BrewFormat.number(0.04) == "0")
        #expect(BrewFormat.number(15.5) == "15.5")
        #expect(BrewFormat.number(.infinity) == "inf")
    }

    /// The drawdown's "target finish" follows the recipe's own timers: the seed's 3:00–3:30
    /// is the starter's wait ending at 3:00, plus 30 s.
    @Test func theTargetFinishFollowsTheRecipesTimers() throws {
        var slow = starter
        slow.steps[2].timerSeconds = 50  // a longer bloom, in a copy that kept the starter's text
        #expect(try RecipeScaler.plan(slow).steps[5].instruction == "Target finish 3:05–3:35.")
        slow.steps[5].instruction = "Swirl once"
        #expect(try RecipeScaler.plan(slow).steps[5].instruction == "Swirl once. Target finish 3:05–3:35.")
        slow.steps[5].instruction = "Swirl; target finish 2:50 - 3:20 and serve"
        #expect(try RecipeScaler.plan(slow).steps[5].instruction == "Swirl; Target finish 3:05–3:35. and serve")
        slow.steps[5].instruction = "Target finish soon"
        #expect(try RecipeScaler.plan(slow).steps[5].instruction == "Target finish soon. Target finish 3:05–3:35.")
        slow.steps[5].instruction = nil
        slow.steps[5].timerSeconds = 60
        #expect(try RecipeScaler.plan(slow).steps[5].instruction == "Target finish 3:20–3:50.")
        // A wait that is not the last step, or has no timer, gets no target finish.
        slow.steps[5].timerSeconds = nil
        #expect(try RecipeScaler.plan(slow).steps[5].instruction == nil)
        // Without a timer, the starter's copied "Target finish 3:00–3:30" would contradict
        // pours that end at 2:20: it goes, and the rest of the text stays.
        slow.steps[5].instruction = "Target finish 3:00–3:30."
        #expect(try RecipeScaler.plan(slow).steps[5].instruction == nil)
        slow.steps[5].instruction = "Swirl once. Target finish 3:00–3:30."
        #expect(try RecipeScaler.plan(slow).steps[5].instruction == "Swirl once.")
        slow.steps.swapAt(4, 5)
        slow.steps[4].timerSeconds = 30
        slow.steps[4].instruction = nil
        #expect(try RecipeScaler.plan(slow).steps[4].instruction == nil)
    }
}
