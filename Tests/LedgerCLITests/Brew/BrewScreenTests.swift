@testable import LedgerCLI
import LedgerKit
import Testing

/// The terminal brew's drawing and key map, without a terminal.
@Suite struct BrewScreenTests {
    let t0 = Timestamp(iso8601: "2026-11-21T08:00:00+01:00")!

    /// A flow in each phase and dialog worth drawing.
    func flows() throws -> [BrewFlow] {
        var out: [BrewFlow] = []
        var many = [Recipe.starter]
        for i in 1...11 {
            var r = Recipe.starter
            r.id = "r\(i)"
            r.name = "A recipe with a long name, number \(i), for the list"
            many.append(r)
        }
        var f = try BrewFlow(recipe: .starter, inputs: BrewInputs(recipeId: Recipe.starterID, dose: 45), choices: many.map { RecipeEntry($0) }, logID: "x")
        out.append(f)
        f.handle(.changeRecipe, at: t0)
        out.append(f)
        f.handle(.cancel, at: t0)
        f.handle(.edit(.dose), at: t0)
        out.append(f)
        f.handle(.cancel, at: t0)
        f.handle(.start, at: t0)
        for i in 1...2 { f.handle(.next, at: t0.adding(seconds: Double(i))) }
        out.append(f)
        f.handle(.togglePause, at: t0.adding(seconds: 5))
        out.append(f)
        f.handle(.togglePause, at: t0.adding(seconds: 6))
        f.handle(.restart, at: t0.adding(seconds: 7))
        out.append(f)
        f.handle(.confirm, at: t0.adding(seconds: 7))
        f.handle(.holdRestart, at: t0.adding(seconds: 7.2))
        out.append(f)
        f.handle(.cancel, at: t0.adding(seconds: 8))
        f.handle(.leave, at: t0.adding(seconds: 8))
        out.append(f)
        f.handle(.cancel, at: t0.adding(seconds: 8))
        for i in 0..<4 { f.handle(.next, at: t0.adding(seconds: 100 + Double(i))) }
        f.handle(.rate(4), at: t0.adding(seconds: 110))
        f.handle(.tag(.tooWeak), at: t0.adding(seconds: 110))
        out.append(f)
        f.handle(.editNote, at: t0.adding(seconds: 111))
        for _ in 0..<280 { f.handle(.type("w"), at: t0.adding(seconds: 111)) }
        out.append(f)
        let resumed = try BrewFlow(recipe: .starter, inputs: BrewInputs(recipeId: Recipe.starterID), resuming: f.progress, logID: "y")
        out.append(resumed)
        return out
    }

