import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// People who use plain git on a ledger get ledger's merge driver, and the same results.
@Suite struct PlainGitTests {
    static func at(_ time: String) -> [String: String] { ["LEDGER_NOW": "2026-11-21T\(time)+01:00"] }

    @Test func aPlainCloneGetsTheDriverFromItsFirstLedgerCommandAndItsFirstPullMerges() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "start", env: Self.at("21:00:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let c = try TestLedger(initialize: false)
        #expect(try GitCLI.run(["clone", "-q", fixture.remote, c.root], in: "/").status == 0)
        #expect(try GitCLI.run(["config", "merge.ledger.driver"], in: c.root).status != 0)

        let first = c.run("waterline", "status")
        #expect(first.status == 0, "\(first)")
        #expect(first.stderr.contains("registered ledger's merge driver"), "\(first)")
        let driver = try GitCLI.run(["config", "merge.ledger.driver"], in: c.root).stdout
        #expect(driver == LedgerSetup.mergeDriverCommand + "\n")
        // Said once.
        #expect(c.run("waterline", "status").stderr.isEmpty)

        // The session edited on both sides, then a plain `git pull`.
        #expect(a.run("waterline", "drink", "--preset", "beer", env: Self.at("21:10:00")).status == 0)
        #expect(a.run("sync").status == 0)
        #expect(c.run("waterline", "water", env: Self.at("21:20:00")).status == 0)
        try GitCLI.run(["commit", "-qam", "water"], in: c.root)
        let pull = try GitCLI.run(["pull", "--no-rebase", "--no-edit", "origin", "main"], in: c.root)
        #expect(pull.status == 0, "\(pull)")
        #expect(!pull.stdout.contains("CONFLICT"))
        let session = try #require(c.files(under: "waterline/sessions").first)
        #expect(c.read(session)?.contains("<<<<<<<") == false)
        #expect(c.run("check").status == 0)
        let state = c.run("waterline", "status", "--json").json
        #expect(state["totalAlcoholCount"] == .number(1) && state["totalWaterCount"] == .number(1))
    }

    @Test func checkWarnsWhenGitWouldNotFindTheDriver() throws {
        let ledger = try TestLedger()
        // git sends documents to the driver…
        let attr = try GitCLI.run(["check-attr", "merge", "--", "waterline/settings.json"], in: ledger.root).stdout
        #expect(attr == "waterline/settings.json: merge: ledger\n")
        // …which it runs through the shell, finding `ledger` on PATH.
        let found = ledger.run("check")
        #expect(found.status == 0 && !found.stdout.contains(".gitattributes"), "\(found)")
        let lost = ledger.run("check", "--json", env: ["PATH": "/usr/bin:/bin"])
        #expect(lost.status == 0, "\(lost)")
        let problem = try #require(lost.json["problems"]?.arrayValue?.first)
        #expect(problem["path"] == .string(".gitattributes") && problem["severity"] == .string("warning"))
        #expect(problem["message"]?.stringValue?.contains("git would not find ledger") == true, "\(problem)")
        #expect(lost.json["warnings"] == .number(1))
        // A driver registered by its full path is found again.
        try GitCLI.run(["config", "merge.ledger.driver", LedgerBinary.path + " merge-driver %O %A %B %P"], in: ledger.root)
        #expect(ledger.run("check", "--json", env: ["PATH": "/usr/bin:/bin"]).json["warnings"] == .number(0))
    }

    /// Every session document of a ledger's work tree, by path.
    static func sessions(_ l: TestLedger) -> [String: String] {
        var out: [String: String] = [:]
        for path in l.files(under: "waterline/sessions") { out[path] = l.read(path) }
        return out
    }

