/// One recipe as the recipe list shows it: valid (with its `recipe`) or made invalid by a
/// hand edit (with its `problems`, listed and refused for brewing, BrewGuide US-026).
public struct RecipeEntry: Sendable {
    public var id: String
    /// The recipe's name; for an unreadable file, whatever name it holds, else its id.
    public var name: String
    /// The file, relative to the ledger root (nil for the built-in starter).
    public var path: String?
    /// The recipe, when it is valid.
    public var recipe: Recipe?
    /// Why it is invalid (errors only).
    public var problems: [Problem]

    /// A valid recipe's entry.
    public init(_ recipe: Recipe, path: String? = nil) {
        self.init(id: recipe.id, name: recipe.name, path: path, recipe: recipe, problems: [])
    }

    /// Whether its file could not be read at all (another user's, mode 600): no edit through
    /// ledger can fix it, only access to the file.
    public var unreadable = false

    public init(id: String, name: String, path: String?, recipe: Recipe?, problems: [Problem]) {
        self.id = id
        self.name = name
        self.path = path
        self.recipe = recipe
        self.problems = problems
    }

    /// Whether this is the built-in starter — not a file of one's own that took its id (which
    /// `check` rejects, and which is listed as the invalid recipe it is).
    public var isStarter: Bool { path == nil && id == Recipe.starterID }

    /// Whether this is the recipe that `selectedID` (the preferences' selection) names: the
    /// id `v60-starter` names the built-in starter, never a file that took its id.
    public func isSelected(by selectedID: String) -> Bool { id == selectedID && isStarter == (id == Recipe.starterID) }
    public var isValid: Bool { recipe != nil }

    /// The built-in starter's entry.
    public static let starter = RecipeEntry(.starter)

    /// The recipe, or the refusal of an invalid one with its problems and how to fix it.
    public func usable() throws -> Recipe {
        if let recipe { return recipe }
        if unreadable, let path {
            throw LedgerError.invalid(
                "recipe \"\(name)\" (\(id)) cannot be used: ledger cannot read its file; make \(path) readable by you (`ls -l` shows its owner and mode), then \(next: .checkLedger):",
                problems: problems)
        }
        throw LedgerError.invalid(
            "recipe \"\(name)\" (\(id)) is invalid and cannot be used until it is fixed; fix it: \(next: .brew(.editRecipe(id: id))) (or edit \(path ?? "it") by hand and \(next: .checkLedger)):",
            problems: problems)
    }
}
