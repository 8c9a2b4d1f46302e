import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

@Suite struct MomentsAddTests {
    @Test func aNoteForNowIsTheDefaultAndPrintsTheSentence() throws {
        let ledger = try TestLedger()
        let r = ledger.run("moments", "add", "coffee", "with", "Sam")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasPrefix("I appreciate coffee with Sam for now\n"))
        let docs = MomentsFixture.experiences(ledger)
        #expect(docs.count == 1)
        let doc = try #require(docs.first)
        #expect(doc["experienceType"] == .string("note"))
        #expect(doc["momentType"] == .string("now"))
        #expect(doc["payload"] == .string("coffee with Sam"))
        #expect(doc["timestamp"] == .string("2026-11-21T22:30:00+01:00"))
        #expect(doc["createdAt"] == doc["timestamp"])
        #expect(doc["updatedAt"] == doc["timestamp"])
        let id = try #require(doc["id"]?.stringValue)
        #expect(ledger.files(under: "moments/experiences") == ["moments/experiences/2026/11/\(id).json"])
        #expect(ledger.run("check").status == 0)
    }

    @Test func dotsLinksAndMoments() throws {
        let ledger = try TestLedger()
        let dot = ledger.run("moments", "add", "--dot", "--moment", "today", "--json")
        #expect(dot.status == 0, "\(dot)")
        #expect(dot.json["sentence"] == .string("I appreciate this moment for today"))
        #expect(dot.json["experience"]?["payload"] == .null)
        let link = ledger.run("moments", "add", "--link", "https://example.com/song", "--moment", "week", "--json")
        #expect(link.status == 0, "\(link)")
        #expect(link.json["experience"]?["momentType"] == .string("thisWeek"))
        #expect(link.json["experience"]?["experienceType"] == .string("link"))
        #expect(link.json["sentence"] == .string("I appreciate https://example.com/song for this week"))
        let path = try #require(link.json["path"]?.stringValue)
        #expect(ledger.document(path)?["payload"] == .string("https://example.com/song"))
    }

    @Test(arguments: [
        (["moments", "add"], Int32(2), "say what you appreciate"),
        (["moments", "add", "   "], 2, "say what you appreciate"),
        (["moments", "add", "tea", "--dot"], 2, "TEXT cannot go with --dot"),
        (["moments", "add", "--dot", "--link", "https://example.com"], 2, "one of --dot, --link at a time"),
        (["moments", "add", "tea", "--moment", "tomorow"], 2, "--moment is now, today or week"),
        (["moments", "add", "--link", "ftp://example.com/file"], 2, "--link: links are http or https URLs"),
        (["moments", "add", "--link", "example.com"], 2, "add https:// in front?"),
        (["moments", "add", "--link", "https://"], 2, "names no host"),
        (["moments", "add", "tea", "--at", "yesterday"], 2, "--at must be a time like 22:15"),
        (["moments", "add", "tea", "--at", "2026-11-22T09:00"], 2, "--at 2026-11-22T09:00 is later than now"),
        (["moments", "add", "--photo", "no-such-photo.jpg"], 2, "--photo: there is no file at no-such-photo.jpg"),
        (["moments", "add", "--photo", "."], 2, "--photo: . is not a regular file"),
    ])
    func refusals(arguments: [String], status: Int32, message: String) throws {
        let ledger = try TestLedger()
        let r = ledger.run(arguments: arguments)
        #expect(r.status == status, "\(r)")
        #expect(r.stderr.contains(message), "\(r)")
        #expect(MomentsFixture.experiences(ledger).isEmpty, "nothing is written")
    }

    @Test func aBackdatedCaptureGoesInTheBucketOfItsWallClockTime() throws {
        let ledger = try TestLedger()
        let r = ledger.run("moments", "add", "walk by the river", "--at", "2026-10-20T18:00", "--json")
        #expect(r.status == 0, "\(r)")
        #expect(r.json["experience"]?["timestamp"] == .string("2026-10-20T18:00:00+02:00"), "Paris was on summer time")
        #expect(r.json["experience"]?["createdAt"] == .string("2026-11-21T22:30:00+01:00"))
        #expect(r.json["path"]?.stringValue?.hasPrefix("moments/experiences/2026/10/") == true)
    }

    @Test func aPhotoIsCopiedUnderItsContentHashAndAddedOnce() throws {
        let ledger = try TestLedger()
        let photo = try MomentsFixture.file(ledger, "IMG_0001.PNG", MomentsFixture.png)
        let first = ledger.run("moments", "add", "--photo", photo, "--json")
        #expect(first.status == 0, "\(first)")
        let name = SHA256Hash.hexDigest(MomentsFixture.png) + ".png"
        #expect(first.json["experience"]?["payload"] == .string("moments/photos/" + name))
        #expect(first.json["photoAdded"] == .bool(true))
        #expect(first.json["sentence"] == .string("I appreciate this photo for now"))
        let copy = try MomentsFixture.file(ledger, "copy.png", MomentsFixture.png)
        let second = ledger.run("moments", "add", "--photo", copy)
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("already in the ledger"))
        #expect(ledger.files(under: "moments/photos") == ["moments/photos/" + name])
        #expect(MomentsFixture.experiences(ledger).count == 2)
        #expect(try FileSystem.read(ledger.root + "/moments/photos/" + name) == MomentsFixture.png)
        let check = ledger.run("check", "--json")
        #expect(check.status == 0, "\(check)")
        #expect(check.json["problems"] == .array([]))
    }

    @Test func aPhotoIsRecognisedByItsContentNotItsName() throws {
        let ledger = try TestLedger()
        let misnamed = try MomentsFixture.file(ledger, "holiday.png", MomentsFixture.jpeg)
        let r = ledger.run("moments", "add", "--photo", misnamed, "--json")
        #expect(r.status == 0, "\(r)")
        #expect(r.json["experience"]?["payload"] == .string("moments/photos/" + SHA256Hash.hexDigest(MomentsFixture.jpeg) + ".jpg"))
        let text = try MomentsFixture.file(ledger, "notes.jpg", Array("a text file, named like a photo".utf8))
        let refused = ledger.run("moments", "add", "--photo", text)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is not a photo ledger recognises"))
        #expect(ledger.files(under: "moments/photos").count == 1)
    }

    @Test func photosOverTenMebibytesAreRefusedWithTheLimit() throws {
        let ledger = try TestLedger()
        let path = try MomentsFixture.file(ledger, "huge.jpg", MomentsFixture.jpeg)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(10 * 1024 * 1024 + 1))
        try handle.close()
        let r = ledger.run("moments", "add", "--photo", path)
        #expect(r.status == 1)
        #expect(r.stderr.contains("larger than the 10.0 MiB a moments photo may be"), "\(r)")
        #expect(ledger.files(under: "moments/photos").isEmpty)
        #expect(MomentsFixture.experiences(ledger).isEmpty)
    }

    @Test func checkReportsAMissingOrRenamedPhoto() throws {
        let ledger = try TestLedger()
        let photo = try MomentsFixture.file(ledger, "p.png", MomentsFixture.png)
        #expect(ledger.run("moments", "add", "--photo", photo).status == 0)
        let name = SHA256Hash.hexDigest(MomentsFixture.png) + ".png"
        #expect(ledger.run("check").status == 0, "clean, and remembered as clean by the check cache")
        let wrong = String(repeating: "0", count: 64) + ".png"
        try FileManager.default.moveItem(atPath: ledger.root + "/moments/photos/" + name, toPath: ledger.root + "/moments/photos/" + wrong)
        let r = ledger.run("check")
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("moments/photos/\(wrong): /: error: its name is not the SHA-256 of its contents"), "\(r)")
        #expect(r.stdout.contains("/payload: warning: refers to the moments photo \"\(name)\", which does not exist"), "\(r)")
    }

    @Test func anInvalidTemplateDoesNotStopACapture() throws {
        let ledger = try TestLedger()
        // An invalid settings file: the photo is captured all the same, with the default sentence.
        try ledger.write("moments/settings.json", #"{"sentenceTemplate": "Thanks", "createdAt": "2026-11-21T22:00:00+01:00", "updatedAt": "2026-11-21T22:00:00+01:00"}"#)
        let photo = try MomentsFixture.file(ledger, "p.png", MomentsFixture.png)
        let r = ledger.run("moments", "add", "--photo", photo)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("I appreciate this photo for now"), "\(r)")
        #expect(r.stderr.contains("moments/settings.json is invalid"), "\(r)")
        #expect(ledger.files(under: "moments/photos").count == 1)
        #expect(MomentsFixture.experiences(ledger).count == 1)
    }

    @Test func aNoteHasALengthLimitAndSoDoesALink() throws {
        let ledger = try TestLedger()
        let longest = String(repeating: "a", count: Experience.maximumNoteLength)
        #expect(ledger.run("moments", "add", longest).status == 0)
        let long = ledger.run("moments", "add", String(repeating: "word ", count: 25_200))
        #expect(long.status == 2)
        #expect(long.stderr == "ledger: TEXT: a note is at most 1000 characters, a few sentences (found 125999); keep the moment short, or link to a longer text\n", "\(long)")
        #expect(MomentsFixture.experiences(ledger).count == 1)
        let link = ledger.run("moments", "add", "--link", "https://example.com/" + String(repeating: "x", count: 3000))
        #expect(link.status == 2)
        #expect(link.stderr.contains("--link: links are http or https URLs such as https://example.com/page of at most 2048 characters (found 3020)"), "\(link)")
        // A hand-written one is an error for check, and the views refuse it.
        let id = "longnote"
        try ledger.write("moments/experiences/2026/11/\(id).json", """
            {"id": "\(id)", "timestamp": "2026-11-21T10:00:00+01:00", "momentType": "now", "experienceType": "note",
             "payload": "\(String(repeating: "b", count: 1001))", "createdAt": "2026-11-21T10:00:00+01:00", "updatedAt": "2026-11-21T10:00:00+01:00"}
            """)
        let check = ledger.run("check")
        #expect(check.status == 1)
        #expect(check.stdout.contains("moments/experiences/2026/11/\(id).json: /payload: error: a note is at most 1000 characters"), "\(check)")
        #expect(ledger.run("moments", "show", "2026-11-21").status == 1)
    }

    /// Four processes capturing at once, some with the same photo: every capture is kept and
    /// the photo is one file.
    @Test func concurrentCapturesAreAllKept() throws {
        let ledger = try TestLedger()
        let photo = try MomentsFixture.file(ledger, "same.png", MomentsFixture.png)
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in 0..<4 {
                let args = i == 0 ? ["moments", "add", "--photo", photo] : ["moments", "add", "tea \(worker)-\(i)"]
                guard let r = try? LedgerBinary.run(args, environment: ledger.environment, currentDirectory: ledger.root), r.status == 0 else { failures.add("\(worker)-\(i)"); continue }
            }
        }
        #expect(failures.all.isEmpty)
        #expect(MomentsFixture.experiences(ledger).count == 16)
        #expect(ledger.files(under: "moments/photos").count == 1)
        #expect(ledger.run("check").status == 0)
    }
}

/// Failures collected from several threads.
final class Failures: @unchecked Sendable {
    // @unchecked: `items` is only touched under `lock`.
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.withLock { items.append(s) } }
    var all: [String] { lock.withLock { items } }
}
