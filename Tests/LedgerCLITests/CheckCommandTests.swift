import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

@Suite struct CheckCommandTests {
    @Test func cleanLedgerExitsZero() throws {
        let ledger = try TestLedger()
        let r = ledger.run("check")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasSuffix("checked: no problems.\n"))
    }

    @Test func problemsArePrintedOnePerLineAndExitOne() throws {
        let ledger = try TestLedger()
        try ledger.write("ledger.json", "{\"format\": \"1\", \"createdAt\": \"2026-11-21T22:30:00+01:00\", \"updatedAt\": \"x\", \"formt\": 1}")
        let r = ledger.run("check")
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("ledger.json: /format: error: must be an integer (found a string) [line 1, column 12]"), "\(r)")
        #expect(lines.contains { $0.hasPrefix("ledger.json: /updatedAt: error: must be an ISO-8601 timestamp") })
        #expect(lines.contains("ledger.json: /formt: warning: unknown field \"formt\" (did you mean 'format'?); it is kept as it is [line 1, column 86]"))
        // A new ledger also holds the apps' default documents, so only the tail is fixed. The
        // file has errors, so `--fix` leaves its formatting as it is: nothing is fixable.
        #expect(lines.last?.hasSuffix(" checked: 2 errors, 2 warnings.") == true, "\(r)")
        #expect(lines.contains { $0.hasPrefix("ledger.json: /: warning: is not in canonical format") && $0.contains("(not fixed while this file has an error") }, "\(r)")
    }

    /// An invalid value is echoed in its problem line written out: an escape sequence that
    /// would retitle and clear the terminal, and a newline that would split the line, are shown,
    /// not obeyed; `--json` carries the value exactly.
    @Test func anInvalidValueIsEchoedWrittenOutOnOneLine() throws {
        let ledger = try TestLedger()
        let hostile = "be\u{1B}]0;pwned\u{07}\u{1B}[2J\nr"
        let path = "waterline/presets/beer.json"
        guard case .object(var preset)? = ledger.document(path) else { Issue.record("no beer preset"); return }
        preset["drinkType"] = .string(hostile)
        try ledger.write(path, CanonicalJSON.string(.object(preset)))
        let r = try ledger.runBinary("check")
        #expect(r.status == 1)
        #expect(!r.stdout.utf8.contains(0x1B) && !r.stdout.utf8.contains(0x07), "no ESC or BEL byte reaches the terminal")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"waterline/presets/beer.json: /drinkType: error: must be one of "beer", "wine", "liquor", "cocktail" (found "be\u001b]0;pwned\u0007\u001b[2J\nr") [line 3, column 16]"#), "\(r)")
        #expect(lines.count == 2, "one line for the problem and the tally: \(r)")
        let json = ledger.run("check", "--json").json["problems"]?.arrayValue?.first
        #expect(json?["message"]?.stringValue?.hasSuffix("(found \"\(hostile)\")") == true, "\(String(describing: json))")
    }

    /// A field of one's own holding an integer beyond 2^53 (a barcode): an app's rewrite or
    /// `--fix` wrote it back as another number (12345678901234567 became
    /// 1.2345678901234568e+16) while `check` said "it is kept as it is". Now `check` names it
    /// as an error, the app refuses the document, and the file keeps its bytes — the value
    /// Python reads from it is the one typed.
    @Test func anIntegerTooLargeToKeepExactlyIsRefusedNotChanged() throws {
        let ledger = try TestLedger()
        let id = ledger.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Morning V60").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let path = "brew/recipes/\(id).json"
        let text = try #require(ledger.read(path)).replacingOccurrences(of: "  \"name\": \"Morning V60\",", with: "  \"beanBarcode\": 12345678901234567,\n  \"name\": \"Morning V60\",")
        try ledger.write(path, text)
        let check = ledger.run("check")
        #expect(check.status == 1 && check.stdout.split(separator: "\n").contains { $0.hasPrefix(path + ": ") && $0.contains(": error: number 12345678901234567 is too large to be kept exactly") }, "\(check)")
        for words in [["brew", "recipe", "edit", id, "--temp", "93"], ["check", "--fix"]] {
            #expect(ledger.run(arguments: words).status == 1, "\(words)")
            #expect(ledger.read(path) == text, "\(words) left the file as it was")
        }
        let python = try Processes.run("/usr/bin/env", ["python3", "-c", "import json,sys; print(json.load(open(sys.argv[1]))['beanBarcode'])", ledger.root + "/" + path])
        #expect(python.stdout == "12345678901234567\n", "\(python)")
        // Written as a string, it is kept through a rewrite.
        try ledger.write(path, text.replacingOccurrences(of: "12345678901234567", with: "\"12345678901234567\""))
        #expect(ledger.run("brew", "recipe", "edit", id, "--temp", "93").status == 0)
        #expect(ledger.read(path)?.contains("\"beanBarcode\": \"12345678901234567\"") == true)
    }

    /// Every value `--fix` rewrites is told: the six stale values of a session's state each on
    /// a line (at most five were, and `--fix` rewrote the sixth unmentioned), and past ten a
    /// line that counts the rest.
    @Test func everyStaleValueIsToldOrCounted() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("waterline", "start", "--time", "20:00").status == 0)
        for time in ["20:10", "20:20", "20:30"] { #expect(ledger.run("waterline", "drink", "--preset", "beer", "--time", time).status == 0) }
        #expect(ledger.run("waterline", "end", "--yes").status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: ledger.root + "/waterline/sessions/2026")
        let path = "waterline/sessions/2026/" + (try #require(names.first))
        let stored = try #require(ledger.read(path))
        func staleLines(_ r: CommandResult) -> [String] { r.stdout.split(separator: "\n").map(String.init).filter { $0.contains("stale") } }
        // Edited as a person would, with Python: the state's five numbers and its flag made wrong.
        func edit(_ statement: String) throws {
            let script = "import json,sys; p=sys.argv[1]; d=json.load(open(p)); \(statement); open(p,'w').write(json.dumps(d, indent=2, sort_keys=True) + '\\n')"
            #expect(try Processes.run("/usr/bin/env", ["python3", "-c", script, ledger.root + "/" + path]).status == 0)
        }
        try edit("d['state'] = {k: (not v if isinstance(v, bool) else 9) for k, v in d['state'].items()}")
        let six = ledger.run("check")
        #expect(staleLines(six).count == 6 && staleLines(six).contains { $0.contains("/state/waterlineValue") }, "\(six)")
        // And the summary's twelve numbers too: ten told, the rest counted.
        try edit("d['computedSummary'] = {k: 99 for k in d['computedSummary']}")
        let many = ledger.run("check")
        let lines = staleLines(many)
        #expect(lines.count == 11 && lines.last?.hasSuffix("/: warning: and 8 more derived values are stale [line 1, column 1]") == true, "\(many)")
        #expect(ledger.run("check", "--fix").status == 0)
        #expect(ledger.read(path) == stored, "--fix rewrote every one of them")
    }

    /// A hand-written taste tag that is one word of a tag (`sour`, as `brew save --tag` takes
    /// it) is refused with the tag it names; a trailing comma is named where it stands.
    @Test func handEditsAreToldWhatTheyMeant() throws {
        let ledger = try TestLedger()
        let id = try #require(ledger.run("brew", "save", "--rating", "3", "--tag", "sour", "--json").json["id"]?.stringValue)
        let path = "brew/logs/2026/\(id).json"
        let text = try #require(ledger.read(path))
        try ledger.write(path, text.replacingOccurrences(of: "\"too-sour\"", with: "\"sour\""))
        let tag = ledger.run("check")
        #expect(tag.status == 1 && tag.stdout.contains("(did you mean 'too-sour'?)"), "\(tag)")
        try ledger.write(path, text.replacingOccurrences(of: "\n}\n", with: ",\n}\n"))
        let comma = ledger.run("check")
        #expect(comma.status == 1 && comma.stdout.contains("a comma before '}': JSON allows no trailing comma"), "\(comma)")
    }

    /// A document moved into another app's folder (a session into the brew logs, a recipe
    /// into the presets) is told what it is and where it belongs, in one problem — not a wall
    /// of "required field is missing" and "unknown field"; an object with no field the folder's
    /// kind does not know is told its missing fields as before.
    @Test func aDocumentInAnotherAppsFolderIsToldWhereItBelongs() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("waterline", "start").status == 0 && ledger.run("waterline", "end", "--yes").status == 0)
        let recipe = try #require(ledger.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Mine").stdout.split(separator: "\n").first)
        let session = try #require(ledger.files(under: "waterline/sessions").first)
        let sessionID = ((session as NSString).lastPathComponent as NSString).deletingPathExtension
        let moves = [(session, "brew/logs/2026/\(sessionID).json"), ("brew/recipes/\(recipe).json", "waterline/presets/\(recipe).json")]
        for (from, to) in moves {
            try FileManager.default.createDirectory(atPath: ledger.root + "/" + (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: ledger.root + "/" + from, toPath: ledger.root + "/" + to)
        }
        let r = ledger.run("check", "--json")
        let problems = r.json["problems"]?.arrayValue ?? []
        #expect(r.status == 1 && r.json["errors"] == .number(2) && problems.count == 2, "\(r)")
        #expect(problems.contains { $0["path"]?.stringValue == moves[0].1 && $0["pointer"] == .string("")
            && $0["message"]?.stringValue == "holds the fields of a Waterline session, not of a BrewGuide log; move it to \(session)" }, "\(r)")
        #expect(problems.contains { $0["path"]?.stringValue == moves[1].1
            && $0["message"]?.stringValue == "holds the fields of a BrewGuide recipe, not of a Waterline preset; move it to brew/recipes/\(recipe).json" }, "\(r)")
        // Moved back, all is well.
        for (from, to) in moves { try FileManager.default.moveItem(atPath: ledger.root + "/" + to, toPath: ledger.root + "/" + from) }
        #expect(ledger.run("check").status == 0)
        // Only the fields every document has: nothing to recognise, the folder's kind speaks.
        try ledger.write("brew/recipes/bare.json", "{\"createdAt\": \"2026-11-01T09:00:00+01:00\", \"updatedAt\": \"2026-11-01T09:00:00+01:00\"}\n")
        let bare = ledger.run("check")
        #expect(bare.stdout.contains("brew/recipes/bare.json: /steps: error: required field \"steps\" is missing") && !bare.stdout.contains("holds the fields"), "\(bare)")
    }

    /// A document changed before it was created — `updatedAt` earlier than `createdAt`, after a
    /// hand edit or on a device whose clock was wrong — is a warning at `/updatedAt`, for every
    /// kind of every app, and the ledger.json too.
    @Test func anUpdateBeforeTheCreationIsAWarningOnEveryDocument() throws {
        let ledger = try UnreadableDocumentTests.ledger()
        let paths = ["ledger.json"] + ["waterline", "brew", "moments", "hydrate"].flatMap { ledger.files(under: $0) }
        let kinds = Set(paths.map { ($0 as NSString).deletingLastPathComponent.split(separator: "/").prefix(2).joined(separator: "/") })
        #expect(paths.count >= 10 && kinds.count >= 9, "\(paths)")
        let early = try NSRegularExpression(pattern: #"^  "updatedAt": "[^"]*""#, options: .anchorsMatchLines)
        for path in paths {
            let text = try #require(ledger.read(path))
            let edited = early.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
                                                        withTemplate: #"  "updatedAt": "2020-01-01T00:00:00+01:00""#)
            #expect(edited != text, "\(path)")
            try ledger.write(path, edited)
        }
        let r = ledger.run("check", "--json")
        #expect(r.status == 0 && r.json["errors"] == .number(0), "\(r)")
        let problems = r.json["problems"]?.arrayValue ?? []
        for path in paths {
            #expect(problems.contains { $0["path"]?.stringValue == path && $0["pointer"] == .string("/updatedAt") && $0["severity"] == .string("warning")
                && $0["message"]?.stringValue?.hasPrefix("is earlier than createdAt (") == true }, "\(path): \(r)")
        }
        #expect(problems.count == paths.count, "\(r)")
        let text = ledger.run("check")
        #expect(text.stdout.contains("ledger.json: /updatedAt: warning: is earlier than createdAt ("), "\(text)")
    }

    @Test func jsonReportHasTheSpecKeys() throws {
        let ledger = try TestLedger()
        try ledger.write("ledger.json", "{\n")
        let r = ledger.run("check", "--json")
        #expect(r.status == 1)
        let json = r.json
        #expect(json["errors"] == .number(1))
        #expect(json["warnings"] == .number(0))
        let p = try #require(json["problems"]?.arrayValue?.first)
        #expect(p["path"] == .string("ledger.json"))
        #expect(p["pointer"] == .string(""))
        #expect(p["severity"] == .string("error"))
        #expect(p["line"] == .number(2))
        #expect(p["message"]?.stringValue?.contains("unexpected end of file") == true)
    }

    @Test func fixRewritesFormattingAndReportsWhatIsLeft() throws {
        let ledger = try TestLedger()
        try ledger.write("ledger.json", "{\"format\":1,\"createdAt\":\"2026-11-21T22:30:00+01:00\",\"updatedAt\":\"2026-11-21T22:30:00+01:00\",\"note\":\"mine\"}")
        let r = ledger.run("check", "--fix")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("fixed ledger.json: /: warning: is not in canonical format"))
        #expect(r.stdout.contains("ledger.json: /note: warning: unknown field \"note\"; it is kept as it is [line 4, column 11]"), "\(r)")
        #expect(ledger.read("ledger.json") == """
            {
              "createdAt": "2026-11-21T22:30:00+01:00",
              "format": 1,
              "note": "mine",
              "updatedAt": "2026-11-21T22:30:00+01:00"
            }

            """)
    }

    /// `--format gnu`: `FILE:LINE:COLUMN: severity: message`, the form Vim's quickfix, Emacs'
    /// compile mode and VS Code's problem matchers read — files named from where it runs —
    /// and `--json` carries the same place; the place reads back as the value named.
    @Test func gnuFormatPlacesEveryProblemForEditors() throws {
        let ledger = try TestLedger()
        let text = "{\n  \"createdAt\": \"2026-11-21T22:30:00+01:00\",\n  \"format\": 1,\n  \"updatedAt\": \"yesterday\"\n}\n"
        try ledger.write("ledger.json", text)
        try ledger.write("brew/preferences.json", "{\n")
        let r = ledger.run("check", "--format", "gnu")
        #expect(r.status == 1)
        #expect(r.stdout.split(separator: "\n").map(String.init) == [
            "brew/preferences.json:2:1: error: unexpected end of file inside an object",
            "ledger.json:4:16: error: must be an ISO-8601 timestamp with its UTC offset, like 2026-11-21T23:41:07+01:00 (found \"yesterday\")",
        ], "\(r)")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[3].dropFirst(15).hasPrefix("\"yesterday\""), "line 4, column 16 is the value")
        // From a folder above the ledger, files are named from there; elsewhere by their full path.
        let above = ledger.run("check", "--format", "gnu", cwd: ledger.directory.path)
        #expect(above.stdout.contains("ledger/ledger.json:4:16: error: "), "\(above)")
        let elsewhere = ledger.run("check", "--format", "gnu", "--repo", ledger.root, cwd: ledger.directory.path + "/home")
        #expect(elsewhere.stdout.contains(ledger.root + "/ledger.json:4:16: error: "), "\(elsewhere)")
        let json = try #require(ledger.run("check", "--json").json["problems"]?.arrayValue?.first { $0["path"] == .string("ledger.json") })
        #expect(json["line"] == .number(4) && json["column"] == .number(16), "\(json)")
        #expect(ledger.run("check", "--json", "--format", "gnu").status == 2)
    }

    @Test func pathsChooseTheirLedgerAndMustBeInsideIt() throws {
        let ledger = try TestLedger()
        try ledger.write("ledger.json", "[]")
        var env = ledger.environment
        env["LEDGER_REPO"] = "/nonexistent"
        let r = TestLedgerRunner(env).run(["check", ledger.root + "/ledger.json"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("ledger.json: /: error: must be an object (found an array) [line 1, column 1]"))
        let outside = ledger.run("check", "/etc/hostname")
        #expect(outside.status == 2)
        #expect(outside.stderr.contains("/etc/hostname is outside the ledger at \(ledger.root)"))
        let relative = ledger.run("check", "./ledger.json", cwd: ledger.root)
        #expect(relative.status == 1)
    }

    @Test func theLedgerItselfAsAPathIsAWholeCheck() throws {
        let ledger = try TestLedger()
        let whole = ledger.run("check")
        for path in [".", "./", ledger.root, ledger.root + "/"] {
            let r = ledger.run("check", path, cwd: ledger.root)
            #expect(r.status == 0, "\(path): \(r)")
            #expect(r.stdout == whole.stdout, "\(path)")
        }
    }

    @Test func aFutureFormatIsRefusedClearly() throws {
        let ledger = try TestLedger()
        try ledger.write("ledger.json", CanonicalJSON.string(.object(["format": .number(2), "createdAt": .string("2026-11-21T22:30:00+01:00"), "updatedAt": .string("2026-11-21T22:30:00+01:00")])))
        let r = ledger.run("check")
        #expect(r.stdout.contains("ledger.json: /format: error: this ledger uses format 2, written by a newer version of ledger; upgrade ledger to read it [line 3, column 13]"), "\(r)")
    }
}

@Suite struct StatusCommandTests {
    @Test func reportsUncommittedChangesAndTheRemote() throws {
        let ledger = try TestLedger()
        let clean = ledger.run("status")
        #expect(clean.status == 0)
        #expect(clean.stdout.contains("no uncommitted changes"))
        #expect(clean.stdout.contains("no remote"))
        try ledger.write("ledger.json", ledger.read("ledger.json")!.replacingOccurrences(of: "\"format\": 1", with: "\"format\": 1, \"x\": 1"))
        let dirty = ledger.run("status", "--json")
        #expect(dirty.json["sync"]?["uncommitted"] == .number(1))
        #expect(dirty.json["sync"]?["branch"] == .string("main"))
        #expect(dirty.json["path"] == .string(ledger.root))
    }
}

@Suite struct UnreadableLedgerTests {
    @Test func aLedgerOfANewerFormatIsReportedByCheckAndRefusedByEveryOtherCommand() throws {
        let ledger = try TestLedger()
        let manifest = try #require(ledger.read("ledger.json")).replacingOccurrences(of: "\"format\": 1", with: "\"format\": 2")
        try ledger.write("ledger.json", manifest)
        let check = ledger.run("check")
        #expect(check.status == 1)
        #expect(check.stdout.contains("ledger.json: /format: error: this ledger uses format 2, written by a newer version of ledger"))
        for args in [["moments", "add", "hello"], ["waterline", "start"], ["status"], ["hydrate", "drank"], ["sync"]] {
            let r = ledger.run(arguments: args)
            #expect(r.status == 1, "\(args): \(r)")
            #expect(r.stderr.contains("ledger.json is invalid"), "\(args): \(r)")
        }
        #expect(ledger.files(under: "moments").filter { $0.contains("experiences") }.isEmpty)
        #expect(ledger.read("ledger.json") == manifest)
    }
}

/// SPEC §4: `check` "reports *every* problem": a field's own rules are judged whenever that
/// field could be read, whatever another field's type or enum problem.
extension CheckCommandTests {
    @Test func everyInvalidFieldIsReportedOnceEvenBesideATypeError() throws {
        let ledger = try TestLedger()
        let preset = "waterline/presets/beer.json"
        var p = try #require(ledger.document(preset)?.objectValue)
        (p["drinkType"], p["standardDrinkEstimate"]) = (.string("bier"), .number(-1))
        try ledger.write(preset, CanonicalJSON.string(.object(p)))
        let id = ledger.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Mine").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let recipe = "brew/recipes/\(id).json"
        var r = try #require(ledger.document(recipe)?.objectValue)
        r["name"] = .number(5)
        var steps = try #require(r["steps"]?.arrayValue)
        var step = try #require(steps[1].objectValue)
        step["timerSeconds"] = .number(-5)
        steps[1] = .object(step)
        r["steps"] = .array(steps)
        try ledger.write(recipe, CanonicalJSON.string(.object(r)))

        let check = ledger.run("check", "--json")
        #expect(check.status == 1)
        let problems = check.json["problems"]?.arrayValue ?? []
        let pointers = { (path: String) in problems.filter { $0["path"]?.stringValue == path }.compactMap { $0["pointer"]?.stringValue } }
        #expect(pointers(preset).sorted() == ["/drinkType", "/standardDrinkEstimate"], "\(check)")
        #expect(pointers(recipe).sorted() == ["/name", "/steps/1/timerSeconds"], "\(check)")
    }
}

/// SPEC §4: "Every command that reads an invalid document refuses to act on it with the same
/// message" — a byte order mark is told by `check` as by the app that reads the file.
extension CheckCommandTests {
    /// After a byte order mark, problems are placed where an editor shows them: the BOM,
    /// which editors hide, takes no column.
    @Test func aByteOrderMarkTakesNoColumn() throws {
        let ledger = try TestLedger()
        let before = "{\"createdAt\": \"2026-11-01T09:00:00+01:00\", \"sentenceTemplate\": "
        try ledger.write("moments/settings.json", "\u{FEFF}" + before + "5, \"updatedAt\": \"2026-11-01T09:00:00+01:00\"}\n")
        let check = ledger.run("check", "--format", "gnu")
        #expect(check.stdout.contains("moments/settings.json:1:1: error: the file starts with a UTF-8 byte order mark"), "\(check)")
        #expect(check.stdout.contains("moments/settings.json:1:\(before.count + 1): error: must be a string"), "\(check)")
    }

    @Test func aByteOrderMarkIsToldAlikeByCheckAndByTheApps() throws {
        let ledger = try TestLedger()
        let id = ledger.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Mine").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let recipe = "brew/recipes/\(id).json"
        try ledger.write(recipe, "\u{FEFF}" + (ledger.read(recipe) ?? ""))
        let settings = "waterline/settings.json"
        try ledger.write(settings, "\u{FEFF}" + (ledger.read(settings) ?? ""))
        let sentence = ": 1:1: error: the file starts with a UTF-8 byte order mark (BOM), which JSON does not allow"
        let check = ledger.run("check")
        #expect(check.stdout.contains(recipe + sentence) && check.stdout.contains(settings + sentence), "\(check)")
        let plan = ledger.run("brew", "plan", id)
        #expect(plan.status == 1 && plan.stderr.contains(recipe + sentence), "\(plan)")
        let status = ledger.run("waterline", "status")
        #expect(status.status == 1 && status.stderr.contains(settings + sentence), "\(status)")
        #expect(ledger.run("check", "--fix").status == 0)
        #expect(ledger.run("brew", "plan", id).status == 0)
    }
}

/// docs/ledger.md: `check` reports a file that is no document exactly when git would commit it
/// (the next sync takes it to every device); backups the ledger's `.gitignore` names — an
/// editor's `x.json~`, a merge tool's `x.json.orig` — are not data and are not reported.
extension CheckCommandTests {
    @Test func aStrayFileIsReportedExactlyWhenGitWouldCommitIt() throws {
        let ledger = try TestLedger()
        #expect(try GitCLI.run(["commit", "-qam", "start", "--allow-empty"], in: ledger.root).status == 0)
        let strays = ["waterline/settings.json~", "waterline/settings.json.orig", "waterline/notes.txt"]
        for path in strays { try ledger.write(path, "x\n") }
        func reported() -> Set<String> {
            Set((ledger.run("check", "--json").json["problems"]?.arrayValue ?? []).compactMap { $0["path"]?.stringValue }.filter(strays.contains))
        }
        func gitWouldCommit() throws -> Set<String> {
            let out = try GitCLI.run(["status", "--porcelain", "--untracked-files=all"], in: ledger.root).stdout
            return Set(out.split(separator: "\n").map { String($0.dropFirst(3)) }.filter(strays.contains))
        }
        #expect(reported() == ["waterline/notes.txt"])
        #expect(try reported() == gitWouldCommit())
        // A ledger whose .gitignore predates `*.orig`: git would commit the merge tool's
        // backup, so check reports it.
        let ignore = try #require(ledger.read(".gitignore"))
        try ledger.write(".gitignore", ignore.replacingOccurrences(of: "*.orig\n", with: ""))
        #expect(reported() == ["waterline/notes.txt", "waterline/settings.json.orig"])
        #expect(try reported() == gitWouldCommit())
    }
}
