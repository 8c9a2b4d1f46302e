import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `ledger moments delete`: a user-visible way to delete a moment.
@Suite struct MomentsDeleteTests {
    @Test func aMomentIsDeletedByIdPrefixOrPath() throws {
        let ledger = try TestLedger()
        var ids: [String] = []
        for text in ["tea", "cake", "a walk"] {
            let r = ledger.run("moments", "add", text, "--json")
            ids.append(try #require(r.json["id"]?.stringValue, "\(r)"))
        }
        let byID = ledger.run("moments", "delete", ids[0])
        #expect(byID.status == 0, "\(byID)")
        #expect(byID.stdout.hasPrefix("Deleted the note of Sat 21 Nov 22:30 (moments/experiences/2026/11/\(ids[0]).json): tea\n"), "\(byID)")
        #expect(byID.stdout.contains("Git keeps it in the history"))
        let byPrefix = ledger.run("moments", "delete", String(ids[1].prefix(4)), "--json")
        #expect(byPrefix.json["id"] == .string(ids[1]) && byPrefix.json["photo"] == .null, "\(byPrefix)")
        #expect(ledger.run("moments", "delete", "moments/experiences/2026/11/\(ids[2]).json").status == 0)
        #expect(MomentsFixture.experiences(ledger).isEmpty)
        #expect(ledger.files(under: "moments/experiences").isEmpty)
        #expect(ledger.run("check").status == 0)
    }

    /// The path as a shell gives it — absolute, or relative to where you stand inside the
    /// ledger (what TAB completes) — names the experience as the ledger-relative one does.
    @Test func aMomentIsDeletedByItsAbsolutePathOrOneFromHere() throws {
        let ledger = try TestLedger()
        var paths: [String] = []
        for text in ["tea", "cake"] {
            let r = ledger.run("moments", "add", text, "--json")
            paths.append(try #require(r.json["path"]?.stringValue, "\(r)"))
        }
        let absolute = ledger.run("moments", "delete", ledger.root + "/" + paths[0], cwd: "/")
        #expect(absolute.status == 0 && absolute.stdout.contains("(\(paths[0])): tea"), "\(absolute)")
        let folder = ledger.root + "/moments/experiences/2026/11"
        let here = ledger.run("moments", "delete", String(paths[1].split(separator: "/").last!), cwd: folder)
        #expect(here.status == 0 && here.stdout.contains("(\(paths[1])): cake"), "\(here)")
        #expect(MomentsFixture.experiences(ledger).isEmpty)
        let gone = ledger.run("moments", "delete", ledger.root + "/" + paths[0])
        #expect(gone.status == 1 && gone.stderr.contains("there is no moment with id"), "\(gone)")
    }

    @Test(arguments: [
        (["moments", "delete", "zzzzzzzzzz"], Int32(1), "there is no moment with id \"zzzzzzzzzz\""),
        (["moments", "delete", "z"], 2, "give its whole id or at least 4 characters of it"),
        (["moments", "delete"], 2, "Missing expected argument '<ref>'"),
    ])
    func whatNamesNoMomentIsRefused(arguments: [String], status: Int32, message: String) throws {
        let ledger = try TestLedger()
        ledger.run("moments", "add", "tea")
        let r = ledger.run(arguments: arguments)
        #expect(r.status == status, "\(r)")
        #expect(r.stderr.contains(message), "\(r)")
        #expect(MomentsFixture.experiences(ledger).count == 1)
    }

    /// Deleting is a fix: a moment made invalid by hand (a 126,000-character note) is
    /// deleted by the id of its file name.
    @Test func anInvalidMomentIsDeleted() throws {
        let ledger = try TestLedger()
        let r = ledger.run("moments", "add", "tea", "--json")
        let id = try #require(r.json["id"]?.stringValue, "\(r)")
        let path = "moments/experiences/2026/11/\(id).json"
        let text = try #require(ledger.read(path)).replacingOccurrences(of: "\"tea\"", with: "\"" + String(repeating: "x", count: 126_000) + "\"")
        try ledger.write(path, text)
        #expect(ledger.run("check").status == 1)
        let deleted = ledger.run("moments", "delete", String(id.prefix(4)))
        #expect(deleted.status == 0, "\(deleted)")
        #expect(deleted.stdout.hasPrefix("Deleted the invalid experience \(path) ("), "\(deleted)")
        #expect(ledger.read(path) == nil && ledger.run("check").status == 0)
    }

    /// A prefix too short to take is a usage error in every app (exit status 2): a moment's,
    /// a Waterline session's and a Waterline entry's alike.
    @Test func aTooShortPrefixIsAUsageErrorInEveryApp() throws {
        let ledger = try TestLedger()
        ledger.run("moments", "add", "tea")
        #expect(ledger.run("waterline", "start").status == 0)
        #expect(ledger.run("waterline", "drink").status == 0)
        for args in [["moments", "delete", "c1c"], ["waterline", "delete", "8jj"], ["waterline", "edit", "8jj", "--std", "2"],
                     ["waterline", "sessions", "delete", "8jj", "--yes"]] {
            let r = ledger.run(arguments: args)
            #expect(r.status == 2, "\(args): \(r)")
        }
    }

    @Test func aPhotoGoesWithTheLastMomentThatShowsIt() throws {
        let ledger = try TestLedger()
        let photo = try MomentsFixture.file(ledger, "p.png", MomentsFixture.png)
        let first = ledger.run("moments", "add", "--photo", photo, "--json").json["id"]?.stringValue ?? ""
        let second = ledger.run("moments", "add", "--photo", photo, "--at", "2025-06-01T10:00", "--json").json["id"]?.stringValue ?? ""
        let name = "moments/photos/" + SHA256Hash.hexDigest(MomentsFixture.png) + ".png"
        let kept = ledger.run("moments", "delete", first)
        #expect(kept.status == 0 && !kept.stdout.contains("Removed its photo"), "\(kept)")
        #expect(ledger.files(under: "moments/photos") == [name])
        let removed = ledger.run("moments", "delete", second)
        #expect(removed.stdout.contains("Removed its photo, which no other experience shows: \(name)."), "\(removed)")
        #expect(ledger.files(under: "moments/photos").isEmpty)
        #expect(ledger.run("check").status == 0)
    }
}
