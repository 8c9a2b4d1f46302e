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

    /// Deleting a brew log and a recipe (BrewGuide US-023, US-027; "a user-visible way to
    /// delete synced data") syncs: the other machine, which had not changed them, deletes them
    /// at its next sync, and so does a plain `git pull` of the same remote. What remains is
    /// git's history — until it is rewritten as docs/brewguide.md says, after which a new clone holds
    /// no trace of them.
    @Test func deletionsSyncAndOnlyHistoryKeepsThemUntilTheyArePurged() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let id = a.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Private blend", env: Self.at("08:00:00")).stdout
            .trimmingCharacters(in: .newlines)
        let saved = a.run("brew", "save", id, "--rating", "2", "--note", "a secret", "--json", env: Self.at("08:05:00")).json
        let log = try #require(saved["id"]?.stringValue)
        let logPath = "brew/logs/2026/\(log).json", recipePath = "brew/recipes/\(id).json"
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        let plain = fixture.directory.path + "/plain"
        #expect(try GitCLI.run(["clone", "-q", fixture.remote, plain], in: "/").status == 0)
        for root in [b.root, plain] { #expect(FileManager.default.fileExists(atPath: root + "/" + logPath)) }

        let refused = a.run("brew", "log", "delete", log)
        #expect(refused.status == 2 && refused.stderr.contains("needs a confirmation"))
        #expect(a.run("brew", "log", "delete", String(log.prefix(6)), "--yes", env: Self.at("09:00:00")).status == 0)
        #expect(a.run("brew", "recipe", "delete", "private blend", "--yes", env: Self.at("09:01:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let r = b.run("sync")
        #expect(r.status == 0, "\(r)")
        #expect(try GitCLI.run(["pull", "-q", "--no-rebase"], in: plain).status == 0)
        for root in [a.root, b.root, plain] {
            #expect(!FileManager.default.fileExists(atPath: root + "/" + logPath), "\(root)")
            #expect(!FileManager.default.fileExists(atPath: root + "/" + recipePath), "\(root)")
        }
        #expect(try a.headTree() == b.headTree())
        #expect(b.run("brew", "logs", "--json").json == .array([]))
        #expect(recipes(b).count == 1)
        #expect(b.document("brew/preferences.json")?["lastRecipeId"] == .string("v60-starter"))
        #expect(b.run("check").status == 0)

        // What remains: every version, in git's history, on every clone and on the remote.
        let deletion = try GitCLI.run(["log", "--format=%H", "--diff-filter=D", "--", logPath], in: b.root).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!deletion.isEmpty && !deletion.contains("\n"))
        let blob = try GitCLI.run(["rev-parse", "\(deletion)^:\(logPath)"], in: b.root).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try GitCLI.run(["cat-file", "-p", blob], in: fixture.remote).stdout.contains("a secret"))

        // Removed for good, as docs/brewguide.md says: `ledger purge`, which the other device honours.
        for target in [log, id] {
            let purge = a.run("purge", target, "--yes", env: Self.at("09:10:00"))
            #expect(purge.status == 0, "\(purge)")
        }
        #expect(b.run("sync").status == 0)
        for repo in [a.root, b.root, fixture.remote] {
            #expect(try GitCLI.run(["cat-file", "-e", blob], in: repo).status != 0, "\(repo)")
            #expect(try GitCLI.run(["log", "--all", "--format=%H", "--", logPath, recipePath], in: repo).stdout.isEmpty, "\(repo)")
        }
        // A plain git clone does not honour a purge: it keeps every version until it is replaced.
        #expect(try GitCLI.run(["cat-file", "-e", blob], in: plain).status == 0)
        let fresh = try fixture.clone()
        #expect(try GitCLI.run(["cat-file", "-e", blob], in: fresh.root).status != 0)
        for l in [a, b, fresh] { #expect(l.run("check").status == 0) }
        #expect(fresh.run("sync").status == 0)
    }
}
