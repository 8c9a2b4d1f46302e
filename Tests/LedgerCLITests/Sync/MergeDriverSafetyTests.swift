import Foundation
import ProcessRunner
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// The merge driver takes only what git passes — a relative PATHNAME inside the work tree and
/// three regular files — and never blends two different documents into one.
@Suite struct MergeDriverSafetyTests {
    /// A ledger with two brew logs (two different documents), and their paths.
    static func twoLogs(_ ledger: TestLedger) throws -> (String, String) {
        #expect(ledger.run("brew", "save", "--rating", "3", env: ["LEDGER_NOW": "2026-11-21T08:00:00+01:00"]).status == 0)
        #expect(ledger.run("brew", "save", "--rating", "5", env: ["LEDGER_NOW": "2026-11-21T09:00:00+01:00"]).status == 0)
        let logs = ledger.files(under: "brew/logs")
        try #require(logs.count == 2)
        return (logs[0], logs[1])
    }

    /// `document` with its rating (and `updatedAt`) changed, in canonical form.
    static func rated(_ document: String, _ rating: Int, at time: String) throws -> String {
        var json = try JSONParser.parse(Array(document.utf8))
        guard case .object(var o) = json else { throw LedgerError.invalid("not an object") }
        o["rating"] = .number(Double(rating))
        o["updatedAt"] = .string(time)
        json = .object(o)
        return String(decoding: CanonicalJSON.encode(json), as: UTF8.self)
    }

