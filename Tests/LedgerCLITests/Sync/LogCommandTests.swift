import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// `ledger log` on real histories: what each commit did to each document in the app's words,
/// beside what plain git says of the same commits.
@Suite struct LogCommandTests {
    @Test func theHistoryTellsEachSyncInTheAppsWordsAndTheMergeWhatItResolved() throws {
        let s = try HistoryScenario()
        try s.build()
        // A hand edit committed with plain git (the recipe's grind description), and one of a
        // file of the user's own that no app names (told field by field).
        let recipe = s.recipePath(s.a)
        var doc = try #require(s.a.document(recipe)?.objectValue)
        doc["grindDescriptor"] = .string("like coarse sand")
        try s.a.write(recipe, CanonicalJSON.string(.object(doc)))
        try s.a.write("waterline/notes.json", "{\"mood\": \"ok\"}\n")
        #expect(try GitCLI.run(["add", "-A"], in: s.a.root).status == 0)
        #expect(try GitCLI.run(["commit", "-qm", "grind note, by hand"], in: s.a.root).status == 0)
        try s.a.write("waterline/notes.json", "{\"mood\": \"good\"}\n")
        HistoryScenario.ok(s.a.run("sync"))

        let log = s.a.run("log", "--limit", "0")
        HistoryScenario.ok(log)
        let text = log.stdout
        #expect(text.contains("laptop  sync\n  Waterline: night of Sat 21 Nov — started 21:00, 1 drink\n"))
        #expect(text.contains("  BrewGuide: recipe Morning V60 — dose 15 → 18 g"))
        #expect(text.contains("phone  sync\n"))
        #expect(text.contains("  BrewGuide: recipe Morning V60 — dose 15 → 16 g"))
        #expect(text.contains("  Water Reminder: Sat 21 Nov — 11:00 confirmed, 1 of 8 done"))
        #expect(text.contains("phone  merge\n  Waterline: night of Sat 21 Nov — merged: both devices added entries; recomputed\n"))
        #expect(text.contains("  BrewGuide: recipe Morning V60 (Conflicted Copy) — forked: the other device's version, changed differently on both devices, kept as this copy (dose 18 g, the recipe's 16 g)\n"))
        #expect(text.contains("test <test@example.com>  git commit: grind note, by hand\n  Waterline: waterline/notes.json — added\n  BrewGuide: recipe Morning V60 — grind description sand; slightly finer than sea salt → like coarse sand\n"))
        #expect(text.contains("laptop  sync\n  Waterline: waterline/notes.json — /mood: \"ok\" → \"good\"\n"))

        // The same commits as git's, and for each commit that is not a merge the same files.
        let json = s.a.run("log", "--limit", "0", "--json").json
        let entries = try #require(json.arrayValue)
        let gitCommits = try GitCLI.run(["log", "--format=%H"], in: s.a.root).stdout.split(separator: "\n").map(String.init)
        #expect(Set(entries.compactMap { $0["commit"]?.stringValue }) == Set(gitCommits))
        for e in entries {
            let commit = try #require(e["commit"]?.stringValue)
            #expect(e["time"]?.stringValue != nil && e["changes"]?.arrayValue != nil && e.objectValue?.keys.contains("device") == true)
            guard e["parents"]?.arrayValue?.count == 1 else { continue }
            let files = try GitCLI.run(["diff-tree", "--no-commit-id", "--name-only", "-r", commit], in: s.a.root).stdout
            #expect(Set(e["changes"]!.arrayValue!.compactMap { $0["path"]?.stringValue }) == Set(files.split(separator: "\n").map(String.init)), "\(commit)")
        }
        let byHand = try #require(entries.first { $0["subject"]?.stringValue == "grind note, by hand" })
        #expect(byHand["kind"]?.stringValue == "commit" && byHand["device"] == .null && byHand["author"]?.stringValue == "test")
        let merge = try #require(entries.first { $0["kind"]?.stringValue == "merge" })
        #expect(merge["device"]?.stringValue == "phone")
        let merged = try #require(merge["changes"]?.arrayValue?.first { $0["merged"] == .bool(true) })
        #expect(merged["kind"]?.stringValue == "waterline.session")
        #expect(merged["details"] == .array([.string("both devices added entries"), .string("recomputed")]))
        // Field by field: the entries the phone's side brought, by pointer, and the state.
        let pointers = merged["fields"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } ?? []
        #expect(pointers.contains("/state/totalAlcoholCount"))
        let notes = try #require(entries.first { $0["changes"]?.arrayValue?.first?["path"]?.stringValue == "waterline/notes.json" && $0["kind"]?.stringValue == "sync" })
        #expect(notes["changes"]?.arrayValue?.first?["fields"] == .array([.object(["pointer": .string("/mood"), "old": .string("ok"), "new": .string("good")])]))
    }

