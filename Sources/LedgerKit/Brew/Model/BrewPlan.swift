/// What may be changed on the confirm-inputs screen before a brew starts; nil means "the
/// recipe's default".
///
/// Dose and target yield follow "last edited wins": at most one of them is set, and the
/// other follows from the recipe's ratio.
public struct BrewInputs: JSONModel, Equatable {
    /// The recipe these inputs were chosen for (remembered inputs apply only to it).
    public var recipeId: String?
    /// Coffee dose, grams.
    public var dose: Double?
    /// Target yield, grams.
    public var targetYield: Double?
    /// Water temperature, °C.
    public var waterTemperature: Double?
    public var grindLabel: GrindLabel?
    package var unknownFields = JSONObject()

    public init() {}

    public init(recipeId: String?, dose: Double? = nil, targetYield: Double? = nil, waterTemperature: Double? = nil,
                grindLabel: GrindLabel? = nil) {
        self.recipeId = recipeId
        self.dose = dose
        self.targetYield = targetYield
        self.waterTemperature = waterTemperature
        self.grindLabel = grindLabel
    }

    package static let fields: [Field<BrewInputs>] = [
        .optional("recipeId", { $0.recipeId }, { $0.recipeId = $1 }, BrewLimits.recipeIDRule),
        .optional("dose", { $0.dose }, { $0.dose = $1 }, BrewLimits.doseRule),
        .optional("targetYield", { $0.targetYield }, { $0.targetYield = $1 }, BrewLimits.yieldRule),
        .optional("waterTemperature", { $0.waterTemperature }, { $0.waterTemperature = $1 }, BrewLimits.temperatureRule),
        .optional("grindLabel", { $0.grindLabel }, { $0.grindLabel = $1 }),
    ]

    /// Whether nothing differs from the recipe's defaults.
    public var isDefault: Bool { dose == nil && targetYield == nil && waterTemperature == nil && grindLabel == nil }

    /// Sets the dose; the yield will follow from the ratio (last edited wins).
    public mutating func setDose(_ grams: Double) {
        dose = grams
        targetYield = nil
    }

    /// Sets the target yield; the dose will follow from the ratio (last edited wins).
    public mutating func setTargetYield(_ grams: Double) {
        targetYield = grams
        dose = nil
    }

    /// These inputs with `other`'s values laid over them (dose and yield as one: the one
    /// `other` sets wins).
    public func applying(_ other: BrewInputs) -> BrewInputs {
        var r = self
        if let d = other.dose { r.setDose(d) }
        if let y = other.targetYield { r.setTargetYield(y) }
        if let t = other.waterTemperature { r.waterTemperature = t }
        if let g = other.grindLabel { r.grindLabel = g }
        return r
    }

    /// Problems with values no brew can have (`BrewLimits`: a dose that rounds to 0.0 g, water
    /// at 120 °C), each with the field it is about.
    public func problems() -> [(field: String, message: String)] {
        var out: [(field: String, message: String)] = []
        if let d = dose, let p = BrewLimits.doseProblem(d) { out.append(("dose", p)) }
        if let y = targetYield, let p = BrewLimits.yieldProblem(y) { out.append(("targetYield", p)) }
        if let t = waterTemperature, let p = BrewLimits.temperatureProblem(t) { out.append(("waterTemperature", p)) }
        return out
    }

    /// `problems()` as sentences naming the input that gave each value ("dose must be …";
    /// on the command line, "--dose must be …").
    public func impossibleValues() -> [LedgerError.Sentence] {
        let inputs: [String: LedgerError.Input.Brew] = ["dose": .dose, "targetYield": .targetYield, "waterTemperature": .waterTemperature]
        return problems().map { "\(input: .brew(inputs[$0.field]!)) \($0.message)" }
    }

    /// `problems()` as sentences of their own ("The dose must be …"), for a screen.
    public func impossibleValueSentences() -> [String] {
        let names = ["dose": "The dose", "targetYield": "The yield", "waterTemperature": "The temperature"]
        return problems().map { "\(names[$0.field]!) \($0.message)" }
    }
}

/// Which of dose and yield the user set, the other following from the ratio.
public enum EditedQuantity: String, JSONEnum {
    case dose, targetYield
}

/// One step of a plan: the recipe's step with its water for this brew.
public struct PlannedStep: JSONModel, Equatable {
    /// 1-based position.
    public var number = 0
    public var kind = StepKind.instruction
    public var title = ""
    public var instruction: String?
    /// Grams poured in this step (0 for steps without water).
    public var water = 0.0
    /// Grams on the scale once this step's water is in.
    public var totalWater = 0.0
    /// The step's countdown, seconds.
    public var timerSeconds: Int?
    /// When this step should be done on the brew clock (which starts with the first timed
    /// step), seconds: the "by 1:30" of "Pour to 150 g by 1:30".
    public var endsAtSeconds: Int?
    /// The step in one line, with its quantities ("Pour to 150 g by 1:30").
    public var headline = ""
    package var unknownFields = JSONObject()

