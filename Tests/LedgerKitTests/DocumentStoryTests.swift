import Foundation
import LedgerKit
import Testing

/// How each app tells a change of its documents: two versions in, the app's words out, with
/// every field change beside them.
@Suite struct DocumentStoryTests {
    func tell(_ path: String, _ old: JSONValue?, _ new: JSONValue?) -> DocumentStory {
        DocumentStories.tell(path: path, old: old.map(CanonicalJSON.encode), new: new.map(CanonicalJSON.encode))
    }

    @Test func aSessionTellsDrinksAddedAndItsEnd() {
        let before = WaterlineFixture.session("D")  // started 21:00, a drink at 21:05
        var after = before
        after.entries += [WaterlineFixture.drink(40, id: "x"), WaterlineFixture.drink(50, id: "y"), WaterlineFixture.water(55, id: "z")]
        after.endTime = Timestamp(iso8601: "2026-11-22T01:10:00+01:00")
        after.isActive = false
        after.recomputeDerived()
        let story = tell(before.path, before.json, after.json)
        #expect(story.sentence == "Waterline: night of Sat 21 Nov — 2 drinks added, 1 water added, ended 01:10")
        #expect(story.app == .waterline)
        // The fields say the same, by pointer: the entries by their index in the new version.
        #expect(story.fields.contains { $0.pointer.description == "/entries/1" && $0.old == nil })
        #expect(story.fields.contains { $0.pointer.description == "/endTime" && $0.old == .null })
        let new = tell(before.path, nil, before.json)
        #expect(new.sentence == "Waterline: night of Sat 21 Nov — started 21:00, 1 drink")
        #expect(new.fields.isEmpty)
        #expect(tell(before.path, before.json, nil).sentence == "Waterline: night of Sat 21 Nov — deleted")
    }

    @Test func aSessionsEditedAndDeletedEntriesAreNamedByTheirTime() {
        let before = WaterlineFixture.session("DDW")  // 21:05, 21:15, 21:25
        var after = before
        after.entries.remove(at: 0)
        after.entries[0].alcoholMeta?.standardDrinkEstimate = 2
        after.recomputeDerived()
        #expect(tell(before.path, before.json, after.json).details == ["drink at 21:15 edited", "drink at 21:05 deleted"])
    }

    @Test func aMergeOfTwoSessionsSaysBothDevicesAddedEntriesAndTheStateWasRecomputed() {
        let base = WaterlineFixture.session("D")
        var ours = base, theirs = base
        ours.entries.append(WaterlineFixture.drink(40, id: "ours"))
        theirs.entries.append(WaterlineFixture.water(45, id: "theirs"))
        ours.recomputeDerived()
        theirs.recomputeDerived()
        let merged = SessionMerge.merge(base: base, ours: ours, theirs: theirs).document
        let story = DocumentStories.tellMerge(path: base.path, ours: CanonicalJSON.encode(ours.json), theirs: CanonicalJSON.encode(theirs.json),
                                              result: CanonicalJSON.encode(merged.json))
        #expect(story.sentence == "Waterline: night of Sat 21 Nov — merged: both devices added entries; recomputed")
    }

