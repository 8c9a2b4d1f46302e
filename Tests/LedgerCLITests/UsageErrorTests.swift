import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// Every app treats an argument value that cannot be right — out of range, malformed, naming
/// no file — as a usage error: exit status 2, a message naming the flag, nothing written.
/// Refusals by a rule about the data (an entry before its session, a name already taken)
/// stay exit status 1.
@Suite struct UsageErrorTests {
    /// A ledger at 23:30 with an active session holding a drink and a water, and a custom recipe.
    static func ledger() throws -> (TestLedger, drink: String, water: String, recipe: String) {
        let ledger = try TestLedger(now: "2026-11-21T23:30:00+01:00")
        _ = ledger.run("waterline", "start", "--time", "21:00")
        let drink = ledger.run("waterline", "drink", "--time", "21:30", "--json").json["entry"]?["id"]?.stringValue ?? ""
        let water = ledger.run("waterline", "water", "--time", "21:45", "--json").json["entry"]?["id"]?.stringValue ?? ""
        let recipe = ledger.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Mine").stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return (ledger, drink, water, recipe)
    }

    /// Every file of the ledger outside `.git`, with its contents.
    static func documents(_ ledger: TestLedger) -> [String: String] {
        var out: [String: String] = [:]
        for path in ledger.files(under: ".") where !path.hasPrefix("./.git/") {
            out[path] = ledger.read(String(path.dropFirst(2)))
        }
        return out
    }

    @Test(arguments: [
        // Waterline
        (["waterline", "drink", "--size", "1e308"], "--size"),
        (["waterline", "drink", "--size", "3000ml"], "--size"),
        (["waterline", "drink", "--std", "25"], "--std"),
        (["waterline", "drink", "--abv", "101"], "--abv"),
        (["waterline", "drink", "--size", "60", "--abv", "40"], "--size 60 and --abv 40 give 40.0 standard drinks"),
        (["waterline", "drink", "--preset", "shot", "--size", "60"], "--size 60 give"),
        (["waterline", "water", "--amount", "5000ml"], "--amount"),
        (["waterline", "water", "--amount", "1e308"], "--amount"),
        // Numbers are written in decimals: Swift's Double(_:) alone takes these.
        (["waterline", "drink", "--std", "0x1"], "--std"),
        (["waterline", "drink", "--size", "0x10"], "--size"),
        (["waterline", "drink", "--abv", "nan"], "--abv"),
        (["waterline", "water", "--amount", "2e2"], "--amount"),
        (["brew", "plan", "--dose", "0x10"], "--dose must be a number like 18 or 15.5 (found \"0x10\")"),
        (["brew", "save", "--rating", "3", "--yield", "inf"], "--yield must be a number"),
        (["brew", "recipe", "edit", "RECIPE", "--temp", "9e1"], "--temp must be a number"),
        (["waterline", "edit", "DRINK", "--std", "25"], "--std"),
        (["waterline", "edit", "DRINK", "--size", "1e308"], "--size"),
        (["waterline", "edit", "WATER", "--amount", "5000ml"], "--amount"),
        (["waterline", "presets", "add", "Big", "--type", "beer", "--size", "1e308"], "--size"),
        (["waterline", "presets", "add", String(repeating: "x", count: 90), "--type", "beer"], "NAME must be at most 80 characters"),
        (["waterline", "presets", "edit", "beer", "--std", "25"], "--std"),
        (["waterline", "presets", "edit", "beer", "--name", " "], "--name must not be empty"),
        (["waterline", "settings", "set", "defaultWaterAmount", "5000ml"], "defaultWaterAmount must be at least 1 ml"),
        (["waterline", "settings", "set", "defaultWaterAmount", "2e2"], "defaultWaterAmount must be an amount like 250, 250ml or 8oz, in decimals (found \"2e2\")"),
        (["waterline", "start", "--time", "2026-11-22T01:00"], "--time"),
        // BrewGuide
        (["brew", "plan", "--dose", "0.04"], "--dose"),
        (["brew", "save", "--rating", "3", "--yield", "0.4"], "--yield"),
        (["brew", "save", "--rating", "3", "--at", "2026-11-22T08:00"], "--at"),
        (["brew", "recipe", "edit", "RECIPE", "--dose", "0.04"], "--dose"),
        (["brew", "recipe", "edit", "RECIPE", "--grind-descriptor", "a\u{1B}[31mb"], "--grind-descriptor"),
        (["brew", "recipe", "duplicate", "RECIPE", "--name", ""], "--name"),
        // Water Reminder
        (["hydrate", "setup", "--interval", "0"], "--interval"),
        (["hydrate", "export", "--ics", "no-such-directory/water.ics"], "--ics"),
        // DotLife Moments
        (["moments", "add", ""], "say what you appreciate"),
        (["moments", "add", "--link", "ftp://x"], "--link"),
        (["moments", "add", "--photo", "no-such-photo.jpg"], "--photo"),
        (["moments", "add", "tea", "--at", "2026-11-22T08:00"], "--at"),
        (["moments", "template", "set", "no placeholders"], "must contain [experience] and [moment]"),
    ])
    func badValuesAreUsageErrors(arguments: [String], message: String) throws {
        let (ledger, drink, water, recipe) = try Self.ledger()
        let args = arguments.map { ["DRINK": drink, "WATER": water, "RECIPE": recipe][$0] ?? $0 }
        let before = Self.documents(ledger)
        #expect(before.keys.contains("./waterline/settings.json"), "\(before.keys.sorted())")
        let r = ledger.run(arguments: args)
        #expect(r.status == 2, "\(args): \(r)")
        #expect(r.stderr.contains(message), "\(args): \(r)")
        #expect(Self.documents(ledger) == before, "nothing is written")
    }