    /// The paths a merge's message names as resolved (`resolved PATH: …` lines), as plain git
    /// shows the message (`git log -1 --format=%B`).
    static func resolvedInMessage(_ l: TestLedger, _ commit: String = "HEAD") throws -> Set<String> {
        let message = try GitCLI.run(["log", "-1", "--format=%B", commit], in: l.root).stdout
        return Set(message.split(separator: "\n").compactMap { line in
            line.hasPrefix("resolved ") ? line.dropFirst("resolved ".count).split(separator: ":").first.map(String.init) : nil
        })
    }

    /// A recipe deleted on the laptop and edited on the phone: the phone's merge keeps the edit,
    /// so its documents are as the phone had them. Its sync says what the pulled commit changed
    /// (not "it changes no file"), and its log tells the merge resolved the recipe, as the
    /// commit message plain git shows says.
    @Test func aMergeThatKeptThisDevicesEditTellsWhatItResolved() throws {
        let s = try HistoryScenario()
        let (a, b) = (s.a, s.b)
        let id = a.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Morning V60").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let recipe = "brew/recipes/\(id).json"
        HistoryScenario.ok(a.run("sync"))
        HistoryScenario.ok(b.run("sync"))
        HistoryScenario.ok(a.run("brew", "recipe", "delete", id, "--yes"))
        HistoryScenario.ok(b.run("brew", "recipe", "edit", id, "--temp", "92"))
        HistoryScenario.ok(a.run("sync"))
        let sync = b.run("sync")
        HistoryScenario.ok(sync)
        #expect(!sync.stdout.contains("changes no file"), "\(sync)")
        #expect(sync.stdout.contains("Pulled 1 commit from origin"))
        #expect(sync.stdout.contains("; it changes only what this device changed too — deleted \(recipe) — and the merge keeps this device's version, so no file changes here."), "\(sync)")
        #expect(sync.stdout.contains("Resolved \(recipe): edited on this machine but deleted on the other; kept the edit."))
        // Plain git: the pulled commit deleted the recipe; the merge left the phone's tree as it was.
        let pulled = try GitCLI.run(["diff", "--name-status", "HEAD^1...HEAD^2"], in: b.root).stdout
        #expect(pulled == "D\t\(recipe)\n", "\(pulled)")
        let (tree, before) = (try b.revParse("HEAD^{tree}"), try b.revParse("HEAD^1^{tree}"))
        #expect(tree == before)
        let json = b.run("log", "--limit", "1", "--json").json.arrayValue?.first
        #expect(json?["kind"]?.stringValue == "merge")
        #expect(b.run("sync", "--json").json["pulledKept"] == .array([]), "nothing more to pull")

        let merge = try #require(json?["changes"]?.arrayValue)
        #expect(Set(merge.compactMap { $0["path"]?.stringValue }) == (try Self.resolvedInMessage(b)), "\(merge)")
        let told = try #require(merge.first)
        #expect(told["path"]?.stringValue == recipe && told["merged"] == .bool(true) && told["change"]?.stringValue == "modified", "\(told)")
        #expect(told["details"] == .array([.string("deleted on one device and changed on the other: the change kept")]))
        let text = b.run("log", "--limit", "1").stdout
        #expect(text.contains("phone  merge\n  BrewGuide: recipe Morning V60 — merged: deleted on one device and changed on the other: the change kept\n"), "\(text)")
        #expect(!text.contains("nothing to resolve"))
        // The recipe's own history has the merge, as git's full history of the file has it (its
        // default simplification drops the merge, which kept the first parent's version).
        let history = b.run("log", id, "--json").json.arrayValue?.compactMap { $0["commit"]?.stringValue } ?? []
        let gitHistory = try GitCLI.run(["log", "--full-history", "--format=%H", "--", recipe], in: b.root).stdout.split(separator: "\n").map(String.init)
        #expect(history.first == (try b.revParse("HEAD")) && Set(history) == Set(gitHistory), "\(history) \(gitHistory)")
        // On the laptop, which pulls the merge, the same commit tells the same.
        HistoryScenario.ok(a.run("sync"))
        let onLaptop = a.run("log", "--json").json.arrayValue?.first { $0["kind"]?.stringValue == "merge" }
        #expect(onLaptop?["changes"]?.arrayValue?.compactMap { $0["path"]?.stringValue } == [recipe])
    }