    @Test func aRecipeTellsItsDoseInGramsAndAConflictedCopySaysItWasForked() {
        // BrewGuide's V60 starter: 15 g of coffee for 250 g of water.
        var before = Recipe.starter
        before.id = "morning"
        before.name = "Morning V60"
        var after = before
        after.defaultDose = 18
        after.defaultGrindLabel = .fine
        let story = tell(before.path, before.json, after.json)
        #expect(story.sentence == "BrewGuide: recipe Morning V60 — dose 15 → 18 g, grind medium → fine")
        var copy = after
        copy.name = "Morning V60 (Conflicted Copy)"
        #expect(tell(copy.path, nil, copy.json).details.first?.hasPrefix("forked: the other device's version") == true)
        // Beside the recipe it was forked from, the copy is told by what differs, as `ledger
        // conflicts` lists it: fields in the app's words, others by name.
        var recipe = before
        recipe.defaultDose = 16
        copy.defaultWaterTemperature = 95
        copy.steps.removeLast()
        let forked = DocumentStories.tell(path: copy.path, old: nil, new: CanonicalJSON.encode(copy.json), forkedFrom: CanonicalJSON.encode(recipe.json))
        #expect(forked.details == ["forked: the other device's version, changed differently on both devices, kept as this copy "
            + "(dose 18 g, the recipe's 16 g; grind fine, the recipe's medium; temperature 95 °C, the recipe's 94 °C; steps differ from the recipe's)"])
        #expect(DocumentStories.tell(path: copy.path, old: nil, new: CanonicalJSON.encode(copy.json), forkedFrom: CanonicalJSON.encode(copy.json)).details
            == ["forked: the other device's version, changed differently on both devices, kept as this copy (the same as the recipe now)"])
        #expect(Recipe.conflictedCopyBase("Morning V60 (Conflicted Copy 2)") == "Morning V60")
        #expect(Recipe.conflictedCopyBase("Morning V60") == nil)
    }

    @Test func aHydrationDayTellsWhichReminderWasConfirmed() throws {
        // Water Reminder's default: 09:00 to 17:00, every 60 minutes: 8 reminders.
        let date = try #require(LocalDate("2026-11-21"))
        let zone = try #require(TimeZone(identifier: "Europe/Paris"))
        var before = HydrationDay(date: date, schedule: ReminderSchedule(), timeZone: zone, createdAt: WaterlineFixture.start)
        before.recomputeDerived()
        var after = before
        after.confirm(at: try #require(Timestamp(iso8601: "2026-11-21T11:04:00+01:00")))
        after.recomputeDerived()
        #expect(tell(before.path, before.json, after.json).sentence == "Water Reminder: Sat 21 Nov — 11:00 confirmed, 1 of 8 done")
    }

    @Test func whatAnAppHasNoWordsForIsToldFieldByField() {
        let old: JSONValue = .object(["a": .number(1), "b": .string("x")])
        let new: JSONValue = .object(["a": .number(2), "c": .bool(true)])
        let story = tell("waterline/notes.json", old, new)
        #expect(story.sentence == "Waterline: waterline/notes.json — /a: 1 → 2; /b: removed \"x\"; /c: added true")
        #expect(story.fields.map(\.pointer.description) == ["/a", "/b", "/c"])
        // A document's field its app does not name (a note added by hand) is told by pointer too.
        var preset = DrinkPreset.defaults(createdAt: WaterlineFixture.start)[0]
        let before = preset.json
        preset.standardDrinkEstimate = 1.5
        guard case .object(var o) = preset.json else { return }
        o["note"] = .string("the local IPA")
        #expect(tell(preset.path, before, .object(o)).details == ["standard drinks 1 → 1.5", "/note: added \"the local IPA\""])
    }

    /// `ledger.json` records forgets: a sync that took a forget in, and an undo that takes it
    /// back, say which app (they used to be told as "ledger.json — changed").
    @Test func ledgerJSONTellsAForgetAndItsTakingBack() throws {
        let created = try #require(Timestamp(iso8601: "2026-10-01T20:15:00+02:00"))
        let instant = try #require(Timestamp(iso8601: "2026-11-21T23:30:00+01:00"))
        let before = LedgerManifest(createdAt: created)
        var after = before
        after.forgotten = ForgottenApps([.hydrate: instant])
        after.updatedAt = instant
        let forget = tell("ledger.json", before.json, after.json)
        #expect(forget.sentence == "Ledger: ledger.json — Water Reminder forgotten at Sat 21 Nov 23:30")
        #expect(forget.fields.map(\.pointer.description) == ["/forgotten", "/updatedAt"])
        #expect(tell("ledger.json", after.json, before.json).sentence == "Ledger: ledger.json — forget of Water Reminder taken back")
    }

    /// A file with no merge rule, changed on both devices, is kept whole from one side (the
    /// other goes beside it as a conflict file): the merge says which, not "merged field by field".
    @Test func aFileKeptWholeByAMergeSaysWhoseVersionWasKept() {
        let ours = Array("laptop notes\n".utf8), theirs = Array("phone notes\n".utf8)
        #expect(DocumentStories.tellMerge(path: "notes.txt", ours: ours, theirs: theirs, result: ours).sentence
            == "notes.txt — merged: changed on both devices: the merging device's version kept")
        #expect(DocumentStories.tellMerge(path: "notes.txt", ours: ours, theirs: theirs, result: theirs).sentence
            == "notes.txt — merged: changed on both devices: the other device's version kept")
        // The other version beside it is told as the conflict file it is, not as a file added.
        #expect(DocumentStories.tell(path: "notes.conflict-0c681ed3.txt", old: nil, new: theirs).sentence
            == "conflict file for notes.txt — the other device's version, kept beside it: it could not be merged")
    }
}
