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

    public init(id: String, name: String, path: String?, recipe: Recipe?, problems: [Problem]) {
        self.id = id
        self.name = name
        self.path = path
        self.recipe = recipe
        self.problems = problems
    }

    public var isStarter: Bool { id == Recipe.starterID }
    public var isValid: Bool { recipe != nil }

    /// The built-in starter's entry.
    public static let starter = RecipeEntry(.starter)

    /// The recipe, or the refusal of an invalid one with its problems and how to fix it.
    public func usable() throws -> Recipe {
        if let recipe { return recipe }
        throw LedgerError.invalid(
            "recipe \"\(name)\" (\(id)) is invalid and cannot be used until it is fixed; fix it: \(next: .brew(.editRecipe(id: id))) (or edit \(path ?? "it") by hand and \(next: .checkLedger)):",
            problems: problems)
    }
}