    /// The Waterline settings changed on both devices (a warning at 3 drinks on the laptop, at 4
    /// on the phone): the merge that resolved them says so, in the log as in its message.
    @Test func aSettingChangedOnBothDevicesIsToldByTheMerge() throws {
        let s = try HistoryScenario()
        let (a, b) = (s.a, s.b)
        HistoryScenario.ok(a.run("waterline", "settings", "set", "warningThreshold", "3"))
        HistoryScenario.ok(b.run("waterline", "settings", "set", "warningThreshold", "4"))
        HistoryScenario.ok(a.run("sync"))
        let sync = b.run("sync")
        HistoryScenario.ok(sync)
        #expect(!sync.stdout.contains("changes no file"), "\(sync)")
        let resolved = try Self.resolvedInMessage(b)
        #expect(resolved.contains("waterline/settings.json"), "\(resolved)")
        let merge = try #require(b.run("log", "--limit", "1", "--json").json.arrayValue?.first)
        #expect(merge["kind"]?.stringValue == "merge")
        let changes = merge["changes"]?.arrayValue ?? []
        #expect(Set(changes.compactMap { $0["path"]?.stringValue }) == resolved, "\(changes)")
        #expect(changes.allSatisfy { $0["merged"] == .bool(true) })
        let text = b.run("log", "--limit", "1").stdout
        #expect(text.contains("  Waterline: ") && text.contains("— merged: ") && !text.contains("nothing to resolve"), "\(text)")
        let waterline = b.run("log", "waterline", "--limit", "1", "--json").json.arrayValue?.first
        #expect(waterline?["commit"] == merge["commit"])
    }

    /// A recipe forked because its temperature changed differently on both devices: the copy is
    /// told by the field that differs — as `ledger conflicts` lists it — not by dose and yield,
    /// which are the same on both, in the preview, the log and an undo that brings the copy back.
    @Test func aConflictedCopyIsToldByTheFieldsThatDiffer() throws {
        let s = try HistoryScenario()
        try s.start()
        let (a, b) = (s.a, s.b)
        HistoryScenario.ok(a.run("brew", "recipe", "edit", "Morning V60", "--temp", "93"))
        HistoryScenario.ok(b.run("brew", "recipe", "edit", "Morning V60", "--temp", "95"))
        HistoryScenario.ok(a.run("sync"))
        let told = "BrewGuide: recipe Morning V60 (Conflicted Copy) — forked: the other device's version, changed differently on both devices, "
            + "kept as this copy (temperature 93 °C, the recipe's 95 °C)"
        let preview = b.run("sync", "--dry-run")
        HistoryScenario.ok(preview)
        #expect(preview.stdout.contains("    " + told + "\n"), "\(preview)")
        HistoryScenario.ok(b.run("sync"))
        let log = b.run("log", "--limit", "1")
        #expect(log.stdout.contains("  " + told + "\n"), "\(log)")
        #expect(!log.stdout.contains("dose"), "\(log)")
        let conflicts = b.run("conflicts", "--json").json.arrayValue?.first
        #expect(conflicts?["fields"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } == ["/defaultWaterTemperature"])
        // An undo of the undo brings the copy back, and tells it the same way.
        HistoryScenario.ok(b.run("undo", "--yes"))
        let again = b.run("undo", "HEAD", "--dry-run")
        #expect(again.stdout.contains("  " + told + "\n"), "\(again)")
    }

