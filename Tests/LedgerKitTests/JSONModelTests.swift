import LedgerKit
import Testing

@Suite struct JSONModelTests {
    @Test func decodingCollectsEveryProblemAndEncodingPreservesUnknownFields() throws {
        let json = try JSONParser.parse("""
            {"id": "n1", "text": "a b", "mood": "calm", "at": "2026-11-21T10:00:00+01:00", "wordCount": 2,
             "createdAt": "2026-11-21T10:00:00+01:00", "updatedAt": "2026-11-21T10:00:00+01:00",
             "attachments": [{"label": "x", "colour": "red"}], "extra": {"nested": [1, 2]}}
            """)
        let (note, issues) = Note.decodeDocument(json)
        let n = try #require(note)
        #expect(n.pinned == false)  // defaulted
        #expect(issues.map(\.pointer.description) == ["/attachments/0/colour", "/extra"])
        #expect(issues.allSatisfy { $0.severity == .warning })
        #expect(n.json["extra"] == json["extra"])
        #expect(n.json["attachments"] == json["attachments"])
        #expect(n.json["pinned"] == .bool(false))
    }

    @Test func optionalFieldsAcceptNullAndAbsence() throws {
        var issues: [DocumentIssue] = []
        let a = Attachment.decode(.object(["label": .string("x"), "bytes": .null]), at: .root, issues: &issues)
        #expect(a?.bytes == nil && issues.isEmpty)
        #expect(a?.json == .object(["label": .string("x")]))
        let b = Attachment.decode(.object(["label": .string("x"), "bytes": .number(1.5)]), at: .root.appending("a"), issues: &issues)
        #expect(b == nil)
        #expect(issues.map { "\($0.pointer): \($0.message)" } == ["/a/bytes: must be a whole number (found 1.5)"])
    }

    @Test func integersMustBeWhole() {
        var issues: [DocumentIssue] = []
        #expect(Int.decode(.number(1.5), at: .root.appending("n"), issues: &issues) == nil)
        #expect(issues.first?.message == "must be a whole number (found 1.5)")
    }
}
