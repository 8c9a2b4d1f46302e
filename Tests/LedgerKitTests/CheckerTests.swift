import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// A ledger on disk with test kinds, for exercising `Checker` without the apps.
final class CheckFixture: @unchecked Sendable {
    let dir = TemporaryDirectory()
    var store: LedgerStore { LedgerStore.plain(dir.path) }

    init() throws {
        try store.write("ledger.json", LedgerManifest(createdAt: Timestamp(iso8601: "2026-11-01T09:00:00+01:00")!).json)
    }

    func save(_ note: Note) throws { try store.write(note.path, note.recomputed.json) }

    func write(_ relative: String, _ text: String) throws {
        try write(relative, Array(text.utf8))
    }

    func write(_ relative: String, _ bytes: [UInt8]) throws {
        let path = dir.url(relative)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    func read(_ relative: String) -> String { (try? String(contentsOfFile: dir.url(relative), encoding: .utf8)) ?? "" }

    func check(_ scope: [String]? = nil, fix: Bool = false, cache: Bool = false) throws -> CheckReport {
        try Checker(store: store, schema: TestSchema.schema, useCache: cache).check(scope: scope, fix: fix)
    }

    /// Makes a file look untouched for a while (older than the cache's racy window).
    func age(_ relative: String) {
        var times = [timespec(tv_sec: time(nil) - 60, tv_nsec: 0), timespec(tv_sec: time(nil) - 60, tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, dir.url(relative), &times, 0)
    }
}

extension CheckReport {
    func messages(_ path: String) -> [String] { problems.filter { $0.path == path }.map(\.description) }
}

@Suite struct CheckerTests {
    let notePath = "notes/items/2026/n1.json"

    @Test func aCleanLedgerHasNoProblems() throws {
        let f = try CheckFixture()
        try f.save(Note.make("n1", "hello world"))
        try f.save(Note.make("n2", "reply", at: "2025-01-01T08:00:00-05:00"))
        let r = try f.check()
        #expect(r.problems.isEmpty, "\(r.problems)")
        #expect(r.filesChecked == 3)
    }

    @Test func truncatedJSONReportsLineAndColumn() throws {
        let f = try CheckFixture()
        try f.write(notePath, "{\n  \"id\": \"n1\",\n  \"text\": \"hel")
        let r = try f.check()
        #expect(r.messages(notePath) == ["\(notePath): 3:11: error: unterminated string (it starts at line 3, column 11)"])
        #expect(r.errorCount == 1)
    }

    @Test func reportsEveryTypeRequiredAndEnumErrorWithItsPointer() throws {
        let f = try CheckFixture()
        var json = Note.make("n1", "hi").json.objectValue!
        json["mood"] = .string("clam")
        json["at"] = .number(5)
        json["text"] = nil
        json["attachments"] = .array([.object(["label": .number(1)])])
        try f.write(notePath, CanonicalJSON.string(.object(json)))
        let m = try f.check().messages(notePath)
        #expect(m.contains("\(notePath): /mood: error: must be one of \"calm\", \"busy\", \"tired\" (found \"clam\") (did you mean 'calm'?)"))
        #expect(m.contains { $0.hasPrefix("\(notePath): /at: error: must be an ISO-8601 timestamp") && $0.hasSuffix("(found an integer)") })
        #expect(m.contains("\(notePath): /text: error: required field \"text\" is missing (it must be a string)"))
        #expect(m.contains("\(notePath): /attachments/0/label: error: must be a string (found an integer)"))
    }

    @Test func unknownFieldsAreWarnedWithASuggestionAndSurviveFix() throws {
        let f = try CheckFixture()
        var json = Note.make("n1", "hi").json.objectValue!
        json["txet"] = .string("typo")
        try f.write(notePath, CanonicalJSON.string(.object(json)).replacingOccurrences(of: "\n  ", with: " "))
        let r = try f.check()
        #expect(r.messages(notePath).contains("\(notePath): /txet: warning: unknown field \"txet\" (did you mean 'text'?); it is kept as it is"))
        #expect(r.errorCount == 0)
        _ = try f.check(fix: true)
        #expect(f.read(notePath).contains("\"txet\": \"typo\""))
        #expect(f.read(notePath) == CanonicalJSON.string(.object(json)))
    }

    /// `--fix` rewrites files, so it takes the writer lock itself: while another writer holds
    /// it, a fix waits and rewrites nothing.
    @Test func fixTakesTheWriterLock() throws {
        let f = try CheckFixture()
        let canonical = CanonicalJSON.string(Note.make("n1", "hi").json)
        let messy = canonical.replacingOccurrences(of: "\n  ", with: " ")
        try f.write(notePath, messy)
        let writer = try #require(try FileLock.attempt(path: f.store.localState("lock")))
        let waiting = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        var store = f.store
        store.lockWait = { _ in waiting.signal() }
        Thread.detachNewThread { [store] in
            _ = try? Checker(store: store, schema: TestSchema.schema, useCache: false).check(fix: true)
            done.signal()
        }
        #expect(waiting.wait(timeout: .now() + 30) == .success)
        #expect(f.read(notePath) == messy)
        writer.release()
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(f.read(notePath) == canonical)
    }

    @Test func aByteOrderMarkIsAnErrorThatFixRemoves() throws {
        let f = try CheckFixture()
        try f.write(notePath, [0xEF, 0xBB, 0xBF] + CanonicalJSON.encode(Note.make("n1", "hi").json))
        let r = try f.check()
        #expect(r.messages(notePath) == ["\(notePath): 1:1: error: the file starts with a UTF-8 byte order mark (BOM), which JSON does not allow"])
        let fixed = try f.check(fix: true)
        #expect(fixed.problems.isEmpty)
        #expect(!f.read(notePath).hasPrefix("\u{FEFF}"))
        #expect(try f.check().problems.isEmpty)
    }

    @Test func invalidUTF8IsReportedWhereItIs() throws {
        let f = try CheckFixture()
        let bytes = Array("{\n  \"id\": \"n1\",\n  \"text\": \"caf".utf8) + [0xE9] + Array("\"\n}".utf8)
        try f.write(notePath, bytes)
        #expect(try f.check().messages(notePath) == ["\(notePath): 3:15: error: the string holds bytes that are not valid UTF-8"])
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let f = try CheckFixture()
        try f.write(notePath, String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000))
        #expect(try f.check().messages(notePath).first?.contains("nesting is deeper than 64 levels") == true)
    }

    @Test func aHugeFileIsRefusedWithoutBeingRead() throws {
        let f = try CheckFixture()
        let path = f.dir.url(notePath)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let h = FileHandle(forWritingAtPath: path)!
        try h.truncate(atOffset: 50 * 1024 * 1024)  // 50 MiB, sparse
        try h.close()
        #expect(try f.check().messages(notePath) == ["\(notePath): /: error: is 50.0 MiB, larger than the 4.0 MiB a ledger document may be"])
    }

    @Test func directoriesSymlinksAndBadNamesAreNotDocuments() throws {
        let f = try CheckFixture()
        try FileManager.default.createDirectory(atPath: f.dir.url("notes/items/2026/n1.json"), withIntermediateDirectories: true)
        try f.write("outside.json", "{}")
        try FileManager.default.createSymbolicLink(atPath: f.dir.url("notes/items/2026/n2.json"), withDestinationPath: f.dir.url("outside.json"))
        try f.write("notes/items/2026/Bad_Name.json", "{}")
        try f.write("notes/items/2026/n3.txt", "{}")
        try f.write("notes/items/n4.json", "{}")
        try f.write("notes/misc/n5.json", "{}")
        try f.write("notes/items/2026/.n6.json.swp", "editor junk")
        try f.write("notes/items/2026/n7.JSON", "{}")
        let r = try f.check()
        #expect(r.messages("notes/items/2026/n1.json") == ["notes/items/2026/n1.json: /: error: is a directory, but its name is that of a document"])
        #expect(r.messages("notes/items/2026/n2.json") == ["notes/items/2026/n2.json: /: error: is a symbolic link; ledger documents must be regular files inside the ledger (it is not followed)"])
        #expect(r.messages("notes/items/2026/Bad_Name.json").first?.contains("is not a valid document id") == true)
        #expect(r.messages("notes/items/2026/n3.txt").first?.contains("documents are .json files") == true)
        // A document's name with its extension in capitals is an error: the apps refuse it.
        #expect(r.messages("notes/items/2026/n7.JSON") == [
            "notes/items/2026/n7.JSON: /: error: the extension \".JSON\" is not \".json\": documents are .json files, in lower case (notes/items/<YYYY>/<id>.json); rename the file to n7.json",
        ])
        #expect(r.messages("notes/items/n4.json").first?.contains("test.note documents are notes/items/<YYYY>/<id>.json") == true)
        #expect(r.messages("notes/misc/n5.json").first?.contains("is not a ledger document") == true)
        #expect(r.messages("notes/items/2026/.n6.json.swp").isEmpty)
        #expect(r.messages("outside.json").isEmpty)  // top-level files are the user's
    }

    @Test func idMustMatchTheFileNameAndPathsCannotEscape() throws {
        let f = try CheckFixture()
        var note = Note.make("n1", "hi")
        note.id = "../n2"
        try f.write(notePath, CanonicalJSON.string(note.json))
        #expect(try f.check().messages(notePath).contains("\(notePath): /id: error: the id \"../n2\" does not match the file name n1.json"))
        let repo = f.store.repository(Note.self)
        #expect(try repo.path(of: "../../ledger") == nil)
        #expect(throws: LedgerError.self) { try repo.load(id: "/etc/passwd") }
    }

    @Test func duplicateIdsAcrossShardsAreErrorsOnBothFiles() throws {
        let f = try CheckFixture()
        try f.save(Note.make("n1", "one", at: "2025-05-01T10:00:00+02:00"))
        try f.save(Note.make("n1", "two"))
        let r = try f.check()
        #expect(r.messages("notes/items/2025/n1.json") == ["notes/items/2025/n1.json: /id: error: duplicate id \"n1\": also used by notes/items/2026/n1.json"])
        #expect(r.messages("notes/items/2026/n1.json") == ["notes/items/2026/n1.json: /id: error: duplicate id \"n1\": also used by notes/items/2025/n1.json"])
        // A third copy: each file is reported once, naming the two others.
        try f.save(Note.make("n1", "three", at: "2024-05-01T10:00:00+02:00"))
        let three = try f.check()
        #expect(three.messages("notes/items/2024/n1.json") == ["notes/items/2024/n1.json: /id: error: duplicate id \"n1\": also used by notes/items/2025/n1.json, notes/items/2026/n1.json"])
        #expect(three.errorCount == 3)
    }

    @Test func danglingReferencesAreWarningsAndCrossDocumentRulesRun() throws {
        let f = try CheckFixture()
        var reply = Note.make("n2", "reply", pinned: true)
        reply.replyTo = "gone"
        try f.save(reply)
        try f.save(Note.make("n1", "first", pinned: true))
        let r = try f.check()
        #expect(r.messages("notes/items/2026/n2.json").contains("notes/items/2026/n2.json: /replyTo: warning: refers to the test note \"gone\", which does not exist"))
        #expect(r.problems.filter { $0.message == "at most one note may be pinned (2 are)" }.count == 2)
        // A target that is not a document (a symlink, a file in a folder that is no shard) does not count.
        var toLink = Note.make("n3", "reply to a link")
        toLink.replyTo = "linked"
        try f.save(toLink)
        #expect(symlink(f.dir.url("notes/items/2026/n1.json"), f.dir.url("notes/items/2026/linked.json")) == 0)
        var toStray = Note.make("n4", "reply to a stray")
        toStray.replyTo = "stray"
        try f.save(toStray)
        try f.write("notes/items/abcd/stray.json", CanonicalJSON.string(Note.make("stray", "where?").json))
        for scope in [nil, ["notes/items/2026/n3.json", "notes/items/2026/n4.json"]] {
            let again = try f.check(scope)
            #expect(again.messages("notes/items/2026/n3.json").contains("notes/items/2026/n3.json: /replyTo: warning: refers to the test note \"linked\", which does not exist"))
            #expect(again.messages("notes/items/2026/n4.json").contains("notes/items/2026/n4.json: /replyTo: warning: refers to the test note \"stray\", which does not exist"))
        }
    }

    @Test func domainRulesAreErrors() throws {
        let f = try CheckFixture()
        try f.save(Note.make("n1", String(repeating: "x", count: 41)))
        #expect(try f.check().messages(notePath) == ["\(notePath): /text: error: must be at most 40 characters (found 41)"])
    }

    @Test func staleDerivedValuesAndFormattingAreFixedWithoutLosingAnything() throws {
        let f = try CheckFixture()
        var json = Note.make("n1", "three words here").json.objectValue!
        json["wordCount"] = .number(7)
        try f.write(notePath, CanonicalJSON.compact(.object(json)))
        let r = try f.check()
        #expect(r.messages(notePath) == [
            "\(notePath): /wordCount: warning: derived value is stale: stored 7, a recompute gives 3",
            "\(notePath): /: warning: is not in canonical format (sorted keys, 2-space indentation, one array element per line, final newline)",
        ])
        #expect(r.problems.allSatisfy { $0.issue.fixable })
        let fixed = try f.check(fix: true)
        #expect(fixed.fixed.count == 2 && fixed.problems.isEmpty)
        #expect(f.read(notePath) == CanonicalJSON.string(Note.make("n1", "three words here").json))
        #expect(try f.check().problems.isEmpty)
    }

    @Test func aNullOptionalFieldIsExplainedAndFixable() throws {
        let f = try CheckFixture()
        var json = Note.make("n1", "hi").json.objectValue!
        json["replyTo"] = .null
        try f.write(notePath, CanonicalJSON.string(.object(json)))
        let r = try f.check()
        #expect(r.messages(notePath) == ["\(notePath): /replyTo: warning: null here means the field is absent; ledger leaves it out"])
        #expect(try f.check(fix: true).problems.isEmpty)
        #expect(f.read(notePath) == CanonicalJSON.string(Note.make("n1", "hi").json))
    }

    @Test func aDocumentInTheWrongYearFolderIsMovedByFix() throws {
        let f = try CheckFixture()
        let note = Note.make("n1", "hi", at: "2025-12-31T23:30:00-08:00")  // 2025 where it was written
        try f.write("notes/items/2026/n1.json", CanonicalJSON.string(note.json))
        let r = try f.check()
        #expect(r.messages("notes/items/2026/n1.json") == ["notes/items/2026/n1.json: /: warning: is in the wrong directory: by its date it belongs at notes/items/2025/n1.json"])
        _ = try f.check(fix: true)
        #expect(!FileSystem.exists(f.dir.url("notes/items/2026/n1.json")))
        #expect(f.read("notes/items/2025/n1.json") == CanonicalJSON.string(note.json))
        #expect(try f.check().problems.isEmpty)
    }

    @Test func fixNeverMovesTwoCopiesOfAnIdToTheSamePlace() throws {
        // Two copies of each id, both in the wrong year folder: one may move, the other must
        // stay (its place is taken), whatever order the workers take them in. (One batch per
        // folder, so the two folders are inspected at the same time; a few rounds, as a race
        // does not show every time.)
        for _ in 0..<3 {
            let f = try CheckFixture()
            for i in 0..<120 {
                let note = Note.make("n\(i)", "note \(i)", at: "2026-03-01T10:00:00+01:00")
                for year in ["2024", "2025"] { try f.write("notes/items/\(year)/n\(i).json", CanonicalJSON.string(note.json)) }
            }
            _ = try f.check(fix: true)
            let left = try ["2024", "2025", "2026"].map { try FileSystem.list(f.dir.url("notes/items/\($0)"))?.count ?? 0 }
            #expect(left.reduce(0, +) == 240 && left[2] == 120)
        }
    }

    @Test func fixNeverTouchesWhatItCannotRead() throws {
        let f = try CheckFixture()
        try f.write(notePath, "{\"id\": \"n1\", \"text\": 5}")
        let before = f.read(notePath)
        let r = try f.check(fix: true)
        #expect(r.errorCount > 0)
        // Only the formatting may change; the wrong value stays for the user to correct.
        #expect(try JSONParser.parse(f.read(notePath)) == JSONParser.parse(before))
    }

    @Test func conflictFilesAndAttachmentsAreChecked() throws {
        let f = try CheckFixture()
        try f.save(Note.make("n1", "mine"))
        try f.write("notes/items/2026/n1.conflict-a1b2c3d.json", CanonicalJSON.string(Note.make("n1", "theirs").json))
        try f.write("notes/files/ok.txt", "# fine")
        try f.write("notes/files/bad.txt", "no hash")
        try f.write("notes/files/big.txt", "#" + String(repeating: "x", count: 2000))
        try f.write("notes/files/pic.gif", "#")
        let r = try f.check()
        #expect(r.messages("notes/items/2026/n1.conflict-a1b2c3d.json").first?.contains("unresolved sync conflict: this is the other machine's version of notes/items/2026/n1.json") == true)
        #expect(r.messages("notes/files/ok.txt").isEmpty)
        #expect(r.messages("notes/files/bad.txt") == ["notes/files/bad.txt: /: error: must start with '#'"])
        #expect(r.messages("notes/files/big.txt").first?.contains("larger than the 1000 bytes") == true)
        #expect(r.messages("notes/files/pic.gif").first?.contains("expected one of: .txt") == true)
    }

    @Test func scopeLimitsTheReportToTheGivenFiles() throws {
        let f = try CheckFixture()
        try f.write(notePath, "{")
        try f.write("notes/items/2026/n2.json", "{")
        let r = try f.check([notePath, "notes/items/2026/missing.json"])
        #expect(Set(r.problems.map(\.path)) == [notePath, "notes/items/2026/missing.json"])
        #expect(r.messages("notes/items/2026/missing.json") == ["notes/items/2026/missing.json: /: error: no such file in the ledger"])
        #expect(try f.check(["notes"]).problems.count == 2)
    }

    @Test func theCacheSkipsUntouchedCleanFilesAndNoticesEdits() throws {
        let f = try CheckFixture()
        for i in 0..<20 { try f.save(Note.make("n\(i)", "note \(i)")) }
        for i in 0..<20 { f.age("notes/items/2026/n\(i).json") }
        f.age("ledger.json")
        let first = try f.check(cache: true)
        #expect(first.problems.isEmpty && first.filesFromCache == 0)
        let second = try f.check(cache: true)
        #expect(second.filesFromCache == 21)
        // An in-place hand edit that keeps the size and the inode is still seen (mtime/ctime change).
        let edited = Array(f.read("notes/items/2026/n3.json").replacingOccurrences(of: "\"calm\"", with: "\"cxlm\"").utf8)
        let fd = open(f.dir.url("notes/items/2026/n3.json"), O_WRONLY)
        #expect(fd >= 0 && pwrite(fd, edited, edited.count, 0) == edited.count)
        close(fd)
        let third = try f.check(cache: true)
        #expect(third.errorCount == 1 && third.filesFromCache == 20)
        // A file edited just before the record was written is never trusted (racily clean).
        try f.save(Note.make("n3", "note 3"))
        _ = try f.check(cache: true)
        #expect(try f.check(cache: true).filesFromCache == 20)
    }

    @Test func theCacheTrustsADirectorysEntriesOnlyWhileItIsUnchanged() throws {
        let f = try CheckFixture()
        for i in 0..<10 { try f.save(Note.make("n\(i)", "note \(i)")) }
        try f.write("notes/items/2026/broken.json", "{")
        let dirs = ["notes", "notes/items", "notes/items/2026"]
        func ageAll() {
            for p in dirs + ["ledger.json", "notes/items/2026/broken.json"] + (0..<10).map({ "notes/items/2026/n\($0).json" }) { f.age(p) }
        }
        ageAll()
        let first = try f.check(cache: true)
        #expect(first.directoriesListed == 3 && first.errorCount == 1)
        let second = try f.check(cache: true)
        // Nothing listed; the file with problems is read again, and reported again.
        #expect(second.directoriesListed == 0 && second.filesChecked == 12 && second.filesFromCache == 11)
        #expect(second.messages("notes/items/2026/broken.json").count == 1)

        // A file added, one removed, a new year folder: each directory changed is listed again.
        try f.write("notes/items/2026/added.json", "[")
        try FileSystem.remove(f.dir.url("notes/items/2026/n4.json"))
        try f.write("notes/items/2025/other.json", "nope")
        let third = try f.check(cache: true)
        #expect(third.directoriesListed == 3)  // notes/items, notes/items/2025, notes/items/2026
        #expect(Set(third.problems.filter { $0.severity == .error }.map(\.path))
            == ["notes/items/2026/broken.json", "notes/items/2026/added.json", "notes/items/2025/other.json"])
        #expect(third.filesChecked == 13 && third.problems.allSatisfy { $0.path != "notes/items/2026/n4.json" })

        // Changed within the racy window of the record: listed again until it is older.
        #expect(try f.check(cache: true).directoriesListed == 3)
        ageAll()
        for p in ["notes/items/2025", "notes/items/2025/other.json", "notes/items/2026/added.json"] { f.age(p) }
        _ = try f.check(cache: true)
        let settled = try f.check(cache: true)
        #expect(settled.directoriesListed == 0 && settled.filesChecked == 13 && settled.errorCount == 3)
    }

    @Test func namesThatDoNotFitOnALineOfTheRecordAreCheckedEveryTime() throws {
        let f = try CheckFixture()
        try f.save(Note.make("n1", "note"))
        try f.write("notes/items/2026/new\nline.json", "{")
        try f.write("notes/items/2026/tab\there/x.json", "{}")
        for p in ["notes", "notes/items", "notes/items/2026", "notes/items/2026/n1.json", "ledger.json"] { f.age(p) }
        let first = try f.check(cache: true)
        let second = try f.check(cache: true)
        for r in [first, second] {
            #expect(Set(r.problems.map(\.path)) == ["notes/items/2026/new\nline.json", "notes/items/2026/tab\there/x.json"])
        }
        // The clean note is still trusted; the directory holding the odd names is listed again.
        #expect(second.filesFromCache == 2 && second.directoriesListed >= 1)
    }

    @Test func aScopedCheckReadsOnlyItsFilesYetSeesDuplicatesAndDanglingReferences() throws {
        let f = try CheckFixture()
        for i in 0..<30 { try f.save(Note.make("n\(i)", "note \(i)")) }
        try f.write("notes/items/2026/broken.json", "{")  // out of scope: not read, not reported
        try f.save(Note.make("n1", "same id, other year", at: "2025-03-01T10:00:00+01:00"))
        var reply = Note.make("r1", "reply", at: "2025-03-02T10:00:00+01:00")
        reply.replyTo = "n5"
        try f.save(reply)
        var lost = Note.make("r2", "lost reply", at: "2025-03-02T11:00:00+01:00")
        lost.replyTo = "gone"
        try f.save(lost)
        let r = try f.check(["notes/items/2025/n1.json", "notes/items/2025/r1.json", "notes/items/2025/r2.json"])
        #expect(r.filesChecked == 3)
        #expect(r.messages("notes/items/2025/n1.json") == ["notes/items/2025/n1.json: /id: error: duplicate id \"n1\": also used by notes/items/2026/n1.json"])
        #expect(r.messages("notes/items/2025/r1.json").isEmpty)
        #expect(r.messages("notes/items/2025/r2.json") == ["notes/items/2025/r2.json: /replyTo: warning: refers to the test note \"gone\", which does not exist"])
        #expect(r.messages("notes/items/2026/broken.json").isEmpty)
    }

    @Test func aScopedCheckOfAWholeCollectionFindsDuplicatesAmongWhatItReads() throws {
        let f = try CheckFixture()
        for i in 0..<40 { try f.save(Note.make("n\(i)", "note \(i)")) }
        try f.save(Note.make("n7", "same id, other year", at: "2025-03-01T10:00:00+01:00"))
        for scope in [["notes"], ["notes/items"], ["notes/items/2025"], ["notes/items/2025/n7.json"]] {
            let r = try f.check(scope)
            #expect(r.messages("notes/items/2025/n7.json") == ["notes/items/2025/n7.json: /id: error: duplicate id \"n7\": also used by notes/items/2026/n7.json"], "\(scope)")
            // The other copy is reported when it is in scope.
            #expect(r.messages("notes/items/2026/n7.json").count == (scope[0].hasSuffix("2025") || scope[0].hasSuffix(".json") ? 0 : 1), "\(scope)")
        }
    }

    @Test func aScopedCheckOfManyDocumentsFindsDuplicatesInOtherShards() throws {
        // More ids than CollectionLookup.indexAfter: the shards are indexed once, not stat'ed per id.
        let f = try CheckFixture()
        for i in 0..<40 { try f.save(Note.make("n\(i)", "note \(i)")) }
        try f.save(Note.make("n7", "same id, other year", at: "2025-03-01T10:00:00+01:00"))
        try f.save(Note.make("n39", "and another", at: "2024-03-01T10:00:00+01:00"))
        var reply = Note.make("r1", "reply", at: "2025-03-02T10:00:00+01:00")
        reply.replyTo = "n5"
        try f.save(reply)
        let r = try f.check(["notes/items/2026"])
        #expect(r.filesChecked == 40)
        #expect(r.problems.map(\.description) == [
            "notes/items/2026/n39.json: /id: error: duplicate id \"n39\": also used by notes/items/2024/n39.json",
            "notes/items/2026/n7.json: /id: error: duplicate id \"n7\": also used by notes/items/2025/n7.json",
        ])
    }

    @Test func aScopedCheckJudgesTagRulesWithWhatTheLastFullCheckRecorded() throws {
        let f = try CheckFixture()
        try f.save(Note.make("n1", "pinned first", pinned: true))
        f.age("notes/items/2026/n1.json")
        _ = try f.check(cache: true)  // records n1 as clean and pinned
        try f.save(Note.make("n2", "pinned too", pinned: true))
        let r = try f.check(["notes/items/2026/n2.json"], cache: true)
        #expect(r.filesChecked == 1)
        // Reported on the file asked about; the rule counted the recorded one too.
        #expect(r.problems.map(\.description) == ["notes/items/2026/n2.json: /pinned: error: at most one note may be pinned (2 are)"])
        // The file asked about counts once, though the record lists it too.
        #expect(try f.check(["notes/items/2026/n1.json"], cache: true).problems.isEmpty)
        // Without the record, only the given files are judged.
        try FileSystem.remove(f.dir.url(".local/check-cache"))
        #expect(try f.check(["notes/items/2026/n2.json"], cache: true).problems.isEmpty)
    }
}
