/// The quick taste tag of a brew log (BrewGuide §3.8.2), with its static `hint`.
public enum TasteTag: String, JSONEnum {
    case tooBitter = "too-bitter"
    case tooSour = "too-sour"
    case tooWeak = "too-weak"
    case tooStrong = "too-strong"
    case perfect

    /// "too bitter".
    public var title: String { rawValue.replacingOccurrences(of: "-", with: " ") }

    /// The tag a person typed: `too-sour`, `too sour`, `Too_Sour` or just `sour`.
    public init?(lenient text: String) {
        var t = text.lowercased().trimmingWhitespace()
        t = t.replacingOccurrences(of: " ", with: "-").replacingOccurrences(of: "_", with: "-")
        if let tag = TasteTag(rawValue: t) ?? TasteTag(rawValue: "too-" + t) { self = tag } else { return nil }
    }
}

/// Whether a log's recipe was the built-in starter or a custom one.
public enum RecipeType: String, JSONEnum {
    case starter, custom
}

/// One brew as logged after it (BrewGuide §3.8.2): what was brewed, with which parameters,
/// and how it turned out.
public struct BrewLog: CollectionDocument, Equatable {
    package static let kind = DocumentKind("brew.log", app: .brew, .collection("brew/logs", .year))

    /// The longest note accepted, in characters.
    public static let maximumNoteLength = 280
    /// The ratings allowed.
    public static let ratings = 1...5

    public var id = ""
    /// When the brew was logged (its wall-clock time chooses the `<YYYY>` folder).
    public var timestamp = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var method = BrewMethod.v60
    public var recipeId = ""
    /// The recipe's name when it was brewed (kept if the recipe is renamed or deleted).
    public var recipeName = ""
    /// Derived from `recipeId`: `starter` for the built-in V60 starter, else `custom`.
    public var recipeType = RecipeType.custom
    /// Coffee dose, grams.
    public var dose = 0.0
    /// Target yield, grams.
    public var targetYield = 0.0
    /// Water temperature, °C.
    public var waterTemperature = 0.0
    public var grindLabel = GrindLabel.medium
    /// 1 to 5.
    public var rating = 0
    public var tasteTag: TasteTag?
    /// At most 280 characters.
    public var note: String?
    /// The brew clock at the end of a guided brew (from the bloom to the last Next), seconds.
    public var brewSeconds: Int?
    public var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    package var unknownFields = JSONObject()

    public init() {}

    package static let fields: [Field<BrewLog>] = [
        .required("id", { $0.id }, { $0.id = $1 }, .documentID(DocumentID.problem)),
        .required("timestamp", { $0.timestamp }, { $0.timestamp = $1 }),
        .required("method", { $0.method }, { $0.method = $1 }),
        .required("recipeId", { $0.recipeId }, { $0.recipeId = $1 }, BrewLimits.recipeIDRule),
        .required("recipeName", { $0.recipeName }, { $0.recipeName = $1 },
                  .text(.notBlank) { $0.trimmingWhitespace(newlines: true).isEmpty ? "the recipe name is empty" : nil }),
        .required("recipeType", { $0.recipeType }, { $0.recipeType = $1 }),
        .required("dose", { $0.dose }, { $0.dose = $1 }, BrewLimits.doseRule),
        .required("targetYield", { $0.targetYield }, { $0.targetYield = $1 }, BrewLimits.yieldRule),
        .required("waterTemperature", { $0.waterTemperature }, { $0.waterTemperature = $1 }, BrewLimits.temperatureRule),
        .required("grindLabel", { $0.grindLabel }, { $0.grindLabel = $1 }),
        .required("rating", { $0.rating }, { $0.rating = $1 }, .within(ratings) { ratingProblem($0)! }),
        .optional("tasteTag", { $0.tasteTag }, { $0.tasteTag = $1 }),
        .optional("note", { $0.note }, { $0.note = $1 }, .text([], maxLength: maximumNoteLength, noteProblem)),
        .optional("brewSeconds", { $0.brewSeconds }, { $0.brewSeconds = $1 }, .atLeast(0) { "the brew time must be 0 s or more (found \($0))" }),
        .required("createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        .required("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
    ]

    /// A log of a brew of `plan` at `now`.
    public init(id: String, plan: BrewPlan, rating: Int, tasteTag: TasteTag?, note: String?, brewSeconds: Int? = nil, at now: Timestamp) {
        self.id = id
        timestamp = now
        method = plan.method
        recipeId = plan.recipeId
        recipeName = plan.recipeName
        dose = plan.dose
        targetYield = plan.targetYield
        waterTemperature = plan.waterTemperature
        grindLabel = plan.grindLabel
        self.rating = rating
        self.tasteTag = tasteTag
        self.note = (note?.isEmpty ?? true) ? nil : note
        self.brewSeconds = brewSeconds
        createdAt = now
        updatedAt = now
        recomputeDerived()
    }

    public static func == (a: BrewLog, b: BrewLog) -> Bool { a.json == b.json }

    public var shardDate: LocalDate? { timestamp.local.date }

    /// yield ÷ dose, to 0.1.
    public var ratio: Double { dose > 0 ? (targetYield / dose * 10).rounded() / 10 : 0 }

    public mutating func recomputeDerived() {
        recipeType = recipeId == Recipe.starterID ? .starter : .custom
    }

    package var references: [DocumentReference] {
        recipeId == Recipe.starterID ? [] : [DocumentReference(.root.appending("recipeId"), kind: Recipe.kind, id: recipeId)]
    }

    public func validate() -> [DocumentIssue] { Self.ruleIssues(self, at: .root) }

    /// Why `rating` is not allowed, or nil.
    public static func ratingProblem(_ rating: Int) -> String? {
        ratings.contains(rating) ? nil : "the rating must be 1 to 5 (found \(rating))"
    }

    /// Why `note` is not allowed, or nil.
    public static func noteProblem(_ note: String) -> String? {
        note.count <= maximumNoteLength ? nil : "the note is \(note.count) characters long; the limit is \(maximumNoteLength)"
    }
}
