import Foundation
@testable import LedgerKit
import LedgerTestSupport
import Testing

/// BrewGuide's façade, intent by intent, on a ledger in a plain folder (no git): recipes
/// duplicated, edited and deleted; brews planned, logged and saved from a guided flow; the
/// brew in progress; reading logs in order, and the shortcut that finds the newest without
/// decoding them all.
@Suite struct BrewStoreTests {
    let dir = TemporaryDirectory("brew-store")
    var store: LedgerStore { LedgerStore.plain(dir.path) }
    var brew: BrewStore { BrewStore(store) }
    let now = Timestamp(iso8601: "2026-11-21T08:00:00+01:00")!
    let ids = SeededIDSource(seed: 7)

    init() throws {
        try store.write("ledger.json", LedgerManifest(createdAt: now).json)
        for (path, doc) in BrewApp.initialDocuments(now: now) { try store.write(path, doc) }
    }

    func at(_ seconds: Double) -> Timestamp { now.adding(seconds: seconds) }

    func log(_ id: String, _ time: String, note: String? = nil) throws -> BrewLog {
        BrewLog(id: id, plan: try RecipeScaler.plan(.starter), rating: 4, tasteTag: nil, note: note, at: Timestamp(iso8601: time)!)
    }

    /// Everything written is valid, as `ledger check` sees it.
    func expectClean(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let report = try Checker(store: store, useCache: false).check()
        #expect(report.problems.filter { $0.severity == .error }.isEmpty, "\(report.problems)", sourceLocation: sourceLocation)
    }

    // MARK: - Recipes

    @Test func duplicateNamesCopiesGivesFreshIdsAndRefusesATakenName() throws {
        let first = try brew.duplicateRecipe("v60-starter", now: at(1), ids: ids)
        let second = try brew.duplicateRecipe("V60 STARTER", now: at(2), ids: ids)
        #expect(first.name == "V60 starter copy" && second.name == "V60 starter copy 2")
        #expect(first.id != second.id && first.id != Recipe.starterID)
        #expect(first.createdAt == at(1) && first.updatedAt == at(1))
        #expect(first.steps == Recipe.starter.steps)
        #expect(try brew.recipeEntries().map(\.name) == ["V60 starter", "V60 starter copy", "V60 starter copy 2"])
        #expect(throws: LedgerError.self) { try brew.duplicateRecipe(first.id, name: " v60 starter COPY 2 ", now: at(3), ids: ids) }
        let named = try brew.duplicateRecipe(first.id, name: " Sunday ", now: at(4), ids: ids)
        #expect(named.name == "Sunday")
        #expect(try brew.recipeEntries().count == 4)
        try expectClean()
    }

    @Test func editChangesFieldsAndStepsAndRefusesWhatWouldBeInvalid() throws {
        let r = try brew.duplicateRecipe("v60-starter", name: "Mine", now: at(0), ids: ids)
        var edit = BrewStore.RecipeEdit()
        edit.name = "Bright"
        (edit.defaultDose, edit.defaultTargetYield, edit.scaleSteps) = (18, 300, true)
        edit.defaultWaterTemperature = 97
        edit.stepTimers = [.init(step: 3, value: 40, label: "step 3")]
        let saved = try brew.editRecipe("mine", edit, now: at(5))
        #expect(saved.recipe.id == r.id && saved.recipe.name == "Bright" && saved.recipe.updatedAt == at(5) && saved.recipe.createdAt == at(0))
        #expect(saved.recipe.steps.compactMap(\.water) == [54, 126, 120])
        #expect(saved.recipe.steps[2].timerSeconds == 40)
        #expect(saved.warnings == ["water temperature 97 °C is outside the recommended 90–96 °C for a V60"])
        let path = try #require(try brew.recipe(r.id).path)
        let before = try store.read(path)

        // Pours that no longer add up to the yield: refused with the pointer, nothing written.
        var bad = BrewStore.RecipeEdit()
        bad.defaultTargetYield = 320
        do {
            _ = try brew.editRecipe(r.id, bad, now: at(6))
            Issue.record("an invalid edit was saved")
        } catch let e as LedgerError {
            #expect(e.code == .invalid && e.problems.map(\.issue.pointer.description) == ["/steps"])
        }
        var missing = BrewStore.RecipeEdit()
        missing.stepWater = [.init(step: 9, value: 20, label: "--step-water 9=20")]
        #expect(throws: LedgerError.self) { try brew.editRecipe(r.id, missing, now: at(6)) }
        #expect(try store.read(path) == before)
        // The starter is read-only.
        #expect(throws: LedgerError.self) { try brew.editRecipe("v60-starter", edit, now: at(6)) }
        try expectClean()
    }

