import Foundation
@testable import LedgerKit
import LedgerTestSupport
import Testing

/// Reading logs in order, and the shortcut that finds the newest without decoding them all.
@Suite struct BrewLogBookTests {
    func log(_ id: String, _ time: String, note: String? = nil) throws -> BrewLog {
        BrewLog(id: id, plan: try RecipeScaler.plan(.starter), rating: 4, tasteTag: nil, note: note, at: Timestamp(iso8601: time)!)
    }

    @Test func theTimestampIsFoundInCanonicalTextOnly() throws {
        // A note that quotes the member's text cannot fool it: a JSON string holds no raw newline.
        let tricky = try log("a1", "2026-11-21T08:10:00+01:00", note: "\n  \"timestamp\": \"2030-01-01T00:00:00Z\"")
        let canonical = CanonicalJSON.encode(tricky.json)
        #expect(BrewLogBook.quickTimestamp(canonical) == Timestamp(iso8601: "2026-11-21T08:10:00+01:00"))
        #expect(BrewLogBook.quickTimestamp(Array(CanonicalJSON.compact(tricky.json).utf8)) == nil)
    }

    @Test func theNewestAreChosenWithoutDecodingAndHandEditedFilesStillCount() throws {
        let dir = TemporaryDirectory()
        let store = LedgerStore.plain(dir.path)
        let repo = store.repository(BrewLog.self)
        for (i, day) in (1...30).enumerated() {
            try repo.save(try log("log\(i)", "2026-10-\(day < 10 ? "0" : "")\(day)T08:00:00+01:00"))
        }
        // A hand edit in compact form, the latest of all; and two logs at the same instant.
        let late = try log("zz-hand", "2026-11-02T09:00:00+01:00")
        try FileSystem.writeAtomically(store.absolute(late.path), Array(CanonicalJSON.compact(late.json).utf8))
        try repo.save(try log("tie-a", "2026-11-01T08:00:00+01:00"))
        try repo.save(try log("tie-b", "2026-11-01T08:00:00+01:00"))
        let book = BrewLogBook(store: store)
        let all = try book.logs()
        #expect(all.count == 33)
        #expect(all.map(\.timestamp) == all.map(\.timestamp).sorted())
        #expect(try book.logs(limit: 3).map(\.id) == ["tie-a", "tie-b", "zz-hand"])
        #expect(try book.logs(limit: 2).map(\.id) == ["tie-b", "zz-hand"])
        #expect(try book.latest()?.id == "zz-hand")
        #expect(try book.logs(limit: 50).count == 33)
    }
}
