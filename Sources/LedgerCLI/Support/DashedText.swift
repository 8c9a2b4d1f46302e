import ArgumentParser
import LedgerSync

/// A command whose words are free text — a moment, a template, a preset's name — which may
/// start with a dash (`-5 degrees and sunny`) and then goes after `--`, as with git.
protocol TextArgumentCommand: ParsableCommand {
    /// Its text words, as parsed.
    var textWords: [String] { get }
}

extension MomentsCommand.Add: TextArgumentCommand { var textWords: [String] { text } }
extension MomentsCommand.Template.Set: TextArgumentCommand { var textWords: [String] { [text] } }
extension WaterlineCommand.Presets.Add: TextArgumentCommand { var textWords: [String] { [name] } }

/// Text that starts with a dash, which the parser took for options.
enum DashedText {
    /// The word before any `--` that made argument-parser print the help although no `-h`,
    /// `--help` or `help` was given: one that starts with a single dash and holds an `h`
    /// (`-ah`, `-high five`), read as a cluster of short options.
    static func helpTaken(from arguments: [String]) -> String? {
        let words = arguments.prefix { $0 != "--" }
        guard arguments.first != "help", !words.contains("-h"), !words.contains("--help") else { return nil }
        return words.first { $0.count > 2 && $0.hasPrefix("-") && !$0.hasPrefix("--") && $0.contains("h") }
    }

    /// Whether `word` is read as an option but is not a long one: `-x`, `-5 degrees`,
    /// `--- a line` (`--name`, `--name=value` and `-h` are options).
    static func isDashed(_ word: String) -> Bool {
        guard word.count > 1, word.hasPrefix("-"), word != "-h", word != "--" else { return false }
        let name = word.drop { $0 == "-" }.prefix { $0 != "=" }
        return !(word.hasPrefix("--") && !word.contains(" ") && (name.first?.isLetter ?? false))
    }

    /// "ledger: text that starts with a dash goes after --: ledger … -- TEXT": the same
    /// command line with its text last, after `--` — nil unless the command takes text and
    /// the line is proved to mean the same command, its text included: the dashed words,
    /// held by placeholders, are parsed in both lines and must give the same command.
    static func suggestion(_ arguments: [String], repoWords: [String]) -> String? {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        let dashed = arguments[..<end].indices.filter { isDashed(arguments[$0]) }
        guard !dashed.isEmpty else { return nil }
        var held = arguments
        var real: [String: String] = [:]
        for (n, i) in dashed.enumerated() {
            held[i] = "ledger-text-placeholder-\(n)"
            real[held[i]] = arguments[i]
        }
        guard let parsed = try? LedgerCommand.parseAsRoot(held), let text = (parsed as? any TextArgumentCommand)?.textWords else { return nil }
        // The line without its text words (taken in order) and without `--`, then `--` and the text.
        var rest: [String] = [], next = text.startIndex
        for (i, word) in held.enumerated() {
            if i == end { continue }
            if next < text.endIndex, word == text[next] { next += 1 } else { rest.append(word) }
        }
        let line = rest + ["--"] + text
        guard next == text.endIndex, let again = try? LedgerCommand.parseAsRoot(line), description(of: again) == description(of: parsed) else { return nil }
        let words = ["ledger"] + repoWords + line.map { real[$0] ?? $0 }
        return "ledger: text that starts with a dash goes after --: " + words.map(SetupDoctor.shellQuoted).joined(separator: " ")
    }

    private static func description(of command: any ParsableCommand) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }
}