    @Test func deletingTheSelectedRecipeResetsTheSelection() throws {
        let r = try brew.duplicateRecipe("v60-starter", now: at(0), ids: ids)
        _ = try brew.confirmInputs(r.id, changes: BrewInputs(recipeId: nil, dose: 20), reset: false, now: at(1))
        #expect(try brew.preferences().lastRecipeId == r.id)
        #expect(throws: LedgerError.self) { try brew.deletableRecipe("v60-starter") }
        #expect(try brew.deletableRecipe(r.name).id == r.id)
        #expect(try brew.deleteRecipe(id: r.id, now: at(2)))
        #expect(try brew.preferences().selectedRecipeID == Recipe.starterID && brew.preferences().inputs == nil)
        #expect(try brew.recipeEntries().count == 1)
        #expect(throws: LedgerError.self) { try brew.deleteRecipe(id: r.id, now: at(3)) }
        try expectClean()
    }

    @Test func theEditorCopyIsSavedOnlyWhenValidAndUnchangedMeanwhile() throws {
        let r = try brew.duplicateRecipe("v60-starter", now: at(0), ids: ids)
        let copy = try brew.beginRecipeEdit(r.id)
        #expect(copy.path.hasPrefix(store.localStateDirectory))
        guard case .unchanged = try brew.finishRecipeEdit(copy, now: at(1)) else { Issue.record("not unchanged"); return }
        #expect(!FileManager.default.fileExists(atPath: copy.path))

        func edit(_ changes: [(String, String)], reopened: Bool = false) throws -> BrewStore.RecipeEditorCopy {
            let c = try brew.beginRecipeEdit(r.id)
            #expect(c.reopened == reopened)
            var text = try String(contentsOfFile: c.path, encoding: .utf8)
            for (from, to) in changes { text = text.replacingOccurrences(of: from, with: to) }
            try text.write(toFile: c.path, atomically: true, encoding: .utf8)
            return c
        }
        func edit(_ from: String, _ to: String) throws -> BrewStore.RecipeEditorCopy { try edit([(from, to)]) }
        let invalid = try edit("\"water\": 100", "\"water\": 80")
        guard case .invalid(let errors) = try brew.finishRecipeEdit(invalid, now: at(2)) else { Issue.record("saved"); return }
        #expect(errors.map(\.issue.pointer.description) == ["/steps"])
        #expect(FileManager.default.fileExists(atPath: invalid.path))  // the typing is kept

        // The next edit starts from the kept text (the 80 g), not from the recipe's file.
        let good = try edit([("\"water\": 80", "\"water\": 100"), ("\"defaultWaterTemperature\": 94", "\"defaultWaterTemperature\": 92")],
                            reopened: true)
        guard case .saved(let saved, _) = try brew.finishRecipeEdit(good, now: at(3)) else { Issue.record("not saved"); return }
        #expect(saved.defaultWaterTemperature == 92 && saved.updatedAt == at(3) && saved.createdAt == at(0))

        // The file changed while the editor was open: refused, the copy kept.
        let late = try edit("\"defaultWaterTemperature\": 92", "\"defaultWaterTemperature\": 91")
        var change = BrewStore.RecipeEdit()
        change.defaultDose = 16
        _ = try brew.editRecipe(r.id, change, now: at(4))
        #expect(throws: LedgerError.self) { try brew.finishRecipeEdit(late, now: at(5)) }
        #expect(try brew.usableRecipe(r.id).defaultWaterTemperature == 92)
        #expect(FileManager.default.fileExists(atPath: late.path))
    }

    // MARK: - Brewing

    @Test func confirmedInputsAreRememberedAndAMissingRecipeFallsBackToTheStarter() throws {
        let r = try brew.duplicateRecipe("v60-starter", name: "Sunday", now: at(0), ids: ids)
        let confirmed = try brew.confirmInputs("sunday", changes: BrewInputs(recipeId: nil, targetYield: 300), reset: false, now: at(1))
        #expect(confirmed.plan.recipeId == r.id && confirmed.plan.dose == 18)
        #expect(try brew.selection(nil, changes: BrewInputs(), reset: false).inputs == BrewInputs(recipeId: r.id, targetYield: 300))
        #expect(try brew.selection(nil, changes: BrewInputs(), reset: true).inputs == BrewInputs(recipeId: r.id))
        // The recipe vanishes behind ledger's back (a sync): the starter, with a notice.
        try FileManager.default.removeItem(atPath: store.absolute(r.path))
        let s = try brew.selection(nil, changes: BrewInputs(), reset: false)
        #expect(s.recipe.id == Recipe.starterID && s.notice?.contains("no longer exists") == true)
    }

