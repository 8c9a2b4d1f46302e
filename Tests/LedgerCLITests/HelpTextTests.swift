import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// The help of every app command: written as paragraphs, so that ArgumentParser's own
/// wrapping gives full lines at 80 columns instead of breaking a hard-wrapped sentence into
/// one-word lines ("standard-drink⏎estimate").
@Suite struct HelpTextTests {
    static let apps = ["waterline", "brew", "hydrate", "moments"]

    /// Every app command, as its path of names (`["waterline", "presets", "add"]`), with its
    /// texts and those of its arguments, from `--experimental-dump-help`.
    static func commands() throws -> [(path: [String], texts: [String])] {
        let ledger = try TestLedger(initialize: false)
        let dump = ledger.run("--experimental-dump-help")
        guard dump.status == 0, case .object(let root) = dump.json, let command = root["command"] else {
            throw LedgerError.failure("--experimental-dump-help failed: \(dump)")
        }
        var out: [(path: [String], texts: [String])] = []
        func walk(_ c: JSONValue, _ path: [String]) {
            var texts = [c["abstract"], c["discussion"]].compactMap { $0?.stringValue }
            for a in c["arguments"]?.arrayValue ?? [] {
                texts += [a["abstract"], a["discussion"]].compactMap { $0?.stringValue }
            }
            if path.count > 1 || (path.first.map(apps.contains) ?? false) { out.append((path, texts)) }
            for s in c["subcommands"]?.arrayValue ?? [] {
                guard let name = s["commandName"]?.stringValue, name != "help" else { continue }
                if path.isEmpty, !apps.contains(name) { continue }
                walk(s, path + [name])
            }
        }
        walk(command, [])
        return out
    }

    @Test func helpTextsAreParagraphsWithoutHardLineBreaks() throws {
        let commands = try Self.commands()
        #expect(commands.count > 40, "every app subcommand is looked at")
        for (path, texts) in commands {
            for text in texts {
                for paragraph in text.components(separatedBy: "\n\n") where paragraph.contains("\n") {
                    Issue.record("`ledger \(path.joined(separator: " "))`: a line break inside a paragraph: \(paragraph.debugDescription)")
                }
            }
        }
    }

