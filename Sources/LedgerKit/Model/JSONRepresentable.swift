/// A value that reads itself from JSON, reporting what does not fit, and writes itself back.
package protocol JSONRepresentable: Sendable {
    /// What the JSON must look like, for messages: "a string", "an integer", "one of beer, wine".
    static var expectation: String { get }
    /// The value held by `json`, or nil after appending to `issues` what is wrong with it.
    static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> Self?
    /// The JSON form of the value.
    var json: JSONValue { get }
    /// The value's JSON Schema (draft 2020-12): what `decode` accepts.
    static var jsonSchema: JSONObject { get }
    /// Whether values of this type may break value rules (`ValueRule`) of their own or of the
    /// values inside them; when false, `ruleIssues` is never asked.
    static var mayBreakRules: Bool { get }
    /// What breaks the value rules of the values inside `value` (a model's fields, an array's
    /// elements), at `pointer`.
    static func ruleIssues(_ value: Self, at pointer: JSONPointer) -> [DocumentIssue]
}

extension JSONRepresentable {
    package static var mayBreakRules: Bool { false }
    package static func ruleIssues(_ value: Self, at pointer: JSONPointer) -> [DocumentIssue] { [] }

    /// The standard "must be X (found Y)" error.
    static func mismatch(_ json: JSONValue, at pointer: JSONPointer) -> DocumentIssue {
        .error(pointer, "must be \(expectation) (found \(json.typeDescription))")
    }
}

extension String: JSONRepresentable {
    package static var expectation: String { "a string" }
    package static var jsonSchema: JSONObject { ["type": "string"] }
    package static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> String? {
        if case .string(let s) = json { return s }
        issues.append(mismatch(json, at: pointer))
        return nil
    }
    package var json: JSONValue { .string(self) }
}

extension Int: JSONRepresentable {
    package static var expectation: String { "an integer" }
    package static var jsonSchema: JSONObject {
        ["type": "integer", "minimum": .number(-Double(largestStored)), "maximum": .number(Double(largestStored))]
    }
    package static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> Int? {
        if case .number(let n) = json, n == n.rounded(), abs(n) < 9e15 { return Int(n) }
        if case .number(let n) = json, n == n.rounded(), n.isFinite {
            issues.append(.error(pointer, "is out of range: a whole number in a document is from -\(Int.largestStored) to \(Int.largestStored) (found \(String(format: "%.0f", n)))"))
        } else if case .number(let n) = json {
            issues.append(.error(pointer, "must be a whole number (found \(CanonicalJSON.formatNumber(n)))"))
        } else {
            issues.append(mismatch(json, at: pointer))
        }
        return nil
    }
    package var json: JSONValue { .number(Double(self)) }

    /// The largest whole number a document holds (larger ones are no longer exact as JSON
    /// numbers, which are doubles).
    package static let largestStored = 8_999_999_999_999_999
}

extension Double: JSONRepresentable {
    package static var expectation: String { "a number" }
    package static var jsonSchema: JSONObject { ["type": "number"] }
    package static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> Double? {
        if case .number(let n) = json { return n }
        issues.append(mismatch(json, at: pointer))
        return nil
    }
    package var json: JSONValue { .number(self) }
}

extension Bool: JSONRepresentable {
    package static var expectation: String { "true or false" }
    package static var jsonSchema: JSONObject { ["type": "boolean"] }
    package static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> Bool? {
        if case .bool(let b) = json { return b }
        issues.append(mismatch(json, at: pointer))
        return nil
    }
    package var json: JSONValue { .bool(self) }
}

extension JSONValue: JSONRepresentable {
    package static var expectation: String { "any JSON value" }
    package static var jsonSchema: JSONObject { [:] }
    package static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> JSONValue? { json }
    package var json: JSONValue { self }
}

extension JSONObject: JSONRepresentable {
    package static var expectation: String { "an object" }
    package static var jsonSchema: JSONObject { ["type": "object"] }
    package static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> JSONObject? {
        if case .object(let o) = json { return o }
        issues.append(mismatch(json, at: pointer))
        return nil
    }
    package var json: JSONValue { .object(self) }
}

extension Array: JSONRepresentable where Element: JSONRepresentable {
    package static var expectation: String { "an array" }
    package static var jsonSchema: JSONObject { ["type": "array", "items": .object(Element.jsonSchema)] }
    package static var mayBreakRules: Bool { Element.mayBreakRules }
    package static func ruleIssues(_ value: [Element], at pointer: JSONPointer) -> [DocumentIssue] {
        var issues: [DocumentIssue] = []
        for (i, e) in value.enumerated() { issues += Element.ruleIssues(e, at: pointer.appending(i)) }
        return issues
    }
    package static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> [Element]? {
        guard case .array(let elements) = json else {
            issues.append(mismatch(json, at: pointer))
            return nil
        }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        var ok = true
        for (i, e) in elements.enumerated() {
            if let v = Element.decode(e, at: pointer.appending(i), issues: &issues) { result.append(v) } else { ok = false }
        }
        return ok ? result : nil
    }
    package var json: JSONValue { .array(map(\.json)) }
}

extension Timestamp: JSONRepresentable {
    package static var expectation: String { "an ISO-8601 timestamp with its UTC offset, like 2026-11-21T23:41:07+01:00" }
    package static var jsonSchema: JSONObject {
        ["type": "string", "pattern": .string(TextPattern.timestamp), "description": .string(expectation)]
    }
    package static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> Timestamp? {
        if case .string(let s) = json {
            if let t = Timestamp(iso8601: s) { return t }
            issues.append(.error(pointer, "must be \(expectation) (found \"\(s)\")"))
            return nil
        }
        issues.append(mismatch(json, at: pointer))
        return nil
    }
    package var json: JSONValue { .string(iso8601) }
}

extension LocalDate: JSONRepresentable {
    package static var expectation: String { "a date like 2026-11-21" }
    package static var jsonSchema: JSONObject {
        ["type": "string", "pattern": .string("^" + TextPattern.date + TextPattern.end), "description": .string(expectation)]
    }
    package static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> LocalDate? {
        if case .string(let s) = json {
            if let d = LocalDate(s) { return d }
            issues.append(.error(pointer, "must be \(expectation) (found \"\(s)\")"))
            return nil
        }
        issues.append(mismatch(json, at: pointer))
        return nil
    }
    package var json: JSONValue { .string(description) }
}

/// A closed set of strings, such as a drink type; decoding names the allowed values and the
/// closest one to a misspelling.
package protocol JSONEnum: JSONRepresentable, RawRepresentable<String>, CaseIterable {}

extension JSONEnum {
    package static var expectation: String { "one of " + allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") }
    package static var jsonSchema: JSONObject { ["enum": .array(allCases.map { .string($0.rawValue) })] }
    package static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> Self? {
        guard case .string(let s) = json else {
            issues.append(mismatch(json, at: pointer))
            return nil
        }
        if let v = Self(rawValue: s) { return v }
        issues.append(.error(pointer, "must be \(expectation) (found \"\(s)\")"
            + Suggestion.didYouMean(s, among: allCases.map(\.rawValue))))
        return nil
    }
    package var json: JSONValue { .string(rawValue) }
}