    @Test(arguments: [(24, 80, true), (24, 80, false), (40, 120, true), (12, 50, true)])
    func everyScreenFitsTheTerminal(rows: Int, columns: Int, unicode: Bool) throws {
        let screen = BrewScreen(rows: rows, columns: columns, unicode: unicode, color: false)
        for flow in try flows() {
            let lines = screen.lines(flow, at: t0.adding(seconds: 112))
            #expect(lines.count == rows)
            #expect(lines.allSatisfy { $0.count <= columns }, "\(lines.joined(separator: "\n"))")
            if !unicode { #expect(lines.allSatisfy { $0.allSatisfy(\.isASCII) }, "\(lines.joined(separator: "\n"))") }
        }
    }

    @Test func theBrewingScreenShowsTheStepTheCountdownAndTheLockedInputs() throws {
        var f = try BrewFlow(recipe: .starter, inputs: BrewInputs(recipeId: Recipe.starterID, dose: 20), logID: "x")
        f.handle(.start, at: t0)
        f.handle(.next, at: t0)
        f.handle(.next, at: t0)
        let text = BrewScreen().lines(f, at: t0.adding(seconds: 12)).joined(separator: "\n")
        #expect(text.contains("Step 3 of 6"))
        #expect(text.contains("Bloom: pour 60 g, start timer 0:45"))
        #expect(text.contains("0:33 left of 0:45"))
        #expect(text.contains("(pour 60 g)"))
        #expect(text.contains("locked while brewing"))
        #expect(text.contains("Next: Pour to 197 g by 1:30"))
        #expect(BrewScreen().lines(f, at: t0.adding(seconds: 45)).joined().contains("READY"))
    }

    /// A recipe with fixed step weights: the yield is the steps' total, a dose sets the ratio.
    @Test func theConfirmScreenSaysAFixedRecipesYieldIsItsSteps() throws {
        var fixed = Recipe.starter
        fixed.id = "fixed"
        fixed.fixedStepWeights = true
        let f = try BrewFlow(recipe: fixed, inputs: BrewInputs(recipeId: "fixed", dose: 20), logID: "x")
        let text = BrewScreen().lines(f, at: t0).joined(separator: "\n")
        #expect(text.contains("20.0 g  (set)"))
        #expect(text.contains("250 g  (the fixed steps' total)"), "\(text)")
        #expect(text.contains("1:12.5   (the fixed steps' total ÷ the dose)"), "\(text)")
        #expect(!text.contains("from the dose") && !text.contains("recipe's ratio"))
    }

    /// "The confirm screen calls a derived 1:16.6 "the recipe's ratio"."
    @Test func aRatioTheScaleRoundedIsNotCalledTheRecipes() throws {
        let derived = try BrewFlow(recipe: .starter, inputs: BrewInputs(recipeId: Recipe.starterID, targetYield: 251), logID: "x")
        let text = BrewScreen().lines(derived, at: t0).joined(separator: "\n")
        #expect(text.contains("Ratio         1:16.6   (yield ÷ dose; the recipe's is 1:16.7)"), "\(text)")
        #expect(!text.contains("the recipe's ratio"), "\(text)")
        let same = try BrewFlow(recipe: .starter, inputs: BrewInputs(recipeId: Recipe.starterID, dose: 18), logID: "x")
        #expect(BrewScreen().lines(same, at: t0).joined(separator: "\n").contains("1:16.7   (the recipe's ratio; last edited wins)"))
    }

    /// Every screen at the sizes a brewer's terminal may have: a line longer than the width
    /// goes on over the next one, never cut ("…") — but for the recipe list's name column,
    /// which shortens a long name to keep the table.
    @Test(arguments: [(12, 40), (12, 60), (24, 80)])
    func nothingIsCutAtCommonSizes(rows: Int, columns: Int) throws {
        let screen = BrewScreen(rows: rows, columns: columns, unicode: true, color: false)
        for flow in try flows() {
            let lines = screen.lines(flow, at: t0.adding(seconds: 112))
            #expect(lines.dropFirst().allSatisfy { !$0.contains("…") || $0.contains("] A recipe with a long name") }, "\(lines.joined(separator: "\n"))")
        }
    }

    @Test func keysMeanWhatTheScreenSays() throws {
        var f = try BrewFlow(recipe: .starter, inputs: BrewInputs(recipeId: Recipe.starterID), logID: "x")
        #expect(BrewKeys.event(for: .enter, in: f, at: t0) == .start)
        #expect(BrewKeys.event(for: .char("r"), in: f, at: t0) == .resetInputs)
        #expect(BrewKeys.event(for: .interrupt, in: f, at: t0) == .leave)
        f.handle(.start, at: t0)
        #expect(BrewKeys.event(for: .char(" "), in: f, at: t0) == .next)
        #expect(BrewKeys.event(for: .char("P"), in: f, at: t0) == .togglePause)
        #expect(BrewKeys.event(for: .char("r"), in: f, at: t0) == .restart)
        f.handle(.restart, at: t0)
        #expect(BrewKeys.event(for: .char("y"), in: f, at: t0) == .confirm)
        #expect(BrewKeys.event(for: .enter, in: f, at: t0) == .cancel)
        f.handle(.confirm, at: t0)
        #expect(BrewKeys.event(for: .char("r"), in: f, at: t0) == .holdRestart)
        #expect(BrewKeys.event(for: .char("x"), in: f, at: t0) == .cancel)
        f.handle(.cancel, at: t0)
        for _ in 0..<6 { f.handle(.next, at: t0) }
        #expect(f.phase == .finished)
        #expect(BrewKeys.event(for: .char("4"), in: f, at: t0) == .rate(4))
        #expect(BrewKeys.event(for: .char("9"), in: f, at: t0) == nil)
        #expect(BrewKeys.event(for: .char("s"), in: f, at: t0) == .tag(.tooSour))
        #expect(BrewKeys.event(for: .enter, in: f, at: t0) == .save)
        f.handle(.editNote, at: t0)
        #expect(BrewKeys.event(for: .char("q"), in: f, at: t0) == .type("q"))
        #expect(BrewKeys.event(for: .backspace, in: f, at: t0) == .deleteBackward)
    }

    @Test func theDecoderReadsKeysSequencesAndSplitUTF8() {
        var d = KeyDecoder()
        #expect(d.keys([0x0D, 0x20, 0x7F, 0x03, 0x1B]) == [.enter, .char(" "), .backspace, .interrupt, .escape])
        #expect(d.keys(Array("\u{1B}[A\u{1B}[1;5Cq".utf8)) == [.other, .other, .char("q")])
        let e = Array("é".utf8)
        #expect(d.keys([e[0]]).isEmpty)
        #expect(d.keys([e[1], 0x61]) == [.char("é"), .char("a")])
    }

    @Test func theBigFontDrawsDigitsAndTime() {
        let rows = BigText.render("1:30", unicode: false)
        #expect(rows.count == 5)
        #expect(rows[1] == " ##   #     # #   #")
        #expect(rows[2] == "  #      ###  #   #")
        #expect(BigText.render("", unicode: true) == ["", "", "", "", ""])
    }
}