    /// Device A ends the night and starts another; device B, offline, logs a drink into the
    /// first. `ledger sync` on B gives one re-opened session (the reconciliation of sessions
    /// that overlap); a plain `git pull` — merging or rebasing — leaves the ended session
    /// overlapping the active one, which `check` reports and the next `ledger waterline`
    /// command makes one, the same documents as the sync wrote.
    @Test func aNightEndedHereAndLoggedThereIsOneSessionWhetherPulledOrSynced() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "start", env: Self.at("21:00:00")).status == 0)
        #expect(a.run("waterline", "drink", env: Self.at("21:05:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        #expect(b.run("waterline", "status", env: Self.at("21:06:00")).status == 0)  // registers the merge driver, as any command does
        #expect(a.run("waterline", "end", "--yes", env: Self.at("22:00:00")).status == 0)
        #expect(a.run("waterline", "start", env: Self.at("22:30:00")).status == 0)
        #expect(a.run("waterline", "drink", env: Self.at("22:35:00")).status == 0)
        #expect(a.run("sync").status == 0)
        #expect(b.run("waterline", "drink", env: Self.at("22:40:00")).status == 0)
        try GitCLI.run(["add", "-A"], in: b.root)
        #expect(try GitCLI.run(["commit", "-qm", "a drink on B"], in: b.root).status == 0)
        // Two copies of B, committed alike: one integrates with plain git, one with ledger.
        var pulled: [(String, TestLedger)] = []
        for pull in [["pull", "--no-rebase", "--no-edit"], ["pull", "--rebase"]] {
            let copy = try TestLedger(initialize: false)
            #expect(try Processes.run("/bin/cp", ["-a", b.root, copy.root]).status == 0)
            let r = try GitCLI.run(pull + ["origin", "main"], in: copy.root)
            #expect(r.status == 0 && !r.stdout.contains("CONFLICT"), "\(r)")
            // What plain git left: an ended session overlapping the active one.
            let check = copy.run("check")
            #expect(check.status == 1 && check.stdout.contains("overlaps another") && check.stdout.contains(", active)"), "\(check)")
            pulled.append((pull.joined(separator: " "), copy))
        }
        let synced = b.run("sync", "--json")
        #expect(synced.status == 0 && synced.json["reconciled"]?.arrayValue?.isEmpty == false, "\(synced)")
        let expected = Self.sessions(b)
        #expect(expected.count == 1, "one re-opened session: \(expected.keys)")
        #expect(b.run("waterline", "status", "--json", env: Self.at("22:45:00")).json["totalAlcoholCount"] == .number(3))
        for (how, copy) in pulled {
            let status = copy.run("waterline", "status", "--json", env: Self.at("22:45:00"))
            #expect(status.status == 0 && status.stderr.contains("overlapped"), "\(how): \(status)")
            #expect(status.json["totalAlcoholCount"] == .number(3), "\(how)")
            #expect(Self.sessions(copy) == expected, "\(how) then a ledger command gives what the sync gave")
            #expect(copy.run("check").status == 0, "\(how)")
        }
    }

    /// A recipe edited on both sides, integrated by plain git with `pull` as given; returns the
    /// recipes' files as the pull left them, and what git's status says.
    static func recipeConflict(pull: [String]) throws -> (recipes: [String: String], status: String, id: String) {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let id = a.run("brew", "recipe", "duplicate", "v60-starter", "--name", "House").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!id.isEmpty)
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        #expect(a.run("brew", "recipe", "edit", id, "--name", "From A", "--dose", "18", env: Self.at("22:00:00")).status == 0)
        #expect(a.run("sync").status == 0)
        #expect(b.run("brew", "recipe", "edit", id, "--name", "From B", "--dose", "22", env: Self.at("22:05:00")).status == 0)
        try GitCLI.run(["commit", "-qam", "b's recipe"], in: b.root)
        let r = try GitCLI.run(pull + ["origin", "main"], in: b.root)
        #expect(r.status == 0, "\(r)")
        #expect(b.run("check").status == 0)
        var recipes: [String: String] = [:]
        for path in b.files(under: "brew/recipes") { recipes[path] = b.read(path) }
        return (recipes, try b.gitStatus(), id)
    }

    @Test func aRebasingPullResolvesARecipeAsAMergeDoes() throws {
        let merged = try Self.recipeConflict(pull: ["pull", "--no-rebase", "--no-edit"])
        let rebased = try Self.recipeConflict(pull: ["pull", "--rebase"])
        // This machine's version keeps the id, the other's is the conflicted copy: both ways.
        for outcome in [merged, rebased] {
            let mine = try JSONParser.parse(Array(try #require(outcome.recipes["brew/recipes/\(outcome.id).json"]).utf8))
            #expect(mine["name"] == .string("From B"))
            let names = outcome.recipes.values.compactMap { try? JSONParser.parse(Array($0.utf8))["name"]?.stringValue }
            #expect(names.contains("From A (Conflicted Copy)"), "\(names)")
            // The copy waits in the work tree for `ledger sync` (or `git add`).
            #expect(outcome.status.hasPrefix("?? brew/recipes/"), "\(outcome.status)")
        }
        // The same documents but for the ids, which are random in each run.
        let documents = { (recipes: [String: String]) -> [String] in
            recipes.values.compactMap { text -> String? in
                guard case .object(var o)? = try? JSONParser.parse(Array(text.utf8)) else { return nil }
                o["id"] = nil
                return CanonicalJSON.string(.object(o))
            }.sorted()
        }
        #expect(merged.recipes.count == rebased.recipes.count)
        #expect(documents(merged.recipes) == documents(rebased.recipes))
    }
}
