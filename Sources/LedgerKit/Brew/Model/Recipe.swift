/// The brew method of a recipe. BrewGuide's MVP knows the V60 only.
public enum BrewMethod: String, JSONEnum {
    case v60

    /// The name people know the method by.
    public var title: String { "V60" }
}

/// A grind label, with a tactile descriptor to make it concrete.
public enum GrindLabel: String, JSONEnum {
    case fine, medium, coarse

    /// The static V60 guidance for the label, used when a brew's grind differs from the
    /// recipe's own label (whose descriptor the recipe carries).
    public var descriptor: String {
        switch self {
        case .fine: "fine sand; like table salt"
        case .medium: "sand; slightly finer than sea salt"
        case .coarse: "coarse; like sea salt"
        }
    }
}

/// What a recipe step asks of the brewer.
public enum StepKind: String, JSONEnum {
    /// An instruction without water (rinse the filter, add the coffee).
    case instruction
    /// The first water: 3 × dose when the recipe scales.
    case bloom
    /// A water addition.
    case pour
    /// Waiting (for the drawdown), usually with a timer.
    case wait

    /// Whether steps of this kind add water.
    public var addsWater: Bool { self == .bloom || self == .pour }
}

/// One step of a recipe: what to do, how much water to add and for how long to time it.
public struct RecipeStep: JSONModel, Equatable {
    public var kind = StepKind.instruction
    /// A short title ("Bloom", "Rinse filter and preheat").
    public var title = ""
    /// Optional guidance shown under the title.
    public var instruction: String?
    /// Grams of water added in this step (bloom and pour steps only).
    public var water: Double?
    /// The step's countdown, in whole seconds; nil for steps without a timer.
    public var timerSeconds: Int?
    package var unknownFields = JSONObject()

    public init() {}

    public init(_ kind: StepKind, _ title: String, instruction: String? = nil, water: Double? = nil, timerSeconds: Int? = nil) {
        self.kind = kind
        self.title = title
        self.instruction = instruction
        self.water = water
        self.timerSeconds = timerSeconds
    }

    package static let fields: [Field<RecipeStep>] = [
        .required("kind", { $0.kind }, { $0.kind = $1 }),
        .required("title", { $0.title }, { $0.title = $1 }, .text(.notBlank) { $0.trimmingWhitespace(newlines: true).isEmpty ? "the step has an empty title" : nil }),
        .optional("instruction", { $0.instruction }, { $0.instruction = $1 }),
        .optional("water", { $0.water }, { $0.water = $1 }, .atLeast(0) {
            "the step pours \(BrewFormat.number($0)) g; water must be 0 g or more"
        }),
        .optional("timerSeconds", { $0.timerSeconds }, { $0.timerSeconds = $1 }, .within(BrewLimits.timerSeconds) {
            "the step's timer is \($0) s; timers must be from 0 s to 86400 s (24 h) (remove the field for a step without a timer)"
        }),
    ]

    public static func == (a: RecipeStep, b: RecipeStep) -> Bool { a.json == b.json }
}

/// A V60 recipe: defaults for the confirm-inputs screen and a sequence of steps.
///
/// The built-in starter (`Recipe.starter`) is never stored; custom recipes live in
/// `brew/recipes/<id>.json`. A recipe is usable only when `validate()` finds no error: every
/// timer is from 0 s to 24 h and the water of its steps adds up to the target yield within ±1 g.
public struct Recipe: CollectionDocument, Equatable {
    package static let kind = DocumentKind("brew.recipe", app: .brew, .collection("brew/recipes", .none))

    /// The id of the built-in V60 starter.
    public static let starterID = "v60-starter"

    public var id = ""
    public var name = ""
    public var method = BrewMethod.v60
    /// Default coffee dose, grams.
    public var defaultDose = 0.0
    /// Default target yield (total water), grams.
    public var defaultTargetYield = 0.0
    /// Default water temperature, °C.
    public var defaultWaterTemperature = 0.0
    public var defaultGrindLabel = GrindLabel.medium
    /// The tactile descriptor of the default grind ("sand; slightly finer than sea salt").
    public var grindDescriptor: String?
    /// When true, scaling keeps the steps' water as written instead of applying the V60 rule
    /// (bloom 3 × dose, the rest split evenly); the yield is then the steps' total.
    public var fixedStepWeights = false
    public var steps: [RecipeStep] = []
    public var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    package var unknownFields = JSONObject()