    @Test func filtersByAppDocumentPathDeviceDateAndCount() throws {
        let s = try HistoryScenario()
        try s.build()
        func subjects(_ args: String...) -> [String] {
            let r = s.b.run(arguments: ["log", "--json"] + args)
            #expect(r.status == 0, "\(r)")
            return r.json.arrayValue?.compactMap { $0["commit"]?.stringValue } ?? []
        }
        func git(_ args: String...) throws -> [String] {
            try GitCLI.run(["log", "--format=%H"] + args, in: s.b.root).stdout.split(separator: "\n").map(String.init)
        }
        // An app, a document by its id and by its path: the commits git's path-limited log
        // shows, but for merges that took the file whole from one side (that side's commit tells it).
        let nonMerges = Set(try git("--no-merges"))
        #expect(Set(subjects("hydrate", "--limit", "0")) == Set(try git("--", "hydrate")).intersection(nonMerges))
        let session = s.sessionPath(s.b)
        let id = String(session.split(separator: "/").last!.dropLast(5))
        let bySession = subjects(id)
        #expect(Set(bySession).isSuperset(of: Set(try git("--", session)).intersection(nonMerges)))
        #expect(bySession.count == 4, "the laptop's 2 syncs, the phone's, the merge")
        #expect(subjects(session) == bySession)
        #expect(subjects(s.b.root + "/" + session) == bySession)
        // A device; a date; a count.
        let phone = s.b.run("log", "--device", "PHONE", "--json").json.arrayValue ?? []
        #expect(!phone.isEmpty && phone.allSatisfy { $0["device"]?.stringValue == "phone" })
        #expect(subjects("--since", "2000-01-01").count == subjects("--limit", "0").count)
        #expect(subjects("--since", "2999-01-01").isEmpty)
        #expect(subjects("--limit", "2") == Array(subjects("--limit", "0").prefix(2)))
        // A document deleted since is still found by its id.
        HistoryScenario.ok(s.b.run("waterline", "end", "--yes", env: HistoryScenario.at("23:00:00")))
        HistoryScenario.ok(s.b.run("waterline", "sessions", "delete", id, "--yes", env: HistoryScenario.at("23:01:00")))
        HistoryScenario.ok(s.b.run("sync"))
        let after = s.b.run("log", id)
        #expect(after.stdout.hasPrefix(try s.b.revParse("HEAD").prefix(7) + "  "), "\(after)")
        #expect(after.stdout.contains("Waterline: night of Sat 21 Nov — deleted"))
        // Bad input.
        #expect(s.b.run("log", "--limit", "-1").status == 2)
        #expect(s.b.run("log", "--since", "someday").status == 2)
        #expect(s.b.run("log", "Not An Id!").status == 2)
    }

    /// A word that names nothing — a typo of an app, a path that never was, a directory
    /// outside the ledger — is an error naming it, as git refuses `git log waterlin`; what is
    /// there but has no commit (yet, or of that device) is "No commits match."
    @Test func aTargetThatNamesNothingIsAnErrorNotAnEmptyHistory() throws {
        let ledger = try TestLedger()
        let outside = TemporaryDirectory("ledger-log-outside")
        #expect(try GitCLI.run(["log", "waterlin"], in: ledger.root).status != 0)
        let typo = ledger.run("log", "waterlin")
        #expect(typo.status == 1 && typo.stdout.isEmpty, "\(typo)")
        #expect(typo.stderr == "ledger: \"waterlin\" names no app (waterline, brew, hydrate, moments), file, folder or document id of this ledger, "
                + "now or in its history (did you mean 'waterline'?)\n", "\(typo)")
        #expect(ledger.run("log", "--json", "moment").status == 1)
        let never = ledger.run("log", "moments/nothere")
        #expect(never.status == 1 && never.stderr.contains("moments/nothere names no file or folder of this ledger"), "\(never)")
        let away = ledger.run("log", outside.path)
        #expect(away.status == 2 && away.stderr.contains("\(outside.path) is not inside the ledger at \(ledger.root)"), "\(away)")
        // There, without commits: not an error.
        let add = ledger.run("moments", "add", "a quiet walk", "--json")
        let id = try #require(add.json["id"]?.stringValue, "\(add)")
        for args in [[id], [add.json["path"]?.stringValue ?? ""], ["waterline", "--device", "nobody"]] {
            let r = ledger.run(arguments: ["log"] + args)
            #expect(r.status == 0 && r.stdout == "No commits match.\n", "\(args): \(r)")
        }
    }

    /// A commit taken back with plain `git revert` is told as taken back: `undoes` names it, the
    /// log says how to bring it back, and `ledger undo` of it is refused naming the revert, as
    /// after an undo of ledger's (it used to say only "that changes nothing").
    @Test func aGitRevertIsToldAsTakingBackItsCommit() throws {
        let ledger = try TestLedger()
        HistoryScenario.ok(ledger.run("waterline", "settings", "set", "waterEveryNDrinks", "2"))
        #expect(try GitCLI.run(["commit", "-qam", "water every 2 drinks"], in: ledger.root).status == 0)
        let bumped = try ledger.revParse("HEAD")
        #expect(try GitCLI.run(["revert", "--no-edit", "HEAD"], in: ledger.root).status == 0)
        let revert = try ledger.revParse("HEAD")
        let entry = ledger.run("log", "--limit", "1", "--json").json.arrayValue?.first
        #expect(entry?["undoes"] == .string(bumped) && entry?["kind"] == .string("commit"), "\(String(describing: entry))")
        #expect(ledger.run("log", "--limit", "1").stdout.contains("to bring back what it took back: ledger undo \(revert.prefix(7))"))
        let again = ledger.run("undo", bumped, "--yes")
        #expect(again.status == 1 && again.stderr.contains("was already taken back by \(revert.prefix(7))"), "\(again)")
    }
}
