import Foundation
import LedgerKit
@testable import LedgerSync
import LedgerTestSupport
import Testing

/// `workTreeChanges` compares the work tree with the index by itself in the usual case; these
/// tests hold it to what libgit2's status (and `git status`) would say.
@Suite struct WorkTreeStatusTests {
    let sig = Signature(name: "t", email: "t@example.com")

    func repository() throws -> (TemporaryDirectory, Repository) {
        TestGit.isolate()
        let dir = TemporaryDirectory()
        let repo = try Repository.initialize(at: dir.path)
        try FileSystem.writeAtomically(dir.url(".gitignore"), Array(".*\n!.gitignore\n*~\n".utf8))
        for i in 0..<50 { try FileSystem.writeAtomically(dir.url("docs/\(i % 5)/d\(i).json"), Array("{\"n\": \(i)}\n".utf8)) }
        try repo.commitAll(message: "one", signature: sig)
        return (dir, repo)
    }

    func sorted(_ changes: [PathChange]) -> [String] { changes.map { "\($0.change.rawValue) \($0.path)" }.sorted() }

    @Test func aCleanTreeHasNoChanges() throws {
        let (dir, repo) = try repository()
        #expect(try repo.workTreeChanges().isEmpty)
        withExtendedLifetime(dir) {}
    }

    @Test func editsDeletionsAndNewFilesAreFoundAndIgnoredOnesAreNot() throws {
        let (dir, repo) = try repository()
        // Same size, written right away: only the contents tell (the racily clean case).
        try FileSystem.writeAtomically(dir.url("docs/1/d1.json"), Array("{\"n\": 9}\n".utf8))
        try FileSystem.remove(dir.url("docs/2/d2.json"))
        try FileSystem.writeAtomically(dir.url("docs/new/deep/n.json"), Array("{}\n".utf8))
        try FileSystem.writeAtomically(dir.url("docs/3/.d3.json.swp"), Array("swap".utf8))
        try FileSystem.writeAtomically(dir.url("docs/3/d3.json~"), Array("backup".utf8))
        try FileSystem.writeAtomically(dir.url(".hidden/x.json"), Array("{}".utf8))
        #expect(sorted(try repo.workTreeChanges()) == ["added docs/new/deep/n.json", "deleted docs/2/d2.json", "modified docs/1/d1.json"])
        // The same answer from the comparison with the index and from libgit2's status.
        #expect(try repo.fastWorkTreeChanges().map(sorted) == sorted(try repo.statusWorkTreeChanges()))
    }

    @Test func aFileRewrittenWithTheSameContentsIsClean() throws {
        let (dir, repo) = try repository()
        try FileSystem.writeAtomically(dir.url("docs/4/d4.json"), Array("{\"n\": 4}\n".utf8))  // new inode and times
        #expect(try repo.workTreeChanges().isEmpty)
    }

    @Test func stagedChangesAreStillReported() throws {
        let (dir, repo) = try repository()
        try FileSystem.writeAtomically(dir.url("docs/0/d0.json"), Array("{\"n\": 100}\n".utf8))
        let index = try repo.index()
        try index.addFromWorkTree("docs/0/d0.json")
        try index.write()
        // Staged, then changed back in the work tree: HEAD and the work tree agree again.
        try FileSystem.writeAtomically(dir.url("docs/5/new.json"), Array("{}\n".utf8))
        #expect(sorted(try repo.workTreeChanges()) == ["added docs/5/new.json", "modified docs/0/d0.json"])
        #expect(try repo.fastWorkTreeChanges() == nil)  // staged changes: libgit2's status answers
    }
}
