import Foundation

/// Recipes: the built-in starter first, then the custom recipes in `brew/recipes/`, including
/// those a hand edit made invalid (listed, marked and refused for brewing). Custom recipes are
/// duplicated, edited and deleted here; the starter is read-only.
extension BrewStore {
    // MARK: - Reading

    /// Every recipe: the starter, then custom recipes by name (case-insensitive), then id.
    public func recipeEntries() throws -> [RecipeEntry] {
        let custom = try recipeRepository.index().map { try entry(id: $0.id, path: $0.path) }
        return [.starter] + custom.sorted {
            let a = $0.name.lowercased(), b = $1.name.lowercased()
            return a == b ? $0.id < $1.id : a.localizedStandardCompare(b) == .orderedAscending
        }
    }

    /// The recipe `reference` names: an id, a name (case-insensitive) or a unique id prefix,
    /// in that order of precedence.
    public func recipe(_ reference: String) throws -> RecipeEntry {
        let ref = reference.trimmingWhitespace()
        guard !ref.isEmpty else { throw LedgerError.invalidArgument("the recipe reference is empty; give an id or a name (\(next: .brew(.listRecipes)))") }
        let lower = ref.lowercased()
        if lower == Recipe.starterID { return .starter }
        if DocumentID.isValid(lower), let path = try recipeRepository.path(of: lower) { return try entry(id: lower, path: path) }
        let all = try recipeEntries()
        let byName = all.filter { $0.name.lowercased() == lower }
        if byName.count == 1 { return byName[0] }
        if byName.count > 1 {
            throw LedgerError.invalidArgument("\(byName.count) recipes are named \"\(ref)\" (\(byName.map(\.id).joined(separator: ", "))); give the id instead")
        }
        let byPrefix = all.filter { $0.id.hasPrefix(lower) }
        if byPrefix.count == 1 { return byPrefix[0] }
        if byPrefix.count > 1 {
            throw LedgerError.invalidArgument("\"\(ref)\" is the start of \(byPrefix.count) recipe ids (\(byPrefix.prefix(4).map(\.id).joined(separator: ", "))); give more characters or the name")
        }
        let hint = Suggestion.didYouMean(ref, among: all.map(\.name) + all.map(\.id))
        throw LedgerError.notFound("there is no recipe \"\(ref)\"\(hint); \(next: .brew(.listRecipes))")
    }

    /// The valid recipe `reference` names, refusing an invalid one with its problems and how
    /// to fix it (BrewGuide US-026: an invalid recipe cannot be brewed).
    public func usableRecipe(_ reference: String) throws -> Recipe {
        try recipe(reference).usable()
    }

    /// The entry of the custom recipe at `path`: valid, or with the problems that make it
    /// invalid — a file that cannot be read too (another user's, mode 600), as `check` has it —
    /// and whatever name its file holds.
    func entry(id: String, path: String) throws -> RecipeEntry {
        do {
            guard let recipe = try store.load(Recipe.self, at: path) else {
                throw LedgerError.notFound("there is no recipe with id \"\(id)\"")
            }
            return RecipeEntry(recipe, path: path)
        } catch let e as LedgerError where e.code == .invalid || e.code == .failure {
            var name = id
            if let bytes = try? store.read(path), let json = try? JSONParser.parse(bytes), let n = json["name"]?.stringValue,
               !n.trimmingWhitespace().isEmpty {
                name = n
            }
            let problems = e.problems.isEmpty ? [Problem(path, .error(.root, e.message))] : e.problems
            var entry = RecipeEntry(id: id, name: name, path: path, recipe: nil, problems: problems)
            entry.unreadable = e.code == .failure
            return entry
        }
    }

    /// Another recipe than `exceptID` named `name` (case-insensitive), if any.
    func recipe(named name: String, except exceptID: String? = nil) throws -> RecipeEntry? {
        try recipeEntries().first { $0.name.lowercased() == name.lowercased() && $0.id != exceptID }
    }

    /// A name for a copy of `name` that no recipe has: "<name> copy", then "<name> copy 2", …
    func copyName(of name: String) throws -> String {
        let taken = Set(try recipeEntries().map { $0.name.lowercased() })
        var n = 1
        while true {
            let suffix = n == 1 ? " copy" : " copy \(n)"
            let candidate = String(name.prefix(Recipe.maximumNameLength - suffix.count)) + suffix
            if !taken.contains(candidate.lowercased()) { return candidate }
            n += 1
        }
    }

