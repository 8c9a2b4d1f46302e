import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

@Suite struct RepositoryTests {
    @Test func commitAllStagesNewModifiedAndDeletedFiles() throws {
        TestGit.isolate()
        let dir = TemporaryDirectory()
        let repo = try Repository.initialize(at: dir.path)
        #expect(repo.headReferenceName == "refs/heads/main")
        let sig = Signature(name: "t", email: "t@example.com")
        try FileSystem.writeAtomically(dir.url("a.json"), Array("{}\n".utf8))
        try FileSystem.writeAtomically(dir.url("b.json"), Array("{}\n".utf8))
        let first = try repo.commitAll(message: "one", signature: sig)
        #expect(first != nil)
        #expect(try repo.commitAll(message: "nothing", signature: sig) == nil)
        try FileSystem.remove(dir.url("a.json"))
        try FileSystem.writeAtomically(dir.url("b.json"), Array("[]\n".utf8))
        #expect(try repo.workTreeChanges().map(\.path).sorted() == ["a.json", "b.json"])
        #expect(try repo.commitAll(message: "two", signature: sig) != nil)
        #expect(try repo.workTreeChanges().isEmpty)
    }
}
