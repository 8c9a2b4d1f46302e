import Foundation

/// The scaling engine: a recipe and the confirm-inputs values give a `BrewPlan` (BrewGuide
/// §3.7).
///
/// - The ratio is the one implied by the recipe's defaults (yield ÷ dose).
/// - Last edited wins: a dose gives the yield (dose × ratio), a yield gives the dose.
/// - The dose is rounded to 0.1 g, water and yield to 1 g (halves away from zero).
/// - At the recipe's own dose and yield the steps are the recipe's as written (the last pour
///   taking up the up to ±1 g by which a valid recipe's steps may miss its yield). Otherwise the
///   bloom is 3 × dose and the rest is split evenly over the pour steps (50/50 for the V60's
///   two pours), the last pour absorbing the rounding so the pours add up to the yield.
/// - A recipe with fixed step weights keeps its water as written: its yield is their total and
///   only the dose (hence the ratio) can change.
/// - Values outside the recommended ranges give warnings; nothing is clamped.
public enum RecipeScaler {
    /// Recommended V60 dose, grams.
    public static let doseRange = 12.0...40.0
    /// Recommended V60 target yield, grams.
    public static let yieldRange = 180.0...720.0
    /// Recommended V60 ratio (1:14 to 1:18).
    public static let ratioRange = 14.0...18.0
    /// Recommended V60 water temperature, °C.
    public static let temperatureRange = 90.0...96.0
    /// Bloom water per gram of coffee.
    public static let bloomFactor = 3.0

    /// The plan for `recipe` with `inputs` (whose `recipeId` is ignored). Throws
    /// `LedgerError.invalid` for inputs no plan can honour: a fixed-weight recipe asked for
    /// another yield, a bloom larger than the whole yield, or a dose or yield whose plan no
    /// brew log could hold (`limit(_:inputs:)`).
    public static func plan(_ recipe: Recipe, inputs: BrewInputs = BrewInputs()) throws -> BrewPlan {
        let plan = try scaledPlan(recipe, inputs: inputs)
        if let limit = BrewPlanLimit(plan, inputs: inputs, ratio: recipe.defaultRatio) { throw LedgerError.invalid(limit.sentence) }
        return plan
    }

    /// The dose or yield of `inputs` whose plan for `recipe` no brew log could hold (the
    /// quantity that follows from it is over its `BrewLimits` limit), or nil; nil too for
    /// inputs that give no plan at all (`plan` says why).
    public static func limit(_ recipe: Recipe, inputs: BrewInputs) -> BrewPlanLimit? {
        (try? scaledPlan(recipe, inputs: inputs)).flatMap { BrewPlanLimit($0, inputs: inputs, ratio: recipe.defaultRatio) }
    }

    /// Why a recipe with fixed step weights cannot brew `yield` ("… has fixed step weights
    /// adding up to 250 g, so its yield cannot be 300 g"), or nil when it can (the yield is
    /// their total, or the steps are scaled).
    public static func fixedYieldRefusal(_ recipe: Recipe, yield: Double) -> String? {
        guard recipe.fixedStepWeights else { return nil }
        let total = recipe.steps.reduce(0) { $0 + ($1.kind.addsWater ? ($1.water ?? 0) : 0) }
        guard roundWater(yield) != roundWater(total) else { return nil }
        return "\"\(recipe.name)\" has fixed step weights adding up to \(BrewFormat.grams(total)), so its yield cannot be \(BrewFormat.grams(roundWater(yield)))"
    }