    /// The custom recipe of `entry` to change: never the starter; the recipe even when a domain
    /// rule makes it invalid (so that an edit can fix it), but not when its file does not read
    /// as a recipe at all.
    func draft(_ entry: RecipeEntry) throws -> Recipe {
        if entry.isStarter {
            throw LedgerError.invalid("the V60 starter is built in and read-only; \(next: .brew(.duplicateRecipe(id: Recipe.starterID)))")
        }
        if let r = entry.recipe { return r }
        guard let path = entry.path, let bytes = try store.read(path) else { return try entry.usable() }
        let json: JSONValue
        switch Result(catching: { () throws(JSONSyntaxError) -> JSONValue in try JSONParser.parse(bytes) }) {
        case .success(let j): json = j
        case .failure: return try entry.usable()
        }
        var issues: [DocumentIssue] = []
        guard let recipe = Recipe.decode(json, at: .root, issues: &issues), !issues.hasErrors, recipe.id == entry.id else {
            return try entry.usable()
        }
        return recipe
    }

    // MARK: - Duplicating, editing, deleting

    /// Copies the recipe `reference` names into a new custom recipe named `name` (by default
    /// "<name> copy", "<name> copy 2", …) with a fresh id. A name another recipe has is refused.
    public func duplicateRecipe(_ reference: String, name: String? = nil, now: Timestamp, ids: any IDSource) throws -> Recipe {
        try store.withWriterLock {
            let source = try usableRecipe(reference)
            var copy = source
            if let name {
                copy.name = name.trimmingWhitespace()
                try refuseTakenName(copy.name, except: nil)
            } else {
                copy.name = try copyName(of: source.name)
            }
            copy.id = try newID(in: recipeRepository, ids)
            copy.createdAt = now
            copy.updatedAt = now
            try save(copy)
            return copy
        }
    }

    /// A change to a custom recipe (BrewGuide US-025): each field given replaces the recipe's.
    public struct RecipeEdit: Sendable {
        public var name: String?
        public var defaultDose: Double?
        public var defaultTargetYield: Double?
        /// With `defaultTargetYield`: scale the steps' water in proportion to the new yield.
        public var scaleSteps = false
        public var defaultWaterTemperature: Double?
        public var defaultGrindLabel: GrindLabel?
        /// The tactile descriptor of the grind; an empty one removes it.
        public var grindDescriptor: String?
        public var fixedStepWeights: Bool?
        /// The water of steps, grams.
        public var stepWater: [StepChange<Double>] = []
        /// The timers of steps, seconds (nil: no timer).
        public var stepTimers: [StepChange<Int?>] = []

        public init() {}

        /// Whether nothing would change.
        public var isEmpty: Bool {
            name == nil && defaultDose == nil && defaultTargetYield == nil && defaultWaterTemperature == nil && defaultGrindLabel == nil
                && grindDescriptor == nil && fixedStepWeights == nil && stepWater.isEmpty && stepTimers.isEmpty
        }
    }

    /// A new value for one step.
    public struct StepChange<Value: Sendable>: Sendable {
        /// The step, numbered from 1.
        public var step: Int
        public var value: Value
        /// How the person gave it ("--step-water 4=110"), to name it in a refusal.
        public var label: String

        public init(step: Int, value: Value, label: String) {
            self.step = step
            self.value = value
            self.label = label
        }
    }

    /// A recipe as saved, with the warnings its defaults give (outside the V60 ranges).
    public struct SavedRecipe: Sendable {
        public var recipe: Recipe
        public var warnings: [String]
    }

    /// Applies `edit` to the custom recipe `reference` names (one a hand edit made invalid
    /// included, when its JSON still reads as a recipe). A change that would leave the recipe
    /// invalid is refused with every problem, and nothing is written.
    public func editRecipe(_ reference: String, _ edit: RecipeEdit, now: Timestamp) throws -> SavedRecipe {
        let saved = try store.withWriterLock { () -> Recipe in
            var r = try draft(recipe(reference))
            try apply(edit, to: &r)
            r.updatedAt = now
            try save(r, yieldChanged: edit.defaultTargetYield != nil)
            return r
        }
        return SavedRecipe(recipe: saved, warnings: (try? RecipeScaler.plan(saved).warnings) ?? [])
    }

