import LedgerKit
import Testing

@Suite struct ExperienceTests {
    static func json(_ members: String) throws -> JSONValue {
        try JSONParser.parse("""
            {"id": "abc123", "timestamp": "2026-11-21T23:41:07+01:00", "createdAt": "2026-11-21T23:41:07+01:00",
             "updatedAt": "2026-11-21T23:41:07+01:00", \(members)}
            """)
    }

    static func inspect(_ members: String) throws -> [DocumentIssue] {
        DocumentType(Experience.self).inspect(try json(members)).issues
    }

    @Test func aNoteReadsAndWritesBackUnchanged() throws {
        let doc = try Self.json(#""momentType": "now", "experienceType": "note", "payload": "coffee with Sam""#)
        let (e, issues) = Experience.decodeDocument(doc)
        let experience = try #require(e)
        #expect(issues.isEmpty)
        #expect(experience.payload == "coffee with Sam")
        #expect(experience.path == "moments/experiences/2026/11/abc123.json")
        #expect(experience.json == doc)
    }

    @Test func theShardIsTheRecordedWallClockMonth() throws {
        // 2026-12-01T00:30 in UTC, but still November where it was recorded.
        let t = try #require(Timestamp(iso8601: "2026-11-30T19:30:00-05:00"))
        let e = Experience(id: "x1", timestamp: t, momentType: .now, experienceType: .dot, payload: nil, createdAt: t)
        #expect(e.path == "moments/experiences/2026/11/x1.json")
    }

    @Test func aMomentThisVersionDoesNotKnowSurvivesWithAWarning() throws {
        let doc = try Self.json(#""momentType": "thisMonth", "experienceType": "dot", "payload": null, "mood": "calm""#)
        let (e, _) = Experience.decodeDocument(doc)
        let experience = try #require(e)
        #expect(experience.momentType.rawValue == "thisMonth")
        #expect(experience.momentType.label == "thisMonth")
        #expect(experience.json == doc, "the unknown moment and the unknown field are written back")
        let issues = experience.validate()
        #expect(issues.count == 1)
        #expect(issues.first?.severity == .warning)
        #expect(issues.first?.pointer == "/momentType")
    }

    @Test func aMisspeltMomentGetsADidYouMean() throws {
        let issues = try Self.inspect(#""momentType": "thisweek", "experienceType": "dot""#)
        #expect(issues.contains { $0.severity == .warning && $0.message.contains("did you mean 'thisWeek'") })
        #expect(!issues.hasErrors)
    }

    @Test(arguments: [
        (#""momentType": "now", "experienceType": "note", "payload": "  ""#, "/payload", DocumentIssue.Severity.error),
        (#""momentType": "now", "experienceType": "note""#, "/payload", .error),
        (#""momentType": "now", "experienceType": "link", "payload": "ftp://example.com/x""#, "/payload", .error),
        (#""momentType": "now", "experienceType": "link", "payload": "example.com""#, "/payload", .error),
        (#""momentType": "now", "experienceType": "photo", "payload": "IMG_0001.jpg""#, "/payload", .error),
        (#""momentType": "now", "experienceType": "photo", "payload": "moments/photos/abc.jpg""#, "/payload", .error),
        (#""momentType": "now", "experienceType": "dot", "payload": "a dot with words""#, "/payload", .warning),
        (#""momentType": "", "experienceType": "dot""#, "/momentType", .error),
        (#""momentType": 3, "experienceType": "dot""#, "/momentType", .error),
        (#""momentType": "now", "experienceType": "video""#, "/experienceType", .error),
        (#""experienceType": "dot""#, "/momentType", .error),
    ])
    func problemsCheckReports(members: String, pointer: String, severity: DocumentIssue.Severity) throws {
        let issues = try Self.inspect(members)
        #expect(issues.contains { $0.pointer.description == pointer && $0.severity == severity }, "\(issues)")
    }

    @Test func aPhotoRefersToItsFile() throws {
        let hash = String(repeating: "ab", count: 32)
        let doc = try Self.json(#""momentType": "today", "experienceType": "photo", "payload": "moments/photos/\#(hash).jpg""#)
        let inspection = DocumentType(Experience.self).inspect(doc)
        #expect(inspection.issues.isEmpty)
        #expect(inspection.references.map(\.kind) == ["moments.photo"])
        #expect(inspection.references.map(\.id) == ["\(hash).jpg"])
    }

    @Test(arguments: [
        ("https://example.com", true), ("http://example.com/a?b=c#d", true), ("HTTPS://EXAMPLE.COM/x", true),
        ("https://xn--caf-dma.fr/menu", true), ("https://localhost:8080/", true),
        ("ftp://example.com", false), ("example.com", false), ("https://", false), ("https:///path", false),
        ("javascript:alert(1)", false), ("https://exa mple.com", false), ("https://example.com/\n", false), ("", false),
        ("mailto:sam@example.com", false),
    ])
    func links(url: String, accepted: Bool) {
        #expect((LinkURL.problem(url) == nil) == accepted, "\(LinkURL.problem(url) ?? "accepted")")
    }

    @Test(arguments: [("now", "now"), ("today", "today"), ("week", "thisWeek"), ("thisWeek", "thisWeek"),
                      ("this-week", "thisWeek"), ("NOW", "now")])
    func momentArguments(argument: String, stored: String) {
        #expect(MomentType(typed: argument)?.rawValue == stored)
    }

    @Test func theMomentLabels() {
        #expect(MomentType.now.label == "now")
        #expect(MomentType.today.label == "today")
        #expect(MomentType.thisWeek.label == "this week")
        #expect(MomentType(typed: "month") == nil)
    }
}
