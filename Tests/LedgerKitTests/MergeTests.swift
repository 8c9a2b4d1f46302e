import LedgerKit
import Testing

@Suite struct MergeTests {
    let type = DocumentType(NoteSettings.self)

    func settings(_ colour: String, _ size: Int, updated: String) -> JSONValue {
        var s = NoteSettings()
        s.colour = colour
        s.size = size
        s.createdAt = Timestamp(iso8601: "2026-11-01T09:00:00+01:00")!
        s.updatedAt = Timestamp(iso8601: updated)!
        return s.json
    }

    @Test func fieldsChangedOnOneSideEachTakeThatChange() throws {
        let base = settings("blue", 12, updated: "2026-11-01T09:00:00+01:00")
        let ours = settings("green", 12, updated: "2026-11-02T09:00:00+01:00")
        let theirs = settings("blue", 14, updated: "2026-11-03T09:00:00+01:00")
        let r = try #require(type.merge(base: base, ours: ours, theirs: theirs))
        #expect(r.result?["colour"] == .string("green"))
        #expect(r.result?["size"] == .number(14))
        #expect(r.result?["updatedAt"] == .string("2026-11-03T09:00:00+01:00"))
        #expect(r.notes.isEmpty)
    }

    @Test func aFieldChangedOnBothSidesGoesToTheLaterWriteWhicheverSideMerges() throws {
        let base = settings("blue", 12, updated: "2026-11-01T09:00:00+01:00")
        let early = settings("green", 12, updated: "2026-11-02T09:00:00+01:00")
        let late = settings("red", 12, updated: "2026-11-02T10:00:00+01:00")
        let a = try #require(type.merge(base: base, ours: early, theirs: late))
        let b = try #require(type.merge(base: base, ours: late, theirs: early))
        #expect(a.result?["colour"] == .string("red"))
        #expect(a.result == b.result)
        #expect(a.notes == ["/colour changed on both machines; kept the value of the version saved later, \"red\" (not \"green\")"])
        #expect(b.notes == a.notes)
    }

    @Test func tiesOnUpdatedAtAreBrokenTheSameWayOnBothMachines() throws {
        let base = settings("blue", 12, updated: "2026-11-01T09:00:00+01:00")
        let x = settings("green", 12, updated: "2026-11-02T09:00:00+01:00")
        let y = settings("amber", 12, updated: "2026-11-02T09:00:00+01:00")
        #expect(type.merge(base: base, ours: x, theirs: y)?.result == type.merge(base: base, ours: y, theirs: x)?.result)
    }

    @Test func fieldCombinationsThatBreakTheRulesKeepTheLaterVersionWhole() throws {
        // Each side is valid, but red with size 5 breaks a rule spanning both fields.
        let base = settings("blue", 12, updated: "2026-11-01T09:00:00+01:00")
        let ours = settings("blue", 5, updated: "2026-11-02T09:00:00+01:00")
        let theirs = settings("red", 12, updated: "2026-11-01T10:00:00+01:00")
        let r = try #require(type.merge(base: base, ours: ours, theirs: theirs))
        #expect(r.result == ours)
        #expect(r.notes == ["changes on both machines could not be combined field by field; kept the later version whole"])
    }

    @Test func deletionsFollowSpec() throws {
        let notes = DocumentType(Note.self)
        let base = Note.make("n1", "hello").json
        let edited = Note.make("n1", "hello again").json
        // deleted here, unchanged there: stays deleted
        #expect(try #require(notes.merge(base: base, ours: nil, theirs: base)).result == nil)
        // deleted here, edited there: the edit survives
        let r1 = try #require(notes.merge(base: base, ours: nil, theirs: edited))
        #expect(r1.result == edited && r1.notes == ["deleted on this machine but edited on the other; kept the edit"])
        // edited here, deleted there
        #expect(try #require(notes.merge(base: base, ours: edited, theirs: nil)).result == edited)
        // both deleted
        #expect(try #require(notes.merge(base: base, ours: nil, theirs: nil)).result == nil)
    }

    @Test func unreadableVersionsAreLeftToTheCaller() {
        let notes = DocumentType(Note.self)
        #expect(notes.merge(base: nil, ours: Note.make("n1", "a").json, theirs: .object(["id": .number(3)])) == nil)
    }

    @Test func derivedIDsAreDeterministicAndValid() {
        let c = MergeContext()
        #expect(c.derivedID("recipe-1:abc") == c.derivedID("recipe-1:abc"))
        #expect(c.derivedID("recipe-1:abc") != c.derivedID("recipe-1:abd"))
        #expect(DocumentID.isValid(c.derivedID("x")))
    }
}
