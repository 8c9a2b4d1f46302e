/// `brew/preferences.json`: the last selected recipe and the inputs last confirmed for it
/// (synced, BrewGuide §3.2.2 "basic preferences").
///
/// `plan` and `start` are the confirm-inputs screen: what they confirm is remembered here and
/// is what the next `plan`, `start` or `save` starts from, until `--reset`.
public struct BrewPreferences: SingletonDocument, Equatable {
    package static let kind = DocumentKind("brew.preferences", app: .brew, .singleton("brew/preferences.json"))

    /// The recipe preselected next time; nil means the starter.
    public var lastRecipeId: String?
    /// Inputs that differ from the recipe's defaults, for `inputs.recipeId` only.
    public var inputs: BrewInputs?
    public var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    package var unknownFields = JSONObject()

    public init() {}

    package static let fields: [Field<BrewPreferences>] = [
        .optional("lastRecipeId", { $0.lastRecipeId }, { $0.lastRecipeId = $1 }, BrewLimits.recipeIDRule),
        .optional("inputs", { $0.inputs }, { $0.inputs = $1 }, ValueRule(schema: { ["not": ["required": ["dose", "targetYield"]]] }) {
            $0.dose != nil && $0.targetYield != nil
                ? "both \"dose\" and \"targetYield\" are set; keep the one you chose (the other follows from the recipe's ratio)" : nil
        }),
        .required("createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        .required("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
    ]

    public static var defaultValue: BrewPreferences { BrewPreferences() }

    public static func == (a: BrewPreferences, b: BrewPreferences) -> Bool { a.json == b.json }

    /// The selected recipe's id (the starter when none was chosen yet).
    public var selectedRecipeID: String { lastRecipeId ?? Recipe.starterID }

    /// The remembered inputs for `recipeID` (empty when they belong to another recipe).
    public func inputs(for recipeID: String) -> BrewInputs {
        guard let inputs, inputs.recipeId == recipeID else { return BrewInputs(recipeId: recipeID) }
        return inputs
    }

    /// Selects `recipeID` with `inputs` (nil keeps the remembered inputs when they are for
    /// that recipe, and forgets them otherwise).
    public mutating func select(_ recipeID: String, inputs newInputs: BrewInputs?) {
        let kept = newInputs ?? inputs(for: recipeID)
        lastRecipeId = recipeID
        var i = kept
        i.recipeId = recipeID
        inputs = i.isDefault ? nil : i
    }

    package var references: [DocumentReference] {
        var out: [DocumentReference] = []
        if let id = lastRecipeId, id != Recipe.starterID {
            out.append(DocumentReference(.root.appending("lastRecipeId"), kind: Recipe.kind, id: id))
        }
        if let id = inputs?.recipeId, id != Recipe.starterID {
            out.append(DocumentReference(.root.appending("inputs").appending("recipeId"), kind: Recipe.kind, id: id))
        }
        return out
    }

    public func validate() -> [DocumentIssue] { Self.ruleIssues(self, at: .root) }
}
