/// Where a JSON pointer's value is in a document's text: its line and column, for problems
/// reported by pointer (editors, `check --format gnu`).
///
/// It reads the bytes of a document that parsed, walking only along the pointer and skipping
/// every other value without building it, so asking costs a scan of the text before the value.
package enum JSONLocator {
    /// The 1-based line and column (in Unicode scalars, as syntax errors are placed) of the
    /// value `pointer` names in `bytes` — or, when it names nothing (a missing member), of
    /// the closest value around it that is there: the object that should hold the member.
    package static func position(of pointer: JSONPointer, in bytes: [UInt8]) -> (line: Int, column: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer)
            scanner.skipByteOrderMark()
            scanner.skipSpace()
            var found = scanner.offset
            for token in pointer.tokens {
                guard let child = scanner.child(token) else { break }
                found = child
            }
            return JSONParser.position(of: found, in: buffer)
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipByteOrderMark() {
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3 }
        }

        mutating func skipSpace() {
            while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { offset += 1 }
        }

        /// Moves to the value of member or element `token` of the container here and returns
        /// its offset; nil (and the scanner anywhere) when there is none.
        mutating func child(_ token: String) -> Int? {
            switch current {
            case UInt8(ascii: "{")?:
                offset += 1
                while true {
                    skipSpace()
                    guard current == UInt8(ascii: "\"") else { return nil }
                    let key = readString()
                    skipSpace()
                    guard current == UInt8(ascii: ":") else { return nil }
                    offset += 1
                    skipSpace()
                    if key == token { return offset }
                    guard skipValue() else { return nil }
                    skipSpace()
                    guard current == UInt8(ascii: ",") else { return nil }
                    offset += 1
                }
            case UInt8(ascii: "[")?:
                guard let index = Int(token), index >= 0 else { return nil }
                offset += 1
                for _ in 0..<index {
                    skipSpace()
                    guard skipValue() else { return nil }
                    skipSpace()
                    guard current == UInt8(ascii: ",") else { return nil }
                    offset += 1
                }
                skipSpace()
                return current == nil || current == UInt8(ascii: "]") ? nil : offset
            default:
                return nil
            }
        }

        /// Skips the value here; false at the end of the text or of a container.
        mutating func skipValue() -> Bool {
            guard let b = current, b != UInt8(ascii: "]"), b != UInt8(ascii: "}") else { return false }
            if b == UInt8(ascii: "\"") {
                _ = readString()
                return true
            }
            if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                var depth = 0
                while let c = current {
                    if c == UInt8(ascii: "\"") { skipString(); continue }
                    if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { depth += 1 }
                    if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") { depth -= 1 }
                    offset += 1
                    if depth == 0 { return true }
                }
                return false
            }
            while let c = current, c != UInt8(ascii: ","), c != UInt8(ascii: "}"), c != UInt8(ascii: "]"),
                  c != 0x20, c != 0x0A, c != 0x0D, c != 0x09 { offset += 1 }
            return true
        }

        mutating func skipString() {
            offset += 1
            while let c = current {
                offset += 1
                if c == UInt8(ascii: "\\") { offset += 1 } else if c == UInt8(ascii: "\"") { return }
            }
        }

        /// The string here, escapes decoded; the scanner after its closing quote.
        mutating func readString() -> String {
            let start = offset
            skipString()
            let end = max(start + 1, offset - 1)
            let raw = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])
            guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
            // A key with escapes: the parser's reading of the same text.
            let quoted = Array(bytes[start..<offset])
            return (try? JSONParser.parse(quoted))?.stringValue ?? String(decoding: raw, as: UTF8.self)
        }
    }
}
