import Foundation
import LedgerKit
@testable import LedgerSync
import LedgerTestSupport
import Testing

@Suite struct CloneCheckoutTests {
    @Test func aCloneWritesEveryFileWithItsModeAndAnIndexThatNeedsNoRereading() throws {
        TestGit.isolate()
        let origin = TemporaryDirectory(), clone = TemporaryDirectory()
        let repo = try Repository.initialize(at: origin.path)
        for i in 0..<30 { try FileSystem.writeAtomically(origin.url("a/b\(i % 3)/c/d\(i).json"), Array("{\"n\": \(i)}\n".utf8)) }
        try FileSystem.writeAtomically(origin.url("run.sh"), Array("#!/bin/sh\n".utf8))
        chmod(origin.url("run.sh"), 0o755)
        symlink("a/b0/c/d0.json", origin.url("link"))
        try repo.commitAll(message: "one", signature: Signature(name: "t", email: "t@example.com"))

        let target = clone.url("ledger")
        let cloned = try Repository.clone(origin.path, to: target, options: TransportOptions())
        #expect(cloned.headReferenceName == "refs/heads/main")
        #expect(try String(contentsOfFile: target + "/a/b2/c/d29.json", encoding: .utf8) == "{\"n\": 29}\n")
        #expect(FileManager.default.isExecutableFile(atPath: target + "/run.sh"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: target + "/link") == "a/b0/c/d0.json")
        // The index holds every file's stat data: the comparison with the work tree applies,
        // finds nothing, and agrees with libgit2's status.
        #expect(try cloned.fastWorkTreeChanges()?.isEmpty == true)
        #expect(try cloned.statusWorkTreeChanges().isEmpty)
    }
}
