import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// Conflicts in plain sight: `ledger status` counts them, `ledger conflicts` shows both sides
/// field by field, `ledger resolve` settles one — on conflicts made by real syncs.
@Suite struct ConflictCommandTests {
    /// A file of the user's own changed on both devices (a conflict file: it has no merge
    /// rule) and the recipe changed on both (a conflicted copy), after the phone's merge.
    static func conflicted() throws -> HistoryScenario {
        let s = try HistoryScenario()
        try s.a.write("waterline/notes.json", "{\"mood\": \"ok\", \"place\": \"home\"}\n")
        HistoryScenario.ok(s.a.run("sync"))
        try s.start()
        try s.a.write("waterline/notes.json", "{\"mood\": \"great\", \"place\": \"home\"}\n")
        try s.b.write("waterline/notes.json", "{\"mood\": \"tired\", \"place\": \"home\"}\n")
        try s.divergeAndMerge()
        return s
    }

    @Test func statusCountsThemAndConflictsShowsBothSidesWithTheBase() throws {
        let s = try Self.conflicted()
        let b = s.b
        let conflictFile = try #require(b.files(under: "waterline").first { $0.contains(".conflict-") })
        let status = b.run("status")
        #expect(status.stdout.contains("  Conflicts       1 conflict file, 1 conflicted copy (`ledger conflicts` shows them"), "\(status)")
        let json = b.run("status", "--json").json
        #expect(json["conflicts"]?["files"] == .number(1) && json["conflicts"]?["copies"] == .number(1))
        #expect(s.a.run("status", "--json").json["conflicts"]?["files"] == .number(0), "the laptop has not synced since")
        HistoryScenario.ok(s.a.run("sync"))
        #expect(s.a.run("status", "--json").json["conflicts"]?["files"] == .number(1), "conflict files travel: either device may resolve them")

        let list = b.run("conflicts", "--json")
        HistoryScenario.ok(list)
        let items = try #require(list.json.arrayValue)
        #expect(items.count == 2)
        let file = try #require(items.first { $0["kind"]?.stringValue == "file" })
        #expect(file["path"]?.stringValue == conflictFile && file["document"]?.stringValue == "waterline/notes.json")
        #expect(file["fields"] == .array([.object(["pointer": .string("/mood"), "mine": .string("tired"), "theirs": .string("great"), "base": .string("ok")])]))
        let copy = try #require(items.first { $0["kind"]?.stringValue == "copy" })
        #expect(copy["subject"]?.stringValue == "recipe Morning V60")
        #expect(copy["document"]?.stringValue == s.recipePath(b))
        // The V60 starter's dose (15 g) in the common ancestor, 16 g here, 18 g on the laptop.
        let dose = try #require(copy["fields"]?.arrayValue?.first { $0["pointer"]?.stringValue == "/defaultDose" })
        #expect(dose["mine"] == .number(16) && dose["theirs"] == .number(18) && dose["base"] == .number(15))
        // Status counts through git: a conflict file not committed yet (as git's merge driver
        // leaves one) counts, one deleted in the work tree does not.
        try b.write("waterline/settings.conflict-0123abcd.json", "{}\n")
        try b.remove(conflictFile)
        let paths = Set(b.run("status", "--json").json["conflicts"]?["paths"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        #expect(paths == ["waterline/settings.conflict-0123abcd.json", copy["path"]?.stringValue ?? ""])
        #expect(b.run("conflicts", "--json").json.arrayValue?.count == 2)
        try b.remove("waterline/settings.conflict-0123abcd.json")
        #expect(try GitCLI.run(["checkout", "--", conflictFile], in: b.root).status == 0)
        let text = b.run("conflicts")
        #expect(text.stdout.contains("\(conflictFile) — the other device's version of waterline/notes.json"))
        #expect(text.stdout.contains("  /mood  "))
        #expect(text.stdout.contains("\"Morning V60 (Conflicted Copy)\", the other device's version of recipe Morning V60"))
    }

    @Test func resolveKeepsMineTheirsOrBothAndTheNextSyncCommitsIt() throws {
        let s = try Self.conflicted()
        let b = s.b
        let conflictFile = try #require(b.files(under: "waterline").first { $0.contains(".conflict-") })
        let copyPath = try #require(b.files(under: "brew/recipes").first { b.document($0)?["name"]?.stringValue == "Morning V60 (Conflicted Copy)" })
        let copyID = String(copyPath.split(separator: "/").last!.dropLast(5))

        // Keeping both is for recipes.
        let both = b.run("resolve", conflictFile, "--keep", "both")
        #expect(both.status == 2 && both.stderr.contains("keeping both is for recipes"), "\(both)")
        #expect(b.run("resolve", "nothing-here", "--keep", "mine").status == 1)
        #expect(b.run("resolve", conflictFile, "--keep", "yours").status == 2)
        // Theirs: the other version takes the file's place, the conflict file goes.
        HistoryScenario.ok(b.run("resolve", b.root + "/" + conflictFile, "--keep", "theirs"))
        #expect(b.read("waterline/notes.json") == "{\"mood\": \"great\", \"place\": \"home\"}\n")
        #expect(b.read(conflictFile) == nil)
        // Theirs for the conflicted copy (named by its id): its fields go into the recipe,
        // which keeps its id and name.
        let original = s.recipePath(b)
        let r = b.run("resolve", copyID, "--keep", "theirs")
        HistoryScenario.ok(r)
        #expect(r.stdout.contains("Kept theirs for recipe Morning V60: wrote \(original); removed \(copyPath)."))
        #expect(b.document(original)?["defaultDose"] == .number(18) && b.document(original)?["name"]?.stringValue == "Morning V60")
        #expect(b.read(copyPath) == nil)
        #expect(b.run("conflicts", "--json").json == .array([]))
        #expect(b.run("check", "--json").json["errors"] == .number(0))
        HistoryScenario.ok(b.run("sync"))
        HistoryScenario.ok(s.a.run("sync"))
        #expect(try s.a.headTree() == b.headTree())
        #expect(s.a.run("status", "--json").json["conflicts"]?["copies"] == .number(0))
    }

    @Test func keepingBothMakesTheCopyARecipeOfItsOwnAndMineDropsIt() throws {
        let s = try Self.conflicted()
        let b = s.b
        let copyPath = try #require(b.files(under: "brew/recipes").first { b.document($0)?["name"]?.stringValue == "Morning V60 (Conflicted Copy)" })
        HistoryScenario.ok(b.run("resolve", copyPath, "--keep", "both"))
        #expect(b.document(copyPath)?["name"]?.stringValue == "Morning V60 copy")
        #expect(b.document(copyPath)?["defaultDose"] == .number(18))
        let conflictFile = try #require(b.files(under: "waterline").first { $0.contains(".conflict-") })
        HistoryScenario.ok(b.run("resolve", "waterline/notes.json", "--keep", "mine"))
        #expect(b.read(conflictFile) == nil && b.read("waterline/notes.json") == "{\"mood\": \"tired\", \"place\": \"home\"}\n")
        #expect(b.run("status", "--json").json["conflicts"]?["files"] == .number(0))
    }

    @Test func anInvalidOtherVersionIsRefusedAndNothingChanges() throws {
        let s = try HistoryScenario()
        try s.start()
        // The recipe made invalid by hand on the laptop (its pours no longer add up to its
        // yield), changed validly on the phone: the sync keeps the phone's and a conflict file.
        let recipe = s.recipePath(s.a)
        var doc = try #require(s.a.document(recipe)?.objectValue)
        doc["defaultTargetYield"] = .number(300)
        try s.a.write(recipe, CanonicalJSON.string(.object(doc)))
        #expect(try GitCLI.run(["commit", "-qam", "by hand"], in: s.a.root).status == 0)
        #expect(try GitCLI.run(["push", "-q", "origin", "main"], in: s.a.root).status == 0)
        HistoryScenario.ok(s.b.run("brew", "recipe", "edit", "Morning V60", "--dose", "16", env: HistoryScenario.at("21:51:00")))
        HistoryScenario.ok(s.b.run("sync"))
        let conflictFile = try #require(s.b.files(under: "brew/recipes").first { $0.contains(".conflict-") })
        let before = s.b.read(recipe)
        let r = s.b.run("resolve", recipe, "--keep", "theirs")
        #expect(r.status == 1 && r.stderr.contains("is not a valid brew recipe, so it cannot replace \(recipe)"), "\(r)")
        #expect(s.b.read(recipe) == before && s.b.read(conflictFile) != nil)
    }
}