    public init() {}

    package static let fields: [Field<PlannedStep>] = [
        .required("number", { $0.number }, { $0.number = $1 }),
        .required("kind", { $0.kind }, { $0.kind = $1 }),
        .required("title", { $0.title }, { $0.title = $1 }),
        .optional("instruction", { $0.instruction }, { $0.instruction = $1 }),
        .required("water", { $0.water }, { $0.water = $1 }),
        .required("totalWater", { $0.totalWater }, { $0.totalWater = $1 }),
        .optional("timerSeconds", { $0.timerSeconds }, { $0.timerSeconds = $1 }),
        .optional("endsAtSeconds", { $0.endsAtSeconds }, { $0.endsAtSeconds = $1 }),
        .required("headline", { $0.headline }, { $0.headline = $1 }),
    ]

    public static func == (a: PlannedStep, b: PlannedStep) -> Bool { a.json == b.json }
}

/// A recipe scaled to the inputs of one brew: what the confirm-inputs screen shows and what
/// a brew locks once it starts.
public struct BrewPlan: JSONModel, Equatable {
    public var recipeId = ""
    public var recipeName = ""
    /// Whether the recipe is the built-in starter.
    public var starter = false
    public var method = BrewMethod.v60
    /// Coffee dose, grams (0.1 g).
    public var dose = 0.0
    /// Target yield, grams (1 g); the steps' water adds up to it exactly.
    public var targetYield = 0.0
    /// targetYield ÷ dose, to 0.1.
    public var ratio = 0.0
    /// Water temperature, °C.
    public var waterTemperature = 0.0
    public var grindLabel = GrindLabel.medium
    public var grindDescriptor = ""
    /// Which quantity was set by the user (the other follows from the ratio); nil at the
    /// recipe's defaults.
    public var edited: EditedQuantity?
    /// Whether the recipe keeps its steps' water as written: the yield is then their total,
    /// and a dose set by the user changes the ratio instead of the yield.
    public var fixedStepWeights = false
    /// Inputs outside the recommended V60 ranges (never clamped).
    public var warnings: [String] = []
    public var steps: [PlannedStep] = []
    package var unknownFields = JSONObject()

    public init() {}

    package static let fields: [Field<BrewPlan>] = [
        .required("recipeId", { $0.recipeId }, { $0.recipeId = $1 }),
        .required("recipeName", { $0.recipeName }, { $0.recipeName = $1 }),
        .required("starter", { $0.starter }, { $0.starter = $1 }),
        .required("method", { $0.method }, { $0.method = $1 }),
        .required("dose", { $0.dose }, { $0.dose = $1 }),
        .required("targetYield", { $0.targetYield }, { $0.targetYield = $1 }),
        .required("ratio", { $0.ratio }, { $0.ratio = $1 }),
        .required("waterTemperature", { $0.waterTemperature }, { $0.waterTemperature = $1 }),
        .required("grindLabel", { $0.grindLabel }, { $0.grindLabel = $1 }),
        .required("grindDescriptor", { $0.grindDescriptor }, { $0.grindDescriptor = $1 }),
        .optional("edited", { $0.edited }, { $0.edited = $1 }, writeNull: true),
        .defaulted("fixedStepWeights", { $0.fixedStepWeights }, { $0.fixedStepWeights = $1 }, false),
        .required("warnings", { $0.warnings }, { $0.warnings = $1 }),
        .required("steps", { $0.steps }, { $0.steps = $1 }),
    ]

    public static func == (a: BrewPlan, b: BrewPlan) -> Bool { a.json == b.json }

    /// The steps' water, grams.
    public var totalWater: Double { steps.reduce(0) { $0 + $1.water } }
}

/// Which recipe and inputs a brew uses: the recipe named, else the last selected one; the
/// inputs remembered for it (unless reset) with the ones given laid over them.
public struct BrewSelection: Sendable {
    /// The recipe to brew (valid).
    public var recipe: Recipe
    /// The inputs for it (`recipeId` set).
    public var inputs: BrewInputs
    /// Something the person should know (the remembered recipe no longer exists).
    public var notice: String?

    public init(recipe: Recipe, inputs: BrewInputs, notice: String? = nil) {
        self.recipe = recipe
        self.inputs = inputs
        self.notice = notice
    }
}
