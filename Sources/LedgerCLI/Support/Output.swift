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
}

/// Terminal styling, used only when stdout is a colour terminal (SPEC: fine without colour).
enum Style {
    static func bold(_ s: String) -> String { wrap(s, "1") }
    static func dim(_ s: String) -> String { wrap(s, "2") }
    static func red(_ s: String) -> String { wrap(s, "31") }
    static func yellow(_ s: String) -> String { wrap(s, "33") }
    static func green(_ s: String) -> String { wrap(s, "32") }

    private static func wrap(_ s: String, _ code: String) -> String {
        CLIContext.current.useColor ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
}

extension Problem {
    /// The JSON form used by `check --json` and by refusals listing problems.
    var json: JSONValue {
        var o: JSONObject = [
            "path": .string(path), "pointer": .string(issue.pointer.description),
            "severity": .string(issue.severity.rawValue), "message": .string(issue.message),
        ]
        if let line = issue.line { o["line"] = .number(Double(line)); o["column"] = .number(Double(issue.column ?? 1)) }
        if issue.fixable { o["fixable"] = .bool(true) }
        return .object(o)
    }
}
