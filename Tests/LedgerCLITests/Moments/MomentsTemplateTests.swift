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

    /// One sentence, saying the length once, without echoing the long text back.
    @Test func aTooLongTemplateIsRefusedSayingItsLengthOnce() throws {
        let ledger = try TestLedger()
        let r = ledger.run("moments", "template", "set", String(repeating: "x", count: 300) + " [experience] [moment]")
        #expect(r.status == 2)
        #expect(r.stderr == "ledger: the template is one sentence of at most 200 characters (found 322)\n", "\(r)")
    }

    @Test func aHandEditedTemplateIsCheckedToo() throws {
        let ledger = try TestLedger()
        try ledger.write("moments/settings.json", #"{"sentenceTemplate": "Thanks for [experience]", "createdAt": "2026-11-21T22:00:00+01:00", "updatedAt": "2026-11-21T22:00:00+01:00"}"#)
        let r = ledger.run("check")
        #expect(r.status == 1)
        #expect(r.stdout.contains("moments/settings.json: /sentenceTemplate: error: the template must contain [moment]"), "\(r)")
    }

    @Test(arguments: [["moments", "template", "reset"], ["moments", "template", "set", "Glad of [experience] [moment]"]])
    func setAndResetRepairATemplateAHandEditMadeInvalid(repair: [String]) throws {
        let ledger = try TestLedger()
        try ledger.write("moments/settings.json", #"{"sentenceTemplate": "Thanks for [experience]", "createdAt": "2026-11-21T22:00:00+01:00", "updatedAt": "2026-11-21T22:00:00+01:00", "mine": 1}"#)
        // Showing the template refuses, and says which command repairs it.
        let shown = ledger.run("moments", "template")
        #expect(shown.status == 1, "\(shown)")
        #expect(shown.stderr.contains("moments/settings.json is invalid; `ledger moments template reset` (or `ledger moments template set TEXT`) repairs it:"), "\(shown)")
        #expect(shown.stderr.contains("/sentenceTemplate: error: the template must contain [moment]"), "\(shown)")
        #expect(MomentsFixture.experiences(ledger).isEmpty)
        let fixed = ledger.run(arguments: repair)
        #expect(fixed.status == 0, "\(fixed)")
        let settings = try #require(ledger.document("moments/settings.json"))
        #expect(settings["createdAt"] == .string("2026-11-21T22:00:00+01:00"))
        #expect(settings["mine"] == .number(1), "the rest of the file is kept")
        #expect(ledger.run("check").status == 0)
        let added = ledger.run("moments", "add", "tea")
        #expect(added.status == 0 && added.stderr.isEmpty, "\(added)")
    }

    /// "An invalid hand-edited template still blocks `moments add`. Capture must never be
    /// blocked by a settings file (the seed: capture in one step): fall back to the default
    /// template and warn."
    @Test(arguments: [
        #"{"sentenceTemplate": "Thanks for [experience]", "createdAt": "2026-11-21T22:00:00+01:00", "updatedAt": "2026-11-21T22:00:00+01:00"}"#,
        #"{"sentenceTemplate": 7, "createdAt": "2026-11-21T22:00:00+01:00", "updatedAt": "2026-11-21T22:00:00+01:00"}"#,
        "{\"sentenceTemplate\": ",
    ])
    func captureIsNeverBlockedBySettings(_ settings: String) throws {
        let ledger = try TestLedger()
        try ledger.write("moments/settings.json", settings)
        let r = ledger.run("moments", "add", "tea with Sam")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("I appreciate tea with Sam for now"), "the default template: \(r)")
        #expect(r.stderr.contains("ledger: warning: recorded with the default template, because moments/settings.json is invalid"), "\(r)")
        #expect(MomentsFixture.experiences(ledger).count == 1)
        #expect(ledger.read("moments/settings.json") == settings, "the settings are left for the person to repair")
        let json = ledger.run("moments", "add", "--dot", "--json")
        #expect(json.status == 0 && json.json["sentence"] == .string("I appreciate this moment for now"), "\(json)")
    }

    @Test func settingsThatAreNotJSONAreLeftForAHandFix() throws {
        let ledger = try TestLedger()
        try ledger.write("moments/settings.json", "{\"sentenceTemplate\": ")
        let r = ledger.run("moments", "template", "reset")
        #expect(r.status == 1)
        #expect(r.stderr.contains("moments/settings.json is invalid; fix it by hand"), "\(r)")
        #expect(ledger.read("moments/settings.json") == "{\"sentenceTemplate\": ")
    }
}
