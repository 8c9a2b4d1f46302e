/// Reading one member of a document from its bytes without parsing it: the shortcuts that
/// let a reader skip most files of a long history.
///
/// Canonical JSON puts each top-level member on its own line after two spaces, and no JSON
/// string holds a raw newline, so the bytes `\n  "key": ` can only start that member. A file
/// in another form (a hand edit) gives nil, and the caller parses it.
enum MemberPeek {
    /// The string value of the top-level member `key` as canonical JSON writes it, or nil
    /// when the member is absent, not a string, holds an escape, or the file is in another form.
    static func topLevelString(_ key: String, in bytes: [UInt8]) -> String? {
        let prefix = Array("\n  \"\(key)\": \"".utf8)
        guard let start = Bytes.firstIndex(of: prefix, in: bytes) else { return nil }
        let from = start + prefix.count
        guard let end = bytes[from...].firstIndex(where: { $0 == 0x22 || $0 == 0x5C || $0 == 0x0A }), bytes[end] == 0x22 else {
            return nil
        }
        return String(decoding: bytes[from..<end], as: UTF8.self)
    }

    /// Whether `"key"` followed by optional whitespace, `:`, optional whitespace and the
    /// literal `value` (`true`, `null`, …) occurs anywhere, whatever the layout: false means
    /// no member `key` of the document has that value.
    static func mayHave(_ key: String, _ value: String, in bytes: [UInt8]) -> Bool {
        let k = Array("\"\(key)\"".utf8), v = Array(value.utf8)
        var from = 0
        while let i = Bytes.firstIndex(of: k, in: bytes, from: from) {
            var j = i + k.count
            func skipSpace() { while j < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[j]) { j += 1 } }
            skipSpace()
            if j < bytes.count, bytes[j] == UInt8(ascii: ":") {
                j += 1
                skipSpace()
                if j + v.count <= bytes.count, bytes[j..<(j + v.count)].elementsEqual(v) { return true }
            }
            from = i + 1
        }
        return false
    }
}
