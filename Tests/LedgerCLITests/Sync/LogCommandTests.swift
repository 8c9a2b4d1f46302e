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
        #expect(text.contains("  BrewGuide: recipe Morning V60 (Conflicted Copy) — forked: the other device's version"))
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
}
