import LedgerKit
import Testing

@Suite struct SentenceTemplateTests {
    @Test(arguments: [
        ("I appreciate [experience] for [moment]", 0),
        ("Grateful for [experience], [moment].", 0),
        ("[moment]: [experience]", 0),
        ("I appreciate [experience]", 1),
        ("I appreciate this for [moment]", 1),
        ("I appreciate it", 1),
        ("", 1),
        ("I appreciate [Experience] for [Moment]", 1),
        ("I appreciate [experience]\nfor [moment]", 1),
        ("[experience] [moment] " + String(repeating: "x", count: 200), 1),
    ])
    func templatesMustContainBothPlaceholders(template: String, problems: Int) {
        #expect(SentenceTemplate.problems(template).count == problems, "\(SentenceTemplate.problems(template))")
    }

    @Test func theSeedsDefault() {
        #expect(SentenceTemplate.defaultText == "I appreciate [experience] for [moment]")
        #expect(MomentsSettings.defaultValue.sentenceTemplate == SentenceTemplate.defaultText)
    }

    @Test func placeholdersInLowercaseAreExplained() {
        #expect(SentenceTemplate.problems("I appreciate [Experience] for [moment]").first?.contains("lowercase") == true)
    }

    @Test func fillingIsOnePass() {
        #expect(SentenceTemplate.fill("I appreciate [experience] for [moment]", experience: "the word [moment]", moment: "now")
            == "I appreciate the word [moment] for now")
        #expect(SentenceTemplate.fill("[moment] [x] [experience] [moment]", experience: "tea", moment: "today")
            == "today [x] tea today")
    }

    @Test(arguments: [
        (ExperienceType.note, String?.some("coffee with Sam"), MomentType.now, "I appreciate coffee with Sam for now"),
        (.link, "https://example.com", .today, "I appreciate https://example.com for today"),
        (.photo, "moments/photos/x.jpg", .thisWeek, "I appreciate this photo for this week"),
        (.dot, nil, .now, "I appreciate this moment for now"),
    ])
    func sentences(type: ExperienceType, payload: String?, moment: MomentType, sentence: String) throws {
        let t = try #require(Timestamp(iso8601: "2026-11-21T23:30:00+01:00"))
        let e = Experience(id: "a", timestamp: t, momentType: moment, experienceType: type, payload: payload, createdAt: t)
        #expect(SentenceTemplate.sentence(SentenceTemplate.defaultText, for: e) == sentence)
    }

    @Test func invalidSettingsAreReportedAtTheTemplate() throws {
        let doc = try JSONParser.parse(#"{"sentenceTemplate": "Thanks!", "createdAt": "2026-11-21T23:30:00+01:00", "updatedAt": "2026-11-21T23:30:00+01:00"}"#)
        let issues = DocumentType(MomentsSettings.self).inspect(doc).issues
        #expect(issues.count == 1)
        #expect(issues.first?.message.contains("must contain [experience] and [moment]") == true)
        #expect(issues.allSatisfy { $0.pointer == "/sentenceTemplate" && $0.severity == .error })
    }
}
