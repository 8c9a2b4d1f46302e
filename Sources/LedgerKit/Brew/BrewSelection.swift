import Foundation

/// Which recipe and inputs a `plan`, `start` or `save` uses: the recipe named on the command
/// line, else the last selected one; the inputs remembered for it (unless reset), with the
/// command line's values laid over them.
public struct BrewSelection: Sendable {
    /// The recipe to brew (valid).
    public var recipe: Recipe
    /// The inputs for it (`recipeId` set).
    public var inputs: BrewInputs
    /// The preferences as read.
    public var preferences: BrewPreferences
    /// Something the person should know (the remembered recipe no longer exists).
    public var notice: String?

    /// Chooses the recipe and inputs. `reference` names a recipe (id, name or id prefix);
    /// `changes` are the command line's inputs; `reset` forgets the remembered inputs.
    /// Refuses an invalid recipe with its problems and how to fix it.
    public static func choose(in store: LedgerStore, reference: String?, changes: BrewInputs, reset: Bool) throws -> BrewSelection {
        let library = RecipeLibrary(store: store)
        let preferences = try store.singleton(BrewPreferences.self).load()
        var notice: String?
        let entry: RecipeLibrary.Entry
        if let reference {
            entry = try library.resolve(reference)
        } else if preferences.selectedRecipeID == Recipe.starterID {
            entry = try library.resolve(Recipe.starterID)
        } else if let path = try library.repository.path(of: preferences.selectedRecipeID) {
            entry = try library.entry(id: preferences.selectedRecipeID, path: path)
        } else {
            notice = "the last selected recipe (\(preferences.selectedRecipeID)) no longer exists; using the V60 starter"
            entry = try library.resolve(Recipe.starterID)
        }
        let recipe = try RecipeLibrary.usable(entry)
        var inputs = reset ? BrewInputs(recipeId: recipe.id) : preferences.inputs(for: recipe.id)
        inputs = inputs.applying(changes)
        inputs.recipeId = recipe.id
        return BrewSelection(recipe: recipe, inputs: inputs, preferences: preferences, notice: notice)
    }

    /// Records `inputs` of `recipeID` as the selection in the preferences file (only when it
    /// changes; the caller holds the writer lock). Returns whether it wrote.
    @discardableResult
    public static func remember(_ recipeID: String, inputs: BrewInputs?, in store: LedgerStore, at now: Timestamp) throws -> Bool {
        let repo = store.singleton(BrewPreferences.self)
        let exists = repo.exists
        var prefs = try repo.load()
        let before = prefs
        prefs.select(recipeID, inputs: inputs)
        guard prefs != before || !exists else { return false }
        if !exists { prefs.createdAt = now }
        prefs.updatedAt = now
        try repo.save(prefs)
        return true
    }
}

/// The brew in progress on this device: `.git/ledger/brew-in-progress.json`, never synced.
public struct BrewProgressStore: Sendable {
    public let path: String

    public init(store: LedgerStore) {
        path = store.localState("brew-in-progress.json")
    }

    /// The brew in progress, or nil. A file that cannot be read as one is moved aside (to
    /// `….broken`) and reported in `setAside`, so that a broken file never blocks brewing.
    public func load() throws -> (progress: BrewProgress?, setAside: String?) {
        guard let bytes = try FileSystem.read(path, limit: LedgerStore.maximumDocumentBytes) else { return (nil, nil) }
        let problem: String
        switch Result(catching: { () throws(JSONSyntaxError) -> JSONValue in try JSONParser.parse(bytes) }) {
        case .failure(let e):
            problem = "\(e.line):\(e.column): \(e.message)"
        case .success(let json):
            let (progress, issues) = BrewProgress.decodeDocument(json)
            if let progress, progress.problems().isEmpty { return (progress, nil) }
            problem = progress?.problems().first
                ?? issues.first(where: { $0.severity == .error }).map { "\($0.pointer): \($0.message)" } ?? "it is not a brew"
        }
        let aside = path + ".broken"
        _ = try? FileSystem.remove(aside)
        guard rename(path, aside) == 0 else { throw LedgerError.failure("the brew in progress (\(path)) cannot be read (\(problem)) nor moved aside; remove it") }
        return (nil, "the brew in progress could not be read (\(problem)); it was moved to \(aside)")
    }

    /// Writes the brew in progress atomically.
    public func save(_ progress: BrewProgress) throws {
        try FileSystem.writeAtomically(path, CanonicalJSON.encode(progress.json))
    }

    /// Removes it.
    public func clear() throws {
        try FileSystem.remove(path)
    }
}
