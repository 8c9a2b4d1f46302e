import Foundation
@testable import LedgerCLI
import LedgerKit
import LedgerTestSupport
import Testing

/// Values from BrewGuide's documents are shown, never obeyed: a note or a name holding a
/// terminal's escape sequences (retitle the window, clear the screen) and a line break is
/// printed with those written out, one line per row, by the commands and by the terminal brew.
@Suite struct BrewOutputSafetyTests {
    static let hostile = "Kenya\u{1B}]0;pwned\u{07}\u{1B}[2J\nsecond line"
    static let shown = #"Kenya\u001b]0;pwned\u0007\u001b[2J\nsecond line"#

    /// Whether `text` holds an escape, a bell or a carriage return.
    static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x0D }
    }

    func lines(_ text: String) -> [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }

    @Test func aHostileNoteAndRecipeNameArePrintedWrittenOut() throws {
        let ledger = try TestLedger()
        let saved = ledger.run("brew", "save", "--rating", "4", "--note", Self.hostile, "--json")
        #expect(saved.status == 0, "\(saved)")
        let id = try #require(saved.json["id"]?.stringValue)
        #expect(saved.json["note"] == .string(Self.hostile))  // JSON stays exact
        // A hand edit gives the log's recipe name the same text: still a valid log.
        let path = "brew/logs/2026/\(id).json"
        let text = try #require(ledger.read(path))
        try ledger.write(path, text.replacingOccurrences(of: "\"recipeName\": \"V60 starter\"",
                                                         with: "\"recipeName\": " + CanonicalJSON.string(.string(Self.hostile)).trimmingCharacters(in: .newlines)))
        #expect(ledger.run("check").status == 0)

        let show = ledger.run("brew", "log", "show", id)
        #expect(show.status == 0, "\(show)")
        #expect(!Self.hasControls(show.stdout))
        #expect(lines(show.stdout).count == 11, "\(show.stdout)")
        #expect(show.stdout.contains("  Note          " + Self.shown + "\n"))
        #expect(show.stdout.contains("  Recipe        " + Self.shown + " (v60-starter, starter)\n"))

        let list = ledger.run("brew", "logs")
        #expect(!Self.hasControls(list.stdout) && lines(list.stdout).count == 3, "\(list.stdout)")
        let status = ledger.run("status")
        #expect(!Self.hasControls(status.stdout) && status.stdout.contains("Kenya\\u001b]0;pwned"), "\(status.stdout)")
    }

    @Test func aHostileRecipeNameIsListedWrittenOut() throws {
        let ledger = try TestLedger()
        let id = ledger.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Mine").stdout.trimmingCharacters(in: .newlines)
        let path = "brew/recipes/\(id).json"
        let text = try #require(ledger.read(path))
        try ledger.write(path, text.replacingOccurrences(of: "\"name\": \"Mine\"", with: "\"name\": " + CanonicalJSON.string(.string(Self.hostile))
            .trimmingCharacters(in: .newlines)))
        // A control character makes the name invalid: listed, marked, refused — and written out.
        let list = ledger.run("brew", "recipes")
        #expect(list.status == 0)
        #expect(!Self.hasControls(list.stdout), "\(list.stdout)")
        #expect(lines(list.stdout).count == 5, "\(list.stdout)")
        let row = try #require(lines(list.stdout).first { $0.hasPrefix("! \(id)") })
        #expect(row.contains("Kenya\\u001b]0;pwned\\u0007") && row.contains("INVALID: /name"), "\(row)")
        let refused = ledger.run("brew", "plan", id)
        #expect(refused.status == 1 && !Self.hasControls(refused.stderr), "\(refused)")
        #expect(refused.stderr.contains("recipe \"" + Self.shown + "\" (\(id)) is invalid"))
    }

    /// Every line the terminal brew draws holds only the screen's own escape sequences (its
    /// emphasis on a colour terminal), whatever a recipe, a step or a note holds.
    @Test func theBrewScreenShowsDocumentValuesWrittenOut() throws {
        var hostile = Recipe.starter
        hostile.id = "hostile"
        hostile.steps[0].title = Self.hostile
        hostile.steps[1].instruction = Self.hostile
        let evil = RecipeEntry(id: "evil", name: Self.hostile, path: "brew/recipes/evil.json", recipe: nil,
                               problems: [Problem("brew/recipes/evil.json", .error(.root.appending("name"), "the name contains a control character"))])
        let t0 = Timestamp(iso8601: "2026-11-21T08:00:00+01:00")!
        var flows: [BrewFlow] = []
        var f = try BrewFlow(recipe: hostile, inputs: BrewInputs(recipeId: "hostile"), choices: [.starter, evil, RecipeEntry(hostile)], logID: "x")
        flows.append(f)
        f.handle(.changeRecipe, at: t0)
        flows.append(f)
        f.handle(.chooseRecipe(1), at: t0)  // refused, naming it
        flows.append(f)
        f.handle(.start, at: t0)
        flows.append(f)
        f.handle(.next, at: t0)
        flows.append(f)
        for _ in 0..<5 { f.handle(.next, at: t0) }
        var progress = try #require(f.progress)
        progress.note = Self.hostile
        progress.plan.recipeName = Self.hostile
        flows.append(try BrewFlow(recipe: hostile, inputs: progress.inputs, resuming: progress, logID: "y"))
        var finished = try BrewFlow(recipe: hostile, inputs: progress.inputs, resuming: progress, logID: "y")
        finished.handle(.confirm, at: t0)
        flows.append(finished)
        finished.handle(.editNote, at: t0)
        flows.append(finished)
        let own = ["\u{1B}[1m", "\u{1B}[2m", "\u{1B}[7m", "\u{1B}[0m"]
        for unicode in [true, false] {
            let screen = BrewScreen(rows: 24, columns: 80, unicode: unicode, color: true)
            for flow in flows {
                let frame = screen.lines(flow, at: t0)
                #expect(frame.count == 24)
                let text = frame.map { line in own.reduce(line) { $0.replacingOccurrences(of: $1, with: "") } }
                #expect(text.allSatisfy { !Self.hasControls($0) && !$0.contains("\n") && $0.count <= 80 }, "\(text.joined(separator: "\n"))")
            }
        }
        let drawn = flows.map { BrewScreen(rows: 24, columns: 80, unicode: true, color: false).lines($0, at: t0).joined(separator: "\n") }
        #expect(drawn[0].contains("Kenya\\u001b]0;pwned"))  // the step list
        #expect(drawn[1].contains("![2] Kenya\\u001b]0;pwned"))  // the recipe list
        #expect(drawn[2].contains("Kenya\\u001b]0;pwned"))  // the refusal naming it
        #expect(drawn[3].contains("  " + Self.shown))  // the step (no large type for it)
        #expect(drawn[4].contains("  " + Self.shown))  // the step's instruction
        #expect(drawn[5].contains("A brew is in progress: Kenya\\u001b]0;pwned"))
        #expect(drawn[6].contains("Kenya\\u001b]0;pwned\\u0007\\u001b[2J\\nsecond"))  // the note
    }
}
