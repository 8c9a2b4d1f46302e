import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// The seed's first principle: Moments never punishes absence. No streaks, no "missed", no
/// negative words, never a count of what is not there — in any text the app can show.
@Suite struct MomentsCopyTests {
    /// Words that judge, count absence or shame; matched as whole words, case-insensitively.
    static let judging = try! NSRegularExpression(
        pattern: #"\b(miss(ed|ing|es)?|streaks?|fail(ed|s|ure|ures|ing)?|empty|nothing|zero|behind|lost|broken|overdue|skipped|gaps?|none|neglect(ed)?|lazy|incomplete|inactive|only|0 experiences?|no experiences?)\b"#,
        options: [.caseInsensitive])

    static func judgingWords(in text: String) -> [String] {
        let range = NSRange(text.startIndex..., in: text)
        return judging.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
    }

    @Test func theDetectorCanFail() {
        #expect(Self.judgingWords(in: "You missed 3 days; your streak is broken") == ["missed", "streak", "broken"])
        #expect(Self.judgingWords(in: "An EMPTY week, 0 experiences") == ["EMPTY", "0 experiences"])
        #expect(Self.judgingWords(in: "A quiet day, open for something you appreciate").isEmpty)
    }

    /// Every string literal in the app's sources: messages, labels, help, check problems.
    @Test func everyStringInTheSourcesIsCalm() throws {
        let dirs = ["Sources/LedgerCLI/Moments", "Sources/LedgerKit/Moments"].map { MomentsFixture.packageRoot + "/" + $0 }
        var literals = 0
        for dir in dirs {
            for file in try FileManager.default.contentsOfDirectory(atPath: dir) where file.hasSuffix(".swift") {
                let source = try String(contentsOfFile: dir + "/" + file, encoding: .utf8)
                for literal in Self.stringLiterals(in: source) {
                    literals += 1
                    #expect(Self.judgingWords(in: literal).isEmpty, "\(file): \"\(literal)\"")
                }
            }
        }
        #expect(literals > 100, "the scan found the literals (\(literals))")
    }

    /// Everything the commands print, on an empty ledger and on the sample data, in every view,
    /// for past, present and future buckets, and every help screen.
    @Test func everythingTheCommandsPrintIsCalm() throws {
        let empty = try TestLedger(now: "2026-11-21T23:30:00+01:00")
        let sample = try MomentsFixture.sampleLedger()
        let commands: [[String]] = [
            ["moments", "today"], ["moments", "week"], ["moments", "month"], ["moments", "year"], ["moments", "year", "--months"],
            ["moments", "today", "--date", "2026-11-17"], ["moments", "week", "--date", "2027-06-01"],
            ["moments", "show", "2026-11-17"], ["moments", "show", "2026-11-21T03"], ["moments", "show", "2026-11-21"],
            ["moments", "show", "2026-W47"], ["moments", "show", "2026-W48"], ["moments", "show", "2026-11"], ["moments", "show", "2025"],
            ["moments", "template"],
        ]
        var printed: [String] = []
        for ledger in [empty, sample] {
            for c in commands {
                for args in [c, c + ["--json"]] {
                    let r = ledger.run(arguments: args)
                    #expect(r.status == 0, "\(args): \(r)")
                    printed.append(r.stdout + r.stderr)
                }
            }
            // The Moments line of `ledger status` (the rest belongs to other parts of ledger).
            printed += ledger.run("status").stdout.split(separator: "\n").filter { $0.contains("DotLife Moments") }.map(String.init)
            printed.append(CanonicalJSON.string(ledger.run("status", "--json").json["moments"] ?? .null))
        }
        for help in [["moments", "--help"], ["moments", "add", "--help"], ["moments", "today", "--help"], ["moments", "week", "--help"],
                     ["moments", "month", "--help"], ["moments", "year", "--help"], ["moments", "show", "--help"],
                     ["moments", "template", "--help"], ["moments", "template", "set", "--help"]] {
            printed.append(empty.run(arguments: help).stdout)
        }
        let photo = try MomentsFixture.file(empty, "p.png", MomentsFixture.png)
        for add in [["moments", "add", "tea"], ["moments", "add", "--dot"], ["moments", "add", "--photo", photo],
                    ["moments", "add", "--photo", photo], ["moments", "add", "--link", "https://example.com"],
                    ["moments", "template", "set", "Thank you for [experience], [moment]"], ["moments", "add"],
                    ["moments", "add", "--link", "example"], ["moments", "template", "set", "Thanks"], ["moments", "show", "2026-W99"]] {
            let r = empty.run(arguments: add)
            printed.append(r.stdout + r.stderr)
        }
        #expect(printed.filter { $0.hasPrefix("  DotLife Moments ") }.count == 2, "the status lines were read")
        for text in printed {
            #expect(Self.judgingWords(in: text).isEmpty, "\(text)")
        }
    }

    /// The contents of `"…"` and `"""…"""` literals, outside comments (interpolations included
    /// as written).
    static func stringLiterals(in source: String) -> [String] {
        var out: [String] = []
        for line in source.components(separatedBy: "\n") {
            var code = line
            if let comment = code.range(of: "//"), !code[..<comment.lowerBound].contains("\"") { code = String(code[..<comment.lowerBound]) }
            var current: String?
            var escaped = false
            for ch in code {
                if var s = current {
                    if escaped { s.append(ch); escaped = false; current = s; continue }
                    if ch == "\\" { escaped = true; s.append(ch); current = s; continue }
                    if ch == "\"" { out.append(s); current = nil; continue }
                    s.append(ch)
                    current = s
                } else if ch == "\"" {
                    current = ""
                }
            }
        }
        // Multi-line literals: the lines between `"""` markers.
        let parts = source.components(separatedBy: "\"\"\"")
        for (i, part) in parts.enumerated() where i % 2 == 1 { out.append(part) }
        return out
    }
}
