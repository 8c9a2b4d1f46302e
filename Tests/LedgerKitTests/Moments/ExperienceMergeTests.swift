import LedgerKit
import Testing

@Suite struct ExperienceMergeTests {
    static let type = DocumentType(Experience.self)

    static func doc(payload: String = "coffee with Sam", moment: String = "now", updatedAt: String = "2026-11-21T23:30:00+01:00",
                    extra: String = "") throws -> JSONValue {
        try JSONParser.parse("""
            {"id": "abc123", "timestamp": "2026-11-21T23:30:00+01:00", "momentType": "\(moment)", "experienceType": "note",
             "payload": "\(payload)", "createdAt": "2026-11-21T23:30:00+01:00", "updatedAt": "\(updatedAt)"\(extra)}
            """)
    }

    @Test func editsOfDifferentFieldsCombine() throws {
        let base = try Self.doc()
        let ours = try Self.doc(payload: "coffee with Sam and Léa", updatedAt: "2026-11-22T09:00:00+01:00")
        let theirs = try Self.doc(moment: "today", updatedAt: "2026-11-22T10:00:00+01:00")
        let r = try #require(Self.type.merge(base: base, ours: ours, theirs: theirs))
        #expect(r.result?["payload"] == .string("coffee with Sam and Léa"))
        #expect(r.result?["momentType"] == .string("today"))
        #expect(r.result?["updatedAt"] == .string("2026-11-22T10:00:00+01:00"))
        #expect(r.created.isEmpty)
    }

    @Test func theSameFieldEditedOnBothSidesKeepsBothVersionsTheSameWayOnEitherMachine() throws {
        let base = try Self.doc()
        let a = try Self.doc(payload: "coffee with Sam at the market", updatedAt: "2026-11-22T09:00:00+01:00")
        let b = try Self.doc(payload: "coffee and croissants with Sam", updatedAt: "2026-11-22T10:00:00+01:00")
        let onA = try #require(Self.type.merge(base: base, ours: a, theirs: b))
        let onB = try #require(Self.type.merge(base: base, ours: b, theirs: a))
        #expect(onA.result == b, "the later edit keeps the id")
        #expect(onA.result == onB.result)
        #expect(onA.created.count == 1)
        #expect(onA.created.map(\.path) == onB.created.map(\.path))
        #expect(onA.created.map(\.document) == onB.created.map(\.document))
        let copy = try #require(onA.created.first)
        #expect(copy.document["payload"] == .string("coffee with Sam at the market"))
        #expect(copy.path.hasPrefix("moments/experiences/2026/11/"))
        #expect(copy.document["id"] != .string("abc123"))
        #expect(onA.notes.count == 1)
    }

    @Test func anEditBeatsADeletion() throws {
        let base = try Self.doc()
        let edited = try Self.doc(payload: "coffee with Sam, again", updatedAt: "2026-11-22T09:00:00+01:00")
        #expect(Self.type.merge(base: base, ours: nil, theirs: edited)?.result == edited)
        #expect(Self.type.merge(base: base, ours: edited, theirs: nil)?.result == edited)
        #expect(Self.type.merge(base: base, ours: base, theirs: nil)?.result == nil)
    }
}
