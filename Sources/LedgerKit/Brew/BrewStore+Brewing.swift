import Foundation

/// Brewing: choosing the recipe and inputs (the confirm-inputs screen, BrewGuide §3.6–3.7),
/// remembering them (`brew/preferences.json`), and this device's brew in progress
/// (`brew-in-progress.json` in the store's local state, never synced) that a guided
/// `BrewFlow` reads and writes through `perform(_:now:)`.
extension BrewStore {
    // MARK: - The recipe and inputs

    /// Chooses the recipe and inputs: `reference` names a recipe (id, name or id prefix; nil:
    /// the last selected one), `changes` are laid over the inputs remembered for it, `reset`
    /// forgets those. Refuses an invalid recipe with its problems and how to fix it, and a dose
    /// or yield whose plan no brew log could hold (`BrewPlanLimit`): given as a flag, a usage
    /// error naming it; remembered, an error saying how to get past it.
    public func selection(_ reference: String?, changes: BrewInputs, reset: Bool) throws -> BrewSelection {
        let preferences = try preferences()
        var notice: String?
        let entry: RecipeEntry
        if let reference {
            entry = try recipe(reference)
        } else if preferences.selectedRecipeID == Recipe.starterID {
            entry = .starter
        } else if let path = try recipeRepository.path(of: preferences.selectedRecipeID) {
            entry = try self.entry(id: preferences.selectedRecipeID, path: path)
        } else {
            notice = "the last selected recipe (\(preferences.selectedRecipeID)) no longer exists; using the V60 starter"
            entry = .starter
        }
        let recipe = try entry.usable()
        var inputs = reset ? BrewInputs(recipeId: recipe.id) : preferences.inputs(for: recipe.id)
        inputs = inputs.applying(changes)
        inputs.recipeId = recipe.id
        // A yield remembered before the recipe's steps were fixed (`recipe edit
        // --fixed-step-weights`) is no longer one it can brew.
        if changes.targetYield == nil, let y = inputs.targetYield, let refusal = RecipeScaler.fixedYieldRefusal(recipe, yield: y) {
            throw LedgerError.invalid("the yield of \(BrewFormat.grams(RecipeScaler.roundWater(y))) remembered for \(recipe.name) cannot be brewed: \(refusal); \(next: .brew(.changeRemembered))")
        }
        if let limit = RecipeScaler.limit(recipe, inputs: inputs) {
            if (limit.input == .dose ? changes.dose : changes.targetYield) != nil {
                throw LedgerError.invalidArgument(limit.refusal)
            }
            let what = limit.input == .dose ? "dose" : "yield"
            throw LedgerError.invalid("the \(what) of \(BrewLimits.found(limit.value)) g remembered for \(recipe.name) cannot be brewed: \(limit.consequence); \(next: .brew(.changeRemembered))")
        }
        return BrewSelection(recipe: recipe, inputs: inputs, notice: notice)
    }

    /// What confirming the inputs gave.
    public struct ConfirmedInputs: Sendable {
        /// The recipe and inputs chosen.
        public var selection: BrewSelection
        /// The plan they give.
        public var plan: BrewPlan
    }

    /// The confirm-inputs screen (`brew plan`): the plan for the selection, whose recipe and
    /// inputs are remembered as what the next brew starts from (until reset).
    public func confirmInputs(_ reference: String?, changes: BrewInputs, reset: Bool, now: Timestamp) throws -> ConfirmedInputs {
        try store.withWriterLock {
            let s = try selection(reference, changes: changes, reset: reset)
            let plan = try RecipeScaler.plan(s.recipe, inputs: s.inputs)
            try remember(s.recipe.id, inputs: s.inputs, at: now)
            return ConfirmedInputs(selection: s, plan: plan)
        }
    }

    /// Remembers `inputs` (with their recipe) as the selection: the guided brew's Start
    /// (`BrewFlow`'s `.rememberInputs`).
    public func rememberInputs(_ inputs: BrewInputs, now: Timestamp) throws {
        guard let id = inputs.recipeId else { return }
        try store.withWriterLock { _ = try remember(id, inputs: inputs, at: now) }
    }

    /// Records `recipeID` with `inputs` (nil: keep those remembered for it) as the selection,
    /// writing the preferences only when they change. The caller holds the writer lock.
    @discardableResult
    func remember(_ recipeID: String, inputs: BrewInputs?, at now: Timestamp) throws -> Bool {
        let exists = preferencesFile.exists
        var prefs = try preferences()
        let before = prefs
        prefs.select(recipeID, inputs: inputs)
        guard prefs != before || !exists else { return false }
        if !exists { prefs.createdAt = now }
        prefs.updatedAt = now
        try preferencesFile.save(prefs)
        return true
    }

