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
///         static let fields: [Field<Self>] = [.required("name", \.name), .optional("sizeOz", \.sizeOz)]
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
        var ok = true
        var present = 0
        for field in fields {
            let value = object[field.name]
            if value != nil { present += 1 }
            if !field.decode(&model, value, pointer, &issues) { ok = false }
        }
        if present < object.count {
            let known = Set(fields.map(\.name))
            for member in object where !known.contains(member.key) {
                model.unknownFields[member.key] = member.value
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
}

/// One member of a `JSONModel`: its name, how to read it into the model and how to write it.
package struct Field<Model: JSONModel>: Sendable {
    /// The member name in the JSON object.
    package let name: String
    /// Reads the member (nil when absent) into the model; false when it is unusable.
    let decode: @Sendable (inout Model, JSONValue?, JSONPointer, inout [DocumentIssue]) -> Bool
    /// The member's JSON, or nil to leave it out.
    let encode: @Sendable (Model) -> JSONValue?

    /// A member that must be present and of type `V`.
    package static func required<V: JSONRepresentable>(_ name: String, _ keyPath: WritableKeyPath<Model, V> & Sendable) -> Field {
        Field(name: name, decode: { model, json, parent, issues in
            let pointer = parent.appending(name)
            guard let json else {
                issues.append(.error(pointer, "required field \"\(name)\" is missing (it must be \(V.expectation))"))
                return false
            }
            guard let v = V.decode(json, at: pointer, issues: &issues) else { return false }
            model[keyPath: keyPath] = v
            return true
        }, encode: { $0[keyPath: keyPath].json })
    }

    /// A member that may be absent or `null`. When the value is nil it is written as `null`
    /// if `writeNull` is set (for fields whose absence is meaningful to readers, such as a
    /// session's `endTime`), and left out otherwise.
    package static func optional<V: JSONRepresentable>(_ name: String, _ keyPath: WritableKeyPath<Model, V?> & Sendable,
                                                      writeNull: Bool = false) -> Field {
        Field(name: name, decode: { model, json, parent, issues in
            guard let json, json != .null else {
                model[keyPath: keyPath] = nil
                return true
            }
            guard let v = V.decode(json, at: parent.appending(name), issues: &issues) else { return false }
            model[keyPath: keyPath] = v
            return true
        }, encode: { model in
            if let v = model[keyPath: keyPath] { return v.json }
            return writeNull ? .null : nil
        })
    }

    /// A member that takes `defaultValue` when absent (and is always written).
    package static func defaulted<V: JSONRepresentable>(_ name: String, _ keyPath: WritableKeyPath<Model, V> & Sendable,
                                                       _ defaultValue: V) -> Field {
        Field(name: name, decode: { model, json, parent, issues in
            guard let json else {
                model[keyPath: keyPath] = defaultValue
                return true
            }
            guard let v = V.decode(json, at: parent.appending(name), issues: &issues) else { return false }
            model[keyPath: keyPath] = v
            return true
        }, encode: { $0[keyPath: keyPath].json })
    }
}