    public init() {}

    package static let fields: [Field<Recipe>] = [
        .required("id", { $0.id }, { $0.id = $1 }, .documentID(DocumentID.problem), ValueRule(schema: { ["not": ["const": .string(starterID)]] }) {
            $0 == starterID ? "the id \"\(starterID)\" belongs to the built-in V60 starter; give this recipe another id (and file name)" : nil
        }),
        .required("name", { $0.name }, { $0.name = $1 }, .text([.notBlank, .oneLine, .trimmed], maxLength: maximumNameLength, nameProblem)),
        .required("method", { $0.method }, { $0.method = $1 }),
        .required("defaultDose", { $0.defaultDose }, { $0.defaultDose = $1 }, BrewLimits.doseRule),
        .required("defaultTargetYield", { $0.defaultTargetYield }, { $0.defaultTargetYield = $1 }, BrewLimits.yieldRule),
        .required("defaultWaterTemperature", { $0.defaultWaterTemperature }, { $0.defaultWaterTemperature = $1 }, BrewLimits.temperatureRule),
        .required("defaultGrindLabel", { $0.defaultGrindLabel }, { $0.defaultGrindLabel = $1 }),
        .optional("grindDescriptor", { $0.grindDescriptor }, { $0.grindDescriptor = $1 }, .text(.oneLine, maxLength: maximumDescriptorLength, descriptorProblem)),
        .defaulted("fixedStepWeights", { $0.fixedStepWeights }, { $0.fixedStepWeights = $1 }, false),
        .required("steps", { $0.steps }, { $0.steps = $1 }, ValueRule(schema: { ["minItems": 1] }) { $0.isEmpty ? "a recipe needs at least one step" : nil },
                  ValueRule(schema: {
                      ["contains": ["properties": ["kind": ["const": .string(StepKind.bloom.rawValue)]], "required": ["kind"]], "minContains": 0, "maxContains": 1]
                  }) { steps in
                      let blooms = steps.count { $0.kind == .bloom }
                      return blooms > 1 ? "the recipe has \(blooms) bloom steps; a recipe has at most one" : nil
                  }),
        .required("createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        .required("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
    ]

    /// The V60 starter recipe exactly as BrewGuide's product document gives it: 15 g, 250 g
    /// (1:16.7), 94 °C, medium (sand; slightly finer than sea salt), six steps.
    public static let starter: Recipe = {
        var r = Recipe()
        r.id = starterID
        r.name = "V60 starter"
        r.defaultDose = 15
        r.defaultTargetYield = 250
        r.defaultWaterTemperature = 94
        r.defaultGrindLabel = .medium
        r.grindDescriptor = "sand; slightly finer than sea salt"
        r.steps = [
            RecipeStep(.instruction, "Rinse filter and preheat"),
            RecipeStep(.instruction, "Add coffee, level bed"),
            RecipeStep(.bloom, "Bloom", water: 45, timerSeconds: 45),
            RecipeStep(.pour, "Pour", water: 105, timerSeconds: 45),
            RecipeStep(.pour, "Pour", water: 100, timerSeconds: 45),
            RecipeStep(.wait, "Wait for drawdown", instruction: "Target finish 3:00–3:30.", timerSeconds: 45),
        ]
        let epoch = Timestamp(iso8601: "2026-01-01T00:00:00+00:00")!
        r.createdAt = epoch
        r.updatedAt = epoch
        return r
    }()

    /// Whether this is the built-in starter.
    public var isStarter: Bool { id == Self.starterID }

    /// yield ÷ dose of the defaults (16.67 for the starter).
    public var defaultRatio: Double { defaultTargetYield / defaultDose }

    /// The total water of the steps, grams.
    public var stepWater: Double { steps.reduce(0) { $0 + ($1.kind.addsWater ? ($1.water ?? 0) : 0) } }

    /// Whether the steps' water adds up to the target yield within `yieldTolerance` (the
    /// seed's ±1 g): the rule `validate()` applies, and when the plan keeps the steps.
    public var stepWaterMatchesYield: Bool { abs(stepWater - defaultTargetYield) <= Self.yieldTolerance + 1e-9 }

    /// The descriptor to show for `label`: the recipe's own for its default label, else the
    /// static guidance for that label.
    public func grindDescriptor(for label: GrindLabel) -> String {
        label == defaultGrindLabel ? (grindDescriptor ?? label.descriptor) : label.descriptor
    }

    public static func == (a: Recipe, b: Recipe) -> Bool { a.json == b.json }

    // MARK: - Validation

    /// The most a target yield may differ from the steps' water, grams (the seed's ±1 g).
    public static let yieldTolerance = 1.0
    /// The longest name accepted, in characters.
    public static let maximumNameLength = 80

    public func validate() -> [DocumentIssue] { Self.ruleIssues(self, at: .root) + relationIssues() }

    /// The recipe rules (every timer from 0 s to 24 h, the steps' water equal to the target yield ±1 g, …)
    /// without the reserved-id rule of stored recipes, so that the starter passes them too.
    public func ruleIssues() -> [DocumentIssue] {
        Self.ruleIssues(self, at: .root).filter { !(isStarter && $0.pointer == .root.appending("id")) } + relationIssues()
    }

    /// The rules relating several values of the recipe, which only ledger checks (a schema
    /// states each value's rules alone).
    func relationIssues() -> [DocumentIssue] {
        var issues: [DocumentIssue] = []
        let stepsPointer = JSONPointer.root.appending("steps")
        for (i, step) in steps.enumerated() {
            let p = stepsPointer.appending(i)
            let n = i + 1
            if step.kind.addsWater {
                if step.water == nil {
                    issues.append(.error(p.appending("water"), "step \(n) is a \(step.kind.rawValue) step without \"water\"; give the grams it adds"))
                }
            } else if let w = step.water, w > 0 {
                issues.append(.error(p.appending("water"), "step \(n) is \(step.kind == .instruction ? "an" : "a") \(step.kind.rawValue) step but adds \(BrewFormat.number(w)) g of water; make it a \"pour\" step or remove \"water\""))
            }
        }
        if defaultTargetYield > 0, !steps.isEmpty, !stepWaterMatchesYield {
            issues.append(.error(stepsPointer, "the steps' water adds up to \(BrewFormat.grams(stepWater)) but the target yield (defaultTargetYield) is \(BrewFormat.grams(defaultTargetYield)); they must agree within ±1 g: change a pour's water or the target yield"))
        }
        if !fixedStepWeights, !steps.contains(where: { $0.kind.addsWater }) {
            issues.append(.error(stepsPointer, "the recipe has no bloom or pour step to put its water in"))
        }
        return issues
    }

    /// Why `name` cannot name a recipe (empty, too long, on several lines, with spaces around
    /// it), or nil.
    public static func nameProblem(_ name: String) -> String? {
        let trimmed = name.trimmingWhitespace(newlines: true)
        if trimmed.isEmpty { return "the name is empty; give the recipe a name" }
        if name.count > maximumNameLength { return "the name is \(name.count) characters long; the limit is \(maximumNameLength)" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "the name contains a control character (a line break or tab); keep it on one line"
        }
        if trimmed != name { return "the name starts or ends with spaces; remove them" }
        return nil
    }

    /// The longest grind descriptor accepted, in characters.
    public static let maximumDescriptorLength = 200

    /// Why `text` cannot be a grind descriptor (on several lines, with control characters, too
    /// long), or nil.
    public static func descriptorProblem(_ text: String) -> String? {
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "the grind descriptor contains a control character (a line break, tab or escape); keep it on one line"
        }
        if text.count > maximumDescriptorLength {
            return "the grind descriptor is \(text.count) characters long; the limit is \(maximumDescriptorLength)"
        }
        return nil
    }

    // MARK: - Check

    public var tags: [String] { ["recipe-name:" + name.lowercased()] }
}
