import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// "Already in step" only when a sync exchanged nothing: commits that together change no file
/// (one adds a file, the next removes it; a change and the revert of it, then of that) are
/// pushed and pulled like any other, and counted as `git rev-list --count` counts them.
@Suite struct InStepTests {
    static func count(_ range: String, in repository: String) throws -> Double {
        Double(try GitCLI.run(["rev-list", "--count", range], in: repository).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// A file of the user's added and removed again, with plain git: two commits, no change.
    static func addAndRemove(_ ledger: TestLedger, _ name: String) throws {
        try ledger.write(name, "x\n")
        for step in [["add", name], ["commit", "-qm", "add \(name)"], ["rm", "-q", name], ["commit", "-qm", "remove \(name)"]] {
            #expect(try GitCLI.run(step, in: ledger.root).status == 0)
        }
    }

    @Test func pushingCommitsThatChangeNoFileIsASync() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let remote = "origin (\(fixture.remote))"
        let before = try RepositoryFiles.revParse("refs/heads/main", in: fixture.remote)
        try Self.addAndRemove(a, "own.txt")
        // Plain git: two commits to push, and no file differs from the remote's branch.
        #expect(try Self.count("origin/main..main", in: a.root) == 2)
        #expect(try GitCLI.run(["diff", "--name-only", "origin/main", "main"], in: a.root).stdout == "")

        let preview = a.run("sync", "--dry-run")
        #expect(preview.stdout.contains("  push 2 commits to \(remote) (0 files changed there).\n"), "\(preview)")
        #expect(!preview.stdout.contains("already in step"), "\(preview)")

        let r = a.run("sync", "--json")
        #expect(r.status == 0, "\(r)")
        let head = try RepositoryFiles.revParse("HEAD", in: a.root)
        #expect(r.json["outcome"] == .string("synced"), "\(r)")
        #expect(r.json["pushedCommits"] == .number(2))
        #expect(r.json["pulledCommits"] == .number(0))
        #expect(r.json["pushAttempts"] == .number(1))
        #expect(r.json["pushed"] == .array([]))
        #expect(r.json["head"] == .string(head))
        #expect(try RepositoryFiles.revParse("refs/heads/main", in: fixture.remote) == head)
        #expect(try Self.count("\(before)..main", in: fixture.remote) == 2)
        #expect(try GitCLI.run(["status", "-sb"], in: a.root).stdout == "## main...origin/main\n")

        // In words: what was pushed, then where both stand.
        try Self.addAndRemove(a, "other.txt")
        let t = a.run("sync")
        #expect(t.status == 0, "\(t)")
        let short = String(try RepositoryFiles.revParse("HEAD", in: a.root).prefix(7))
        #expect(t.stdout.contains("Pushed 2 commits to \(remote); together they change no file.\n"), "\(t)")
        #expect(t.stdout.hasSuffix("In step with \(remote) at \(short).\n"), "\(t)")
        #expect(!t.stdout.contains("Already in step"))
        #expect(try RepositoryFiles.revParse("refs/heads/main", in: fixture.remote) == RepositoryFiles.revParse("HEAD", in: a.root))

        // Nothing left to exchange: now, and only now, it is already in step.
        let again = a.run("sync", "--json")
        #expect(again.json["outcome"] == .string("up-to-date"), "\(again)")
        #expect(again.json["pushedCommits"] == .number(0))
        #expect(again.json["pushAttempts"] == .number(0))
        #expect(a.run("sync").stdout == "Already in step with \(remote).\n")
    }

    @Test func pullingAChangeTakenBackAndBroughtBackIsASync() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let remote = "origin (\(fixture.remote))"
        #expect(a.run("waterline", "settings", "set", "waterEveryNDrinks", "3").status == 0)
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone(), c = try fixture.clone()
        let before = try RepositoryFiles.revParse("HEAD", in: b.root)
        // The change taken back, then that taken back: two commits, the same documents.
        for _ in 0..<2 { #expect(try GitCLI.run(["revert", "--no-edit", "HEAD"], in: a.root).status == 0) }
        #expect(a.run("sync").status == 0)
        #expect(try GitCLI.run(["diff", "--name-only", before, "HEAD"], in: a.root).stdout == "")

        let r = b.run("sync", "--json")
        #expect(r.status == 0, "\(r)")
        #expect(r.json["outcome"] == .string("synced"), "\(r)")
        #expect(r.json["pulledCommits"] == .number(2))
        #expect(r.json["pulled"] == .array([]))
        #expect(r.json["pushedCommits"] == .number(0))
        // As plain git sees it: two commits more, the remote's.
        #expect(try Self.count("\(before)..HEAD", in: b.root) == 2)
        #expect(try RepositoryFiles.revParse("HEAD", in: b.root) == RepositoryFiles.revParse("refs/heads/main", in: fixture.remote))

        let preview = c.run("sync", "--dry-run")
        #expect(preview.stdout.hasPrefix("A sync now would:\n  bring in 2 commits from \(remote); together they change no file.\n"), "\(preview)")
        #expect(!preview.stdout.contains("already in step"), "\(preview)")
        let t = c.run("sync")
        #expect(t.status == 0, "\(t)")
        let short = String(try RepositoryFiles.revParse("HEAD", in: c.root).prefix(7))
        #expect(t.stdout == "Pulled 2 commits from \(remote); together they change no file.\nIn step with \(remote) at \(short).\n", "\(t)")
        #expect(try GitCLI.run(["status", "-sb"], in: c.root).stdout == "## main...origin/main\n")
    }
}
