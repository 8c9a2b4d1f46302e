import Foundation
import LedgerCLI
import LedgerKit
import LedgerTestSupport
import Testing

/// `ledger brew recipes` and `ledger brew recipe show|duplicate|edit|delete`, end to end.
@Suite struct RecipeCommandTests {
    /// A ledger with one custom recipe, "My V60"; returns its id.
    func ledgerWithCopy() throws -> (TestLedger, String) {
        let ledger = try TestLedger()
        let r = ledger.run("brew", "recipe", "duplicate", "v60-starter", "--name", "My V60")
        #expect(r.status == 0, "\(r)")
        let id = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(DocumentID.isValid(id))
        return (ledger, id)
    }

    @Test func theStarterIsListedFirstAndIsReadOnly() throws {
        let (ledger, id) = try ledgerWithCopy()
        let list = ledger.run("brew", "recipes", "--json").json.arrayValue ?? []
        #expect(list.count == 2)
        #expect(list.first?["id"] == .string("v60-starter"))
        #expect(list.first?["starter"] == .bool(true))
        #expect(list.last?["id"] == .string(id))
        #expect(list.allSatisfy { $0["valid"] == .bool(true) && $0["name"] != nil })
        let edit = ledger.run("brew", "recipe", "edit", "v60-starter", "--dose", "16")
        #expect(edit.status == 1)
        #expect(edit.stderr.contains("read-only") && edit.stderr.contains("duplicate"))
        let delete = ledger.run("brew", "recipe", "delete", "v60-starter", "--yes")
        #expect(delete.status == 1)
        #expect(delete.stderr.contains("cannot be deleted"))
        #expect(ledger.run("brew", "recipe", "show", "v60-starter").stdout.contains("Pour to 150 g by 1:30"))
    }

    @Test func duplicateNamesCopiesAndPrintsTheId() throws {
        let ledger = try TestLedger()
        let first = ledger.run("brew", "recipe", "duplicate", "v60-starter")
        let second = ledger.run("brew", "recipe", "duplicate", "V60 STARTER")
        #expect(first.status == 0 && second.status == 0)
        let id1 = first.stdout.trimmingCharacters(in: .newlines), id2 = second.stdout.trimmingCharacters(in: .newlines)
        let a = try #require(ledger.document("brew/recipes/\(id1).json"))
        let b = try #require(ledger.document("brew/recipes/\(id2).json"))
        #expect(a["name"] == .string("V60 starter copy"))
        #expect(b["name"] == .string("V60 starter copy 2"))
        #expect(a["defaultDose"] == .number(15) && a["steps"]?.arrayValue?.count == 6)
        #expect(a["createdAt"] == .string("2026-11-21T22:30:00+01:00"))
        // A name another recipe has is refused.
        let clash = ledger.run("brew", "recipe", "duplicate", id1, "--name", "v60 starter copy 2")
        #expect(clash.status == 1)
        #expect(clash.stderr.contains("already exists"))
        #expect(ledger.run("check").status == 0)
    }

