@testable import LedgerCLI
import LedgerKit
import LedgerTestSupport
import Testing

/// Every human-readable line goes through `TerminalText`: values are shown, never obeyed.
@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("title\u{1B}]0;owned\u{07}\u{1B}[2J", "title\\u001b]0;owned\\u0007\\u001b[2J"),
        ("two\nlines\tand\r", "two\\nlines\\tand\\r"),
        ("c1\u{9B}31m del\u{7F}", "c1\\u009b31m del\\u007f"),
        ("bidi \u{202E}txt.exe", "bidi \\u202etxt.exe"),
        ("Kölsch · 🍺", "Kölsch · 🍺"),
    ])
    func controlCharactersAreShownNotObeyed(_ text: String, _ shown: String) {
        #expect(TerminalText.render(text, color: true) == shown)
        #expect(TerminalText.render(text, color: false) == shown)
    }

    @Test func stylesBecomeEscapeSequencesOnlyInColour() {
        let line = Style.bold("Beer") + " " + Style.dim("12 oz")
        #expect(TerminalText.render(line, color: true) == "\u{1B}[1mBeer\u{1B}[0m \u{1B}[2m12 oz\u{1B}[0m")
        #expect(TerminalText.render(line, color: false) == "Beer 12 oz")
    }

    @Test func aValueWithAnEscapeSequenceIsShownEscapedInsideAStyle() {
        let line = Style.red("\u{1B}[2J")
        #expect(TerminalText.render(line, color: true) == "\u{1B}[31m\\u001b[2J\u{1B}[0m")
    }

    @Test func anErrorNamingAValueIsOneLine() throws {
        let ledger = try TestLedger()
        let r = ledger.run("brew", "recipe", "show", "no\nsuch\u{1B}[2J")
        #expect(r.status == 1)
        #expect(!r.stderr.contains("\u{1B}"))
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r)")
        #expect(r.stderr.contains("no\\nsuch\\u001b[2J"), "\(r)")
    }
}
