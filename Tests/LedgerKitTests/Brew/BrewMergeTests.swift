import LedgerKit
import Testing

/// BrewGuide's merge rules (PRD §3.2.4, SPEC §6), as pure functions.
@Suite struct BrewMergeTests {
    let t0 = Timestamp(iso8601: "2026-11-20T09:00:00+01:00")!
    let t1 = Timestamp(iso8601: "2026-11-21T08:00:00+01:00")!
    let t2 = Timestamp(iso8601: "2026-11-21T09:00:00+01:00")!

    func recipe() -> Recipe {
        var r = Recipe.starter
        r.id = "my-v60"
        r.name = "My V60"
        r.createdAt = t0
        r.updatedAt = t0
        return r
    }

    func context(_ names: [String] = []) -> MergeContext {
        MergeContext(siblings: { names.map { .object(["name": .string($0)]) } })
    }

    @Test func aRecipeChangedOnBothSidesIsKeptTwice() {
        let base = recipe()
        var ours = base
        ours.defaultWaterTemperature = 92
        ours.updatedAt = t1
        var theirs = base
        theirs.defaultDose = 16
        theirs.defaultTargetYield = 267
        theirs.steps = theirs.scalingStepWater(to: 267)
        theirs.updatedAt = t2
        let merged = Recipe.merge(base: base, ours: ours, theirs: theirs, context: context(["V60 light"]))
        #expect(merged.document == ours)
        #expect(merged.created.count == 1)
        let copy = merged.created[0]
        #expect(copy.name == "My V60 (Conflicted Copy)")
        #expect(copy.id != ours.id && DocumentID.isValid(copy.id))
        #expect(copy.defaultDose == 16 && copy.defaultTargetYield == 267 && copy.steps == theirs.steps)
        #expect(copy.validate().isEmpty)
        #expect(merged.notes.first?.contains("Conflicted Copy") == true)
        // Resolving the same conflict again creates the same document, not another copy.
        let again = Recipe.merge(base: base, ours: ours, theirs: theirs, context: context(["V60 light"]))
        #expect(again.created.first?.id == copy.id)
    }

    @Test func theCopysNameAvoidsNamesInUse() {
        let base = recipe()
        var ours = base, theirs = base
        ours.name = "My V60"; ours.defaultWaterTemperature = 92
        theirs.defaultWaterTemperature = 95
        let merged = Recipe.merge(base: base, ours: ours, theirs: theirs,
                                  context: context(["My V60 (Conflicted Copy)", "my v60 (conflicted copy 2)"]))
        #expect(merged.created.first?.name == "My V60 (Conflicted Copy 3)")
    }

    @Test(arguments: [
        ("My V60", [], "My V60 (Conflicted Copy)"),
        ("My V60", ["My V60 (Conflicted Copy)"], "My V60 (Conflicted Copy 2)"),
        ("My V60 (Conflicted Copy)", ["My V60 (Conflicted Copy)"], "My V60 (Conflicted Copy 2)"),
        ("My V60 (Conflicted Copy 2)", ["My V60 (Conflicted Copy)", "My V60 (Conflicted Copy 2)"], "My V60 (Conflicted Copy 3)"),
    ])
    func conflictedCopyNames(name: String, taken: [String], expected: String) {
        #expect(Recipe.conflictedCopyName(name, taken: Set(taken.map { $0.lowercased() })) == expected)
    }

    @Test func aLongNameStaysWithinTheLimit() {
        let long = String(repeating: "x", count: 80)
        let name = Recipe.conflictedCopyName(long, taken: [])
        #expect(name.count == 80)
        #expect(name.hasSuffix(" (Conflicted Copy)"))
    }

    @Test func theSameChangeOnBothSidesIsOneChange() {
        let base = recipe()
        var ours = base, theirs = base
        ours.defaultWaterTemperature = 92
        ours.updatedAt = t1
        theirs.defaultWaterTemperature = 92
        theirs.updatedAt = t2
        let merged = Recipe.merge(base: base, ours: ours, theirs: theirs, context: context())
        #expect(merged.created.isEmpty)
        #expect(merged.document.updatedAt == t2)
        #expect(merged.document.defaultWaterTemperature == 92)
    }

    /// Through the generic three-way rule: edit vs delete keeps the edit; an unchanged copy
    /// gives way to a deletion; a change on both sides forks.
    @Test func deletionsFollowTheGenericRule() throws {
        let type = DocumentType(Recipe.self)
        let base = recipe()
        var edited = base
        edited.name = "My V60 hotter"
        edited.defaultWaterTemperature = 96
        edited.updatedAt = t1
        let keepEdit = try #require(type.merge(base: base.json, ours: nil, theirs: edited.json))
        #expect(keepEdit.result == edited.json)
        let keepEdit2 = try #require(type.merge(base: base.json, ours: edited.json, theirs: nil))
        #expect(keepEdit2.result == edited.json)
        let deleted = try #require(type.merge(base: base.json, ours: base.json, theirs: nil))
        #expect(deleted.result == nil)
        var other = base
        other.defaultWaterTemperature = 90
        other.updatedAt = t2
        let forked = try #require(type.merge(base: base.json, ours: edited.json, theirs: other.json, context: context()))
        #expect(forked.result == edited.json)
        #expect(forked.created.count == 1)
        #expect(forked.created[0].path.hasPrefix("brew/recipes/"))
        #expect(forked.created[0].document["name"] == .string("My V60 (Conflicted Copy)"))
    }

    // MARK: - Logs

    func log() throws -> BrewLog {
        BrewLog(id: "log1", plan: try RecipeScaler.plan(.starter), rating: 3, tasteTag: nil, note: nil, at: t0)
    }

    @Test func logsEditedInDifferentFieldsCombine() throws {
        let base = try log()
        var ours = base, theirs = base
        ours.rating = 4
        ours.updatedAt = t1
        theirs.note = "Kenyan beans"
        theirs.updatedAt = t2
        let merged = BrewLog.merge(base: base, ours: ours, theirs: theirs, context: context())
        #expect(merged.created.isEmpty)
        #expect(merged.document.rating == 4)
        #expect(merged.document.note == "Kenyan beans")
        #expect(merged.document.updatedAt == t2)
    }

    @Test func logsEditedDifferentlyInOneFieldAreBothKept() throws {
        let base = try log()
        var ours = base, theirs = base
        ours.rating = 4
        theirs.rating = 2
        theirs.updatedAt = t2
        let merged = BrewLog.merge(base: base, ours: ours, theirs: theirs, context: context())
        #expect(merged.document.rating == 4)
        #expect(merged.created.map(\.rating) == [2])
        #expect(merged.created[0].id != "log1")
        #expect(merged.created[0].path.hasPrefix("brew/logs/2026/"))
    }

    @Test func logsAreAppendOnlyAcrossMachines() throws {
        let type = DocumentType(BrewLog.self)
        let l = try log()
        // A log created on one machine only is simply added.
        #expect(try #require(type.merge(base: nil, ours: nil, theirs: l.json)).result == l.json)
        // A log deleted on one machine and unchanged on the other stays deleted.
        #expect(try #require(type.merge(base: l.json, ours: nil, theirs: l.json)).result == nil)
    }
}