    /// The plan before the brew log's limits are applied to the quantity that follows.
    static func scaledPlan(_ recipe: Recipe, inputs: BrewInputs) throws -> BrewPlan {
        var plan = BrewPlan()
        plan.recipeId = recipe.id
        plan.recipeName = recipe.name
        plan.starter = recipe.isStarter
        plan.method = recipe.method
        plan.fixedStepWeights = recipe.fixedStepWeights
        let ratio = recipe.defaultRatio
        let defaultDose = roundDose(recipe.defaultDose)
        let defaultYield = roundWater(recipe.defaultTargetYield)
        var water = recipe.steps.map { $0.kind.addsWater ? ($0.water ?? 0) : 0 }
        if recipe.fixedStepWeights {
            plan.targetYield = water.reduce(0, +)
            plan.dose = roundDose(inputs.dose ?? recipe.defaultDose)
            if let y = inputs.targetYield, let fixed = fixedYieldRefusal(recipe, yield: y) {
                throw LedgerError.invalid("\(fixed); change the dose instead, or duplicate the recipe and edit its steps")
            }
            plan.edited = inputs.dose.map { _ in .dose }
        } else {
            if let d = inputs.dose {
                plan.dose = roundDose(d)
                plan.targetYield = roundWater(plan.dose * ratio)
                plan.edited = .dose
            } else if let y = inputs.targetYield {
                plan.targetYield = roundWater(y)
                plan.dose = roundDose(plan.targetYield / ratio)
                plan.edited = .targetYield
            } else {
                plan.dose = defaultDose
                plan.targetYield = defaultYield
            }
            if plan.dose == defaultDose, plan.targetYield == defaultYield, recipe.stepWaterMatchesYield {
                absorbDifference(&water, recipe.steps, to: plan.targetYield)
            } else {
                water = try scaledWater(recipe, dose: plan.dose, targetYield: plan.targetYield)
            }
        }
        // A quantity that follows from the other one through an extreme ratio can still round
        // to nothing; no plan divides by zero.
        if plan.dose <= 0 || plan.targetYield <= 0 {
            throw LedgerError.invalid("at \"\(recipe.name)\"'s ratio of \(BrewFormat.ratio(ratio)) a dose of \(BrewFormat.dose(plan.dose)) goes with \(BrewFormat.grams(plan.targetYield)) of water, which is no brew; use a larger dose or yield")
        }
        plan.ratio = (plan.targetYield / plan.dose * 10).rounded() / 10
        plan.waterTemperature = inputs.waterTemperature ?? recipe.defaultWaterTemperature
        plan.grindLabel = inputs.grindLabel ?? recipe.defaultGrindLabel
        plan.grindDescriptor = recipe.grindDescriptor(for: plan.grindLabel)
        plan.steps = plannedSteps(recipe.steps, water: water)
        plan.warnings = warnings(dose: plan.dose, targetYield: plan.targetYield, ratio: plan.ratio, temperature: plan.waterTemperature)
        return plan
    }

    /// The water of each step under the V60 rule: bloom = 3 × dose, the rest split evenly
    /// over the pours with the last one absorbing the rounding.
    static func scaledWater(_ recipe: Recipe, dose: Double, targetYield: Double) throws -> [Double] {
        let bloomIndex = recipe.steps.firstIndex { $0.kind == .bloom }
        let pourIndices = recipe.steps.indices.filter { recipe.steps[$0].kind == .pour }
        var water = [Double](repeating: 0, count: recipe.steps.count)
        var remaining = targetYield
        if let b = bloomIndex {
            let bloom = roundWater(bloomFactor * dose)
            water[b] = pourIndices.isEmpty ? targetYield : bloom
            remaining -= water[b]
        }
        if !pourIndices.isEmpty {
            let each = roundWater(remaining / Double(pourIndices.count))
            for i in pourIndices.dropLast() { water[i] = each }
            water[pourIndices.last!] = remaining - each * Double(pourIndices.count - 1)
        }
        if let bad = water.firstIndex(where: { $0 < 0 }) {
            throw LedgerError.invalid("at \(BrewFormat.dose(dose)) for \(BrewFormat.grams(targetYield)) the bloom (3 × dose = \(BrewFormat.grams(roundWater(bloomFactor * dose)))) leaves \(BrewFormat.grams(water[bad])) for step \(bad + 1); use a larger yield or a smaller dose")
        }
        return water
    }

    /// Makes a recipe's own water (within the ±1 g a valid recipe may differ) add up to
    /// `targetYield` exactly: the last water step takes up the difference, and the ones before
    /// it only what it cannot give (no step goes below 0 g).
    static func absorbDifference(_ water: inout [Double], _ steps: [RecipeStep], to targetYield: Double) {
        var difference = targetYield - water.reduce(0, +)
        for i in water.indices.reversed() where steps[i].kind.addsWater && abs(difference) > 1e-9 {
            let adjusted = max(0, snap(water[i] + difference))
            difference -= adjusted - water[i]
            water[i] = adjusted
        }
    }

    /// The recipe's steps with their water, running totals and brew-clock times; a final
    /// wait step's target finish follows those times (`finishInstruction`).
    static func plannedSteps(_ steps: [RecipeStep], water: [Double]) -> [PlannedStep] {
        var total = 0.0
        var clock: Int?
        return steps.enumerated().map { i, step in
            var p = PlannedStep()
            p.number = i + 1
            p.kind = step.kind
            p.title = step.title
            p.instruction = step.instruction
            p.water = water[i]
            total += water[i]
            p.totalWater = total
            p.timerSeconds = step.timerSeconds
            if let t = step.timerSeconds {
                clock = (clock ?? 0) + t
                p.endsAtSeconds = clock
            }
            p.headline = headline(kind: step.kind, title: step.title, water: p.water, total: total,
                                  timer: step.timerSeconds, endsAt: p.endsAtSeconds)
            if i == steps.count - 1, step.kind == .wait {
                p.instruction = p.endsAtSeconds.map { finishInstruction(step.instruction, endsAt: $0) } ?? withoutTargetFinish(step.instruction)
            }
            return p
        }
    }