    @Test func loggingABrewSavesItRemembersTheRecipeAndReportsItsWarnings() throws {
        var record = BrewStore.BrewRecord(rating: 4)
        record.inputs = BrewInputs(recipeId: nil, dose: 16, targetYield: 180)  // measured: 1:11.3
        record.tasteTag = .tooStrong
        record.note = "  Kenya  "
        record.brewedAt = at(-3600)
        let logged = try brew.logBrew(record, now: at(0), ids: ids)
        #expect(logged.log.dose == 16 && logged.log.targetYield == 180 && logged.log.ratio == 11.3)
        #expect(logged.log.timestamp == at(-3600) && logged.log.createdAt == at(0))
        #expect(logged.log.note == "Kenya")
        #expect(logged.warnings == ["ratio 1:11.3 is outside the recommended 1:14–1:18 for a V60"])
        #expect(try brew.log(id: logged.log.id) == logged.log)
        #expect(try brew.preferences().selectedRecipeID == Recipe.starterID)
        var bad = BrewStore.BrewRecord(rating: 9)
        bad.note = "x"
        #expect(throws: LedgerError.self) { try brew.logBrew(bad, now: at(1), ids: ids) }
        #expect(try brew.logCount() == 1)
        try expectClean()
    }

    /// A guided brew's effects, carried out by the façade: Start remembers the inputs and
    /// writes the brew in progress; Save logs it and clears it.
    @Test func aGuidedBrewsEffectsGoThroughTheFacade() throws {
        let start = try brew.startBrew(nil, changes: BrewInputs(recipeId: nil, dose: 20), reset: false, now: at(0), ids: ids)
        var flow = start.flow
        try brew.perform(flow.handle(.start, at: at(0)), now: at(0))
        #expect(try brew.brewInProgress().progress?.plan.dose == 20)
        #expect(try brew.preferences().inputs == BrewInputs(recipeId: Recipe.starterID, dose: 20))
        for i in 1...6 { try brew.perform(flow.handle(.next, at: at(Double(i * 10))), now: at(Double(i * 10))) }
        try brew.perform(flow.handle(.rate(5), at: at(70)), now: at(70))
        try brew.perform(flow.handle(.save, at: at(71)), now: at(71))
        #expect(try brew.brewInProgress().progress == nil)
        let logs = try brew.logs()
        #expect(logs.count == 1 && logs[0].id == flow.logID && logs[0].dose == 20 && logs[0].rating == 5)
        #expect(start.notices(after: flow).isEmpty)
        #expect(try brew.status().latest?.id == flow.logID)
        try expectClean()
    }

    /// BrewGuide item: a brew in progress, then `brew start v60-starter` and "discard it and
    /// start over" starts the recipe asked for, at the inputs asked for.
    @Test func startingOverAfterABrewInProgressStartsTheRecipeAskedFor() throws {
        let r = try brew.duplicateRecipe("v60-starter", name: "Quick", now: at(0), ids: ids)
        /// Starts a brew of `r` at `t` and leaves it in progress.
        func leaveABrewInProgress(at t: Double) throws {
            var flow = try brew.startBrew(r.id, changes: BrewInputs(), reset: false, now: at(t), ids: ids).flow
            try brew.perform(flow.handle(.start, at: at(t)) + flow.handle(.leave, at: at(t + 1)) + flow.handle(.leaveKeepingBrew, at: at(t + 1)),
                             now: at(t + 1))
            #expect(try brew.brewInProgress().progress?.plan.recipeId == r.id)
        }
        try leaveABrewInProgress(at: 1)
        let asked = try brew.startBrew("v60-starter", changes: BrewInputs(recipeId: nil, dose: 18), reset: false, now: at(3), ids: ids)
        var flow = asked.flow
        #expect(flow.dialog == .resumeOffer && flow.startOver?.recipe.id == Recipe.starterID)
        try brew.perform(flow.handle(.discardBrew, at: at(3)), now: at(3))
        #expect(flow.phase == .confirm && flow.plan.recipeId == Recipe.starterID && flow.plan.dose == 18)
        #expect(try brew.brewInProgress().progress == nil)
        #expect(asked.notices(after: flow).isEmpty)

        // Resumed instead, the request was not used, and it is said.
        try leaveABrewInProgress(at: 5)
        let again = try brew.startBrew("v60-starter", changes: BrewInputs(), reset: false, now: at(7), ids: ids)
        var resumed = again.flow
        resumed.handle(.confirm, at: at(7))
        #expect(resumed.plan.recipeId == r.id)
        #expect(again.notices(after: resumed) == ["a brew of Quick was in progress, so the recipe and inputs given were not used"])
        // Asking for a recipe that does not exist fails before the screen.
        #expect(throws: LedgerError.self) { try brew.startBrew("nothing-like-it", changes: BrewInputs(), reset: false, now: at(8), ids: ids) }
    }

