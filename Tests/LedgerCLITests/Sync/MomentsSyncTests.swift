import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// SPEC §6 for DotLife Moments: moments are append-only (union, duplicates allowed) and photos,
/// content-addressed, travel with them.
@Suite struct MomentsSyncTests {
    static func at(_ time: String) -> [String: String] { ["LEDGER_NOW": "2026-11-21T\(time)+01:00"] }

    /// A 1×1 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!

    @Test func momentsAddedOnTwoMachinesAreUnionedWithTheirPhotos() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let b = try fixture.clone()
        let photo = fixture.directory.url("sunset.png")
        try Self.png.write(to: URL(fileURLWithPath: photo))
        #expect(a.run("moments", "add", "coffee with Sam", env: Self.at("09:00:00")).status == 0)
        #expect(a.run("moments", "add", "--photo", photo, env: Self.at("18:00:00")).status == 0)
        // The same words on both machines: two moments (duplicates are allowed).
        #expect(a.run("moments", "add", "tea", env: Self.at("16:00:00")).status == 0)
        #expect(b.run("moments", "add", "tea", env: Self.at("16:05:00")).status == 0)
        #expect(b.run("moments", "add", "--dot", env: Self.at("20:00:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let r = b.run("sync", "--json")
        #expect(r.status == 0, "\(r)")
        #expect(a.run("sync").status == 0)
        #expect(try a.headTree() == b.headTree())
        for l in [a, b] {
            #expect(l.files(under: "moments/experiences").count == 5)
            #expect(l.files(under: "moments/photos").count == 1)
            let check = l.run("check", "--json")
            #expect(check.status == 0 && check.json["warnings"] == .number(0), "\(check)")
            let today = l.run("moments", "today", "--json").json
            let total = today["buckets"]?.arrayValue?.compactMap { $0["count"] }.reduce(0.0) { sum, c in
                if case .number(let n) = c { return sum + n }
                return sum
            }
            #expect(total == 5)
        }
    }

    @Test func aDeletedMomentStaysDeletedAndCanBeRemovedFromHistoryForGood() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let photo = fixture.directory.url("sunset.png")
        try Self.png.write(to: URL(fileURLWithPath: photo))
        let note = try #require(a.run("moments", "add", "a secret note", "--json", env: Self.at("09:00:00")).json["path"]?.stringValue)
        let shot = a.run("moments", "add", "--photo", photo, "--json", env: Self.at("10:00:00")).json
        let shotPath = try #require(shot["path"]?.stringValue)
        let image = try #require(shot["experience"]?["payload"]?.stringValue)
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        // Plain git on the same setup: a clone made with git itself, with a commit of its own.
        let plain = fixture.directory.url("plain")
        #expect(try GitCLI.run(["clone", "-q", fixture.remote, plain], in: "/").status == 0)
        try Data("my own notes\n".utf8).write(to: URL(fileURLWithPath: plain + "/notes.txt"))
        #expect(try GitCLI.run(["add", "notes.txt"], in: plain).status == 0)
        #expect(try GitCLI.run(["commit", "-q", "-m", "notes"], in: plain).status == 0)

        // Deleted on A; B, unchanged there, captures something else meanwhile (so its sync merges).
        #expect(a.run("moments", "delete", note, env: Self.at("11:00:00")).status == 0)
        let deleted = a.run("moments", "delete", shotPath, "--json", env: Self.at("11:00:00"))
        #expect(deleted.json["photo"] == .string(image), "\(deleted)")
        #expect(b.run("moments", "add", "soup", env: Self.at("12:00:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let r = b.run("sync")
        #expect(r.status == 0, "\(r)")
        #expect(a.run("sync").status == 0)
        #expect(try a.headTree() == b.headTree())
        for l in [a, b] {
            #expect(l.read(note) == nil && l.read(shotPath) == nil && l.read(image) == nil)
            #expect(l.files(under: "moments/experiences").count == 1)
            #expect(l.run("check").status == 0)
        }
        let pull = try GitCLI.run(["pull", "-q", "--no-rebase", "origin", "main"], in: plain)
        #expect(pull.status == 0, "\(pull)")
        #expect(!FileManager.default.fileExists(atPath: plain + "/" + note) && !FileManager.default.fileExists(atPath: plain + "/" + image))
        #expect(FileManager.default.fileExists(atPath: plain + "/notes.txt"))

        // What remains: the history, where git shows it to anyone with a clone.
        let history = try GitCLI.run(["log", "--all", "--format=%h", "--", note], in: a.root).stdout.split(separator: "\n")
        #expect(history.count == 2, "added, then deleted")
        #expect(try GitCLI.run(["show", "\(history[1]):\(note)"], in: a.root).stdout.contains("a secret note"))

        // The manual's way to remove it for good, photo included: `ledger purge`, which the
        // other device honours at its next sync.
        let blob = try GitCLI.run(["rev-parse", "\(history[1]):\(image)"], in: a.root).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for target in [note, shotPath] {
            let purge = a.run("purge", target, "--yes", env: Self.at("12:30:00"))
            #expect(purge.status == 0, "\(purge)")
        }
        #expect(b.run("sync").status == 0)
        for repository in [a.root, b.root, fixture.remote] {
            #expect(try GitCLI.run(["log", "--all", "--format=%h", "--", note, image], in: repository).stdout.isEmpty, "\(repository)")
            #expect(try GitCLI.run(["cat-file", "-e", blob], in: repository).status != 0, "the photo's bytes are gone from \(repository)")
        }
        #expect(b.files(under: "moments/experiences").count == 1)
        #expect(a.run("moments", "add", "tea", env: Self.at("13:00:00")).status == 0)
        #expect(a.run("sync").status == 0, "the rewritten ledger syncs on")
        #expect(b.run("sync").status == 0)
    }
}