    /// How long the finish window lasts after the drawdown's timer, seconds: the seed's
    /// "target finish 3:00–3:30" for a wait that ends at 3:00 on the brew clock.
    public static let finishWindowSeconds = 30

    /// A final wait step's instruction with a target finish that follows the recipe's own
    /// timers ("Target finish 3:05–3:35." when its timers end at 3:05): a "Target finish
    /// M:SS–M:SS" the text holds (a copy of the starter's, whatever its timers became) is
    /// replaced; otherwise the sentence is added.
    static func finishInstruction(_ instruction: String?, endsAt: Int) -> String {
        let sentence = "Target finish \(BrewFormat.clock(endsAt))–\(BrewFormat.clock(endsAt + finishWindowSeconds))."
        var text = Substring(instruction ?? "")
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        if text.isEmpty { return sentence }
        var out = String(text)
        if let r = targetFinish(in: out) {
            out.replaceSubrange(r, with: sentence)
            return out
        }
        return out + (out.hasSuffix(".") ? " " : ". ") + sentence
    }

    /// A final wait's instruction without a timer to follow: a "Target finish M:SS–M:SS" it
    /// holds (the starter's, copied into a recipe whose pours now end elsewhere) is removed,
    /// since no time on the brew clock backs it; nil when nothing else is left.
    static func withoutTargetFinish(_ instruction: String?) -> String? {
        guard var text = instruction, let r = targetFinish(in: text) else { return instruction }
        text.removeSubrange(r)
        let left = text.trimmingWhitespace()
        return left.isEmpty ? nil : left
    }

    /// Where `text` says "Target finish M:SS–M:SS" (or "target finish M:SS-M:SS", with an
    /// optional full stop), if it does. A plain scan: every plan asks it of its last step.
    static func targetFinish(in text: String) -> Range<String.Index>? {
        var from = text.startIndex
        while let found = text[from...].firstRange(of: "arget finish ") {
            from = found.upperBound
            guard found.lowerBound > text.startIndex else { continue }
            let start = text.index(before: found.lowerBound)
            guard text[start] == "T" || text[start] == "t" else { continue }
            var i = found.upperBound
            guard skipClock(text, &i) else { continue }
            if i < text.endIndex, text[i] == " " { i = text.index(after: i) }
            guard i < text.endIndex, text[i] == "–" || text[i] == "-" else { continue }
            i = text.index(after: i)
            if i < text.endIndex, text[i] == " " { i = text.index(after: i) }
            guard skipClock(text, &i) else { continue }
            if i < text.endIndex, text[i] == "." { i = text.index(after: i) }
            return start..<i
        }
        return nil
    }

    /// Moves `i` past an `M:SS` at it (1 to 6 digits of minutes); false when there is none.
    private static func skipClock(_ text: String, _ i: inout String.Index) -> Bool {
        func digit(_ j: String.Index) -> Bool { j < text.endIndex && text[j].isASCII && text[j].isNumber }
        var j = i
        var minutes = 0
        while digit(j), minutes < 6 { j = text.index(after: j); minutes += 1 }
        guard minutes > 0, j < text.endIndex, text[j] == ":" else { return false }
        j = text.index(after: j)
        for _ in 0..<2 {
            guard digit(j) else { return false }
            j = text.index(after: j)
        }
        i = j
        return true
    }

    /// "Bloom: pour 45 g, start timer 0:45", "Pour to 150 g by 1:30", "Add coffee, level bed".
    static func headline(kind: StepKind, title: String, water: Double, total: Double, timer: Int?, endsAt: Int?) -> String {
        switch kind {
        case .instruction, .wait:
            return title
        case .bloom:
            return "\(title): pour \(BrewFormat.grams(water))" + (timer.map { ", start timer \(BrewFormat.clock($0))" } ?? "")
        case .pour:
            let opening = title.lowercased() == "pour" ? "Pour" : "\(title): pour"
            return "\(opening) to \(BrewFormat.grams(total))" + (endsAt.map { " by \(BrewFormat.clock($0))" } ?? "")
        }
    }

    /// One sentence per value outside its recommended V60 range.
    public static func warnings(dose: Double, targetYield: Double, ratio: Double, temperature: Double) -> [String] {
        var out: [String] = []
        if !doseRange.contains(dose) {
            out.append("dose \(BrewFormat.dose(dose)) is outside the recommended 12–40 g for a V60")
        }
        if !yieldRange.contains(targetYield) {
            out.append("target yield \(BrewFormat.grams(targetYield)) is outside the recommended 180–720 g for a V60")
        }
        if !ratioRange.contains(ratio) {
            out.append("ratio \(BrewFormat.ratio(ratio)) is outside the recommended 1:14–1:18 for a V60")
        }
        if !temperatureRange.contains(temperature) {
            out.append("water temperature \(BrewFormat.temperature(temperature)) is outside the recommended 90–96 °C for a V60")
        }
        return out
    }

