import Foundation

/// The recipes of a ledger: the built-in starter first, then the custom recipes in
/// `brew/recipes/`, including those a hand edit made invalid (which are listed, marked and
/// refused for brewing).
public struct RecipeLibrary: Sendable {
    /// One recipe as listed: valid (with its `recipe`) or not (with its `problems`).
    public struct Entry: Sendable {
        public var id: String
        /// The recipe's name; for an unreadable file, whatever name it holds, else its id.
        public var name: String
        /// The file, relative to the ledger root (nil for the built-in starter).
        public var path: String?
        /// The recipe, when it is valid.
        public var recipe: Recipe?
        /// Why it is invalid (errors only).
        public var problems: [Problem]

        public var isStarter: Bool { id == Recipe.starterID }
        public var isValid: Bool { recipe != nil }
    }

    public let store: LedgerStore

    public init(store: LedgerStore) { self.store = store }

    /// The custom recipes' repository.
    public var repository: DocumentRepository<Recipe> { store.repository(Recipe.self) }

    /// Every recipe: the starter, then custom recipes by name (case-insensitive), then id.
    public func entries() throws -> [Entry] {
        let custom = try repository.index().map { try entry(id: $0.id, path: $0.path) }
        return [Self.starterEntry] + custom.sorted {
            let a = $0.name.lowercased(), b = $1.name.lowercased()
            return a == b ? $0.id < $1.id : a.localizedStandardCompare(b) == .orderedAscending
        }
    }

    static let starterEntry = Entry(id: Recipe.starterID, name: Recipe.starter.name, path: nil, recipe: .starter, problems: [])

    /// The entry of the custom recipe at `path`.
    func entry(id: String, path: String) throws -> Entry {
        do {
            guard let recipe = try store.load(Recipe.self, at: path) else {
                throw LedgerError.notFound("there is no recipe with id \"\(id)\"")
            }
            return Entry(id: id, name: recipe.name, path: path, recipe: recipe, problems: [])
        } catch let e as LedgerError where e.code == .invalid {
            var name = id
            if let bytes = try? store.read(path), let json = try? JSONParser.parse(bytes), let n = json["name"]?.stringValue,
               !n.trimmingCharacters(in: .whitespaces).isEmpty {
                name = n
            }
            let problems = e.problems.isEmpty ? [Problem(path, .error(.root, e.message))] : e.problems
            return Entry(id: id, name: name, path: path, recipe: nil, problems: problems)
        }
    }

    /// The recipe `reference` names: an id, a name (case-insensitive) or a unique id prefix,
    /// in that order of precedence.
    public func resolve(_ reference: String) throws -> Entry {
        let ref = reference.trimmingCharacters(in: .whitespaces)
        guard !ref.isEmpty else { throw LedgerError.usage("the recipe reference is empty; give an id or a name (`ledger brew recipes` lists them)") }
        let lower = ref.lowercased()
        if lower == Recipe.starterID { return Self.starterEntry }
        if DocumentID.isValid(lower), let path = try repository.path(of: lower) { return try entry(id: lower, path: path) }
        let all = try entries()
        let byName = all.filter { $0.name.lowercased() == lower }
        if byName.count == 1 { return byName[0] }
        if byName.count > 1 {
            throw LedgerError.usage("\(byName.count) recipes are named \"\(ref)\" (\(byName.map(\.id).joined(separator: ", "))); give the id instead")
        }
        let byPrefix = all.filter { $0.id.hasPrefix(lower) }
        if byPrefix.count == 1 { return byPrefix[0] }
        if byPrefix.count > 1 {
            throw LedgerError.usage("\"\(ref)\" is the start of \(byPrefix.count) recipe ids (\(byPrefix.prefix(4).map(\.id).joined(separator: ", "))); give more characters or the name")
        }
        let hint = Suggestion.didYouMean(ref, among: all.map(\.name) + all.map(\.id))
        throw LedgerError.notFound("there is no recipe \"\(ref)\"\(hint); `ledger brew recipes` lists them")
    }

    /// The valid recipe `reference` names, refusing an invalid one with its problems and how
    /// to fix it (BrewGuide US-026: an invalid recipe cannot be brewed).
    public func usable(_ reference: String) throws -> Recipe {
        try Self.usable(resolve(reference))
    }

    /// `entry`'s recipe, or the refusal of an invalid one.
    public static func usable(_ entry: Entry) throws -> Recipe {
        if let r = entry.recipe { return r }
        throw LedgerError.invalid(
            "recipe \"\(entry.name)\" (\(entry.id)) is invalid and cannot be used until it is fixed; fix it with `ledger brew recipe edit \(entry.id) --editor` (or edit \(entry.path ?? "it") by hand and run `ledger check`):",
            problems: entry.problems)
    }

    /// Whether another recipe than `exceptID` is named `name` (case-insensitive); its entry.
    public func named(_ name: String, except exceptID: String? = nil) throws -> Entry? {
        try entries().first { $0.name.lowercased() == name.lowercased() && $0.id != exceptID }
    }

    /// A name for a copy of `name` that no recipe has: "<name> copy", then "<name> copy 2", …
    public func copyName(of name: String) throws -> String {
        let taken = Set(try entries().map { $0.name.lowercased() })
        var n = 1
        while true {
            let suffix = n == 1 ? " copy" : " copy \(n)"
            let candidate = String(name.prefix(Recipe.maximumNameLength - suffix.count)) + suffix
            if !taken.contains(candidate.lowercased()) { return candidate }
            n += 1
        }
    }
}

extension RecipeLibrary {
    /// A custom recipe to change: the recipe even when a domain rule makes it invalid (so that
    /// `recipe edit` can fix it), but not when its file does not read as a recipe at all.
    public func draft(_ entry: Entry) throws -> Recipe {
        if let r = entry.recipe { return r }
        guard let path = entry.path, let bytes = try store.read(path) else { return try Self.usable(entry) }
        let json: JSONValue
        switch Result(catching: { () throws(JSONSyntaxError) -> JSONValue in try JSONParser.parse(bytes) }) {
        case .success(let j): json = j
        case .failure: return try Self.usable(entry)
        }
        var issues: [DocumentIssue] = []
        guard let recipe = Recipe.decode(json, at: .root, issues: &issues), !issues.hasErrors, recipe.id == entry.id else {
            return try Self.usable(entry)
        }
        return recipe
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
