/// A parsed JSON value.
///
/// Numbers are `Double`s (JSON has one number type); objects keep their members sorted by
/// key, so two values are equal exactly when they are the same JSON, whatever the key order
/// or formatting of the text they came from.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the value's JSON type, for messages ("a string", "an object").
    package var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .number(let n): n == n.rounded() ? "an integer" : "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The members, when this is an object.
    package var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The string, when this is a string.
    package var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The elements, when this is an array.
    package var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The value of `key` when this is an object holding it.
    package subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

/// The members of a JSON object, kept sorted by the UTF-8 bytes of their keys.
///
/// Sorted storage makes equality independent of the order keys had in a file and gives the
/// canonical key order for free. Objects in ledger documents are small (tens of keys), so a
/// sorted array beats a hash table on both lookups and memory.
package struct JSONObject: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One key and its value.
    package struct Member: Sendable, Equatable {
        package var key: String
        package var value: JSONValue
    }

    /// The members in canonical (sorted) order.
    package private(set) var members: [Member]

    /// An empty object.
    package init() { members = [] }

    /// An object from members that are already sorted and free of duplicate keys.
    init(sortedMembers: [Member]) { members = sortedMembers }

    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = []
        for (k, v) in elements { self[k] = v }
    }

    /// The number of members.
    package var count: Int { members.count }
    /// Whether the object has no members.
    package var isEmpty: Bool { members.isEmpty }
    /// The keys in canonical order.
    package var keys: [String] { members.map(\.key) }

    package func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    /// The value for `key`; setting `nil` removes the member.
    package subscript(key: String) -> JSONValue? {
        get {
            switch search(key) {
            case .found(let i): members[i].value
            case .insertAt: nil
            }
        }
        set {
            switch (search(key), newValue) {
            case (.found(let i), let v?): members[i].value = v
            case (.found(let i), nil): members.remove(at: i)
            case (.insertAt(let i), let v?): members.insert(Member(key: key, value: v), at: i)
            case (.insertAt, nil): break
            }
        }
    }

    private enum SearchResult { case found(Int), insertAt(Int) }

    private func search(_ key: String) -> SearchResult {
        // Small objects: a linear scan is faster than a binary search over string comparisons.
        if members.count <= 16 {
            for (i, m) in members.enumerated() {
                if m.key == key { return .found(i) }
                if Bytes.precedes(key, m.key) { return .insertAt(i) }
            }
            return .insertAt(members.count)
        }
        var lo = 0, hi = members.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let k = members[mid].key
            if k == key { return .found(mid) }
            if Bytes.precedes(k, key) { lo = mid + 1 } else { hi = mid }
        }
        return .insertAt(lo)
    }
}

/// A location inside a JSON document (RFC 6901), such as `/entries/3/timestamp`.
///
/// Built as a chain so that taking a child pointer while reading a document is cheap; the
/// text form is only produced for messages.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The reference tokens, outermost first.
    public private(set) var tokens: [String]

    /// The whole document.
    public static let root = JSONPointer(tokens: [])

    public init(tokens: [String]) { self.tokens = tokens }

    /// Parses the text form (`/a/0/b`); `""` is the root.
    public init(stringLiteral value: String) {
        tokens = value.isEmpty ? [] : value.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { token in
                let s = String(decoding: token, as: UTF8.self)
                guard token.contains(UInt8(ascii: "~")) else { return s }
                return s.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            }
    }

    /// The pointer to member `key` of the object here.
    public func appending(_ key: String) -> JSONPointer {
        var p = self
        p.tokens.append(key)
        return p
    }
    /// The pointer to element `index` of the array here.
    public func appending(_ index: Int) -> JSONPointer { appending(String(index)) }

    /// Whether this is the whole document.
    public var isRoot: Bool { tokens.isEmpty }

    /// RFC 6901 text: `""` for the root, `/a/0/b` otherwise.
    public var description: String {
        tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
            .joined()
    }
}

/// Literals, for JSON written in code (schemas).
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        var o = JSONObject()
        for (k, v) in elements { o[k] = v }
        self = .object(o)
    }
    package init(stringLiteral value: String) { self = .string(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(integerLiteral value: Int) { self = .number(Double(value)) }
}
