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

    /// The table names each field whole: a pointer is never cut, and the header reads
    /// "pointer" above a short one (it was cut to the longest pointer's width, at most 28).
    @Test func theTableNamesEveryFieldWhole() throws {
        let s = try HistoryScenario()
        try s.a.write("waterline/notes.json", "{\"m\": 1, \"evenings\": {\"fridays\": {\"waterBetweenRounds\": {\"glasses\": 1}}}}\n")
        HistoryScenario.ok(s.a.run("sync"))
        try s.start()
        try s.a.write("waterline/notes.json", "{\"m\": 2, \"evenings\": {\"fridays\": {\"waterBetweenRounds\": {\"glasses\": 2}}}}\n")
        try s.b.write("waterline/notes.json", "{\"m\": 3, \"evenings\": {\"fridays\": {\"waterBetweenRounds\": {\"glasses\": 3}}}}\n")
        try s.divergeAndMerge()
        let lines = s.b.run("conflicts").stdout.split(separator: "\n").map(String.init)
        let long = "/evenings/fridays/waterBetweenRounds/glasses"
        #expect(lines.contains { $0.hasPrefix("  " + long + "  ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  /m" + String(repeating: " ", count: long.count - 2) + "  ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  pointer" + String(repeating: " ", count: long.count - 7) + "  mine") }, "\(lines)")
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
        // Named by the id of the recipe it was forked from, the document's id (docs/sync.md:
        // "ID the copy's or the document's id"), as by its path.
        let recipeID = String(s.recipePath(b).split(separator: "/").last!.dropLast(5))
        HistoryScenario.ok(b.run("resolve", recipeID, "--keep", "both"))
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

/// docs/sync.md: "`ledger conflicts` lists each with both sides field by field — the JSON
/// pointer, this device's value (mine …), the other device's (theirs …)". Like git's ours and
/// theirs, mine is the side of the device running the command, wherever the fork was made.
@Suite struct ConflictSidesTests {
    static func dose(_ item: JSONValue?) -> (mine: JSONValue?, theirs: JSONValue?) {
        let f = item?["fields"]?.arrayValue?.first { $0["pointer"]?.stringValue == "/defaultDose" }
        return (f?["mine"], f?["theirs"])
    }

    @Test func mineIsThisDevicesEditOnBothDevicesOfTheFork() throws {
        let s = try ConflictCommandTests.conflicted()
        let (a, b) = (s.a, s.b)
        // The laptop's own edit, as plain git has it in the laptop's history.
        let recipe = s.recipePath(a)
        let laptopCommit = try a.revParse("HEAD")
        HistoryScenario.ok(a.run("sync"))  // the laptop pulls the phone's merge, which forked its edit
        let ownText = try GitCLI.run(["show", "\(laptopCommit):\(recipe)"], in: a.root).stdout
        #expect(try JSONParser.parse(Array(ownText.utf8))["defaultDose"] == .number(18), "the laptop's own edit: \(laptopCommit)")

        // The phone made the fork: its recipe is in place, the copy holds the laptop's edit.
        let onPhone = try #require(b.run("conflicts", "--json").json.arrayValue)
        let phoneCopy = onPhone.first { $0["kind"]?.stringValue == "copy" }
        #expect(Self.dose(phoneCopy) == (.number(16), .number(18)) && phoneCopy?["pathHolds"] == .string("theirs"))
        // On the laptop the same copy holds its own edit: mine is 18, as the laptop set it.
        let onLaptop = try #require(a.run("conflicts", "--json").json.arrayValue)
        let laptopCopy = onLaptop.first { $0["kind"]?.stringValue == "copy" }
        #expect(Self.dose(laptopCopy) == (.number(18), .number(16)) && laptopCopy?["pathHolds"] == .string("mine"), "\(onLaptop)")
        let laptopFile = onLaptop.first { $0["kind"]?.stringValue == "file" }
        #expect(laptopFile?["fields"] == .array([.object(["pointer": .string("/mood"), "mine": .string("great"), "theirs": .string("tired"), "base": .string("ok")])]))
        let text = a.run("conflicts").stdout
        #expect(text.contains("\"Morning V60 (Conflicted Copy)\", this device's version of recipe Morning V60"), "\(text)")
        #expect(text.contains("this device's version of waterline/notes.json"), "\(text)")

        // Keep mine on each device keeps that device's own edit.
        let copyPath = try #require(phoneCopy?["path"]?.stringValue)
        HistoryScenario.ok(a.run("resolve", copyPath, "--keep", "mine"))
        #expect(ConflictStore.recipeFields(a.document(recipe)) == ConflictStore.recipeFields(try JSONParser.parse(Array(ownText.utf8))))
        #expect(a.document(recipe)?["name"] == .string("Morning V60") && a.read(copyPath) == nil)
        HistoryScenario.ok(a.run("resolve", "waterline/notes.json", "--keep", "mine"))
        #expect(a.read("waterline/notes.json") == "{\"mood\": \"great\", \"place\": \"home\"}\n")
        HistoryScenario.ok(b.run("resolve", copyPath, "--keep", "mine"))
        #expect(b.document(recipe)?["defaultDose"] == .number(16) && b.read(copyPath) == nil)
    }

    @Test func theirsOnTheDeviceThatPulledTheForkTakesTheOtherDevicesEdit() throws {
        let s = try ConflictCommandTests.conflicted()
        HistoryScenario.ok(s.a.run("sync"))
        let copyPath = try #require(s.a.files(under: "brew/recipes").first { s.a.document($0)?["name"]?.stringValue == "Morning V60 (Conflicted Copy)" })
        HistoryScenario.ok(s.a.run("resolve", copyPath, "--keep", "theirs"))
        #expect(s.a.document(s.recipePath(s.a))?["defaultDose"] == .number(16), "the phone's edit")
        #expect(s.a.read(copyPath) == nil)
    }

    /// The fork on both devices, pulled by the laptop, with the laptop's own version of the
    /// recipe as plain git has it: the newest commit of the laptop's history that touched it,
    /// before the fork came in (`git log --format=%H -- <path>`, `git show <commit>:<path>`).
    static func forkPulledByTheLaptop() throws -> (s: HistoryScenario, recipe: String, own: JSONValue, copy: String) {
        let s = try ConflictCommandTests.conflicted()
        let recipe = s.recipePath(s.a)
        let log = try GitCLI.run(["log", "--format=%H", "--", recipe], in: s.a.root).stdout
        let laptopCommit = String(log.split(separator: "\n").first ?? "")
        let own = try JSONParser.parse(Array(try GitCLI.run(["show", "\(laptopCommit):\(recipe)"], in: s.a.root).stdout.utf8))
        #expect(own["defaultDose"] == .number(18), "the laptop's own edit: \(laptopCommit)")
        HistoryScenario.ok(s.a.run("sync"))
        let copy = try #require(s.a.files(under: "brew/recipes").first { s.a.document($0)?["name"]?.stringValue == "Morning V60 (Conflicted Copy)" })
        return (s, recipe, own, copy)
    }

    /// The copy as `ledger conflicts --json` on `l` lists it.
    static func copy(on l: TestLedger) -> JSONValue? {
        l.run("conflicts", "--json").json.arrayValue?.first { $0["kind"]?.stringValue == "copy" }
    }

    /// The base of the copy's dose: the V60 starter's 15 g.
    static func baseDose(_ item: JSONValue?) -> JSONValue? {
        item?["fields"]?.arrayValue?.first { $0["pointer"]?.stringValue == "/defaultDose" }?["base"]
    }

    /// `ledger undo [COMMIT] --yes --json` on `l`: the undo's commit.
    @discardableResult
    static func undo(_ l: TestLedger, _ commit: String? = nil) throws -> String {
        let r = l.run(arguments: ["undo"] + (commit.map { [$0] } ?? []) + ["--yes", "--json"])
        HistoryScenario.ok(r, "undo")
        return try #require(r.json["commit"]?.stringValue)
    }

    /// docs/sync.md: "Mine is this device's own version wherever the fork was made". The phone
    /// takes its merge back and then brings it back (`ledger undo`, `ledger undo <the undo>`):
    /// the same documents arrive at the laptop again, and its own edit stays mine.
    @Test func theForkTakenBackAndBroughtBackByThePhoneKeepsEachDevicesSide() throws {
        let (s, recipe, own, copyPath) = try Self.forkPulledByTheLaptop()
        let (a, b) = (s.a, s.b)
        let recipes = try a.revParse("HEAD:brew/recipes")
        #expect(Self.dose(Self.copy(on: a)) == (.number(18), .number(16)))
        try Self.undo(b, try Self.undo(b))
        HistoryScenario.ok(b.run("sync"))
        HistoryScenario.ok(a.run("sync"))
        #expect(try a.revParse("HEAD:brew/recipes") == recipes, "the same recipes as before the undo and its undo")

        let onLaptop = Self.copy(on: a)
        #expect(Self.dose(onLaptop) == (.number(18), .number(16)) && onLaptop?["pathHolds"] == .string("mine"), "\(String(describing: onLaptop))")
        #expect(Self.baseDose(onLaptop) == .number(15))
        let file = a.run("conflicts", "--json").json.arrayValue?.first { $0["kind"]?.stringValue == "file" }
        #expect(file?["fields"] == .array([.object(["pointer": .string("/mood"), "mine": .string("great"), "theirs": .string("tired"), "base": .string("ok")])]))
        #expect(a.run("conflicts").stdout.contains("this device's version of recipe Morning V60"))
        let onPhone = Self.copy(on: b)
        #expect(Self.dose(onPhone) == (.number(16), .number(18)) && Self.baseDose(onPhone) == .number(15), "\(String(describing: onPhone))")

        HistoryScenario.ok(a.run("resolve", copyPath, "--keep", "mine"))
        #expect(ConflictStore.recipeFields(a.document(recipe)) == ConflictStore.recipeFields(own), "the laptop keeps the dose it wrote")
        #expect(a.read(copyPath) == nil)
        HistoryScenario.ok(b.run("resolve", copyPath, "--keep", "mine"))
        #expect(b.document(recipe)?["defaultDose"] == .number(16))
    }

    /// The same on the laptop, the device that pulled the fork: its undo takes the phone's part
    /// back (its own 18 g in place), the undo of that brings the fork back as it was.
    @Test func theForkTakenBackAndBroughtBackByTheLaptopKeepsEachDevicesSide() throws {
        let (s, recipe, own, copyPath) = try Self.forkPulledByTheLaptop()
        let (a, b) = (s.a, s.b)
        let u = try Self.undo(a)
        #expect(a.document(recipe)?["defaultDose"] == .number(18) && a.read(copyPath) == nil)
        try Self.undo(a, u)
        HistoryScenario.ok(a.run("sync"))
        HistoryScenario.ok(b.run("sync"))
        let onLaptop = Self.copy(on: a)
        #expect(Self.dose(onLaptop) == (.number(18), .number(16)) && Self.baseDose(onLaptop) == .number(15), "\(String(describing: onLaptop))")
        let onPhone = Self.copy(on: b)
        #expect(Self.dose(onPhone) == (.number(16), .number(18)) && Self.baseDose(onPhone) == .number(15), "\(String(describing: onPhone))")
        HistoryScenario.ok(a.run("resolve", copyPath, "--keep", "mine"))
        #expect(ConflictStore.recipeFields(a.document(recipe)) == ConflictStore.recipeFields(own))
    }

    /// The same with plain git bringing the fork back: `git revert` of the phone's undo.
    @Test func theForkBroughtBackByAPlainGitRevertKeepsEachDevicesSide() throws {
        let (s, _, _, _) = try Self.forkPulledByTheLaptop()
        let (a, b) = (s.a, s.b)
        let u = try Self.undo(b)
        let revert = try GitCLI.run(["revert", "--no-edit", u], in: b.root)
        #expect(revert.status == 0, "\(revert)")
        HistoryScenario.ok(b.run("sync"))
        HistoryScenario.ok(a.run("sync"))
        let onLaptop = Self.copy(on: a)
        #expect(Self.dose(onLaptop) == (.number(18), .number(16)) && Self.baseDose(onLaptop) == .number(15), "\(String(describing: onLaptop))")
        let onPhone = Self.copy(on: b)
        #expect(Self.dose(onPhone) == (.number(16), .number(18)) && Self.baseDose(onPhone) == .number(15), "\(String(describing: onPhone))")
    }

    /// The phone takes its merge back and leaves it so: the fork is gone on both devices (the
    /// phone's version in place, the laptop's edit in the history), nothing is listed, resolving
    /// the copy finds none; the laptop's undo of that undo brings the fork back, its edit mine.
    @Test func theForkTakenBackIsNoConflictUntilItsUndoIsUndone() throws {
        let (s, recipe, own, copyPath) = try Self.forkPulledByTheLaptop()
        let (a, b) = (s.a, s.b)
        let copyID = String(copyPath.split(separator: "/").last!.dropLast(5))
        let u = try Self.undo(b)
        HistoryScenario.ok(b.run("sync"))
        HistoryScenario.ok(a.run("sync"))
        #expect(a.read(copyPath) == nil && a.document(recipe)?["defaultDose"] == .number(16), "the phone's version, as its undo left it")
        #expect(try GitCLI.run(["show", "\(u):\(copyPath)"], in: a.root).status != 0, "plain git: the undo has no copy")
        #expect(Self.copy(on: a) == nil && Self.copy(on: b) == nil)
        let r = a.run("resolve", copyID, "--keep", "mine")
        #expect(r.status == 1 && r.stderr.contains("no conflict file or conflicted copy is \(copyID)"), "\(r)")
        // It names the phone's undo, as plain git finds it: the last commit that touched the copy.
        let last = try GitCLI.run(["log", "-1", "--format=%h", "--abbrev=7", "--", copyPath], in: a.root).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(u.hasPrefix(last) && r.stderr.contains("\(copyPath) was deleted by \(last) (ledger undo on phone: take back "), "\(r)")
        #expect(r.stderr.contains("`ledger undo \(last)` takes back"), "\(r)")
        #expect(a.document(recipe)?["defaultDose"] == .number(16), "nothing changed")

        try Self.undo(a, u)
        let onLaptop = Self.copy(on: a)
        #expect(Self.dose(onLaptop) == (.number(18), .number(16)) && Self.baseDose(onLaptop) == .number(15), "\(String(describing: onLaptop))")
        HistoryScenario.ok(a.run("resolve", copyID, "--keep", "mine"))
        #expect(ConflictStore.recipeFields(a.document(recipe)) == ConflictStore.recipeFields(own))
    }

    /// A file that is not JSON changed on both devices, the phone's sync the merge: the
    /// conflict file holds the laptop's own text, as plain git has it in the laptop's commit.
    /// On the laptop that is mine (listed so, `pathHolds` "mine"), also after the phone took its
    /// merge back and brought it back, and `--keep mine` keeps it; on the phone it is theirs.
    @Test func aConflictFileHoldingThisDevicesOwnTextIsMine() throws {
        let s = try HistoryScenario()
        let (a, b) = (s.a, s.b)
        try a.write("notes.txt", "base\n")
        HistoryScenario.ok(a.run("sync"))
        HistoryScenario.ok(b.run("sync"))
        try a.write("notes.txt", "base\nlaptop line\n")
        try b.write("notes.txt", "base\nphone line\n")
        HistoryScenario.ok(a.run("sync"))
        let laptopCommit = try a.revParse("HEAD")
        HistoryScenario.ok(b.run("sync"))
        HistoryScenario.ok(a.run("sync"))
        let conflictFile = try #require(try FileManager.default.contentsOfDirectory(atPath: a.root).first { $0.hasPrefix("notes.conflict-") })
        let laptopText = try GitCLI.run(["show", "\(laptopCommit):notes.txt"], in: a.root).stdout
        #expect(laptopText == "base\nlaptop line\n" && a.read(conflictFile) == laptopText, "the laptop's own text, beside")
        #expect(a.read("notes.txt") == "base\nphone line\n")

        let onLaptop = try #require(a.run("conflicts", "--json").json.arrayValue?.first)
        #expect(onLaptop["path"]?.stringValue == conflictFile && onLaptop["pathHolds"] == .string("mine"), "\(onLaptop)")
        #expect(a.run("conflicts").stdout.contains("\(conflictFile) — this device's version of notes.txt (notes.txt), kept beside it by the other device's merge"))
        #expect(b.run("conflicts", "--json").json.arrayValue?.first?["pathHolds"] == .string("theirs"))
        #expect(b.run("conflicts").stdout.contains("\(conflictFile) — the other device's version of notes.txt"))
        // The phone takes its merge back and brings it back: the same sides on both devices.
        try Self.undo(b, try Self.undo(b))
        HistoryScenario.ok(b.run("sync"))
        HistoryScenario.ok(a.run("sync"))
        #expect(a.read(conflictFile) == laptopText && a.read("notes.txt") == "base\nphone line\n")
        #expect(a.run("conflicts", "--json").json.arrayValue?.first?["pathHolds"] == .string("mine"))
        #expect(b.run("conflicts", "--json").json.arrayValue?.first?["pathHolds"] == .string("theirs"))

        let kept = a.run("resolve", conflictFile, "--keep", "mine")
        HistoryScenario.ok(kept)
        #expect(kept.stdout.contains("Kept mine for notes.txt: wrote notes.txt; removed \(conflictFile)"), "\(kept)")
        #expect(a.read("notes.txt") == laptopText && a.read(conflictFile) == nil)
        HistoryScenario.ok(b.run("resolve", conflictFile, "--keep", "mine"))
        #expect(b.read("notes.txt") == "base\nphone line\n" && b.read(conflictFile) == nil)
    }

    /// A preset made invalid JSON by hand on the laptop and pushed with plain git, changed
    /// validly on the phone: the phone's merge keeps its own and puts the laptop's beside it.
    /// On the laptop that is its own version (mine); `--keep theirs` keeps the phone's valid
    /// one, `--keep mine` would put the laptop's invalid one back and is refused, naming theirs.
    @Test func anInvalidDocumentOfThisDeviceBesideItIsMine() throws {
        let s = try HistoryScenario()
        let (a, b) = (s.a, s.b)
        let path = "waterline/presets/beer.json"
        let valid = try #require(b.read(path))
        try a.write(path, "{\"id\": \"beer\",\n  \"name\": \n}\n")
        #expect(try GitCLI.run(["commit", "-qam", "by hand"], in: a.root).status == 0)
        let laptopCommit = try a.revParse("HEAD")
        #expect(try GitCLI.run(["push", "-q", "origin", "main"], in: a.root).status == 0)
        try b.write(path, valid.replacingOccurrences(of: "\"name\": \"", with: "\"name\": \"Pint of "))
        HistoryScenario.ok(b.run("sync"))
        HistoryScenario.ok(a.run("sync"))
        let item = try #require(a.run("conflicts", "--json").json.arrayValue?.first)
        let conflictFile = try #require(item["path"]?.stringValue)
        let laptopText = try GitCLI.run(["show", "\(laptopCommit):\(path)"], in: a.root).stdout
        #expect(a.read(conflictFile) == laptopText, "the laptop's own version, beside")
        #expect(item["pathHolds"] == .string("mine") && item["document"]?.stringValue == path, "\(item)")
        #expect(a.run("conflicts").stdout.contains("— this device's version of \(path)"))
        #expect(b.run("conflicts", "--json").json.arrayValue?.first?["pathHolds"] == .string("theirs"))

        let refused = a.run("resolve", conflictFile, "--keep", "mine")
        #expect(refused.status == 1 && refused.stderr.contains("so it cannot replace \(path); edit it until it is valid, or keep theirs"), "\(refused)")
        #expect(a.read(conflictFile) == laptopText)
        HistoryScenario.ok(a.run("resolve", conflictFile, "--keep", "theirs"))
        #expect(a.document(path)?["name"]?.stringValue?.hasPrefix("Pint of ") == true && a.read(conflictFile) == nil)
    }

    /// docs/sync.md: `git pull --rebase` "reaches the same result as a merge"; the device that
    /// pulls that fork afterwards sees its own edit as mine too.
    @Test func afterAPlainRebasingPullTheOtherDeviceSeesItsOwnEditAsMine() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let id = a.run("brew", "recipe", "duplicate", "v60-starter", "--name", "House").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        HistoryScenario.ok(a.run("sync"))
        let b = try fixture.clone()
        HistoryScenario.ok(a.run("brew", "recipe", "edit", id, "--dose", "18", env: HistoryScenario.at("22:00:00")))
        HistoryScenario.ok(a.run("sync"))
        HistoryScenario.ok(b.run("brew", "recipe", "edit", id, "--dose", "22", env: HistoryScenario.at("22:05:00")))
        #expect(try GitCLI.run(["commit", "-qam", "b's recipe"], in: b.root).status == 0)
        let pull = try GitCLI.run(["pull", "--rebase", "origin", "main"], in: b.root)
        #expect(pull.status == 0, "\(pull)")
        HistoryScenario.ok(b.run("sync"))  // commits the copy the driver wrote, pushes
        HistoryScenario.ok(a.run("sync"))
        let onB = b.run("conflicts", "--json").json.arrayValue?.first
        #expect(Self.dose(onB) == (.number(22), .number(18)), "\(String(describing: onB))")
        let onA = a.run("conflicts", "--json").json.arrayValue?.first
        #expect(Self.dose(onA) == (.number(18), .number(22)), "\(String(describing: onA))")
        HistoryScenario.ok(a.run("resolve", onA?["path"]?.stringValue ?? "", "--keep", "mine"))
        #expect(a.document("brew/recipes/\(id).json")?["defaultDose"] == .number(18))
    }
}
