/// A JSON object type described once, by its list of fields.
///
/// The field list is the single description of the object's schema: it drives decoding
/// (reporting every missing, mistyped or unknown member with its JSON pointer), encoding,
/// and the did-you-mean of unknown fields. Members the list does not know are kept in
/// `unknownFields` and written back unchanged, so a hand-added note or a field written by a
/// newer version of ledger survives every rewrite.
///
///     struct DrinkPreset: JSONModel {
///         var name = ""
///         var sizeOz: Double?
///         var unknownFields = JSONObject()
///         static let fields: [Field<Self>] = [
///             .required("name", { $0.name }, { $0.name = $1 }),
///             .optional("sizeOz", { $0.sizeOz }, { $0.sizeOz = $1 }),
///         ]
///     }
package protocol JSONModel: JSONRepresentable {
    /// A placeholder every field overwrites while decoding.
    init()
    /// The members this type knows, in any order (they are written sorted).
    static var fields: [Field<Self>] { get }
    /// Members not in `fields`, kept as they were.
    var unknownFields: JSONObject { get set }
}

extension JSONModel {
    package static var expectation: String { "an object" }

    package static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> Self? {
        guard case .object(let object) = json else {
            issues.append(mismatch(json, at: pointer))
            return nil
        }
        var model = Self()
        var read: [Field<Self>] = []
        var present = 0
        for field in fields {
            let value = object[field.name]
            if value != nil { present += 1 }
            if field.decode(&model, value, pointer, &issues) { read.append(field) }
        }
        let ok = read.count == fields.count
        if !ok {
            // The model is not returned, so its rules are not judged as a whole; each field read
            // still keeps its own value rules, reported now: every invalid field at once (SPEC
            // §4), one problem per field — those that could not be read have theirs already.
            for field in read { if let check = field.check { issues += check(model, pointer) } }
        }
        if present < object.count {
            let known = Set(fields.map(\.name))
            for member in object where !known.contains(member.key) {
                model.unknownFields[member.key] = member.value
                if pointer.isRoot, member.key == schemaMember {
                    // Where an editor finds the document's JSON Schema: kept, never warned about.
                    if member.value.stringValue == nil {
                        issues.append(.warning(pointer.appending(member.key), "must be a string, the address of this document's JSON Schema (found \(member.value.typeDescription)); it is kept as it is"))
                    }
                    continue
                }
                issues.append(.warning(pointer.appending(member.key),
                                       "unknown field \"\(member.key)\"\(Suggestion.didYouMean(member.key, among: known)); it is kept as it is"))
            }
        }
        return ok ? model : nil
    }

    package var json: JSONValue {
        var object = unknownFields
        for field in Self.fields {
            if let v = field.encode(self) { object[field.name] = v }
        }
        return .object(object)
    }

    /// Decodes a whole document, returning the model (when its types are right) and every issue.
    package static func decodeDocument(_ json: JSONValue) -> (Self?, [DocumentIssue]) {
        var issues: [DocumentIssue] = []
        let model = decode(json, at: .root, issues: &issues)
        return (model, issues)
    }

    package static var mayBreakRules: Bool { true }

    /// What breaks the value rules of the fields (and of the values inside them).
    package static func ruleIssues(_ value: Self, at pointer: JSONPointer) -> [DocumentIssue] {
        var issues: [DocumentIssue] = []
        for field in fields { if let check = field.check { issues += check(value, pointer) } }
        return issues
    }

    /// The model's JSON Schema: its fields, those without a default required, and no other
    /// member (ledger warns about unknown fields and keeps them). An object read as a whole
    /// document may also say where its schema is (`"$schema"`).
    package static var jsonSchema: JSONObject {
        var properties = JSONObject()
        for field in fields { properties[field.name] = .object(field.schema()) }
        let required = fields.filter(\.isRequired).map { JSONValue.string($0.name) }
        var o: JSONObject = ["type": "object", "properties": .object(properties), "additionalProperties": false]
        if !required.isEmpty { o["required"] = .array(required) }
        return o
    }
}

/// The member naming a document's JSON Schema, accepted at the top of every document.
package let schemaMember = "$schema"

