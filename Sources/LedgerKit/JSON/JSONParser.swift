/// Where and why a text is not valid JSON.
package struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the offending character.
    package let line: Int
    /// 1-based column, counted in Unicode scalars.
    package let column: Int
    /// What is wrong, as a sentence fragment ("expected ',' or '}' after an object member").
    package let message: String

    package var description: String { "line \(line), column \(column): \(message)" }

    /// The error of a text that starts with a UTF-8 byte order mark (at 1:1), or nil: the one
    /// sentence and place every command reports for it (`check` too, where it is fixable).
    package static func byteOrderMark<C: Collection<UInt8>>(_ bytes: C) -> JSONSyntaxError? {
        guard bytes.starts(with: [0xEF, 0xBB, 0xBF]) else { return nil }
        return JSONSyntaxError(line: 1, column: 1, message: "the file starts with a UTF-8 byte order mark (BOM), which JSON does not allow")
    }
}

/// A strict RFC 8259 parser working directly on UTF-8 bytes.
///
/// Written by hand rather than using Foundation's decoders because `ledger check` reads every
/// document of a ten-year ledger: this parser reports exact line:column positions, validates
/// UTF-8, refuses duplicate keys and deep nesting, and is several times faster than
/// `JSONSerialization` on small documents.
package enum JSONParser {
    /// The deepest nesting accepted. Ledger documents need five or six levels; the limit keeps
    /// hostile input (10,000 nested arrays) from exhausting the stack.
    package static let maximumDepth = 64

    /// Parses one JSON value that must fill the whole input (surrounding whitespace allowed).
    package static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONValue {
        var p = Parser(bytes: bytes.bindMemory(to: UInt8.self))
        return try p.parseDocument()
    }

    /// Parses one JSON value from a byte array.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBytes { buffer in
            do throws(JSONSyntaxError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses one JSON value from a string.
    package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// The 1-based line and column (in Unicode scalars) of byte `offset`. A byte order mark
    /// takes no column: editors hide it, and place the `{` after it at column 1.
    static func position(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1, column = 1
        var i = JSONSyntaxError.byteOrderMark(bytes) == nil ? 0 : 3
        let end = min(offset, bytes.count)
        while i < end {
            let b = bytes[i]
            if b == UInt8(ascii: "\n") { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return (line, column)
    }
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func fail(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let (line, column) = JSONParser.position(of: offset ?? i, in: bytes)
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if let bom = JSONSyntaxError.byteOrderMark(bytes) { throw bom }
        skipWhitespace()
        guard i < bytes.count else { throw fail("the file is empty; expected a JSON value") }
        let value = try parseValue()
        skipWhitespace()
        if i < bytes.count { throw unexpected("after the end of the JSON value") }
        return value
    }

    mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    /// Where a byte that cannot stand there was met: where a value, or a member name, was due.
    enum Place { case value, memberName, elsewhere }

    /// The error for the byte at `i`, which cannot stand there: "unexpected 'x'" followed by
    /// `expected` — or, for the slips a hand edit makes in the syntax of JSON's neighbours
    /// (JSON5, YAML, JavaScript, Python, a word processor), what it is and what JSON takes
    /// instead: a comment, a single or typographic quote, a word without quotes, `True`,
    /// `None`, `NaN`, `undefined`, a number written `+2` or `.5`.
    func unexpected(_ expected: String, at place: Place = .elsewhere) -> JSONSyntaxError {
        let b = bytes[i]
        let next = i + 1 < bytes.count ? bytes[i + 1] : 0
        if b == UInt8(ascii: "#") || b == UInt8(ascii: "/") && (next == UInt8(ascii: "/") || next == UInt8(ascii: "*")) {
            let mark = b == UInt8(ascii: "#") ? "#" : next == UInt8(ascii: "/") ? "//" : "/*"
            return fail("a comment ('\(mark)'): JSON allows no comments; remove it")
        }
        if b == UInt8(ascii: "'") {
            return fail("a single quote ('): JSON strings and member names take double quotes (\")")
        }
        // U+2018, U+2019, U+201C, U+201D: what "smart quotes" turn ' and " into.
        if b == 0xE2, next == 0x80, i + 2 < bytes.count, [0x98, 0x99, 0x9C, 0x9D].contains(bytes[i + 2]) {
            let quote = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<(i + 3)]), as: UTF8.self)
            return fail("a typographic quote (\(quote)): JSON strings and member names take the straight double quote (\")")
        }
        if place == .value, b == UInt8(ascii: "+") {
            return fail("a '+' sign: JSON numbers take none; remove it")
        }
        if place == .value, b == UInt8(ascii: ".") {
            return fail("a number starting with '.': JSON numbers start with a digit (0.5, not .5)")
        }
        if place != .elsewhere, let word = word() {
            if place == .memberName { return fail("\(word): a member name takes double quotes (\"\(word)\")") }
            switch word {
            case "True", "TRUE", "False", "FALSE", "Null", "NULL": return fail("\(word): JSON writes true, false and null in lower case")
            case "None", "nil": return fail("\(word): JSON writes null")
            case "NaN", "Infinity": return fail("\(word): JSON has no NaN or Infinity; write a number, or null")
            case "undefined": return fail("undefined: JSON has none; write null, or leave the member out")
            default: return fail("\(word): a string takes double quotes (\"\(word)\")")
            }
        }
        return fail("unexpected \(describe(b))" + (expected.hasPrefix(";") ? expected : " " + expected))
    }

    /// The word (ASCII letters, digits, '_' and '$', starting with no digit) at `i`, if any.
    func word() -> String? {
        func isWordByte(_ b: UInt8, first: Bool) -> Bool {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: "$"): true
            case UInt8(ascii: "0")...UInt8(ascii: "9"): !first
            default: false
            }
        }
        var end = i
        while end < bytes.count, end - i < 64, isWordByte(bytes[end], first: end == i) { end += 1 }
        return end == i ? nil : String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)
    }

    func describe(_ b: UInt8) -> String {
        switch b {
        case 0x20...0x7E: "'\(Character(Unicode.Scalar(b)))'"
        case 0x80...: "byte 0x\(String(b, radix: 16, uppercase: true)) (not ASCII; only strings may hold other characters)"
        default: "control character 0x\(String(b, radix: 16, uppercase: true))"
        }
    }

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard i < bytes.count else { throw fail("unexpected end of file; expected a value") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw unexpected("; expected a value", at: .value)
        }
    }

    mutating func expectLiteral(_ word: String) throws(JSONSyntaxError) {
        let start = i
        for b in word.utf8 {
            guard i < bytes.count, bytes[i] == b else { throw fail("invalid literal; expected '\(word)'", at: start) }
            i += 1
        }
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw fail("nesting is deeper than \(JSONParser.maximumDepth) levels")
        }
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        let start = i
        try enter()
        i += 1
        var members: [JSONObject.Member] = []
        var names: Set<String>? = nil  // only for large objects; small ones are scanned
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1; depth -= 1
            return .object(JSONObject())
        }
        while true {
            skipWhitespace()
            guard i < bytes.count else { throw fail("unexpected end of file inside an object") }
            guard bytes[i] == UInt8(ascii: "\"") else {
                throw unexpected("; expected a member name in double quotes", at: .memberName)
            }
            let keyStart = i
            let key = try parseString()
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                throw fail(i < bytes.count ? "expected ':' after member name \"\(key)\"" : "unexpected end of file inside an object")
            }
            i += 1
            skipWhitespace()
            let value = try parseValue()
            let duplicate: Bool
            if members.count < 32 {
                duplicate = members.contains { $0.key == key }
            } else {
                if names == nil { names = Set(members.map(\.key)) }
                duplicate = !names!.insert(key).inserted
            }
            if duplicate { throw fail("duplicate member name \"\(key)\"", at: keyStart) }
            members.append(.init(key: key, value: value))
            skipWhitespace()
            guard i < bytes.count else { throw fail("unexpected end of file inside an object that starts at \(pos(start))") }
            if bytes[i] == UInt8(ascii: ",") { try comma(before: UInt8(ascii: "}")); continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; break }
            throw unexpected("; expected ',' or '}' after an object member")
        }
        depth -= 1
        // Canonical files are already sorted: check before sorting.
        var sorted = true
        for j in members.indices.dropFirst() where !Bytes.precedes(members[j - 1].key, members[j].key) {
            sorted = false
            break
        }
        if !sorted { members.sort { Bytes.precedes($0.key, $1.key) } }
        return .object(JSONObject(sortedMembers: members))
    }

    /// Takes the comma at `i`; refuses it, where it stands, when `close` follows it: a
    /// trailing comma, which JavaScript and editors allow and JSON does not.
    mutating func comma(before close: UInt8) throws(JSONSyntaxError) {
        let at = i
        i += 1
        skipWhitespace()
        if i < bytes.count, bytes[i] == close {
            throw fail("a comma before '\(Character(Unicode.Scalar(close)))': JSON allows no trailing comma; remove it", at: at)
        }
    }

    func pos(_ offset: Int) -> String {
        let (l, c) = JSONParser.position(of: offset, in: bytes)
        return "line \(l), column \(c)"
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        let start = i
        try enter()
        i += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1; depth -= 1
            return .array([])
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard i < bytes.count else { throw fail("unexpected end of file inside an array that starts at \(pos(start))") }
            if bytes[i] == UInt8(ascii: ",") { try comma(before: UInt8(ascii: "]")); continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; break }
            throw unexpected("; expected ',' or ']' after an array element")
        }
        depth -= 1
        return .array(elements)
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = i
        i += 1
        let contentStart = i
        var ascii = true
        // Fast path: no escapes.
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<i])
                i += 1
                if ascii { return String(decoding: slice, as: UTF8.self) }
                guard let s = String(validating: slice, as: UTF8.self) else {
                    throw fail("the string holds bytes that are not valid UTF-8", at: firstInvalidUTF8(in: contentStart..<(i - 1)))
                }
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw fail("control character U+\(hex4(b)) inside a string; write it as an escape such as \\n") }
            if b >= 0x80 { ascii = false }
            i += 1
        }
        guard i < bytes.count else { throw fail("unterminated string (it starts at \(pos(start)))", at: start) }
        // Slow path: copy with escapes decoded.
        var buffer = [UInt8](UnsafeBufferPointer(rebasing: bytes[contentStart..<i]))
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                guard let s = String(validating: buffer, as: UTF8.self) else {
                    throw fail("the string holds bytes that are not valid UTF-8", at: start)
                }
                return s
            }
            if b < 0x20 { throw fail("control character U+\(hex4(b)) inside a string; write it as an escape such as \\n") }
            if b != UInt8(ascii: "\\") { buffer.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { break }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): buffer.append(0x22)
            case UInt8(ascii: "\\"): buffer.append(0x5C)
            case UInt8(ascii: "/"): buffer.append(0x2F)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexQuad()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired UTF-16 surrogate \\u\(String(scalar, radix: 16)) in a string")
                    }
                    i += 2
                    let low = try hexQuad()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw fail("unpaired UTF-16 surrogate \\u\(String(scalar, radix: 16)) in a string")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail("unpaired UTF-16 surrogate \\u\(String(scalar, radix: 16)) in a string")
                }
                buffer.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default:
                throw fail("invalid escape '\\\(Character(Unicode.Scalar(e)))' in a string", at: i - 2)
            }
        }
        throw fail("unterminated string (it starts at \(pos(start)))", at: start)
    }

    func hex4(_ b: UInt8) -> String {
        let s = String(b, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - s.count) + s
    }

    func firstInvalidUTF8(in range: Range<Int>) -> Int {
        var j = range.lowerBound
        while j < range.upperBound {
            let b = bytes[j]
            let length: Int
            switch b {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return j
            }
            if j + length > range.upperBound { return j }
            let s = String(validating: UnsafeBufferPointer(rebasing: bytes[j..<(j + length)]), as: UTF8.self)
            if s == nil { return j }
            j += length
        }
        return range.lowerBound
    }

    mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("incomplete \\u escape in a string") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: throw fail("invalid hex digit in a \\u escape")
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = i
        var negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        guard i < bytes.count, isDigit(bytes[i]) else { throw fail("invalid number: expected a digit", at: i) }
        var mantissa: UInt64 = 0
        var digits = 0
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count, isDigit(bytes[i]) { throw fail("invalid number: leading zeros are not allowed", at: start) }
        } else {
            while i < bytes.count, isDigit(bytes[i]) {
                if digits < 18 { mantissa = mantissa * 10 + UInt64(bytes[i] - UInt8(ascii: "0")) }
                digits += 1
                i += 1
            }
        }
        var simple = digits <= 15, integer = true
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            simple = false
            integer = false
            i += 1
            guard i < bytes.count, isDigit(bytes[i]) else { throw fail("invalid number: expected a digit after '.'") }
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            simple = false
            integer = false
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count, isDigit(bytes[i]) else { throw fail("invalid number: expected a digit in the exponent") }
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        }
        if simple {
            let v = Double(mantissa)
            return negative ? -v : v
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let v = Double(text), v.isFinite else { throw fail("number \(text) is out of range", at: start) }
        // An integer a double cannot hold exactly (beyond 2^53) would be written back as
        // another number by any rewrite; JSON readers that keep integers exact (Python, jq)
        // would then see the value changed. Such a number is refused, not altered.
        if integer, digits > 15, digits > 19 || String(UInt64(abs(v))) != text.drop(while: { $0 == "-" }) {
            throw fail("number \(text) is too large to be kept exactly (ledger holds numbers as 64-bit floating point, exact up to 9007199254740992), and no field of ledger's takes a number this large; in a field of your own, write it as a string: \"\(text)\"", at: start)
        }
        return v
    }

    @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
