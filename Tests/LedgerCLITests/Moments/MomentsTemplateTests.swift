import LedgerKit
import LedgerTestSupport
import Testing

@Suite struct MomentsTemplateTests {
    @Test func initWritesTheDefaultTemplate() throws {
        let ledger = try TestLedger()
        #expect(ledger.document("moments/settings.json")?["sentenceTemplate"] == .string("I appreciate [experience] for [moment]"))
        let r = ledger.run("moments", "template")
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("I appreciate [experience] for [moment]\n"))
        let j = ledger.run("moments", "template", "show", "--json")
        #expect(j.json["isDefault"] == .bool(true))
    }

    @Test func settingATemplateChangesTheSentence() throws {
        let ledger = try TestLedger()
        let set = ledger.run("moments", "template", "set", "Grateful for [experience], [moment].")
        #expect(set.status == 0, "\(set)")
        #expect(set.stdout.contains("Grateful for coffee with Sam, now."))
        let settings = try #require(ledger.document("moments/settings.json"))
        #expect(settings["sentenceTemplate"] == .string("Grateful for [experience], [moment]."))
        #expect(settings["updatedAt"] == .string("2026-11-21T22:30:00+01:00"))
        #expect(ledger.run("moments", "add", "--dot", "--moment", "week").stdout.hasPrefix("Grateful for this moment, this week.\n"))
        #expect(ledger.run("moments", "template", "reset").status == 0)
        #expect(ledger.document("moments/settings.json")?["sentenceTemplate"] == .string(SentenceTemplate.defaultText))
    }

    @Test(arguments: [
        ("Thanks for [experience]", "must contain [moment]"),
        ("Thanks for everything", "must contain [experience]"),
        ("Thanks for [Experience] [moment]", "placeholders are written in lowercase"),
    ])
    func aTemplateWithoutBothPlaceholdersIsRefused(template: String, message: String) throws {
        let ledger = try TestLedger()
        let before = ledger.read("moments/settings.json")
        let r = ledger.run("moments", "template", "set", template)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r)")
        #expect(ledger.read("moments/settings.json") == before)
    }

    @Test func aHandEditedTemplateIsCheckedToo() throws {
        let ledger = try TestLedger()
        try ledger.write("moments/settings.json", #"{"sentenceTemplate": "Thanks for [experience]", "createdAt": "2026-11-21T22:00:00+01:00", "updatedAt": "2026-11-21T22:00:00+01:00"}"#)
        let r = ledger.run("check")
        #expect(r.status == 1)
        #expect(r.stdout.contains("moments/settings.json: /sentenceTemplate: error: the template must contain [moment]"), "\(r)")
    }
}
