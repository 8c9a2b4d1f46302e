import Foundation
import LedgerKit
@testable import LedgerSync
import LedgerTestSupport
import Testing

/// A sync never checks a file out through a symbolic link that replaced a folder of the
/// ledger. The set-up: `hydrate/days` moved to a folder outside and replaced by a link to it
/// (kept out of git's sight with `.git/info/exclude`, so nothing looks changed), while the
/// other machine adds a new day. What each tool does with it, on identical clones:
@Suite struct SymbolicLinkCheckoutTests {
    static let day20 = ["LEDGER_NOW": "2026-11-20T12:30:00+01:00"]
    static let day21 = ["LEDGER_NOW": "2026-11-21T12:30:00+01:00"]

    /// Clones of a ledger whose `hydrate/days` is linked to `<clone's directory>/outside`,
    /// behind a remote that holds one more day.
    static func linkedClones(_ count: Int) throws -> (SyncFixture, [TestLedger]) {
        let fixture = try SyncFixture()
        let a = try fixture.origin(now: "2026-11-20T12:30:00+01:00")
        #expect(a.run("hydrate", "drank", env: day20).status == 0)
        #expect(a.run("sync").status == 0)
        let clones = try (0..<count).map { _ in try fixture.clone() }
        #expect(a.run("hydrate", "drank", env: day21).status == 0)
        #expect(a.run("sync").status == 0)
        for c in clones {
            let outside = c.directory.url("outside")
            try FileManager.default.moveItem(atPath: c.root + "/hydrate/days", toPath: outside)
            try FileManager.default.createSymbolicLink(atPath: c.root + "/hydrate/days", withDestinationPath: outside)
            let exclude = c.root + "/.git/info/exclude"
            let text = (try? String(contentsOfFile: exclude, encoding: .utf8)) ?? ""
            try (text + "hydrate/days\n").write(toFile: exclude, atomically: true, encoding: .utf8)
        }
        return (fixture, clones)
    }

    static func outside(_ c: TestLedger) -> [String] {
        (FileManager.default.subpaths(atPath: c.directory.url("outside")) ?? []).sorted()
    }

    @Test func libgit2PlainGitAndLedgerSyncWithALinkedFolder() throws {
        let (fixture, clones) = try Self.linkedClones(3)
        _ = fixture
        let (viaLibgit2, viaGit, viaLedger) = (clones[0], clones[1], clones[2])
        let before = ["2026", "2026/2026-11-20.json"]
        for c in clones { #expect(Self.outside(c) == before) }

        // libgit2 1.5's checkout (git_checkout_tree, safe strategy) writes the new day
        // through the link, outside the repository: ledger does not check out with it.
        let repo = try Repository.open(viaLibgit2.root)
        #expect(try GitCLI.run(["fetch", "-q", "origin"], in: viaLibgit2.root).status == 0)
        let upstream = try #require(repo.resolve("refs/remotes/origin/main"))
        try repo.checkout(tree: repo.treeOf(commit: upstream))
        #expect(Self.outside(viaLibgit2) == before + ["2026/2026-11-21.json"])

        // Plain git never writes through it: the ignored link is removed, a real folder made.
        let pull = try GitCLI.run(["pull", "--no-rebase", "--no-edit", "origin", "main"], in: viaGit.root)
        #expect(pull.status == 0, "\(pull)")
        #expect(Self.outside(viaGit) == before)
        #expect(FileManager.default.fileExists(atPath: viaGit.root + "/hydrate/days/2026/2026-11-21.json"))

        // ledger refuses before writing anything: exit 1, naming the link; the branch stays.
        let head = try GitCLI.run(["rev-parse", "HEAD"], in: viaLedger.root).stdout
        let sync = viaLedger.run("sync")
        #expect(sync.status == 1, "\(sync)")
        #expect(sync.stderr.contains("refusing to write hydrate/days/2026/2026-11-21.json: hydrate/days is a symbolic link, and ledger never follows one inside a ledger"), "\(sync)")
        #expect(Self.outside(viaLedger) == before)
        #expect(try GitCLI.run(["rev-parse", "HEAD"], in: viaLedger.root).stdout == head)
        // With the folder back in its place, the next sync brings the day in.
        try FileManager.default.removeItem(atPath: viaLedger.root + "/hydrate/days")
        try FileManager.default.moveItem(atPath: viaLedger.directory.url("outside"), toPath: viaLedger.root + "/hydrate/days")
        #expect(viaLedger.run("sync").status == 0)
        #expect(FileManager.default.fileExists(atPath: viaLedger.root + "/hydrate/days/2026/2026-11-21.json"))
        #expect(viaLedger.run("check").status == 0)
    }

    /// Without the exclusion, the link is a change `check` rejects: nothing is committed.
    @Test func aVisibleLinkIsRefusedBeforeTheCommit() throws {
        let (fixture, clones) = try Self.linkedClones(1)
        _ = fixture
        let c = clones[0]
        try "".write(toFile: c.root + "/.git/info/exclude", atomically: true, encoding: .utf8)
        let sync = c.run("sync")
        #expect(sync.status == 1)
        #expect(sync.stderr.contains("hydrate/days: /: error: \(FileSystem.symbolicLinkProblem)"), "\(sync)")
        #expect(Self.outside(c) == ["2026", "2026/2026-11-20.json"])
    }
}