    private func apply(_ edit: RecipeEdit, to r: inout Recipe) throws {
        if let name = edit.name {
            r.name = name.trimmingWhitespace()
            try refuseTakenName(r.name, except: r.id)
        }
        if let dose = edit.defaultDose { r.defaultDose = dose }
        if let total = edit.defaultTargetYield {
            if edit.scaleSteps { r.steps = r.scalingStepWater(to: total) }
            r.defaultTargetYield = total
        }
        if let t = edit.defaultWaterTemperature { r.defaultWaterTemperature = t }
        if let g = edit.defaultGrindLabel { r.defaultGrindLabel = g }
        if let d = edit.grindDescriptor {
            let t = d.trimmingWhitespace()
            r.grindDescriptor = t.isEmpty ? nil : t
        }
        if let fixed = edit.fixedStepWeights { r.fixedStepWeights = fixed }
        for change in edit.stepWater { r.steps[try index(of: change, in: r)].water = change.value }
        for change in edit.stepTimers { r.steps[try index(of: change, in: r)].timerSeconds = change.value }
    }

    private func index<V>(of change: StepChange<V>, in r: Recipe) throws -> Int {
        guard change.step >= 1, change.step <= r.steps.count else {
            throw LedgerError.invalidArgument("\(change.label): \"\(r.name)\" has steps 1 to \(r.steps.count)")
        }
        return change.step - 1
    }

    private func refuseTakenName(_ name: String, except id: String?) throws {
        if let other = try recipe(named: name, except: id) {
            throw LedgerError.invalid("a recipe named \"\(other.name)\" already exists (\(other.id)); choose another name")
        }
    }

    /// Validates and writes `recipe`; an invalid one is refused with every problem and nothing
    /// is written.
    private func save(_ recipe: Recipe, yieldChanged: Bool = false) throws {
        let errors = recipe.validate().filter { $0.severity == .error }
        guard errors.isEmpty else {
            var message: LedgerError.Sentence = "\"\(recipe.name)\" was not saved: the change would make it invalid:"
            if yieldChanged, errors.contains(where: { $0.pointer == JSONPointer.root.appending("steps") }) {
                message = "\"\(recipe.name)\" was not saved: the change would make it invalid (\(next: .brew(.fitSteps))):"
            }
            throw LedgerError.invalid(message, problems: errors.map { Problem(recipe.path, $0) })
        }
        try recipeRepository.save(recipe)
    }

    /// The custom recipe `reference` names, as a deletion would remove it (the starter is
    /// refused: it cannot be deleted).
    public func deletableRecipe(_ reference: String) throws -> RecipeEntry {
        let entry = try recipe(reference)
        if entry.isStarter { throw LedgerError.invalid("the V60 starter is built in and cannot be deleted") }
        return entry
    }

    /// Deletes custom recipe `id` (BrewGuide US-027); when it was the selected recipe, the
    /// selection goes back to the starter so that nothing refers to it. Logs of it keep its
    /// name. Returns whether the selection was reset.
    @discardableResult
    public func deleteRecipe(id: String, now: Timestamp) throws -> Bool {
        if id == Recipe.starterID { throw LedgerError.invalid("the V60 starter is built in and cannot be deleted") }
        return try store.withWriterLock {
            try recipeRepository.delete(id: id)
            let prefs = try preferences()
            guard prefs.lastRecipeId == id || prefs.inputs?.recipeId == id else { return false }
            return try remember(Recipe.starterID, inputs: BrewInputs(recipeId: Recipe.starterID), at: now)
        }
    }

    // MARK: - Editing the JSON

    /// A recipe's JSON being edited by hand, in a device-local copy (`edit/<id>.json`): nothing
    /// is saved unless the text is a valid recipe with the same id, and a copy is kept until
    /// then so that no typing is lost.
    public struct RecipeEditorCopy: Sendable {
        /// The recipe as it was.
        public let entry: RecipeEntry
        /// The copy to edit (absolute).
        public let path: String
        /// The recipe's file as it was, relative to the ledger root, and its bytes.
        let file: String
        let original: [UInt8]
        /// The recipe as it was, when it still read as one.
        let originalRecipe: Recipe?
        /// Whether the copy is an earlier edit that was not saved (invalid, declined or
        /// refused), reopened as it was left rather than replaced by the recipe's file.
        public let reopened: Bool
    }