    @Test func everyAppSubcommandsHelpFitsEightyColumns() throws {
        let ledger = try TestLedger(initialize: false)
        for (path, _) in try Self.commands() {
            let r = ledger.run(arguments: path + ["--help"])
            #expect(r.status == 0, "\(path): \(r)")
            let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count > 3, "\(path)")
            // ArgumentParser writes the USAGE synopsis on one line, which terminals wrap.
            for line in lines where line.count > 80 && !line.hasPrefix("USAGE: ") {
                Issue.record("`ledger \(path.joined(separator: " ")) --help` has a line of \(line.count) columns: \(line)")
            }
            // A paragraph is filled: no line of the help is a single word left over from the
            // line before, as a hard-wrapped string gives.
            for (previous, line) in zip(lines, lines.dropFirst()) {
                let words = line.split(separator: " ")
                if words.count == 1, previous.count > 40, !line.hasPrefix(" ") || line.trimmingCharacters(in: .whitespaces).count < 15,
                   line.last.map({ ".:)".contains($0) }) == false, !previous.hasSuffix(":") {
                    Issue.record("`ledger \(path.joined(separator: " ")) --help`: \"\(line)\" after \"\(previous)\"")
                }
            }
        }
    }

    /// `--json` and `--yes` are the shared option groups (`JSONOption`, `YesOption`) in every
    /// command that takes them, so `--help` and the man pages made from it say one thing.
    @Test func everyJSONAndYesFlagIsTheSharedOne() throws {
        let ledger = try TestLedger(initialize: false)
        let dump = ledger.run("--experimental-dump-help")
        let command = try #require(dump.json["command"])
        let shared = ["json": "Print the result as one JSON value on stdout (the manual in docs/ gives each command's fields).",
                      "yes": "Do not ask for confirmation (for scripts)."]
        var seen: [String: [String]] = [:]
        func walk(_ c: JSONValue, _ path: [String]) {
            for a in c["arguments"]?.arrayValue ?? [] {
                for n in a["names"]?.arrayValue ?? [] {
                    guard let name = n["name"]?.stringValue, let text = shared[name], n["kind"]?.stringValue == "long" else { continue }
                    seen[name, default: []].append(path.joined(separator: " "))
                    #expect(a["abstract"]?.stringValue == text, "`ledger \(path.joined(separator: " "))` --\(name): \(a["abstract"] ?? .null)")
                }
            }
            for s in c["subcommands"]?.arrayValue ?? [] { walk(s, path + [s["commandName"]?.stringValue ?? "?"]) }
        }
        walk(command, [])
        for name in ["log", "undo", "conflicts", "sync", "forget", "purge"] {
            #expect(seen["json"]?.contains(name) == true, "\(name) takes --json")
        }
        for name in ["undo", "sync", "forget", "purge"] {
            #expect(seen["yes"]?.contains(name) == true, "\(name) takes --yes")
        }
    }

    /// `-ah` is refused as an unknown option (exit 2), as `-a` is — argument-parser read it as
    /// `-a -h` and printed the help with exit 0, so a typo in a script did nothing silently.
    @Test func aClusterOfShortOptionsWithHIsRefusedNotTakenForHelp() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("waterline", "start").status == 0)
        for words in [["moments", "add", "-ah", "what", "a", "view"], ["waterline", "drink", "-hx"], ["waterline", "entries", "-xh"],
                      ["brew", "save", "-oh", "--rating", "3"]] {
            let r = ledger.run(arguments: words)
            #expect(r.status == 2 && r.stdout.isEmpty && r.stderr.contains("unknown option '\(words.first { $0.hasPrefix("-") }!)'"), "\(words): \(r)")
        }
        let today = ledger.run("moments", "show", "2026-11-21", "--json")
        #expect(today.status == 0 && !today.stdout.contains("what a view"), "\(today)")
        // The same letters as text after `--`, and -h itself, are what they were.
        #expect(ledger.run("moments", "add", "--", "-ah", "what", "a", "view").status == 0)
        #expect(ledger.run("moments", "show", "2026-11-21", "--json").stdout.contains("-ah what a view"))
        #expect(ledger.run("waterline", "drink", "-h").stdout.contains("USAGE: ledger waterline drink"))
        #expect(ledger.run("waterline", "drink", "-x").status == 2)
    }

    /// Text that starts with a dash is taken for an option, as by any command-line parser:
    /// refused (exit 2, nothing written), and the refusal's last line is the same command with
    /// its options first and `--` before its text, which — split by bash, as a person pasting
    /// it — saves the text as typed (a newline and a tab included). `-high five` was read as
    /// short options with `-h` among them and printed the help, saving nothing, with exit 0.
    @Test func textStartingWithADashIsShownWhereItGoes() throws {
        let ledger = try TestLedger()
        let bash = try Processes.require("bash", package: "bash")
        let prefix = "ledger: text that starts with a dash goes after --: "
        let cases: [(words: [String], text: String)] = [
            (["moments", "add", "-5 degrees and sunny", "--moment", "today"], "-5 degrees and sunny"),
            (["moments", "add", "-high five"], "-high five"),
            (["moments", "add", "tea", "-x h", "--moment", "week", "and", "-sunny"], "tea -x h and -sunny"),
            (["--repo", ledger.root, "moments", "add", "--- a line\nof dashes\tand 'quotes'"], "--- a line\nof dashes\tand 'quotes'"),
            (["moments", "add", "-ah", "what", "a", "view"], "-ah what a view"),
        ]
        for (n, c) in cases.enumerated() {
            let r = ledger.run(arguments: c.words)
            let line = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
            #expect(r.status == 2 && r.stdout.isEmpty && line.hasPrefix(prefix), "\(c.words): \(r)")
            #expect(ledger.run("moments", "show", "2026-11-21", "--json").json["count"] == .number(Double(n)), "nothing saved by \(c.words)")
            // The suggestion, as bash reads it, is a command that saves the text.
            let split = try Processes.run(bash, ["-c", #"eval "set -- $1"; printf '%s\0' "$@""#, "-", String(line.dropFirst(prefix.count))])
            let words = split.stdout.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
            #expect(words.first == "ledger" && words.last.map { c.text.hasSuffix($0) } == true, "\(line) → \(words)")
            #expect(ledger.run(arguments: Array(words.dropFirst())).status == 0, "\(words)")
            let day = ledger.run("moments", "show", "2026-11-21", "--json").json
            let texts = (day["experiences"]?.arrayValue ?? []).compactMap { $0["payload"]?.stringValue }
            #expect(texts.count == n + 1 && texts.contains(c.text), "\(words): \(texts)")
        }
        // A preset's name and the template take text too; a command without text gets no such line.
        let preset = ledger.run("waterline", "presets", "add", "-5 beer", "--type", "beer")
        #expect(preset.status == 2 && preset.stderr.contains(prefix + "ledger waterline presets add --type beer -- '-5 beer'"), "\(preset)")
        for words in [["waterline", "drink", "-5 beer"], ["moments", "add", "tea", "--dto"], ["moments", "today", "-x h"]] {
            let r = ledger.run(arguments: words)
            #expect(r.status == 2 && !r.stderr.contains("goes after --"), "\(words): \(r)")
        }
    }

    /// An option that takes text takes a value that starts with a dash as given, as git's
    /// `-m` does: `brew save --note "-a bit sour"` was refused for a missing value.
    @Test func anOptionsTextMayStartWithADash() throws {
        let ledger = try TestLedger()
        let save = ledger.run("brew", "save", "--rating", "3", "--note", "-a bit sour", "--json")
        #expect(save.status == 0 && save.json["note"]?.stringValue == "-a bit sour", "\(save)")
        #expect(ledger.run("waterline", "presets", "add", "Lager", "--type", "beer").status == 0)
        let rename = ledger.run("waterline", "presets", "edit", "Lager", "--name", "-5 lager", "--json")
        #expect(rename.status == 0 && rename.json["name"]?.stringValue == "-5 lager", "\(rename)")
    }
}
