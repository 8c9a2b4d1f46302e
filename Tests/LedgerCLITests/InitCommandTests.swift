import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

@Suite struct InitCommandTests {
    @Test func createsAGitLedgerOnMainWithDriverAndFirstCommit() throws {
        let ledger = try TestLedger()
        #expect(ledger.read("ledger.json")?.contains("\"format\": 1") == true)
        #expect(ledger.read(".gitattributes")?.contains("*.json merge=ledger") == true)
        let repo = try Repository.open(ledger.root)
        #expect(repo.headReferenceName == "refs/heads/main")
        #expect(repo.headCommit() != nil)
        #expect(repo.config("merge.ledger.driver") == "ledger merge-driver %O %A %B %P")
        #expect(try repo.changedPaths().isEmpty)
    }
}
