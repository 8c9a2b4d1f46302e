import Foundation
import LedgerKit

/// Printing JSON and styled text.
enum Output {
    /// Prints one JSON value (canonical form) on stdout: the whole output of `--json`.
    static func json(_ value: JSONValue) {
        CLIContext.current.stdout.write(CanonicalJSON.string(value))
    }

    /// Prints a JSON object built from key/value pairs.
    static func json(_ members: [(String, JSONValue)]) {
        var o = JSONObject()
        for (k, v) in members { o[k] = v }
        json(.object(o))
    }

    /// `47,012`.
    static func count(_ n: Int) -> String {
        let s = String(abs(n))
        var out = ""
        for (i, c) in s.enumerated() {
            if i > 0, (s.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// "1 error", "2 errors".
    static func plural(_ n: Int, _ word: String, _ plural: String? = nil) -> String {
        "\(count(n)) \(n == 1 ? word : plural ?? word + "s")"
    }

    /// "1 conflict file, 2 conflicted copies", or nil when there are none.
    static func conflicts(files: Int, copies: Int) -> String? {
        let parts = (files > 0 ? [plural(files, "conflict file")] : []) + (copies > 0 ? [plural(copies, "conflicted copy", "conflicted copies")] : [])
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

/// Terminal styling. Styles are marks in the text (Unicode noncharacters, which are
/// reserved for a program's internal use), turned into escape sequences by `TerminalText`
/// when the line is written — and only on a colour terminal — so that `Console` can show
/// every control character of the text itself instead of obeying it.
extension String {
    /// The text followed by spaces up to `width` characters; never cut (unlike
    /// `padding(toLength:)`, which cuts a longer text).
    func padded(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}

enum Style {
    static func bold(_ s: String) -> String { wrap(s, .bold) }
    static func dim(_ s: String) -> String { wrap(s, .dim) }
    static func red(_ s: String) -> String { wrap(s, .red) }
    static func yellow(_ s: String) -> String { wrap(s, .yellow) }
    static func green(_ s: String) -> String { wrap(s, .green) }

    /// The styles, as marks (U+FDD0…) with their SGR parameters.
    enum Mark: UInt32, CaseIterable {
        case reset = 0xFDD0, bold, dim, red, green, yellow

        var scalar: Unicode.Scalar { Unicode.Scalar(rawValue)! }

        var sgr: String {
            switch self {
            case .reset: "\u{1B}[0m"
            case .bold: "\u{1B}[1m"
            case .dim: "\u{1B}[2m"
            case .red: "\u{1B}[31m"
            case .green: "\u{1B}[32m"
            case .yellow: "\u{1B}[33m"
            }
        }
    }

    private static func wrap(_ s: String, _ mark: Mark) -> String {
        String(Character(mark.scalar)) + s + String(Character(Mark.reset.scalar))
    }
}

/// What every line of human-readable output goes through before it reaches a terminal (or a
/// pipe): the one place where text from documents and arguments is made safe to show.
///
/// Control characters (C0, DEL, C1) and the bidirectional overrides are shown, not obeyed —
/// `\n`, `\t`, `\r`, `\u001b`, `\u202e` — so a hand-edited note cannot clear the screen,
/// retitle the terminal or split one reported problem into two lines. `Style`'s marks become
/// escape sequences on a colour terminal and vanish elsewhere. JSON output never goes
/// through here: it is exact JSON.
enum TerminalText {
    static func render(_ text: String, color: Bool) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if let mark = Style.Mark(rawValue: v) {
                if color { out.append(contentsOf: mark.sgr.unicodeScalars) }
            } else if v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) {
                out.append(contentsOf: escape(v).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// How a control character is shown.
    static func escape(_ v: UInt32) -> String {
        switch v {
        case 0x0A: "\\n"
        case 0x09: "\\t"
        case 0x0D: "\\r"
        default: "\\u" + String(repeating: "0", count: max(0, 4 - String(v, radix: 16).count)) + String(v, radix: 16)
        }
    }
}

extension Problem {
    /// The JSON form used by `check --json` and by refusals listing problems.
    var json: JSONValue {
        var o: JSONObject = [
            "path": .string(path), "pointer": .string(issue.pointer.description),
            "severity": .string(issue.severity.rawValue), "message": .string(Words.text(issue.sentence)),
        ]
        if let line = line ?? issue.line {
            o["line"] = .number(Double(line))
            o["column"] = .number(Double(column ?? issue.column ?? 1))
        }
        if issue.fixable { o["fixable"] = .bool(true) }
        return .object(o)
    }
}
