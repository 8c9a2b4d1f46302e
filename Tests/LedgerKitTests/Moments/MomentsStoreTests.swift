import Foundation
@testable import LedgerKit
import LedgerTestSupport
import Testing

/// The DotLife Moments façade's intents and reads, on ledgers in plain folders.
@Suite struct MomentsStoreTests {
    let now = Timestamp(iso8601: "2026-11-21T22:30:00+01:00")!

    func at(_ iso: String) -> Timestamp { Timestamp(iso8601: iso)! }

    /// The code of the `LedgerError` `body` throws; nil when it throws none.
    static func code(_ body: () throws -> Any) -> LedgerError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? LedgerError)?.code
        }
    }

    /// A ledger in a plain folder with the default settings.
    func ledger() throws -> (MomentsStore, TemporaryDirectory) {
        let dir = TemporaryDirectory()
        let store = LedgerStore.plain(dir.path)
        try store.singleton(MomentsSettings.self).save(MomentsSettings(createdAt: now))
        return (MomentsStore(store), dir)
    }

    func capture(_ moments: MomentsStore, _ content: MomentsStore.Capture.Content, moment: MomentType = .now,
                 at time: String = "2026-11-21T22:30:00+01:00", id: String) throws -> MomentsStore.Captured {
        try moments.capture(.init(content, moment: moment, at: at(time)), at: now, ids: OneID(id: id))
    }

    // MARK: - Capturing every kind

    @Test func everyKindIsCapturedWithItsSentence() throws {
        let (moments, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        let note = try capture(moments, .note("coffee with Sam"), id: "note")
        #expect(note.sentence == "I appreciate coffee with Sam for now")
        #expect(note.experience.path == "moments/experiences/2026/11/note.json")
        let dot = try capture(moments, .dot, moment: .today, id: "dot")
        #expect(dot.sentence == "I appreciate this moment for today" && dot.experience.payload == nil)
        let link = try capture(moments, .link("https://example.com/song"), moment: .thisWeek, id: "link")
        #expect(link.sentence == "I appreciate https://example.com/song for this week")
        let photo = try capture(moments, .photo(bytes: SampleImages.png, source: "a.png"), at: "2026-10-20T18:00:00+02:00", id: "photo")
        #expect(photo.photoAdded && photo.experience.experienceType == .photo)
        #expect(photo.experience.path == "moments/experiences/2026/10/photo.json")
        #expect(photo.experience.createdAt == now)
        let week = try moments.experiences(in: MomentBucket("2026-W47")!)
        // Captured at the same instant: by id, descending.
        #expect(week.map(\.id) == ["note", "link", "dot"])
    }

    @Test func theSamePhotoTwiceIsOneFile() throws {
        let (moments, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        let first = try capture(moments, .photo(bytes: SampleImages.gif, source: "a.gif"), id: "first")
        let second = try capture(moments, .photo(bytes: SampleImages.gif, source: "copy of a.gif"), id: "second")
        #expect(first.photoAdded && !second.photoAdded)
        #expect(first.experience.payload == second.experience.payload)
        let name = try #require(MomentsPhotos.fileName(for: SampleImages.gif))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/moments/photos") == [name])
        #expect(try FileSystem.read(dir.path + "/moments/photos/" + name) == SampleImages.gif)
    }

    @Test func aDamagedCopyIsRewritten() throws {
        let (moments, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        let name = try #require(MomentsPhotos.fileName(for: SampleImages.png))
        try FileSystem.writeAtomically(dir.path + "/moments/photos/" + name, Array(SampleImages.png.prefix(20)))
        #expect(try capture(moments, .photo(bytes: SampleImages.png, source: "p.png"), id: "p").photoAdded)
        #expect(try FileSystem.read(dir.path + "/moments/photos/" + name) == SampleImages.png)
    }

    @Test func photosOverTheLimitAndNonImagesAreRefusedAndNothingIsWritten() throws {
        let (moments, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        let big = SampleImages.jpeg + [UInt8](repeating: 0, count: MomentsPhotos.maximumBytes)
        #expect(throws: LedgerError.self) { try capture(moments, .photo(bytes: big, source: "big.jpg"), id: "big") }
        #expect(throws: LedgerError.self) { try capture(moments, .photo(bytes: Array("hello".utf8), source: "notes.txt"), id: "txt") }
        #expect(!FileSystem.exists(dir.path + "/moments/photos"))
        #expect(!FileSystem.exists(dir.path + "/moments/experiences"))
        #expect(MomentsPhotos.maximumBytes == 10 * 1024 * 1024)
    }

    @Test func aPhotoWrittenForAnExperienceThatCannotBeSavedIsRemovedAgain() throws {
        let (moments, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        // The id is taken by a directory: the experience cannot be written.
        try FileManager.default.createDirectory(atPath: dir.path + "/moments/experiences/2026/11/taken.json", withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try capture(moments, .photo(bytes: SampleImages.png, source: "p.png"), id: "taken") }
        let name = try #require(MomentsPhotos.fileName(for: SampleImages.png))
        #expect(!FileSystem.exists(dir.path + "/moments/photos/" + name))
    }

    @Test func aNoteHasALengthLimit() throws {
        let (moments, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        let longest = String(repeating: "é", count: Experience.maximumNoteLength)
        #expect(try capture(moments, .note(longest), id: "longest").experience.payload == longest)
        let error = #expect(throws: LedgerError.self) { try capture(moments, .note(longest + "!"), id: "toolong") }
        #expect(error?.code == .invalid)
        #expect(error?.problems.first?.issue.message.contains("a note is at most 1000 characters, a few sentences (found 1001)") == true, "\(String(describing: error))")
        #expect(!FileSystem.exists(dir.path + "/moments/experiences/2026/11/toolong.json"))
    }

    // MARK: - Reading

    @Test func aBucketListsNewestFirstByInstant() throws {
        let (moments, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        // Wall-clock 12:30 in New York is later than 15:00 in Paris.
        _ = try capture(moments, .note("in Paris"), at: "2026-11-18T15:00:00+01:00", id: "paris")
        _ = try capture(moments, .note("in New York"), at: "2026-11-18T12:30:00-05:00", id: "newyork")
        _ = try capture(moments, .note("earlier in New York"), at: "2026-11-18T10:30:00-05:00", id: "early")
        #expect(try moments.experiences(in: MomentBucket("2026-11-18")!).map(\.id) == ["newyork", "early", "paris"])
    }

    @Test func anExperienceIsFoundByIdPrefixOrPath() throws {
        let (moments, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        _ = try capture(moments, .note("tea"), id: "abcdef")
        _ = try capture(moments, .note("cake"), id: "abcxyz")
        #expect(try moments.experience("abcdef").payload == "tea")
        #expect(try moments.experience("abcx").payload == "cake")
        #expect(try moments.experience("moments/experiences/2026/11/abcdef.json").payload == "tea")
        #expect(Self.code { try moments.experience("abc") } == .invalidArgument)  // too short to be a prefix
        #expect(Self.code { try moments.experience("zzzz") } == .notFound)
    }

    // MARK: - Deleting

    @Test func deletingAPhotoMomentRemovesItsPhotoUnlessAnotherShowsIt() throws {
        let (moments, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        let a = try capture(moments, .photo(bytes: SampleImages.png, source: "a.png"), id: "alpha")
        _ = try capture(moments, .photo(bytes: SampleImages.png, source: "a again.png"), at: "2025-01-02T10:00:00+01:00", id: "bravo")
        let photo = try #require(a.experience.payload)
        let first = try moments.delete("alpha")
        #expect(first.experience?.id == "alpha" && first.photo == nil)
        #expect(FileSystem.exists(dir.path + "/" + photo))
        let second = try moments.delete("bravo")
        #expect(second.photo == photo)
        #expect(!FileSystem.exists(dir.path + "/" + photo))
        #expect(!FileSystem.exists(dir.path + "/moments/experiences/2025"), "empty shard folders go too")
        #expect(Self.code { try moments.delete("bravo") } == .notFound)
    }

    /// Deleting is a fix: an experience a hand edit made invalid (a note over the length
    /// limit) is deleted by the id in its file name.
    @Test func anInvalidExperienceCanBeDeleted() throws {
        let (moments, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        let path = try capture(moments, .note("tea"), id: "c1c8a0").experience.path
        let file = dir.path + "/" + path
        let text = try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "\"tea\"", with: "\"" + String(repeating: "x", count: 126_000) + "\"")
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        #expect(Self.code { try moments.experience("c1c8") } == .invalid)
        let deleted = try moments.delete("c1c8")
        #expect(deleted.id == "c1c8a0" && deleted.path == path && deleted.experience == nil && !deleted.problems.isEmpty)
        #expect(!FileSystem.exists(file))
    }

    // MARK: - The template

    @Test func anInvalidTemplateIsRepairedBySettingOne() throws {
        let (moments, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        try FileSystem.writeAtomically(dir.path + "/moments/settings.json", Array("""
            {"createdAt": "2026-11-01T10:00:00+01:00", "updatedAt": "2026-11-01T10:00:00+01:00",
             "sentenceTemplate": "I appreciate [experience]", "myNote": "kept"}
            """.utf8))
        // Reading it is refused, with the command that repairs it; a capture is not refused:
        // it uses the default template and says why.
        let refused = #expect(throws: LedgerError.self) { try moments.settings() }
        #expect(refused?.sentence.nextStep == .moments(.repairTemplate))
        #expect(refused?.message == "moments/settings.json is invalid; resetting the template (or setting a new one) repairs it:")
        let captured = try capture(moments, .note("tea"), id: "early")
        #expect(captured.sentence == "I appreciate tea for now")
        #expect(captured.settingsProblem?.sentence.nextStep == .moments(.repairTemplate))
        // Setting a template repairs it, keeping every other member.
        let settings = try moments.setTemplate("Thanks for [experience], [moment]", at: now)
        #expect(settings.sentenceTemplate == "Thanks for [experience], [moment]")
        #expect(settings.createdAt == at("2026-11-01T10:00:00+01:00") && settings.updatedAt == now)
        #expect(settings.unknownFields["myNote"] == .string("kept"))
        #expect(try capture(moments, .note("tea"), id: "tea").sentence == "Thanks for tea, now")
    }

    @Test func settingsBrokenInAnotherWayAreNotRewritten() throws {
        let (moments, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        let broken = "{\"createdAt\": \"yesterday\", \"updatedAt\": \"2026-11-01T10:00:00+01:00\", \"sentenceTemplate\": \"[moment]\"}"
        try FileSystem.writeAtomically(dir.path + "/moments/settings.json", Array(broken.utf8))
        #expect(Self.code { try moments.setTemplate(SentenceTemplate.defaultText, at: now) } == .invalid)
        try FileSystem.writeAtomically(dir.path + "/moments/settings.json", Array("{\"sentenceTemplate\": ".utf8))
        #expect(Self.code { try moments.setTemplate(SentenceTemplate.defaultText, at: now) } == .invalid)
        #expect(try FileSystem.read(dir.path + "/moments/settings.json") == Array("{\"sentenceTemplate\": ".utf8))
    }
}

/// The same id every time, for readable tests.
struct OneID: IDSource {
    let id: String
    func next() -> String { id }
}
