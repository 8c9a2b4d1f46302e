import Foundation
import LedgerKit
import Testing

/// LedgerKit as an app on a phone or a watch links it: this target depends on LedgerKit
/// alone (no git, no terminal, no test helpers) and uses only its public API. The ledger is a
/// plain folder with no `.git`; device-local state lives in a directory of the app's choosing
/// outside it; every clock reading and every id comes from the caller.
@Suite struct ConsumerTests {
    let folder = Folder()
    var localState: String { folder.path + "/Application Support/ledger" }
    var store: LedgerStore {
        var s = LedgerStore(root: folder.path + "/Ledger", localStateDirectory: localState)
        s.workerThreads = 2
        return s
    }
    let zone = TimeZone(identifier: "Europe/Paris")!
    let start = Timestamp(iso8601: "2026-11-21T09:00:00+01:00")!
    let ids = SeededIDSource(seed: 12)

    /// `minutes` after the start.
    func at(_ minutes: Double) -> Timestamp { start.adding(seconds: minutes * 60) }

    @Test func everyWriteIntentOfEveryAppLeavesACleanCanonicalLedger() throws {
        try store.create(now: at(0))
        #expect(throws: LedgerError.self) { try store.create(now: at(1)) }
        try waterline()
        try brew()
        try hydrate()
        try moments()

        // Nothing of git, and nothing device-local, is in the folder: only the apps' files.
        #expect(!FileManager.default.fileExists(atPath: store.root + "/.git"))
        let top = try FileManager.default.contentsOfDirectory(atPath: store.root).sorted()
        #expect(top == ["brew", "hydrate", "ledger.json", "moments", "waterline"])
        #expect(FileManager.default.fileExists(atPath: localState + "/lock"))

        // Every document valid and in canonical form, byte for byte: the check compares each
        // file with its canonical encoding and warns about any that differs.
        let report = try Checker(store: store, useCache: false).check()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.filesChecked == documents().count)
        // A check that keeps its record of clean files (device-local) finds the same.
        #expect(try Checker(store: store).check().problems.isEmpty)
    }

    /// Every file of the ledger, relative to its root.
    func documents() -> [String] {
        (FileManager.default.enumerator(atPath: store.root)?.allObjects as? [String] ?? []).filter { path in
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: store.root + "/" + path, isDirectory: &directory) && !directory.boolValue
        }
    }

    // MARK: - Each app's intents

    /// Account deletion (Waterline PRD FR-11): every document of the app deleted at once, its
    /// defaults back, the rest of the ledger untouched, the ledger clean.
    @Test func forgettingAnAppDeletesAllItsData() throws {
        try store.create(now: at(0))
        try waterline()
        try moments()
        let plan = try store.forgetPlan([.waterline])
        #expect(plan.apps == [.waterline] && plan.removed.contains { $0.hasPrefix("waterline/sessions/") })
        #expect(try WaterlineStore(store).allSessions().count == 1, "a plan changes nothing")
        let done = try store.forget([.waterline], now: at(2000))
        #expect(done == plan)
        let w = WaterlineStore(store)
        #expect(try w.allSessions().isEmpty)
        #expect(try w.presetList().map(\.id).sorted() == ["beer", "cocktail", "double", "glass-of-wine", "shot"])
        #expect(try w.settings().waterEveryNDrinks == 1)
        #expect(try !MomentsStore(store).experiences(in: MomentBucket("2026-11-22")!).isEmpty, "another app is untouched")
        #expect(store.finishInterruptedForget().isEmpty, "nothing was left to finish")
        let report = try Checker(store: store, useCache: false).check()
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    func waterline() throws {
        let w = WaterlineStore(store)
        try w.changeSettings(now: at(1)) { $0.waterEveryNDrinks = 2 }
        try w.setSetting("units", to: "ml", now: at(2))
        let pint = try w.addPreset(.init(name: Given("Pint", input: .waterline(.name), text: "Pint"), type: Given(.beer, input: .waterline(.drinkType), text: "beer"),
                                         standardDrinks: 1.5), now: at(3), ids: ids).preset
        _ = try w.editPreset(pint.id, .init(standardDrinks: 2), now: at(4))
        _ = try w.deletePreset("double")

        let session = try w.start(now: at(600), ids: ids).session
        let beer = try w.logDrink(.init(preset: "beer", source: .phone), now: at(610), ids: ids)
        #expect(beer.session.id == session.id)
        _ = try w.logDrink(.init(preset: pint.id, source: .watch), now: at(640), ids: ids)
        try w.logWater(now: at(650), ids: ids)
        _ = try w.editEntry(beer.entry.id, change: .init(standardDrinks: 1.2), now: at(660))
        let wine = try w.logDrink(.init(preset: "glass-of-wine", source: .widget), now: at(670), ids: ids)
        _ = try w.deleteEntry(wine.entry.id, now: at(671))
        _ = try w.keepGoing(now: at(680))
        #expect(try w.due(now: at(681), timeZone: TimeZone(identifier: "Europe/Paris")!).sessionID == session.id)
        let ended = try w.end(now: at(700)).session
        #expect(ended.id == session.id && !ended.isActive && ended.entries.count == 3)

        let mistake = try w.start(now: at(800), ids: ids).session
        _ = try w.end(now: at(801))
        _ = try w.deleteSession(mistake.id)
        #expect(try w.allSessions().map(\.id) == [session.id])
    }

    func brew() throws {
        let b = BrewStore(store)
        let mine = try b.duplicateRecipe(Recipe.starterID, name: "Mine", now: at(1000), ids: ids)
        var edit = BrewStore.RecipeEdit()
        (edit.defaultDose, edit.defaultTargetYield, edit.scaleSteps) = (18, 300, true)
        _ = try b.editRecipe(mine.id, edit, now: at(1001))
        let spare = try b.duplicateRecipe(mine.id, now: at(1002), ids: ids)
        _ = try b.confirmInputs(spare.id, changes: BrewInputs(recipeId: nil, dose: 16), reset: false, now: at(1003))
        #expect(try b.deleteRecipe(id: spare.id, now: at(1004)))  // it was the selection: back to the starter

        // A guided brew: Start remembers the inputs and keeps the brew in progress (device-local);
        // Save logs it and clears it.
        let guided = try b.startBrew(mine.id, changes: BrewInputs(), reset: false, now: at(1010), ids: ids)
        var flow = guided.flow
        try b.perform(flow.handle(.start, at: at(1010)), now: at(1010))
        #expect(try b.brewInProgress().progress != nil)
        #expect(FileManager.default.fileExists(atPath: localState + "/brew-in-progress.json"))
        for step in 1...6 { try b.perform(flow.handle(.next, at: at(1010 + Double(step))), now: at(1010 + Double(step))) }
        try b.perform(flow.handle(.rate(5), at: at(1017)), now: at(1017))
        try b.perform(flow.handle(.save, at: at(1018)), now: at(1018))
        #expect(try b.brewInProgress().progress == nil)
        #expect(try b.latestLog()?.id == flow.logID)

        // A brew logged afterwards, and one deleted.
        var record = BrewStore.BrewRecord(rating: 3)
        (record.recipe, record.tasteTag, record.note) = (mine.id, .tooBitter, "a little fast")
        let logged = try b.logBrew(record, now: at(1100), ids: ids).log
        let extra = try b.logBrew(BrewStore.BrewRecord(rating: 4), now: at(1101), ids: ids).log
        try b.deleteLog(id: extra.id)
        #expect(try b.logs().map(\.id) == [flow.logID, logged.id])
        #expect(try b.preferences().selectedRecipeID == mine.id)
    }

    func hydrate() throws {
        let h = HydrateStore(store)
        let schedule = ScheduleChange(startTime: ClockTime("08:00"), endTime: ClockTime("20:00"), intervalMinutes: 60, followUpIntervalMinutes: 15)
        guard case .saved = try h.changeSchedule(schedule, at: at(-30), timeZone: zone) else {
            Issue.record("the schedule was not saved")
            return
        }
        // "I Drank" on the notification of 09:00, then at 10:05 for the reminder in force.
        guard case .confirmed = try h.confirm(.clock(ClockTime("09:00")!), at: at(20), timeZone: zone) else {
            Issue.record("the 09:00 reminder was not confirmed")
            return
        }
        guard case .confirmed = try h.confirm(at: at(65), timeZone: zone) else {
            Issue.record("the 10:00 reminder was not confirmed")
            return
        }
        guard case .saved = try h.changeSchedule(ScheduleChange(intervalMinutes: 90), at: at(70), timeZone: zone) else {
            Issue.record("the schedule change was not saved")
            return
        }
        #expect(try h.current(at: at(70), timeZone: zone).progress(at: at(70)).completed == 2)
    }

    func moments() throws {
        let m = MomentsStore(store)
        _ = try m.setTemplate("[moment], I was grateful for [experience].", at: at(1200))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 24)
        var captured: [Experience] = []
        for (n, content) in [MomentsStore.Capture.Content.note("the first snow"), .dot, .link("https://example.org/snow"),
                             .photo(bytes: png, source: "snow.png")].enumerated() {
            for (k, moment) in MomentType.known.enumerated() {
                let minute = at(1210 + Double(n * 10 + k))
                captured.append(try m.capture(.init(content, moment: moment, at: minute), at: minute, ids: ids).experience)
            }
        }
        let deleted = try m.delete(captured[1].id)
        #expect(deleted.experience?.id == captured[1].id && deleted.photo == nil)
        #expect(try m.experiences(in: MomentBucket("2026-11-22")!).count == captured.count - 1)
    }
}

/// A fresh directory, removed with everything in it when the test is done.
final class Folder: Sendable {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.path + "/ledgerkit-consumer-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
