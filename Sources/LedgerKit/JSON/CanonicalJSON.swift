/// The one text form every document is written in.
///
/// UTF-8; object keys sorted by their UTF-8 bytes; two-space indentation; one array element
/// and one object member per line; `[]` and `{}` for empty containers; a trailing newline.
/// Integral numbers are written without a fraction (`2`, not `2.0`), others in the shortest
/// form that reads back to the same `Double`. It equals Python's
/// `json.dumps(v, indent=2, sort_keys=True, ensure_ascii=False)` except for that number rule,
/// and keeps git diffs to the lines that changed. JSON has no NaN or infinity, so a non-finite
/// number is written as `null`: the output is always valid JSON.
package enum CanonicalJSON {
    /// The canonical bytes of `value`, ending with a newline.
    package static func encode(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        write(value, indent: 0, into: &out)
        out.append(0x0A)
        return out
    }

    /// The canonical text of `value`, ending with a newline.
    package static func string(_ value: JSONValue) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }

    /// A compact one-line form (for `--json` output of lists and for messages).
    package static func compact(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        writeCompact(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func write(_ value: JSONValue, indent: Int, into out: inout [UInt8]) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            out.append(UInt8(ascii: "["))
            for (n, e) in elements.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1, &out)
                write(e, indent: indent + 1, into: &out)
            }
            newline(indent, &out)
            out.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            out.append(UInt8(ascii: "{"))
            for (n, m) in object.members.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1, &out)
                writeString(m.key, into: &out)
                out.append(UInt8(ascii: ":"))
                out.append(UInt8(ascii: " "))
                write(m.value, indent: indent + 1, into: &out)
            }
            newline(indent, &out)
            out.append(UInt8(ascii: "}"))
        default:
            writeCompact(value, into: &out)
        }
    }

    private static func writeCompact(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        // JSON has no NaN or infinity: a non-finite number (a bug upstream) is written as null,
        // never as text no JSON reader accepts.
        case .number(let n): out.append(contentsOf: (n.isFinite ? formatNumber(n) : "null").utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (n, e) in elements.enumerated() {
                if n > 0 { out.append(contentsOf: ", ".utf8) }
                writeCompact(e, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (n, m) in object.members.enumerated() {
                if n > 0 { out.append(contentsOf: ", ".utf8) }
                writeString(m.key, into: &out)
                out.append(contentsOf: ": ".utf8)
                writeCompact(m.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    @inline(__always)
    private static func newline(_ indent: Int, _ out: inout [UInt8]) {
        out.append(0x0A)
        for _ in 0..<(indent * 2) { out.append(0x20) }
    }

    /// The canonical text of a number.
    package static func formatNumber(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 0x1p63 { return String(Int64(n)) }
        return "\(n)"
    }

    private static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        var s = s
        let plain = s.withUTF8 { bytes in
            // Fast path: nothing to escape.
            guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain {
            out.append(0x22)
            return
        }
        for b in s.utf8 {
            switch b {
            case 0x22: out.append(0x5C); out.append(0x22)
            case 0x5C: out.append(0x5C); out.append(0x5C)
            case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
            case 0x08: out.append(0x5C); out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(0x5C); out.append(UInt8(ascii: "f"))
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0xF)])
            default: out.append(b)
            }
        }
        out.append(0x22)
    }
}
