import LedgerKit
import Testing

/// Two versions with different ids at one path are two documents, never one to merge.
@Suite struct DocumentIdentityMergeTests {
    let t0 = Timestamp(iso8601: "2026-11-20T09:00:00+01:00")!
    let t1 = Timestamp(iso8601: "2026-11-21T08:00:00+01:00")!

    func log(_ id: String, rating: Int, at time: Timestamp) throws -> BrewLog {
        BrewLog(id: id, plan: try RecipeScaler.plan(.starter), rating: rating, tasteTag: nil, note: nil, at: time)
    }

    @Test func anotherDocumentAtThePathIsNotBlended() throws {
        let type = DocumentType(BrewLog.self)
        let base = try log("log1", rating: 3, at: t0)
        var ours = base
        ours.rating = 1
        ours.updatedAt = t1
        let other = try log("log2", rating: 5, at: t1)
        let r = try #require(type.merge(base: base.json, ours: ours.json, theirs: other.json))
        #expect(r.result == ours.json)
        #expect(r.created.isEmpty)
        #expect(r.differentDocuments == "this machine's version is the brew log \"log1\" and the other machine's is the brew log \"log2\": two different documents are never merged")
        // The same rule whichever side holds the other document.
        #expect(try #require(type.merge(base: base.json, ours: other.json, theirs: ours.json)).differentDocuments != nil)
    }

    @Test func aBaseThatIsAnotherDocumentIsNoAncestor() throws {
        let type = DocumentType(BrewLog.self)
        let stranger = try log("log9", rating: 2, at: t0)
        var ours = try log("log1", rating: 3, at: t0), theirs = ours
        ours.rating = 4
        ours.updatedAt = t1
        theirs.note = "Kenyan beans"
        // Merged as two versions created independently (no ancestor), not against the stranger.
        let withStranger = try #require(type.merge(base: stranger.json, ours: ours.json, theirs: theirs.json))
        let withoutBase = try #require(type.merge(base: nil, ours: ours.json, theirs: theirs.json))
        #expect(withStranger.differentDocuments == nil)
        #expect(withStranger.result == withoutBase.result)
    }
}