    /// A value typed negative (`-1` looks like a flag to the parser) reaches the command and
    /// gets the same message, naming the flag or setting, as any other bad value — not the
    /// parser's "Missing value" or "Missing expected argument".
    @Test(arguments: [
        (["waterline", "settings", "set", "defaultWaterAmount", "-1"], "defaultWaterAmount must"),
        (["waterline", "settings", "set", "waterEveryNDrinks", "-1"], "waterEveryNDrinks must"),
        (["waterline", "settings", "set", "warningThreshold", "-2"], "warningThreshold must"),
        (["waterline", "drink", "--std", "-1"], "--std must"),
        (["waterline", "drink", "--std=-1"], "--std must"),
        (["waterline", "drink", "--size", "-12"], "--size must"),
        (["waterline", "drink", "--abv", "-5"], "--abv must"),
        (["waterline", "water", "--amount", "-5"], "--amount must"),
        (["waterline", "edit", "DRINK", "--std", "-1"], "--std must"),
        (["waterline", "edit", "WATER", "--amount", "-250ml"], "--amount must"),
        (["waterline", "presets", "add", "Big", "--type", "beer", "--std", "-1"], "--std must"),
        (["waterline", "presets", "edit", "beer", "--size", "-1"], "--size must"),
        (["brew", "plan", "--dose", "-5"], "--dose must"),
        (["brew", "plan", "--yield", "-300"], "--yield must"),
        (["brew", "plan", "--temp", "-1"], "--temp must"),
        (["brew", "save", "--rating", "-1"], "--rating"),
        (["brew", "logs", "--limit", "-1"], "--limit must"),
        (["log", "--limit", "-1"], "--limit must be 0 (every commit) or more (found -1)"),
        (["log", "--limit=-1"], "--limit must be 0 (every commit) or more (found -1)"),
        (["brew", "recipe", "edit", "RECIPE", "--dose", "-5"], "--dose must"),
        (["hydrate", "setup", "--interval", "-5"], "--interval"),
        (["hydrate", "setup", "--follow-up", "-5"], "--follow-up"),
    ])
    func negativeValuesReachTheCommand(arguments: [String], message: String) throws {
        let (ledger, drink, water, recipe) = try Self.ledger()
        let args = arguments.map { ["DRINK": drink, "WATER": water, "RECIPE": recipe][$0] ?? $0 }
        let before = Self.documents(ledger)
        let r = ledger.run(arguments: args)
        #expect(r.status == 2, "\(args): \(r)")
        #expect(r.stderr.contains(message) && !r.stderr.contains("Missing"), "\(args): \(r)")
        #expect(Self.documents(ledger) == before, "nothing is written")
    }

