import LedgerKit

/// Brew data for the benchmark ledger: a few custom recipes (4 × scale) and about two brews a
/// day (~7,000 logs every ten years: ~70,000 at scale 10), each a real `BrewLog` of a
/// plan made by the scaling engine, and the preferences.
enum BrewGenerator {
    static func generate(_ g: inout BenchGenerator) throws {
        var recipes = [Recipe.starter]
        let created = g.timestamp(g.firstDay, hour: 9)
        for i in 0..<(4 * g.scale) {
            var r = variant(i, round: i / 4)
            r.id = g.id()
            r.createdAt = created.adding(minutes: Double(i))
            r.updatedAt = r.createdAt
            precondition(r.validate().isEmpty, "generated recipe \(r.name) is invalid")
            try g.write(r.path, r.json)
            recipes.append(r)
        }
        let notes = ["Ethiopia, washed", "Kenya AA — bright", "new bag, roasted 10 days ago", "ground a click finer",
                     "drawdown 3:40, too slow", "Colombia, honey process", "decaf", "filters from the new box"]
        var last = Recipe.starter
        for day in g.days {
            // 0 to 3 brews a day, two on average.
            let roll = Int.random(in: 0..<100, using: &g.random)
            let brews = roll < 10 ? 0 : roll < 30 ? 1 : roll < 68 ? 2 : 3
            for n in 0..<brews {
                let recipe = Int.random(in: 0..<10, using: &g.random) < 4 ? recipes[0] : recipes[Int.random(in: 1..<recipes.count, using: &g.random)]
                var inputs = BrewInputs(recipeId: recipe.id)
                switch Int.random(in: 0..<4, using: &g.random) {
                case 0: inputs.setDose(recipe.defaultDose + Double(Int.random(in: -20...30, using: &g.random)) / 10)
                case 1 where !recipe.fixedStepWeights: inputs.setTargetYield(recipe.defaultTargetYield + Double(Int.random(in: -3...5, using: &g.random)) * 10)
                default: break
                }
                if Int.random(in: 0..<5, using: &g.random) == 0 { inputs.waterTemperature = Double(Int.random(in: 89...97, using: &g.random)) }
                let plan = try RecipeScaler.plan(recipe, inputs: inputs)
                let hour = n % 3 == 0 ? Int.random(in: 6...9, using: &g.random) : n % 3 == 1 ? Int.random(in: 13...15, using: &g.random) : 20
                let at = g.timestamp(day, hour: hour, minute: Int.random(in: 0..<60, using: &g.random), second: Int.random(in: 0..<60, using: &g.random))
                let ratingRoll = Int.random(in: 0..<20, using: &g.random)
                let rating = ratingRoll < 1 ? 1 : ratingRoll < 3 ? 2 : ratingRoll < 8 ? 3 : ratingRoll < 16 ? 4 : 5
                let tag: TasteTag? = Int.random(in: 0..<2, using: &g.random) == 0 ? nil : TasteTag.allCases.randomElement(using: &g.random)
                let note = Int.random(in: 0..<5, using: &g.random) == 0 ? notes.randomElement(using: &g.random) : nil
                let seconds = Int.random(in: 170...230, using: &g.random)
                let log = BrewLog(id: g.id(), plan: plan, rating: rating, tasteTag: tag, note: note, brewSeconds: seconds, at: at)
                try g.save(log)
                last = recipe
            }
        }
        var prefs = BrewPreferences()
        prefs.lastRecipeId = last.id
        prefs.createdAt = created
        prefs.updatedAt = g.timestamp(g.lastDay, hour: 20)
        try g.write(BrewPreferences.kind.path(), prefs.json)
    }

    /// The `i`th custom recipe: four kinds, numbered on later rounds.
    static func variant(_ i: Int, round: Int) -> Recipe {
        var r = Recipe.starter
        let suffix = round == 0 ? "" : " \(round + 1)"
        switch i % 4 {
        case 0:
            r.name = "Morning V60" + suffix
            r.defaultDose = 18
            r.defaultTargetYield = 300
            r.steps = r.scalingStepWater(to: 300)
        case 1:
            r.name = "Light roast" + suffix
            r.defaultWaterTemperature = 96
            r.defaultGrindLabel = .fine
            r.grindDescriptor = "fine sand; like table salt"
            r.defaultTargetYield = 255
            r.steps = r.scalingStepWater(to: 255)
        case 2:
            r.name = "Four pours" + suffix
            r.steps.insert(RecipeStep(.pour, "Pour", water: 0, timerSeconds: 30), at: 5)
            r.steps[3].water = 70
            r.steps[4].water = 70
            r.steps[5].water = 65
        default:
            r.name = "Strong fixed" + suffix
            r.defaultDose = 20
            r.defaultTargetYield = 280
            r.fixedStepWeights = true
            r.steps = r.scalingStepWater(to: 280)
        }
        return r
    }
}
