import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// SPEC §6 for BrewGuide through `ledger sync` between two machines: a recipe changed on both
/// forks into a conflicted copy, an edit beats a deletion, logs are unioned.
@Suite struct BrewSyncTests {
    static func at(_ time: String) -> [String: String] { ["LEDGER_NOW": "2026-11-21T\(time)+01:00"] }

    func recipes(_ l: TestLedger) -> [JSONValue] { l.run("brew", "recipes", "--json").json.arrayValue ?? [] }

    @Test func aRecipeChangedOnBothMachinesIsKeptTwice() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let id = a.run("brew", "recipe", "duplicate", "v60-starter", "--name", "My V60", env: Self.at("08:00:00")).stdout
            .trimmingCharacters(in: .newlines)
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        #expect(a.run("brew", "recipe", "edit", id, "--temp", "92", env: Self.at("09:00:00")).status == 0)
        #expect(b.run("brew", "recipe", "edit", id, "--dose", "18", "--yield", "300", "--scale-steps", env: Self.at("09:30:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let r = b.run("sync")
        #expect(r.status == 0, "\(r)")
        #expect(a.run("sync").status == 0)
        #expect(try a.headTree() == b.headTree())
        for l in [a, b] {
            let list = recipes(l)
            #expect(list.count == 3)
            // The machine that merged (b) kept its version under the id; a's is the copy.
            let kept = try #require(l.document("brew/recipes/\(id).json"))
            #expect(kept["name"] == .string("My V60") && kept["defaultDose"] == .number(18) && kept["defaultWaterTemperature"] == .number(94))
            let copy = try #require(list.first { $0["name"] == .string("My V60 (Conflicted Copy)") })
            #expect(copy["defaultWaterTemperature"] == .number(92) && copy["defaultDose"] == .number(15))
            #expect(copy["valid"] == .bool(true))
            #expect(l.run("check").status == 0)
        }

        // Another conflict on the same recipe: "(Conflicted Copy 2)".
        #expect(a.run("brew", "recipe", "edit", id, "--grind", "fine", env: Self.at("10:00:00")).status == 0)
        #expect(b.run("brew", "recipe", "edit", id, "--grind", "coarse", env: Self.at("10:30:00")).status == 0)
        #expect(a.run("sync").status == 0)
        #expect(b.run("sync").status == 0)
        #expect(a.run("sync").status == 0)
        #expect(try a.headTree() == b.headTree())
        #expect(recipes(a).compactMap { $0["name"]?.stringValue }.sorted()
            == ["My V60", "My V60 (Conflicted Copy 2)", "My V60 (Conflicted Copy)", "V60 starter"])
    }

    @Test func aRecipeEditedOnThreeMachinesForksIntoCopiesWithDistinctNames() throws {
        // The third machine's merge brings the second's copy and forks once more: the new copy
        // must see the first copy's name, whatever order their paths sort in.
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let made = a.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Shared", env: Self.at("08:00:00")).stdout
            .trimmingCharacters(in: .newlines)
        // An id that sorts before any copy's, so the copy made by the second merge is met after
        // the recipe itself when the third merge walks the changes.
        let id = "0000shared"
        let text = try #require(a.read("brew/recipes/\(made).json")).replacingOccurrences(of: made, with: id)
        try a.write("brew/recipes/\(id).json", text)
        try FileManager.default.removeItem(atPath: a.root + "/brew/recipes/\(made).json")
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone(), c = try fixture.clone()
        for (i, l) in [a, b, c].enumerated() {
            #expect(l.run("brew", "recipe", "edit", id, "--temp", String(90 + i), env: Self.at("09:0\(i):00")).status == 0)
        }
        for l in [a, b, c, a, b] { #expect(l.run("sync").status == 0) }
        #expect(try a.headTree() == b.headTree() && b.headTree() == c.headTree())
        let names = recipes(a).compactMap { $0["name"]?.stringValue }.filter { $0.hasPrefix("Shared") }.sorted()
        #expect(names == ["Shared", "Shared (Conflicted Copy 2)", "Shared (Conflicted Copy)"])
        #expect(a.run("check").status == 0)
        #expect(!a.run("check").stdout.contains("warning"))
    }

    @Test func anEditBeatsADeletionAndLogsAreUnioned() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let id = a.run("brew", "recipe", "duplicate", "v60-starter", env: Self.at("08:00:00")).stdout.trimmingCharacters(in: .newlines)
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        #expect(a.run("brew", "recipe", "delete", id, "--yes", env: Self.at("09:00:00")).status == 0)
        #expect(b.run("brew", "recipe", "edit", id, "--temp", "93", env: Self.at("09:10:00")).status == 0)
        #expect(a.run("brew", "save", "--rating", "4", env: Self.at("09:20:00")).status == 0)
        #expect(b.run("brew", "save", id, "--rating", "5", "--tag", "perfect", env: Self.at("09:25:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let r = b.run("sync")
        #expect(r.status == 0, "\(r)")
        #expect(a.run("sync").status == 0)
        #expect(try a.headTree() == b.headTree())
        for l in [a, b] {
            #expect(l.document("brew/recipes/\(id).json")?["defaultWaterTemperature"] == .number(93))
            #expect(l.run("brew", "logs", "--json").json.arrayValue?.count == 2)
            #expect(l.run("check").status == 0)
        }
    }
}
