import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// `ledger merge-driver`, run by plain `git pull`, reaches what `ledger sync` reaches.
@Suite struct MergeDriverTests {
    static func at(_ time: String) -> [String: String] { ["LEDGER_NOW": "2026-11-21T\(time)+01:00"] }

    /// Two clones with one session edited on both sides; `integrate` brings b's change together with a's.
    static func divergedSession(_ integrate: (TestLedger, TestLedger) throws -> Void) throws -> String {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "start", env: at("21:00:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        #expect(a.run("waterline", "drink", "--preset", "beer", env: at("21:10:00")).status == 0)
        #expect(b.run("waterline", "water", env: at("21:20:00")).status == 0)
        try integrate(a, b)
        let path = try #require(b.files(under: "waterline/sessions").first)
        #expect(b.run("check").status == 0)
        return try #require(b.read(path))
    }

    @Test func plainGitPullMergesADocumentLikeSync() throws {
        let viaSync = try Self.divergedSession { a, b in
            #expect(a.run("sync").status == 0)
            #expect(b.run("sync").status == 0)
        }
        let viaGit = try Self.divergedSession { a, b in
            for (l, msg) in [(a, "a"), (b, "b")] {
                try GitCLI.run(["add", "-A"], in: l.root)
                try GitCLI.run(["commit", "-q", "-m", msg], in: l.root)
            }
            let push = try GitCLI.run(["push", "-q", "origin", "main"], in: a.root)
            #expect(push.status == 0, "\(push)")
            let pull = try GitCLI.run(["pull", "--no-rebase", "--no-edit", "origin", "main"], in: b.root)
            #expect(pull.status == 0, "\(pull)")
            #expect(try b.gitStatus().isEmpty)
        }
        // The same document but for the random ids of the two runs.
        #expect(Self.withoutIDs(try JSONParser.parse(Array(viaGit.utf8))) == Self.withoutIDs(try JSONParser.parse(Array(viaSync.utf8))))
        #expect(!viaGit.contains("<<<<<<<"))
    }

    static func withoutIDs(_ v: JSONValue) -> JSONValue {
        switch v {
        case .object(let o):
            var out = JSONObject()
            for m in o where m.key != "id" { out[m.key] = withoutIDs(m.value) }
            return .object(out)
        case .array(let a): return .array(a.map(withoutIDs))
        default: return v
        }
    }

    @Test func plainGitKeepsBothVersionsOfAnUnmergeableFile() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        try a.write("waterline/notes.json", "{\"v\": 0}\n")
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        try a.write("waterline/notes.json", "{\"v\": \"a\"}\n")
        try b.write("waterline/notes.json", "{\"v\": \"b\"}\n")
        for l in [a, b] { try GitCLI.run(["commit", "-q", "-am", "edit"], in: l.root) }
        #expect(try GitCLI.run(["push", "-q", "origin", "main"], in: a.root).status == 0)
        let pull = try GitCLI.run(["pull", "--no-rebase", "--no-edit", "origin", "main"], in: b.root)
        // Not a document: the driver keeps both versions and exits 1, so git reports the
        // conflict instead of taking the merge as clean (no conflict markers in the file).
        #expect(pull.status == 1, "\(pull)")
        #expect(pull.stdout.contains("CONFLICT (content): Merge conflict in waterline/notes.json"), "\(pull)")
        #expect(b.read("waterline/notes.json") == "{\"v\": \"b\"}\n")
        let conflict = FileMerge.conflictPath("waterline/notes.json", theirs: Array("{\"v\": \"a\"}\n".utf8))
        #expect(b.read(conflict) == "{\"v\": \"a\"}\n")
        // Resolved as git says (keep this version, add it, commit); the next `ledger sync`
        // publishes the conflict file, which check reports until it is removed.
        try GitCLI.run(["add", "waterline/notes.json"], in: b.root)
        #expect(try GitCLI.run(["commit", "-q", "--no-edit"], in: b.root).status == 0)
        #expect(b.run("sync").status == 0)
        #expect(b.run("check").stdout.contains("\(conflict): /: error: unresolved sync conflict"))
    }

    @Test func theDriverMergesNothingLargerThanADocumentMayBe() throws {
        let ledger = try TestLedger()
        let dir = TemporaryDirectory()
        let base = dir.url("base"), ours = dir.url("ours"), theirs = dir.url("theirs")
        let big = "{\"v\": \"" + String(repeating: "x", count: LedgerStore.maximumDocumentBytes) + "\"}\n"
        for (path, text) in [(base, "{}\n"), (ours, "{\"v\": 1}\n"), (theirs, big)] { try text.write(toFile: path, atomically: true, encoding: .utf8) }
        let r = ledger.run("merge-driver", base, ours, theirs, "waterline/notes.json")
        // Over 4 MiB (the README's limit for documents): not merged, git reports a conflict.
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("larger than the 4.0 MiB a ledger document may be"), "\(r)")
        #expect(try String(contentsOfFile: ours, encoding: .utf8) == "{\"v\": 1}\n")
    }

    @Test func theDriverWritesTheResultToOursAndExitsZero() throws {
        let ledger = try TestLedger()
        let dir = TemporaryDirectory()
        let base = dir.url("base"), ours = dir.url("ours"), theirs = dir.url("theirs")
        let manifest = try #require(ledger.read("ledger.json"))
        try manifest.write(toFile: base, atomically: true, encoding: .utf8)
        try manifest.replacingOccurrences(of: "\"format\"", with: "\"mine\": 1,\n  \"format\"").write(toFile: ours, atomically: true, encoding: .utf8)
        try manifest.replacingOccurrences(of: "\"format\"", with: "\"yours\": 2,\n  \"format\"").write(toFile: theirs, atomically: true, encoding: .utf8)
        let r = ledger.run("merge-driver", base, ours, theirs, "ledger.json")
        #expect(r.status == 0, "\(r)")
        let merged = try JSONParser.parse(Array(try String(contentsOfFile: ours, encoding: .utf8).utf8))
        #expect(merged["mine"] == .number(1))
        #expect(merged["yours"] == .number(2))
        // Missing files are a usage error.
        #expect(ledger.run("merge-driver", dir.url("nope"), ours, theirs, "ledger.json").status == 2)
    }
}