    @Test func anotherDocumentAtThePathIsKeptAsAConflictFileNotBlended() throws {
        let ledger = try TestLedger()
        let (path, other) = try Self.twoLogs(ledger)
        let base = try #require(ledger.read(path))
        let ours = try Self.rated(base, 1, at: "2026-11-21T10:00:00+01:00")
        let theirs = try #require(ledger.read(other))  // another log's content, put at `path`
        let dir = TemporaryDirectory()
        for (name, text) in [("base", base), ("ours", ours), ("theirs", theirs)] {
            try text.write(toFile: dir.url(name), atomically: true, encoding: .utf8)
        }
        let r = ledger.run("merge-driver", dir.url("base"), dir.url("ours"), dir.url("theirs"), path)
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("two different documents are never merged"), "\(r)")
        // Ours is left as it was; theirs is kept whole beside the file; check reports it.
        #expect(try String(contentsOfFile: dir.url("ours"), encoding: .utf8) == ours)
        let conflict = FileMerge.conflictPath(path, theirs: Array(theirs.utf8))
        #expect(ledger.read(conflict) == theirs)
        #expect(ledger.run("check").stdout.contains("\(conflict): /: error: unresolved sync conflict"))
    }

    /// The same set-up between two machines: plain `git pull` (through the driver), with or
    /// without `--rebase`, stops with a conflict and `ledger sync` keeps a conflict file; none
    /// blends the two, and each leaves this machine's version in place.
    @Test func plainGitAndSyncKeepBothDocuments() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let (path, other) = try Self.twoLogs(a)
        #expect(a.run("sync").status == 0)
        let viaGit = try fixture.clone(), viaRebase = try fixture.clone(), viaSync = try fixture.clone()
        // On a, another log's content lands at `path` (a copy made by hand, committed and
        // pushed with plain git: `ledger sync` would refuse it, its id is not its file name).
        let replaced = try #require(a.read(other))
        try a.write(path, replaced)
        try GitCLI.run(["commit", "-q", "-am", "copied"], in: a.root)
        #expect(try GitCLI.run(["push", "-q", "origin", "main"], in: a.root).status == 0)
        // On the other machines, the log at `path` is re-rated.
        let mine = try Self.rated(try #require(viaGit.read(path)), 1, at: "2026-11-21T23:00:00+01:00")
        for c in [viaGit, viaRebase, viaSync] { try c.write(path, mine) }

        let conflict = FileMerge.conflictPath(path, theirs: Array(replaced.utf8))
        for (c, mode) in [(viaGit, "--no-rebase"), (viaRebase, "--rebase")] {
            try GitCLI.run(["commit", "-q", "-am", "rated"], in: c.root)
            let pull = try GitCLI.run(["pull", mode, "--no-edit", "origin", "main"], in: c.root)
            #expect(pull.status != 0, "\(mode): \(pull)")
            #expect(pull.stdout.contains("CONFLICT") || pull.stderr.contains("CONFLICT"), "\(mode): \(pull)")
            #expect(c.read(path) == mine, "\(mode)")
            #expect(c.read(conflict) == replaced, "\(mode)")
        }

        let sync = viaSync.run("sync")
        #expect(sync.status == 0, "\(sync)")
        #expect(viaSync.read(path) == mine)
        #expect(viaSync.read(conflict) == replaced)
        #expect(viaSync.run("check").stdout.contains("\(conflict): /: error: unresolved sync conflict"))
    }

    /// Without the check, a conflict file for these would land outside the work tree.
    @Test(arguments: ["../escape.json", "waterline/../../escape.json", "/tmp/ledger-merge-driver-escape/x.json", "", ".git/x.json", "waterline//notes.json"])
    func aPathnameOutsideTheWorkTreeIsRefusedAndNothingIsWritten(_ pathname: String) throws {
        let ledger = try TestLedger()
        let dir = TemporaryDirectory()
        try "{\"v\": 0}\n".write(toFile: dir.url("base"), atomically: true, encoding: .utf8)
        try "{\"v\": 1}\n".write(toFile: dir.url("ours"), atomically: true, encoding: .utf8)
        try "not json\n".write(toFile: dir.url("theirs"), atomically: true, encoding: .utf8)
        let around = ledger.directory.path
        let before = FileManager.default.subpaths(atPath: around)?.sorted()
        let r = ledger.run("merge-driver", dir.url("base"), dir.url("ours"), dir.url("theirs"), pathname)
        #expect(r.status == 2, "\(r)")
        #expect(r.stderr.contains("PATHNAME must be the file's path relative to the top of the work tree"), "\(r)")
        #expect(FileManager.default.subpaths(atPath: around)?.sorted() == before)
        #expect(try String(contentsOfFile: dir.url("ours"), encoding: .utf8) == "{\"v\": 1}\n")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/ledger-merge-driver-escape"))
    }

    /// A FIFO (or a directory) as an input is refused at once: the driver never waits for a
    /// writer that will not come. Run as a process, so that a hang would be seen and ended.
    @Test(arguments: ["fifo", "directory"]) func anInputThatIsNotARegularFileIsRefusedAtOnce(_ kind: String) throws {
        let ledger = try TestLedger()
        let dir = TemporaryDirectory()
        try "{\"v\": 0}\n".write(toFile: dir.url("base"), atomically: true, encoding: .utf8)
        try "{\"v\": 1}\n".write(toFile: dir.url("ours"), atomically: true, encoding: .utf8)
        if kind == "fifo" {
            #expect(mkfifo(dir.url("theirs"), 0o644) == 0)
        } else {
            try FileManager.default.createDirectory(atPath: dir.url("theirs"), withIntermediateDirectories: false)
        }
        let p = try ChildProcess(LedgerBinary.path, ["merge-driver", dir.url("base"), dir.url("ours"), dir.url("theirs"), "waterline/notes.json"],
                                 environment: ledger.environment, directory: ledger.root, input: .null, output: .null)
        let deadline = Date().addingTimeInterval(20)
        var status = p.handle.reap(blocking: false)
        while status == nil, Date() < deadline {
            usleep(20_000)
            status = p.handle.reap(blocking: false)
        }
        guard let status else {
            p.terminate()
            Issue.record("the merge driver blocked on a \(kind) input")
            return
        }
        let stderr = String(decoding: p.errorBytes(limit: 1 << 16), as: UTF8.self)
        #expect(status == 2, "\(stderr)")
        #expect(stderr.contains("THEIRS (\(dir.url("theirs"))) is "), "\(stderr)")
        #expect(try String(contentsOfFile: dir.url("ours"), encoding: .utf8) == "{\"v\": 1}\n")
        #expect(!FileManager.default.fileExists(atPath: ledger.root + "/waterline/notes.json"))
    }
}