/// One member of a `JSONModel`: its name, how to read it into the model and how to write it,
/// the rules its value keeps and its JSON Schema.
package struct Field<Model>: Sendable {
    /// The member name in the JSON object.
    package let name: String
    /// Reads the member (nil when absent) into the model; false when it is unusable.
    let decode: @Sendable (inout Model, JSONValue?, JSONPointer, inout [DocumentIssue]) -> Bool
    /// The member's JSON, or nil to leave it out.
    let encode: @Sendable (Model) -> JSONValue?
    /// What breaks the value's rules, given the model and the pointer to the model; nil when
    /// nothing can (no rule, and no value inside with one).
    let check: (@Sendable (Model, JSONPointer) -> [DocumentIssue])?
    /// The member's JSON Schema.
    let schema: @Sendable () -> JSONObject
    /// Whether the member must be present.
    let isRequired: Bool

    /// A member that must be present and of type `V`, keeping `rules`; `get` and `set` reach
    /// it in the model. (Closures, not a key path: a key path literal is an object the runtime
    /// builds the first time it is used, 32,000 instructions each — a fifth of a `waterline
    /// drink` for the 51 fields it reads — and each use of one goes through it.)
    package static func required<V: JSONRepresentable>(_ name: String, _ get: @escaping @Sendable (Model) -> V,
                                                      _ set: @escaping @Sendable (inout Model, V) -> Void,
                                                      _ rules: ValueRule<V>...) -> Field {
        Field(name: name, decode: { model, json, parent, issues in
            let pointer = parent.appending(name)
            guard let json else {
                issues.append(.error(pointer, "required field \"\(name)\" is missing (it must be \(V.expectation))"))
                return false
            }
            guard let v = V.decode(json, at: pointer, issues: &issues) else { return false }
            set(&model, v)
            return true
        }, encode: { get($0).json },
        check: checker(name, rules) { get($0) },
        schema: { schema(V.self, rules) }, isRequired: true)
    }

    /// A member that may be absent or `null`. When the value is nil it is written as `null`
    /// if `writeNull` is set (for fields whose absence is meaningful to readers, such as a
    /// session's `endTime`), and left out otherwise.
    package static func optional<V: JSONRepresentable>(_ name: String, _ get: @escaping @Sendable (Model) -> V?,
                                                      _ set: @escaping @Sendable (inout Model, V?) -> Void,
                                                      writeNull: Bool = false, _ rules: ValueRule<V>...) -> Field {
        Field(name: name, decode: { model, json, parent, issues in
            guard let json, json != .null else {
                set(&model, nil)
                return true
            }
            guard let v = V.decode(json, at: parent.appending(name), issues: &issues) else { return false }
            set(&model, v)
            return true
        }, encode: { model in
            if let v = get(model) { return v.json }
            return writeNull ? .null : nil
        },
        check: checker(name, rules) { get($0) },
        schema: { nullable(schema(V.self, rules)) }, isRequired: false)
    }

    /// A member that takes `defaultValue` when absent (and is always written).
    package static func defaulted<V: JSONRepresentable>(_ name: String, _ get: @escaping @Sendable (Model) -> V,
                                                       _ set: @escaping @Sendable (inout Model, V) -> Void,
                                                       _ defaultValue: V, _ rules: ValueRule<V>...) -> Field {
        Field(name: name, decode: { model, json, parent, issues in
            guard let json else {
                set(&model, defaultValue)
                return true
            }
            guard let v = V.decode(json, at: parent.appending(name), issues: &issues) else { return false }
            set(&model, v)
            return true
        }, encode: { get($0).json },
        check: checker(name, rules) { get($0) },
        schema: {
            var s = schema(V.self, rules)
            s["default"] = defaultValue.json
            return s
        }, isRequired: false)
    }

    /// The check of a member's rules and of the values inside it, nil when there is nothing to check.
    private static func checker<V: JSONRepresentable>(_ name: String, _ rules: [ValueRule<V>],
                                                      _ value: @escaping @Sendable (Model) -> V?) -> (@Sendable (Model, JSONPointer) -> [DocumentIssue])? {
        guard !rules.isEmpty || V.mayBreakRules else { return nil }
        return { model, parent in
            guard let v = value(model) else { return [] }
            // The pointer only for a problem, or for the values inside: checked once per field
            // of every entry of a night, on each read and write.
            var issues: [DocumentIssue] = []
            for rule in rules { if let p = rule.problem(v) { issues.append(.error(parent.appending(name), p)) } }
            if V.mayBreakRules { issues += V.ruleIssues(v, at: parent.appending(name)) }
            return issues
        }
    }

    /// `V`'s schema with the keywords of `rules`: a bound given twice is the tighter one, and
    /// other keywords that would collide are kept apart in an `allOf`.
    private static func schema<V: JSONRepresentable>(_: V.Type, _ rules: [ValueRule<V>]) -> JSONObject {
        var s = V.jsonSchema
        var apart: [JSONValue] = []
        for rule in rules {
            var keywords = rule.schema()
            for bound in ["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "maxLength"] {
                guard case .number(let old)? = s[bound], case .number(let new)? = keywords[bound] else { continue }
                s[bound] = .number(bound.hasSuffix("inimum") ? max(old, new) : min(old, new))
                keywords[bound] = nil
            }
            if keywords.keys.contains(where: { s[$0] != nil }) {
                apart.append(.object(keywords))
            } else {
                for member in keywords { s[member.key] = member.value }
            }
        }
        if !apart.isEmpty { s["allOf"] = .array((s["allOf"]?.arrayValue ?? []) + apart) }
        return s
    }

    /// `schema`, or null.
    private static func nullable(_ schema: JSONObject) -> JSONObject {
        var s = schema
        if case .string(let type)? = s["type"] {
            s["type"] = .array([.string(type), "null"])
        } else if case .array(let values)? = s["enum"] {
            s["enum"] = .array(values + [.null])
        } else {
            return ["anyOf": .array([.object(schema), .object(["type": "null"])])]
        }
        return s
    }
}