    /// A dose whose yield a brew log cannot hold (over 10,000 g: 601 g at the starter's
    /// 1:16.7 gives 10,017 g) is refused before anything is remembered or started, naming the
    /// flag; remembered (by an earlier version), it is reported with the way out; a brew in
    /// progress that could never be saved is moved aside instead of failing at Save.
    @Test func aDoseOrYieldWhosePlanNoLogCanHoldIsRefusedUpFront() throws {
        let preferences = try store.read("brew/preferences.json")
        for changes in [BrewInputs(recipeId: nil, dose: 601), BrewInputs(recipeId: nil, dose: 1000)] {
            do {
                _ = try brew.confirmInputs(nil, changes: changes, reset: false, now: at(1))
                Issue.record("a plan no log can hold was confirmed")
            } catch let e as LedgerError {
                #expect(e.code == .invalidArgument)
                #expect(e.sentence.inputs == [.brew(.dose)] && e.message.hasPrefix("dose \(Int(changes.dose!)): the yield would be "), "\(e.message)")
                #expect(e.message.contains("over the 10,000 g limit") && e.message.contains("the dose can be at most 600.0 g"), "\(e.message)")
            }
            #expect(throws: LedgerError.self) { try brew.startBrew(nil, changes: changes, reset: false, now: at(1), ids: ids) }
            var record = BrewStore.BrewRecord(rating: 4)
            record.inputs = changes
            #expect(throws: LedgerError.self) { try brew.logBrew(record, now: at(1), ids: ids) }
        }
        #expect(try store.read("brew/preferences.json") == preferences)
        #expect(try brew.logCount() == 0 && brew.brewInProgress().progress == nil)
        // The largest dose that fits is accepted and its log saved.
        #expect(try brew.confirmInputs(nil, changes: BrewInputs(recipeId: nil, dose: 600), reset: false, now: at(2)).plan.targetYield == 10000)
        // A yield whose dose would be over 1000 g, on a recipe brewed at 1:5.
        let strong = try brew.duplicateRecipe("v60-starter", name: "Strong", now: at(3), ids: ids)
        var edit = BrewStore.RecipeEdit()
        (edit.defaultDose, edit.defaultTargetYield, edit.scaleSteps) = (60, 300, true)
        _ = try brew.editRecipe(strong.id, edit, now: at(3))
        #expect(throws: LedgerError.self) { try brew.confirmInputs(strong.id, changes: BrewInputs(recipeId: nil, targetYield: 6000), reset: false, now: at(4)) }
        // Remembered by an earlier version: reported with the way out; --reset gets past it.
        var prefs = try brew.preferences()
        prefs.select(Recipe.starterID, inputs: BrewInputs(recipeId: Recipe.starterID, dose: 1000))
        try store.write("brew/preferences.json", prefs.json)
        do {
            _ = try brew.selection(nil, changes: BrewInputs(), reset: false)
            Issue.record("a remembered dose no log can hold was used")
        } catch let e as LedgerError {
            #expect(e.code == .invalid && e.message.contains("remembered") && e.sentence.nextStep == .brew(.changeRemembered), "\(e.message)")
        }
        #expect(try brew.selection(nil, changes: BrewInputs(recipeId: nil, dose: 20), reset: false).inputs.dose == 20)
        #expect(try brew.selection(nil, changes: BrewInputs(), reset: true).inputs.dose == nil)
        // The guided brew's own dose edit says why and keeps the plan.
        var flow = try brew.startBrew(nil, changes: BrewInputs(), reset: true, now: at(5), ids: ids).flow
        flow.handle(.edit(.dose), at: at(5))
        for c in "700" { flow.handle(.type(c), at: at(5)) }
        flow.handle(.confirm, at: at(5))
        #expect(flow.plan.dose == 15 && flow.message(at: at(5))?.hasPrefix("A dose of 700 g: the yield would be 11667 g") == true)
        // A brew in progress from before: moved aside, with the reason, not a Save that fails.
        var stuck = BrewProgress(plan: try RecipeScaler.scaledPlan(.starter, inputs: BrewInputs(recipeId: nil, dose: 1000)),
                                 inputs: BrewInputs(recipeId: Recipe.starterID, dose: 1000), startedAt: at(6))
        stuck.seenAt = at(6)
        try FileSystem.makeDirectories(store.localStateDirectory)
        try brew.keepBrewInProgress(stuck)
        let (progress, aside) = try brew.brewInProgress()
        #expect(progress == nil && aside?.contains("could never be saved") == true, "\(aside ?? "")")
    }

