import Synchronization
import Dispatch
import Foundation
@testable import LedgerKit
import LedgerTestSupport
import Testing

@Suite struct StoreTests {
    @Test func repositoriesLoadSaveResolveAndDelete() throws {
        let dir = TemporaryDirectory()
        let store = LedgerStore.plain(dir.path)
        let repo = store.repository(Note.self)
        try repo.save(Note.make("abc123", "one two"))
        try repo.save(Note.make("abd999", "three", at: "2025-06-01T12:00:00+02:00"))
        #expect(try repo.load(id: "abc123").wordCount == 2)
        #expect(try repo.path(of: "abd999") == "notes/items/2025/abd999.json")
        #expect(try repo.resolve("abc", describe: "note") == "abc123")
        #expect(throws: LedgerError.self) { try repo.resolve("ab", describe: "note") }
        #expect(try repo.all().map(\.id).sorted() == ["abc123", "abd999"])
        // Moving a document to another year moves its file.
        var moved = try repo.load(id: "abd999")
        moved.at = Timestamp(iso8601: "2026-01-02T12:00:00+01:00")!
        try repo.save(moved)
        #expect(try repo.path(of: "abd999") == "notes/items/2026/abd999.json")
        #expect(!FileSystem.exists(dir.url("notes/items/2025")))
        try repo.delete(id: "abc123")
        #expect(throws: LedgerError.self) { try repo.load(id: "abc123") }
    }

    @Test func savingAnInvalidDocumentIsRefusedAndLeavesTheFileAsItWas() throws {
        let dir = TemporaryDirectory()
        let repo = LedgerStore.plain(dir.path).repository(Note.self)
        try repo.save(Note.make("n1", "fine"))
        let before = try String(contentsOfFile: dir.url("notes/items/2026/n1.json"), encoding: .utf8)
        #expect(throws: LedgerError.self) { try repo.save(Note.make("n1", String(repeating: "x", count: 50))) }
        #expect(try String(contentsOfFile: dir.url("notes/items/2026/n1.json"), encoding: .utf8) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url("notes/items/2026")) == ["n1.json"])
    }

    @Test func loadingAnInvalidDocumentGivesCheckSProblems() throws {
        let dir = TemporaryDirectory()
        let store = LedgerStore.plain(dir.path)
        try FileManager.default.createDirectory(atPath: dir.url("notes/items/2026"), withIntermediateDirectories: true)
        try "{\"id\": \"n1\"".write(toFile: dir.url("notes/items/2026/n1.json"), atomically: false, encoding: .utf8)
        do {
            _ = try store.repository(Note.self).load(id: "n1")
            Issue.record("expected an error")
        } catch let e as LedgerError {
            #expect(e.code == .invalid && e.sentence.nextStep == .checkLedger)
            #expect(e.description == """
                notes/items/2026/n1.json is invalid; fix it by hand and check the ledger again:
                  notes/items/2026/n1.json: 1:12: error: unexpected end of file inside an object that starts at line 1, column 1
                """)
        }
    }

    @Test func theWriterLockSerialisesReadModifyWrite() throws {
        let dir = TemporaryDirectory()
        let store = LedgerStore.plain(dir.path)
        let settings = store.singleton(NoteSettings.self)
        try settings.save(NoteSettings())
        let threads = 8, rounds = 25
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<rounds {
                try? store.withWriterLock {
                    var s = try settings.load()
                    s.size += 1
                    try settings.save(s)
                }
            }
        }
        #expect(try settings.load().size == 12 + threads * rounds)
    }

    @Test func aWriterWaitingForTheLockIsToldWhoHoldsIt() throws {
        let dir = TemporaryDirectory()
        let path = dir.url("lock")
        let holder = try FileLock(path: path, holder: "\(getpid()) ledger sync")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("\(getpid()) "))
        let heard = Mutex<String?>(nil)
        let acquired = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let waiter = try? FileLock(path: path, waiting: { who in heard.withLock { $0 = who } })
            waiter?.release()
            acquired.signal()
        }
        for _ in 0..<500 where heard.withLock({ $0 }) == nil { usleep(10_000) }
        #expect(heard.withLock { $0 }?.hasPrefix("\(getpid()) ") == true)
        holder.release()
        #expect(acquired.wait(timeout: .now() + 10) == .success)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "")  // released: no holder recorded
    }

    /// Random ids are ten characters of the id alphabet, each position taking every one of
    /// the 36 (one draw of the system's generator makes all ten digits).
    @Test func randomIDsUseTheWholeAlphabetInEveryPosition() {
        let ids = (0..<3000).map { _ in RandomIDSource().next() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.count == 10 && DocumentID.isValid($0) })
        for position in 0..<10 {
            let seen = Set(ids.map { Array($0)[position] })
            #expect(seen.count == 36, "position \(position): \(seen.sorted())")
        }
    }
}