    // MARK: - The brew in progress

    var progressFile: String { store.localState("brew-in-progress.json") }

    /// The brew in progress on this device, or nil. A file that cannot be read as one is moved
    /// aside (to `….broken`) and reported in `setAside`, so that a broken file never blocks
    /// brewing.
    public func brewInProgress() throws -> (progress: BrewProgress?, setAside: String?) {
        let path = progressFile
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

    /// Writes the brew in progress atomically (`BrewFlow`'s `.persist`).
    public func keepBrewInProgress(_ progress: BrewProgress) throws {
        try FileSystem.writeAtomically(progressFile, CanonicalJSON.encode(progress.json))
    }

    /// Removes the brew in progress (`BrewFlow`'s `.clearProgress`).
    public func clearBrewInProgress() throws {
        _ = try FileSystem.remove(progressFile)
    }

    /// Carries out a guided brew's effects in order, each through its intent; the first
    /// failure stops them (so a log that could not be saved leaves the brew in progress).
    public func perform(_ effects: [BrewFlow.Effect], now: Timestamp) throws {
        for effect in effects {
            switch effect {
            case .persist(let p): try keepBrewInProgress(p)
            case .clearProgress: try clearBrewInProgress()
            case .rememberInputs(let inputs): try rememberInputs(inputs, now: now)
            case .saveLog(let log): try saveBrew(log, now: now)
            case .exit: break
            }
        }
    }

    /// Claims this device's brew screen: one guided brew per ledger and device. Nil while
    /// another process holds it; the claim lasts as long as the returned lock.
    package func claimBrewScreen() throws -> FileLock? {
        try FileLock.attempt(path: store.localState("brew.lock"))
    }

    // MARK: - Starting a guided brew

    /// A guided brew ready to run: a new brew on the confirm-inputs screen, or the brew in
    /// progress behind a resume offer.
    public struct BrewStart: Sendable {
        public var flow: BrewFlow
        /// A broken brew-in-progress file was moved aside (say so before the screen opens).
        public var setAside: String?
        /// Whether a recipe or inputs were asked for.
        let askedFor: Bool
        /// The recipe of the brew in progress that the flow offers to resume.
        let resumedRecipeName: String?
        /// The selection's notice (the remembered recipe no longer exists).
        let selectionNotice: String?

        /// What to tell the person once `flow` is over.
        public func notices(after flow: BrewFlow) -> [String] {
            if let resumed = resumedRecipeName, !flow.startedOver {
                return askedFor ? ["a brew of \(resumed) was in progress, so the recipe and inputs given were not used"] : []
            }
            return selectionNotice.map { [$0] } ?? []
        }
    }

    /// Prepares a guided brew (`reference`, `changes`, `reset` as for `selection`) at `now`.
    /// With a brew in progress, the flow offers to resume it, and "start over" starts the
    /// recipe asked for (by default the selection: the last selected recipe with its remembered
    /// inputs).
    public func startBrew(_ reference: String?, changes: BrewInputs, reset: Bool, now: Timestamp, ids: any IDSource) throws -> BrewStart {
        let (existing, setAside) = try brewInProgress()
        let choices = try recipeEntries()
        let logID = try newID(in: logRepository, ids, date: now.local.date)
        let asked = reference != nil || !changes.isDefault || reset
        guard let existing else {
            let s = try selection(reference, changes: changes, reset: reset)
            let flow = try BrewFlow(recipe: s.recipe, inputs: s.inputs, choices: choices, logID: logID)
            return BrewStart(flow: flow, setAside: setAside, askedFor: asked, resumedRecipeName: nil, selectionNotice: s.notice)
        }
        // What was asked for must exist; without a request, an unusable selection only means
        // that "start over" restarts the brew's own recipe.
        let startOver = asked ? try selection(reference, changes: changes, reset: reset) : try? selection(nil, changes: changes, reset: false)
        // The brew's own recipe (for a restart), when it still exists and is valid.
        let own = try? usableRecipe(existing.plan.recipeId)
        let flow = try BrewFlow(recipe: own, inputs: existing.inputs, resuming: existing, at: now, startOver: startOver, choices: choices, logID: logID)
        return BrewStart(flow: flow, setAside: setAside, askedFor: asked, resumedRecipeName: existing.plan.recipeName,
                         selectionNotice: startOver?.notice)
    }
}
