import ArgumentParser
import Foundation
@testable import LedgerCLI
import LedgerTestSupport
import Testing

/// The quick commands read without argument-parser are the same commands, with the same
/// values, as argument-parser reads from the same words; whatever they do not read plainly is
/// left to argument-parser.
@Suite struct QuickLineTests {
    /// A value each option takes, by its long name.
    static let samples: [String: String] = [
        "preset": "beer", "type": "wine", "size": "33cl", "abv": "5", "std": "2", "time": "21:30", "amount": "250ml",
        "slot": "09:00", "date": "2026-11-20", "moment": "today", "link": "https://example.org/a", "photo": "/tmp/p.jpg",
        "at": "07:30", "dose": "15", "yield": "250", "temp": "93.5", "grind": "fine", "rating": "4", "tag": "too-bitter",
        "note": "bright, a bit thin", "repo": "/tmp/ledger",
    ]

    /// The long options and flags argument-parser knows for `command` (from its own
    /// description of the command, `--experimental-dump-help`), without help.
    static func declared(_ command: any ParsableCommand.Type) throws -> (values: Set<String>, flags: Set<String>) {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(command._dumpHelp().utf8)) as? [String: Any])
        let arguments = try #require((json["command"] as? [String: Any])?["arguments"] as? [[String: Any]])
        var values = Set<String>(), flags = Set<String>()
        for argument in arguments {
            let names = (argument["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }.compactMap { $0["name"] as? String }
            for name in names where name != "help" {
                if argument["kind"] as? String == "flag" { flags.insert(name) } else { values.insert(name) }
            }
        }
        return (values, flags)
    }

    /// Every value of `line`, as `dump` writes it.
    static func described(_ line: any QuickRun) -> String {
        var text = ""
        dump(line, to: &text)
        return text
    }

    /// Expects `arguments` to be read here as argument-parser reads them: the same command's
    /// `Line`, with the same values.
    static func expectSame(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let full = try #require(try LedgerCommand.parseAsRoot(arguments) as? any QuickCommand, "\(arguments)", sourceLocation: sourceLocation)
        let quick = try #require(QuickLine.command(arguments), "\(arguments)", sourceLocation: sourceLocation)
        #expect(type(of: quick) == type(of: full.line), "\(arguments)", sourceLocation: sourceLocation)
        #expect(described(quick) == described(full.line), "\(arguments)", sourceLocation: sourceLocation)
    }

    @Test func eachQuickCommandReadsEveryOptionItDeclares() throws {
        for command in QuickLine.commands {
            let parsed = try LedgerCommand.parseAsRoot(command.path + (command == BrewCommand.Save.self ? ["--rating", "4"] : []))
            #expect(type(of: parsed) == command, "\(command.path) is the path of \(command)")
            let declared = try Self.declared(command)
            #expect(declared.values == Set(command.valueOptions + ["repo"]), "\(command.path): options")
            #expect(declared.flags == Set(command.flags + ["json"]), "\(command.path): flags")
        }
    }

    /// Each option alone, all of them together, as `--name value` and as `--name=value`, and
    /// each command with nothing: the same command as argument-parser's.
    @Test func everyOptionReadsAsArgumentParserReadsIt() throws {
        for command in QuickLine.commands {
            let required = command == BrewCommand.Save.self ? ["--rating", "3"] : []
            let (values, flags) = try Self.declared(command)
            try Self.expectSame(command.path + required)
            var all: [String] = [], joined: [String] = []
            for name in values.sorted() {
                let value = try #require(Self.samples[name], "a sample value for --\(name)")
                if name != "rating" { try Self.expectSame(command.path + ["--\(name)", value] + required) }
                try Self.expectSame(command.path + ["--\(name)=\(value)"] + (name == "rating" ? [] : required))
                all += ["--\(name)", value]
                joined.append("--\(name)=\(value)")
            }
            for name in flags.sorted() {
                try Self.expectSame(command.path + ["--\(name)"] + required)
                all.append("--\(name)")
                joined.append("--\(name)")
            }
            if !values.contains("rating") { all += required; joined += required }
            try Self.expectSame(command.path + all)
            try Self.expectSame(command.path + joined.reversed())
        }
    }

    @Test(arguments: [
        ["moments", "add", "a", "quiet", "run"], ["moments", "add", "a", "--json", "quiet", "run"], ["moments", "add", "help", "me"],
        ["moments", "add", "--dot"], ["moments", "add", "x", "--link", "https://example.org", "--dot"], ["brew", "save", "v60", "--rating", "5"],
        ["brew", "save", "--note", "", "--rating", "2"], ["waterline", "drink", "--preset==beer"], ["waterline", "drink", "--preset", "="],
        ["waterline", "drink", "--preset", "Pint of IPA"], ["waterline", "drink", "--size", "pint", "--type", "beer"],
        ["waterline", "water", "--amount", "0.5l"], ["hydrate", "status", "--date=2026-02-28"], ["moments", "today", "--date", "2026-11-21", "--json"],
    ])
    func commandLinesAPersonTypes(arguments: [String]) throws {
        try Self.expectSame(arguments)
    }

    /// Left to argument-parser: help, short options, `--`, a value starting with a dash, an
    /// option or flag given twice, `--flag=value`, `--option=` and nothing, unknown words, refused values, a required
    /// option left out, and commands that are not quick ones.
    @Test(arguments: [
        ["waterline", "drink", "--help"], ["waterline", "drink", "-h"], ["moments", "add", "--", "--dot"], ["waterline", "drink", "--size", "-3"],
        ["waterline", "drink", "--preset", "beer", "--preset", "wine"], ["waterline", "status", "--json", "--json"], ["waterline", "status", "--json=yes"],
        ["waterline", "drink", "--nosuch"], ["waterline", "status", "extra"], ["hydrate", "drank", "--slot", "25:00"], ["brew", "save"],
        ["brew", "save", "--rating", "9"], ["brew", "save", "a", "b", "--rating", "4"], ["brew", "save", "--dose", "lots", "--rating", "4"],
        ["waterline", "drink", "--preset"], ["waterline", "drink", "--"], ["--version"], ["waterline", "start"], ["waterline"], [],
        ["waterline", "drink", "--generate-completion-script", "bash"], ["moments", "add", "-"], ["waterline", "drink", "-"],
        ["brew", "save", "--note=", "--rating", "2"],
    ])
    func whatIsNotReadPlainlyIsLeftToArgumentParser(arguments: [String]) {
        #expect(QuickLine.command(arguments) == nil)
    }

    /// What a person sees is argument-parser's, and the command runs: a drink logged through the
    /// quick reading is the drink argument-parser's reading logs.
    @Test func theCommandRunsAndErrorsAreArgumentParsersOwn() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("waterline", "start", "--time", "20:00").status == 0)
        let drink = ledger.run("waterline", "drink", "--preset", "beer", "--json")
        #expect(drink.status == 0 && drink.stdout.contains("\"entry\""))
        let refused = ledger.run("waterline", "drink", "--size", "-3")
        #expect(refused.status == 2 && refused.stderr.contains("--size"))
        let twice = ledger.run("brew", "save", "--rating", "9")
        #expect(twice.status == 2 && twice.stderr.contains("--rating"))
        let help = ledger.run("waterline", "drink", "--help")
        #expect(help.status == 0 && help.stdout.contains("USAGE: ledger waterline drink ["))
    }
}
