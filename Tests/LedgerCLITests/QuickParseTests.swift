import ArgumentParser
import Foundation
@testable import LedgerCLI
import LedgerTestSupport
import Testing

/// Command lines parsed without argument-parser's completion-script search give the same
/// command, with the same values, as under `LedgerCommand`; help, errors, `--version` and
/// completion requests are left to `LedgerCommand`, so what they print is argument-parser's own.
@Suite struct QuickParseTests {
    static func described(_ command: any ParsableCommand) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }

    @Test(arguments: [
        ["waterline", "drink", "--preset", "beer"], ["waterline", "drink", "--size", "33cl", "--abv", "5", "--time", "21:30"],
        ["waterline", "status", "--json"], ["waterline", "water", "--repo", "/tmp/x"], ["hydrate", "drank"],
        ["moments", "add", "a quiet run", "--at", "2026-11-20T08:00:00+01:00"], ["brew", "save", "--rating", "4"],
        ["check", "--format", "gnu"], ["sync", "--dry-run", "--json"], ["log", "waterline", "--limit", "5"],
    ])
    func theSameCommandAsTheFullParse(arguments: [String]) throws {
        let full = try LedgerCommand.parseAsRoot(arguments)
        let quick = try #require(QuickParse.command(arguments))
        #expect(type(of: quick) == type(of: full))
        #expect(Self.described(quick) == Self.described(full))
    }

    @Test(arguments: [
        ["--version"], ["--help"], ["waterline", "--help"], ["help", "waterline", "drink"], [],
        ["--generate-completion-script", "bash"], ["--generate-completion-script=zsh"], ["waterline", "drink", "--nosuch"],
        ["waterline", "nosuch"], ["moments", "add", "--generate-completion-script"], ["moments", "add", "--help"],
        ["moments", "add", "--", "--generate-completion-script is the note"], ["waterline", "drink", "-h"],
    ])
    func helpErrorsAndCompletionScriptsAreLeftToTheFullParse(arguments: [String]) {
        #expect(QuickParse.command(arguments) == nil)
    }

    /// What a user sees for those is unchanged: the completion script is bash's, the usage
    /// line names `ledger`, the error names the option.
    @Test func whatTheyPrintIsArgumentParsersOwn() throws {
        let ledger = try TestLedger()
        let script = ledger.run("--generate-completion-script", "bash")
        #expect(script.status == 0 && script.stdout.contains("complete -o filenames -F _ledger ledger") || script.stdout.contains("_ledger"))
        for words in [["waterline", "drink", "--help"], ["help", "waterline", "drink"], ["waterline", "drink", "-h"]] {
            let help = ledger.run(arguments: words)
            #expect(help.status == 0 && help.stdout.contains("USAGE: ledger waterline drink [") && !help.stdout.contains("ledger ledger"), "\(words)")
        }
        let error = ledger.run("waterline", "drink", "--nosuch")
        #expect(error.status == 2 && error.stderr.contains("--nosuch"))
    }
}