    /// A dose rounded to 0.1 g for a kitchen scale.
    public static func roundDose(_ grams: Double) -> Double { (snap(grams * 10)).rounded() / 10 }

    /// Water or yield rounded to 1 g.
    public static func roundWater(_ grams: Double) -> Double { snap(grams).rounded() }

    /// Removes binary floating-point noise (257 × 0.06 = 15.419999…) before rounding, so
    /// that halves round as written.
    static func snap(_ x: Double) -> Double { (x * 1e6).rounded() / 1e6 }
}

/// A dose or yield set by the person whose plan no brew log could hold: at the recipe's
/// ratio the other quantity is over its `BrewLimits` limit (a dose of 601 g at the starter's
/// 1:16.7 gives a yield of 10,017 g). Refused when it is given, so that no brew starts that
/// could never be saved.
public struct BrewPlanLimit: Sendable, Equatable {
    /// The quantity the person set.
    public var input: EditedQuantity
    /// Its value, grams, as given.
    public var value: Double
    /// What it would give and what the largest allowed value is, as a clause
    /// ("the yield would be 10017 g, over the 10,000 g limit of a brew; at …").
    public var consequence: String

    /// The limit `plan` (at the recipe's `ratio`) breaks through the quantity `inputs` set,
    /// or nil.
    init?(_ plan: BrewPlan, inputs: BrewInputs, ratio: Double) {
        if let d = inputs.dose, plan.edited == .dose, BrewLimits.yieldProblem(plan.targetYield) != nil {
            let most = (BrewLimits.yield.upperBound / ratio * 10).rounded(.down) / 10
            self.init(input: .dose, value: d, consequence: "the yield would be \(BrewFormat.grams(plan.targetYield)), over the 10,000 g limit of a brew; at \(plan.recipeName)'s ratio of \(BrewFormat.ratio(plan.ratio)) the dose can be at most \(BrewFormat.dose(most))")
        } else if let y = inputs.targetYield, plan.edited == .targetYield, BrewLimits.doseProblem(plan.dose) != nil {
            let most = (BrewLimits.dose.upperBound * ratio).rounded(.down)
            self.init(input: .targetYield, value: y, consequence: "the dose would be \(BrewFormat.dose(plan.dose)), over the 1000 g limit of a brew; at \(plan.recipeName)'s ratio of \(BrewFormat.ratio(plan.ratio)) the yield can be at most \(BrewFormat.grams(most))")
        } else {
            return nil
        }
    }

    init(input: EditedQuantity, value: Double, consequence: String) {
        self.input = input
        self.value = value
        self.consequence = consequence
    }

    /// The refusal of the value as given for its input: "dose 601: the yield would be …"
    /// (on the command line, "--dose 601: …").
    public var refusal: LedgerError.Sentence {
        "\(input: .brew(input == .dose ? .dose : .targetYield)) \(BrewLimits.found(value)): \(consequence)"
    }

    /// The refusal as a sentence of its own: "A dose of 601 g: …".
    public var sentence: String {
        let what = input == .dose ? "A dose of \(BrewLimits.found(value)) g" : "A yield of \(BrewLimits.found(value)) g"
        return "\(what): \(consequence)"
    }
}

extension BrewPlan {
    /// This plan with a dose and a yield both measured by the brewer (a log of a brew made
    /// with its own ratio): the ratio and warnings follow; the steps are left as they were.
    public func measured(dose: Double, targetYield: Double) -> BrewPlan {
        var p = self
        p.dose = RecipeScaler.roundDose(dose)
        p.targetYield = RecipeScaler.roundWater(targetYield)
        p.ratio = (p.targetYield / p.dose * 10).rounded() / 10
        p.edited = nil
        p.warnings = RecipeScaler.warnings(dose: p.dose, targetYield: p.targetYield, ratio: p.ratio, temperature: p.waterTemperature)
        return p
    }
}

extension Recipe {
    /// The steps' water scaled in proportion to reach `total` grams: each rounded to 1 g, the
    /// last water step absorbing the rounding. Used when an edit changes a recipe's yield.
    public func scalingStepWater(to total: Double) -> [RecipeStep] {
        let current = stepWater
        let waterSteps = steps.indices.filter { steps[$0].kind.addsWater }
        guard current > 0, let last = waterSteps.last else { return steps }
        var out = steps
        var used = 0.0
        for i in waterSteps where i != last {
            let w = RecipeScaler.roundWater((steps[i].water ?? 0) * total / current)
            out[i].water = w
            used += w
        }
        out[last].water = RecipeScaler.roundWater(total) - used
        return out
    }
}
