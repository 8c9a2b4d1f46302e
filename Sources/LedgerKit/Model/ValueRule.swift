/// A rule on one value of a document — a range, a length, a shape — stated once, beside the
/// field it governs: the check `ledger check` makes, and the JSON Schema keywords an editor
/// checks as the value is typed (`ledger schema`).
///
/// A rule that relates two values (an end after its start, steps adding up to a yield) is
/// not a value rule: it stays in the document's `validate()`, and only ledger checks it.
package struct ValueRule<Value>: Sendable {
    /// The JSON Schema (draft 2020-12) keywords that state the rule.
    package let schema: @Sendable () -> JSONObject
    /// Why `value` breaks the rule, or nil when it keeps it.
    package let problem: @Sendable (Value) -> String?

    package init(schema: @escaping @Sendable () -> JSONObject, problem: @escaping @Sendable (Value) -> String?) {
        self.schema = schema
        self.problem = problem
    }
}

extension ValueRule where Value == Double {
    /// From `range.lowerBound` to `range.upperBound`, both included.
    package static func within(_ range: ClosedRange<Double>, _ problem: @escaping @Sendable (Double) -> String) -> ValueRule {
        ValueRule(schema: { ["minimum": .number(range.lowerBound), "maximum": .number(range.upperBound)] },
                  problem: { range.contains($0) ? nil : problem($0) })
    }

    /// `low` or more.
    package static func atLeast(_ low: Double, _ problem: @escaping @Sendable (Double) -> String) -> ValueRule {
        ValueRule(schema: { ["minimum": .number(low)] }, problem: { $0 >= low ? nil : problem($0) })
    }

    /// More than `low` and at most `high`.
    package static func above(_ low: Double, atMost high: Double, _ problem: @escaping @Sendable (Double) -> String) -> ValueRule {
        ValueRule(schema: { ["exclusiveMinimum": .number(low), "maximum": .number(high)] },
                  problem: { $0 > low && $0 <= high ? nil : problem($0) })
    }
}

extension ValueRule where Value == Int {
    /// `low` or more.
    package static func atLeast(_ low: Int, _ problem: @escaping @Sendable (Int) -> String) -> ValueRule {
        ValueRule(schema: { ["minimum": .number(Double(low))] }, problem: { $0 >= low ? nil : problem($0) })
    }

    /// From `range.lowerBound` to `range.upperBound`, both included.
    package static func within(_ range: ClosedRange<Int>, _ problem: @escaping @Sendable (Int) -> String) -> ValueRule {
        ValueRule(schema: { ["minimum": .number(Double(range.lowerBound)), "maximum": .number(Double(range.upperBound))] },
                  problem: { range.contains($0) ? nil : problem($0) })
    }
}

extension ValueRule where Value == String {
    /// A document id (`DocumentID`).
    package static func documentID(_ problem: @escaping @Sendable (String) -> String) -> ValueRule {
        ValueRule(schema: { ["pattern": .string(TextPattern.documentID)] }, problem: { DocumentID.isValid($0) ? nil : problem($0) })
    }

    /// Text checked by `problem`, whose shape the schema states with `shape`: each of its
    /// patterns must match, and the text is at most `maxLength` long.
    package static func text(_ shape: TextPattern.Shape, maxLength: Int? = nil, _ problem: @escaping @Sendable (String) -> String?) -> ValueRule {
        ValueRule(schema: { TextPattern.schema(shape, maxLength: maxLength) }, problem: problem)
    }
}

/// The regular expressions of the schemas' text rules, written for both engines that read
/// them: ECMA-262 (editors) and Python's `re` (the tests' `jsonschema`).
///
/// Both search the text for the pattern. Anchored patterns end in `(?![\s\S])`, "nothing
/// follows", because Python's `$` also matches before a final line break.
package enum TextPattern {
    /// What a text rule requires, each as a pattern of its own.
    package struct Shape: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        /// Something other than white space (`String.isBlank`'s and `.whitespacesAndNewlines`' set).
        package static let notBlank = Shape(rawValue: 1)
        /// No control character (general category Cc: C0, DEL, C1), so no line break or tab.
        package static let oneLine = Shape(rawValue: 2)
        /// No white space at either end.
        package static let trimmed = Shape(rawValue: 4)
    }

    /// Unicode's White_Space characters, as a character class body: the set of
    /// `Character.isWhitespace`, `Unicode.Scalar.Properties.isWhitespace` and Foundation's
    /// `.whitespacesAndNewlines`.
    static let whiteSpace = #"\t\n\u000b\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"#

    static let end = #"(?![\s\S])"#

    /// `[a-z0-9][a-z0-9-]{0,63}`, the whole text.
    package static let documentID = "^[a-z0-9][a-z0-9-]{0,63}" + end

    static func pattern(_ shape: Shape) -> String {
        switch shape {
        case .notBlank: "[^\(whiteSpace)]"
        case .oneLine: #"^[^\u0000-\u001f\u007f-\u009f]*"# + end
        default: "^(?:[^\(whiteSpace)](?:[\\s\\S]*[^\(whiteSpace)])?)?" + end
        }
    }

    /// The keywords of `shape` and `maxLength`: one `pattern`, or an `allOf` of several.
    package static func schema(_ shape: Shape, maxLength: Int?) -> JSONObject {
        var o = JSONObject()
        let patterns = [Shape.notBlank, .oneLine, .trimmed].filter { shape.contains($0) }.map(pattern)
        if patterns.count == 1 { o["pattern"] = .string(patterns[0]) }
        if patterns.count > 1 { o["allOf"] = .array(patterns.map { .object(["pattern": .string($0)]) }) }
        if let maxLength { o["maxLength"] = .number(Double(maxLength)) }
        return o
    }

    /// A calendar date `YYYY-MM-DD` from 0001-01-01 to 9999-12-31 that exists (`LocalDate`):
    /// 30 or 31 days by month, February 29th in leap years only.
    package static let date: String = {
        let year = "(?:000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})"
        let leapYear = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)"
        let monthDay = "(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))"
        return "(?:\(year)-\(monthDay)|\(leapYear)-02-29)"
    }()

    /// A time of day `HH:MM`, 00:00 to 23:59.
    package static let clock = "(?:[01][0-9]|2[0-3]):[0-5][0-9]"

    /// `Timestamp`'s ISO-8601: a date, `T`, `HH:MM:SS`, an optional fraction, and `Z` or an
    /// offset of at most 18 hours.
    package static let timestamp = "^" + date + "T" + clock + ":[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:0[0-9]|1[0-8]):[0-5][0-9])" + end
}