    @Test func aBrokenBrewInProgressIsMovedAside() throws {
        try FileSystem.makeDirectories(store.localStateDirectory)
        try FileSystem.writeAtomically(store.localState("brew-in-progress.json"), Array("{\"plan\": 3}".utf8))
        let (progress, aside) = try brew.brewInProgress()
        #expect(progress == nil && aside?.contains("moved to") == true)
        #expect(FileManager.default.fileExists(atPath: store.localState("brew-in-progress.json.broken")))
        #expect(try brew.brewInProgress().progress == nil)
    }

    // MARK: - Logs

    @Test func theTimestampIsFoundInCanonicalTextOnly() throws {
        // A note that quotes the member's text cannot fool it: a JSON string holds no raw newline.
        let tricky = try log("a1", "2026-11-21T08:10:00+01:00", note: "\n  \"timestamp\": \"2030-01-01T00:00:00Z\"")
        let canonical = CanonicalJSON.encode(tricky.json)
        #expect(BrewStore.quickTimestamp(canonical) == Timestamp(iso8601: "2026-11-21T08:10:00+01:00"))
        #expect(BrewStore.quickTimestamp(Array(CanonicalJSON.compact(tricky.json).utf8)) == nil)
    }

    @Test func theNewestAreChosenWithoutDecodingAndHandEditedFilesStillCount() throws {
        let repo = store.repository(BrewLog.self)
        for (i, day) in (1...30).enumerated() {
            try repo.save(try log("log\(i)", "2026-10-\(day < 10 ? "0" : "")\(day)T08:00:00+01:00"))
        }
        // A hand edit in compact form, the latest of all; and two logs at the same instant.
        let late = try log("zz-hand", "2026-11-02T09:00:00+01:00")
        try FileSystem.writeAtomically(store.absolute(late.path), Array(CanonicalJSON.compact(late.json).utf8))
        try repo.save(try log("tie-a", "2026-11-01T08:00:00+01:00"))
        try repo.save(try log("tie-b", "2026-11-01T08:00:00+01:00"))
        let all = try brew.logs()
        #expect(all.count == 33)
        #expect(all.map(\.timestamp) == all.map(\.timestamp).sorted())
        #expect(try brew.logs(limit: 3).map(\.id) == ["tie-a", "tie-b", "zz-hand"])
        #expect(try brew.logs(limit: 2).map(\.id) == ["tie-b", "zz-hand"])
        #expect(try brew.latestLog()?.id == "zz-hand")
        #expect(try brew.logs(limit: 50).count == 33)
        #expect(try brew.logCount() == 33)
    }

    @Test func logsOfADeletedRecipeRemainAndALogCanBeDeleted() throws {
        let r = try brew.duplicateRecipe("v60-starter", now: at(0), ids: ids)
        var record = BrewStore.BrewRecord(rating: 3)
        record.recipe = r.id
        let logged = try brew.logBrew(record, now: at(1), ids: ids)
        var starter = BrewStore.BrewRecord(rating: 5)
        starter.recipe = Recipe.starterID
        _ = try brew.logBrew(starter, now: at(2), ids: ids)
        try brew.deleteRecipe(id: r.id, now: at(3))
        #expect(try brew.logs(recipe: r.id).map(\.id) == [logged.log.id])
        #expect(try brew.logID(String(logged.log.id.prefix(6))) == logged.log.id)
        try brew.deleteLog(id: logged.log.id)
        #expect(try brew.logs().count == 1)
        #expect(throws: LedgerError.self) { try brew.log(id: logged.log.id) }
        #expect(throws: LedgerError.self) { try brew.deleteLog(id: logged.log.id) }
        try expectClean()
    }
}