    /// What became of an edited copy.
    public enum RecipeEditorResult: Sendable {
        /// The text was not changed; the copy is removed.
        case unchanged
        /// Saved; the warnings found in the text (nothing that blocks it). The copy is removed.
        case saved(Recipe, warnings: [Problem])
        /// Not saved: the text is not a valid recipe (every error). The copy is kept.
        case invalid([Problem])
    }

    /// Writes the copy of the custom recipe `reference` names, to be edited; a copy an earlier
    /// edit left (not saved) is reopened as it is instead (`reopened`).
    public func beginRecipeEdit(_ reference: String) throws -> RecipeEditorCopy {
        let entry = try recipe(reference)
        if entry.isStarter { _ = try draft(entry) }  // refuses: read-only
        guard let file = entry.path, let before = try store.read(file) else {
            throw LedgerError.notFound("the recipe \"\(entry.name)\" has no file")
        }
        let copy = store.localState("edit/\(entry.id).json")
        // An edit kept from an earlier run is what was typed: it is reopened, never replaced.
        let kept = try FileSystem.read(copy, limit: LedgerStore.maximumDocumentBytes)
        let reopened = kept != nil && kept != before
        if !reopened { try FileSystem.writeAtomically(copy, before) }
        // The recipe as it was, when it still reads as one (a file broken by a hand edit is
        // exactly what the editor is for).
        return RecipeEditorCopy(entry: entry, path: copy, file: file, original: before, originalRecipe: try? draft(entry), reopened: reopened)
    }

    /// Saves the edited copy when it is a valid recipe with the same id and a name no other
    /// recipe has; refuses it (keeping the copy) when the recipe's file changed meanwhile.
    public func finishRecipeEdit(_ copy: RecipeEditorCopy, now: Timestamp) throws -> RecipeEditorResult {
        guard let text = try FileSystem.read(copy.path, limit: LedgerStore.maximumDocumentBytes) else {
            throw LedgerError.failure("the edited copy \(copy.path) disappeared; nothing was saved")
        }
        if text == copy.original {
            _ = try? FileSystem.remove(copy.path)
            return .unchanged
        }
        let (edited, problems) = check(text, copy: copy, now: now)
        guard let recipe = edited, !problems.contains(where: { $0.severity == .error }) else {
            return .invalid(problems.filter { $0.severity == .error })
        }
        try store.withWriterLock {
            guard try store.read(copy.file) == copy.original else {
                throw LedgerError.invalid("\(copy.file) changed while you were editing it, so your edit was not saved; it is kept in \(copy.path)")
            }
            try recipeRepository.save(recipe)
        }
        _ = try? FileSystem.remove(copy.path)
        return .saved(recipe, warnings: problems)
    }

    /// The edited recipe and every problem with it (errors make it unsavable).
    private func check(_ text: [UInt8], copy: RecipeEditorCopy, now: Timestamp) -> (Recipe?, [Problem]) {
        let path = copy.file
        let json: JSONValue
        switch Result(catching: { () throws(JSONSyntaxError) -> JSONValue in try JSONParser.parse(text) }) {
        case .failure(let e):
            var issue = DocumentIssue.error(.root, e.message)
            issue.line = e.line
            issue.column = e.column
            return (nil, [Problem(path, issue)])
        case .success(let j): json = j
        }
        let (decoded, found) = Recipe.decodeDocument(json)
        var issues = found
        guard var recipe = decoded else { return (nil, issues.map { Problem(path, $0) }) }
        if recipe.id != copy.entry.id {
            issues.append(.error(.root.appending("id"), "the id cannot change (it is the file name); put it back to \"\(copy.entry.id)\", or duplicate the recipe"))
        }
        issues += recipe.validate()
        if let other = try? self.recipe(named: recipe.name, except: recipe.id) {
            issues.append(.error(.root.appending("name"), "a recipe named \"\(other.name)\" already exists (\(other.id)); choose another name"))
        }
        if let original = copy.originalRecipe { recipe.createdAt = original.createdAt }
        recipe.updatedAt = now
        return (recipe, issues.map { Problem(path, $0) })
    }
}