    /// A misspelled required option: argument-parser says the option is missing; the line
    /// after names the word that was meant for it. A word far from it gets no such line.
    @Test func aMisspelledRequiredOptionIsNamed() throws {
        let (ledger, _, _, _) = try Self.ledger()
        for words in [["brew", "save", "--ratin", "4"], ["brew", "save", "--raitng=4", "--json"]] {
            let r = ledger.run(arguments: words)
            let typo = words[2].prefix { $0 != "=" }
            #expect(r.status == 2 && r.stderr.contains("ledger: unknown option '\(typo)' (did you mean '--rating'?)"), "\(words): \(r)")
        }
        let far = ledger.run("brew", "save", "--json")
        #expect(far.status == 2 && far.stderr.contains("Missing expected argument '--rating") && !far.stderr.contains("did you mean"), "\(far)")
    }

    @Test func settingsSetTakesExactlyOneValue() throws {
        let (ledger, _, _, _) = try Self.ledger()
        let none = ledger.run("waterline", "settings", "set", "warningThreshold")
        #expect(none.status == 2 && none.stderr.contains("give warningThreshold one value"), "\(none)")
        let two = ledger.run("waterline", "settings", "set", "warningThreshold", "3", "4")
        #expect(two.status == 2 && two.stderr.contains("(found \"3\" \"4\")"), "\(two)")
        #expect(ledger.run("waterline", "settings", "set", "warningThreshold", "3", "--repo", ledger.root).status == 0)
    }

    /// As for `waterline settings set`: a value starting with a dash gets the setting's own
    /// message, and an unknown option is named.
    @Test func autosyncSettingsSetTakesAValueStartingWithADash() throws {
        let (ledger, _, _, _) = try Self.ledger()
        let negative = ledger.run("autosync", "settings", "set", "debounce", "-1")
        #expect(negative.status == 2 && negative.stderr == "ledger: debounce must be a duration like 300ms, 5s, 15m or 2h, at least 0s and at most a week (found \"-1\")\n", "\(negative)")
        let option = ledger.run("autosync", "settings", "--jsn")
        #expect(option.status == 2 && option.stderr.contains("has no option --jsn"), "\(option)")
        #expect(ledger.run("autosync", "settings", "set", "debounce", "2s", "--json").json["debounce"]?.stringValue == "2s")
    }

    @Test(arguments: [
        // Rules about the data, not the value: exit status 1.
        (["waterline", "drink", "--time", "20:00"], "before session"),
        (["waterline", "presets", "add", "beer", "--type", "beer"], "already exists"),
        (["brew", "recipe", "duplicate", "v60-starter", "--name", "Mine"], "already exists"),
        (["brew", "recipe", "edit", "RECIPE", "--yield", "300"], "not saved"),
        (["hydrate", "drank", "--slot", "07:30"], "there is no 07:30 reminder"),
    ])
    func domainRefusalsStayExitOne(arguments: [String], message: String) throws {
        let (ledger, _, _, recipe) = try Self.ledger()
        let r = ledger.run(arguments: arguments.map { $0 == "RECIPE" ? recipe : $0 })
        #expect(r.status == 1, "\(arguments): \(r)")
        #expect(r.stderr.contains(message), "\(r)")
    }
}

/// A name that matches nothing is told with the command that lists what there is, in one
/// sentence whose parentheses pair up (the not-found wording of presets and recipes).
@Suite struct NotFoundWordingTests {
    @Test(arguments: [
        (["waterline", "drink", "--preset", "nosuch"], "; `ledger waterline presets` lists them"),
        (["brew", "recipe", "show", "nosuch"], "; `ledger brew recipes` lists them"),
    ])
    func theListingCommandEndsTheSentence(arguments: [String], ending: String) throws {
        let ledger = try TestLedger()
        let r = ledger.run(arguments: arguments)
        #expect(r.status == 1, "\(r)")
        let line = r.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.hasSuffix(ending), "\(r)")
        #expect(line.filter { $0 == "(" }.count == line.filter { $0 == ")" }.count, "\(line)")
    }
}