    @Test func referencesAreIdsPrefixesOrNames() throws {
        let (ledger, id) = try ledgerWithCopy()
        for ref in [id, String(id.prefix(4)), "my v60", "MY V60"] {
            let r = ledger.run("brew", "recipe", "show", ref, "--json")
            #expect(r.json["id"] == .string(id), "\(ref): \(r)")
        }
        let missing = ledger.run("brew", "recipe", "show", "My V6O")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("did you mean 'My V60'"))
    }

    @Test func editByFlagsChangesDefaultsStepsAndName() throws {
        let (ledger, id) = try ledgerWithCopy()
        let r = ledger.run("brew", "recipe", "edit", "My V60", "--name", "Bright V60", "--dose", "18", "--yield", "300", "--scale-steps",
                           "--temp", "96", "--grind", "fine", "--grind-descriptor", "table salt", "--step-timer", "3=0:40")
        #expect(r.status == 0, "\(r)")
        let doc = try #require(ledger.document("brew/recipes/\(id).json"))
        #expect(doc["name"] == .string("Bright V60"))
        #expect(doc["defaultDose"] == .number(18) && doc["defaultTargetYield"] == .number(300))
        #expect(doc["defaultWaterTemperature"] == .number(96))
        #expect(doc["defaultGrindLabel"] == .string("fine") && doc["grindDescriptor"] == .string("table salt"))
        let steps = doc["steps"]?.arrayValue ?? []
        #expect(steps[2]["timerSeconds"] == .number(40))
        #expect(steps.compactMap { $0["water"] }.map { if case .number(let n) = $0 { n } else { 0 } } == [54, 126, 120])
        #expect(doc["updatedAt"] == .string("2026-11-21T22:30:00+01:00"))
        let weights = ledger.run("brew", "recipe", "edit", id, "--step-water", "4=130", "--step-water", "5=116")
        #expect(weights.status == 0, "\(weights)")
        #expect(ledger.run("check").status == 0)
    }

    @Test func anInvalidEditIsNotSaved() throws {
        let (ledger, id) = try ledgerWithCopy()
        let path = "brew/recipes/\(id).json"
        let before = ledger.read(path)
        let negative = ledger.run("brew", "recipe", "edit", id, "--step-timer", "3=-5")
        #expect(negative.status == 2)
        #expect(negative.stderr.contains("--step-timer 3=-5"))
        let sum = ledger.run("brew", "recipe", "edit", id, "--yield", "300")
        #expect(sum.status == 1)
        #expect(sum.stderr.contains("adds up to 250 g") && sum.stderr.contains("--scale-steps"))
        let water = ledger.run("brew", "recipe", "edit", id, "--step-water", "1=20")
        #expect(water.status == 1)
        #expect(water.stderr.contains("/steps/0/water"))
        #expect(ledger.read(path) == before)
        #expect(ledger.run("brew", "recipe", "edit", id, "--step-water", "9=20").status == 2)
        #expect(ledger.run("brew", "recipe", "edit", id).status == 2)
    }

    @Test func aHandEditedInvalidRecipeIsMarkedAndRefused() throws {
        let (ledger, id) = try ledgerWithCopy()
        let path = "brew/recipes/\(id).json"
        let broken = try #require(ledger.read(path)).replacingOccurrences(of: "\"water\": 105", with: "\"water\": 95")
        try ledger.write(path, broken)
        let list = ledger.run("brew", "recipes", "--json").json.arrayValue ?? []
        let entry = try #require(list.first { $0["id"] == .string(id) })
        #expect(entry["valid"] == .bool(false))
        #expect(entry["name"] == .string("My V60"))
        #expect(entry["problems"]?.arrayValue?.first?["pointer"] == .string("/steps"))
        #expect(ledger.run("brew", "recipes").stdout.contains("INVALID"))
        for args in [["plan", id], ["save", id, "--rating", "3"], ["recipe", "show", id], ["recipe", "duplicate", id]] {
            let r = ledger.run(arguments: ["brew"] + args)
            #expect(r.status == 1, "\(args)")
            #expect(r.stderr.contains("is invalid and cannot be used until it is fixed"), "\(args)")
            #expect(r.stderr.contains("ledger brew recipe edit \(id) --editor"), "\(args)")
            #expect(r.stderr.contains("adds up to 240 g"), "\(args)")
        }
        #expect(ledger.run("check").status == 1)
        // Flags can fix it.
        #expect(ledger.run("brew", "recipe", "edit", id, "--step-water", "4=105").status == 0)
        #expect(ledger.run("brew", "plan", id).status == 0)
    }

    /// A recipe of one's own given the starter's id by hand (`v60-starter.json`) is the invalid
    /// recipe it is: not labelled, marked selected or exported as the built-in starter.
    @Test func aRecipeThatTookTheStartersIdIsNotTheStarter() throws {
        let (ledger, id) = try ledgerWithCopy()
        let text = try #require(ledger.read("brew/recipes/\(id).json"))
        try ledger.write("brew/recipes/v60-starter.json", text.replacingOccurrences(of: "\"id\": \"\(id)\"", with: "\"id\": \"v60-starter\""))
        try FileManager.default.removeItem(atPath: ledger.root + "/brew/recipes/\(id).json")
        let list = ledger.run("brew", "recipes", "--json").json.arrayValue ?? []
        #expect(list.count == 2, "\(list)")
        let mine = try #require(list.first { $0["path"] == .string("brew/recipes/v60-starter.json") })
        #expect(mine["starter"] == .bool(false) && mine["selected"] == .bool(false) && mine["valid"] == .bool(false), "\(mine)")
        #expect(list.first?["starter"] == .bool(true) && list.first?["selected"] == .bool(true), "\(list)")
        let text2 = ledger.run("brew", "recipes").stdout
        let lines = text2.split(separator: "\n").filter { $0.contains("v60-starter") }
        #expect(lines.count == 2 && lines.filter { $0.contains("(starter)") }.count == 1, "\(text2)")
        #expect(lines.contains { $0.hasPrefix("! v60-starter  My V60 ") && $0.contains("INVALID") }, "\(text2)")
    }

    /// A timer over 24 h, which the flag refuses, is refused in the file too: by `check` and
    /// by the commands that use the recipe; the schema says the same.
    @Test func aHandEditedTimerOverADayIsInvalidAsTheFlagSays() throws {
        let (ledger, id) = try ledgerWithCopy()
        let path = "brew/recipes/\(id).json"
        var json = try #require(ledger.document(path)?.objectValue)
        var steps = try #require(json["steps"]?.arrayValue)
        var wait = try #require(steps[5].objectValue)
        wait["timerSeconds"] = .number(100_000)
        steps[5] = .object(wait)
        json["steps"] = .array(steps)
        try ledger.write(path, CanonicalJSON.string(.object(json)))
        let check = ledger.run("check")
        #expect(check.status == 1, "\(check)")
        #expect(check.stdout.contains("\(path): /steps/5/timerSeconds: error: the step's timer is 100000 s"), "\(check)")
        #expect(ledger.run("brew", "plan", id).status == 1)
        #expect(ledger.run("brew", "recipe", "edit", id, "--step-timer", "6=100000").status == 2)
        let schema = ledger.run("schema", "brew.recipe").json
        let timer = schema["$defs"]?["step"]?["properties"]?["timerSeconds"] ?? schema["properties"]?["steps"]?["items"]?["properties"]?["timerSeconds"]
        #expect(timer?["maximum"] == .number(86_400), "\(schema)")
        #expect(ledger.run("brew", "recipe", "edit", id, "--step-timer", "6=86400").status == 0)
        #expect(ledger.run("check").status == 0)
    }

    @Test func editorEditsAreValidatedBeforeSaving() throws {
        let (ledger, id) = try ledgerWithCopy()
        let path = "brew/recipes/\(id).json"
        let script = ledger.directory.url("editor.sh")
        // An editor that changes the temperature.
        try "#!/bin/sh\nsed -i 's/\"defaultWaterTemperature\": 94/\"defaultWaterTemperature\": 92/' \"$1\"\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let ok = ledger.run("brew", "recipe", "edit", id, "--editor", env: ["EDITOR": script], terminal: true)
        #expect(ok.status == 0, "\(ok)")
        #expect(ledger.document(path)?["defaultWaterTemperature"] == .number(92))
        // An editor that breaks the pours: refused, the file untouched, the text kept.
        try "#!/bin/sh\nsed -i 's/\"water\": 100/\"water\": 80/' \"$1\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let before = ledger.read(path)
        let bad = ledger.run("brew", "recipe", "edit", id, "--editor", env: ["EDITOR": script], terminal: true)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("/steps"))
        #expect(bad.stderr.contains("kept in"))
        #expect(ledger.read(path) == before)
        #expect(FileManager.default.fileExists(atPath: ledger.root + "/.git/ledger/edit/\(id).json"))
        // Changing the id is refused too.
        try "#!/bin/sh\nsed -i 's/\"id\": \"\(id)\"/\"id\": \"other\"/' \"$1\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let renamed = ledger.run("brew", "recipe", "edit", id, "--editor", env: ["EDITOR": script], terminal: true)
        #expect(renamed.status == 1)
        #expect(renamed.stderr.contains("the id cannot change"))
    }

    /// An invalid edit kept in `.git/ledger/edit/<id>.json` is what the next `--editor` opens,
    /// so what was typed survives until it is saved or reverted (as a text editor's recovery
    /// file does), never overwritten by the saved recipe.
    @Test func theNextEditorReopensAKeptEdit() throws {
        let (ledger, id) = try ledgerWithCopy()
        let path = "brew/recipes/\(id).json"
        let kept = ledger.root + "/.git/ledger/edit/\(id).json"
        let script = ledger.directory.url("editor.sh")
        func editor(_ body: String) throws {
            try "#!/bin/sh\n\(body)\n".write(toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o755)
        }
        // A rename and pours that no longer add up: refused, kept.
        try editor("sed -i -e 's/\"My V60\"/\"Morning\"/' -e 's/\"water\": 100/\"water\": 80/' \"$1\"")
        let bad = ledger.run("brew", "recipe", "edit", id, "--editor", env: ["EDITOR": script], terminal: true)
        #expect(bad.status == 1, "\(bad)")
        #expect(try String(contentsOfFile: kept, encoding: .utf8).contains("\"Morning\""))
        // The next run opens the kept text, says so, and saves it once it is fixed.
        let seen = ledger.directory.url("seen.json")
        try editor("cp \"$1\" '\(seen)'; sed -i 's/\"water\": 80/\"water\": 100/' \"$1\"")
        let again = ledger.run("brew", "recipe", "edit", id, "--editor", env: ["EDITOR": script], terminal: true)
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("Reopening your unsaved edit of \"My V60\", kept in \(kept)"), "\(again)")
        #expect(try String(contentsOfFile: seen, encoding: .utf8).contains("\"Morning\""))
        #expect(ledger.document(path)?["name"] == .string("Morning"))
        #expect(!FileManager.default.fileExists(atPath: kept))
        // Saved, nothing is left to reopen: the next edit starts from the file.
        try editor("cp \"$1\" '\(seen)'")
        let plain = ledger.run("brew", "recipe", "edit", id, "--editor", env: ["EDITOR": script], terminal: true)
        #expect(plain.status == 0 && !plain.stdout.contains("Reopening"), "\(plain)")
        #expect(try String(contentsOfFile: seen, encoding: .utf8) == ledger.read(path))
    }

    /// Everything written before a prompt is on the screen before it: an invalid edit's
    /// errors (stderr) come before "Edit it again?" (stdout), both streams in one file here.
    @Test func anInvalidEditsErrorsComeBeforeThePrompt() throws {
        let (ledger, id) = try ledgerWithCopy()
        let script = ledger.directory.url("editor.sh")
        try "#!/bin/sh\nsed -i 's/\"water\": 100/\"water\": 80/' \"$1\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let screen = ledger.directory.url("screen")
        let fd = open(screen, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(fd) }
        let context = CLIContext(environment: ledger.environment.merging(["EDITOR": script]) { $1 }, currentDirectory: ledger.root,
                                 stdout: TextOutput(fd: fd), stderr: TextOutput(fd: fd), stdin: TextInput(lines: ["n"]),
                                 stdinIsTerminal: true, stdoutIsTerminal: true)
        #expect(LedgerCLI.run(["brew", "recipe", "edit", id, "--editor"], context: context) == 1)
        let text = try String(contentsOfFile: screen, encoding: .utf8)
        let errors = try #require(text.range(of: "The edit is not valid"), "\(text)")
        let prompt = try #require(text.range(of: "Edit it again? [y/N]"), "\(text)")
        #expect(errors.lowerBound < prompt.lowerBound, "\(text)")
    }

    @Test func theEditorRepairsAFileThatNoLongerParses() throws {
        let (ledger, id) = try ledgerWithCopy()
        let path = "brew/recipes/\(id).json"
        let good = try #require(ledger.read(path))
        try ledger.write(path, good.replacingOccurrences(of: "\"defaultDose\": 15,", with: "\"defaultDose\": 15,,"))
        let refused = ledger.run("brew", "plan", id)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--editor"))
        let fixed = ledger.directory.url("fixed.json")
        try good.write(toFile: fixed, atomically: true, encoding: .utf8)
        let script = ledger.directory.url("fix.sh")
        try "#!/bin/sh\ncp '\(fixed)' \"$1\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let r = ledger.run("brew", "recipe", "edit", id, "--editor", env: ["EDITOR": script], terminal: true)
        #expect(r.status == 0, "\(r)")
        #expect(ledger.run("brew", "plan", id).status == 0)
        #expect(ledger.run("check").status == 0)
    }

    @Test func deleteAsksFirst() throws {
        let (ledger, id) = try ledgerWithCopy()
        #expect(ledger.run("brew", "plan", id).status == 0)  // selects it
        let refused = ledger.run("brew", "recipe", "delete", id)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("ledger: Deleting the recipe \"My V60\" (\(id)) needs a confirmation: run it on a terminal or pass --yes"), "\(refused)")
        let no = ledger.run("brew", "recipe", "delete", id, stdin: ["n"], terminal: true)
        #expect(no.status == 0)
        #expect(ledger.document("brew/recipes/\(id).json") != nil)
        let yes = ledger.run("brew", "recipe", "delete", id, stdin: ["y"], terminal: true)
        #expect(yes.status == 0, "\(yes)")
        #expect(ledger.document("brew/recipes/\(id).json") == nil)
        // The selection falls back to the starter, so nothing dangles.
        #expect(ledger.document("brew/preferences.json")?["lastRecipeId"] == .string("v60-starter"))
        #expect(ledger.run("check").status == 0)
    }

    @Test(arguments: [
        ["--dose", "0.04"], ["--dose", "0"], ["--yield", "0.2"], ["--temp", "-3"], ["--name", ""], ["--name", "a\nb"],
        ["--step-water", "4=nan"], ["--step-water", "4=-5"], ["--step-timer", "3=99999999999999999:00"], ["--grind", "powder"],
    ])
    func valuesNoRecipeCanHaveAreUsageErrors(_ change: [String]) throws {
        let (ledger, id) = try ledgerWithCopy()
        let path = "brew/recipes/\(id).json"
        let before = ledger.read(path)
        let r = ledger.run(arguments: ["brew", "recipe", "edit", id] + change)
        #expect(r.status == 2, "\(change): \(r)")
        #expect(r.stderr.contains(change[0]), "\(r)")
        #expect(ledger.read(path) == before)
        #expect(!r.stdout.contains("inf") && !r.stdout.contains("nan"))
    }

    @Test func theEditorNeedsATerminal() throws {
        let (ledger, id) = try ledgerWithCopy()
        let marker = ledger.directory.url("editor-ran")
        let script = ledger.directory.url("editor.sh")
        try "#!/bin/sh\ntouch '\(marker)'\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let r = ledger.run("brew", "recipe", "edit", id, "--editor", env: ["EDITOR": script])
        #expect(r.status == 2, "\(r)")
        #expect(r.stderr.contains("needs a terminal"))
        #expect(!FileManager.default.fileExists(atPath: marker))
        // On a terminal it runs.
        #expect(ledger.run("brew", "recipe", "edit", id, "--editor", env: ["EDITOR": script], terminal: true).status == 0)
        #expect(FileManager.default.fileExists(atPath: marker))
    }
}
