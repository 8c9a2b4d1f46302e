import Foundation

/// Numbers written exactly as C's printf writes them (`%.1f`, `%02d`, `%02x`), without
/// `String(format:)`: its variadic arguments make the runtime look up each argument's type
/// on the first use of every call site, which was a tenth of a quick command's start.
package enum NumberText {
    /// `x` with `decimals` (0…9) digits after the point, as `%.<decimals>f` gives it: the
    /// binary value rounded to the nearest, a tie to the even digit, the sign kept on a
    /// negative value that rounds to zero ("-0.0").
    package static func fixed(_ x: Double, decimals: Int) -> String {
        precondition((0...9).contains(decimals), "decimals must be 0…9")
        guard x.isFinite else { return x.isNaN ? "nan" : x < 0 ? "-inf" : "inf" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let a = abs(x)
        // Beyond 2^52 the scaled value's fraction is gone; printf's long expansion is rare enough.
        guard a * scale < 0x1p52 else { return String(format: "%.\(decimals)f", x) }
        // k = ⌊a × scale⌋ exactly: a fused multiply-add gives the sign of a × scale − c
        // without the product's rounding.
        var k = (a * scale).rounded(.down)
        if (-k).addingProduct(a, scale) < 0 {
            k -= 1
        } else if (-(k + 1)).addingProduct(a, scale) >= 0 {
            k += 1
        }
        let half = (-(k + 0.5)).addingProduct(a, scale)
        if half > 0 || (half == 0 && k.truncatingRemainder(dividingBy: 2) != 0) { k += 1 }
        let digits = UInt64(k)
        var unit: UInt64 = 1
        for _ in 0..<decimals { unit *= 10 }
        var text = x.sign == .minus ? "-" : ""
        text += String(digits / unit)
        if decimals > 0 { text += "." + padded(Int(digits % unit), width: decimals) }
        return text
    }

    /// A number as a person writes one: decimal digits with at most one point and an optional
    /// leading sign (`12`, `0.5`, `.5`, `-3`); nil for anything else. `Double(_:)` alone also
    /// takes `0x10` (16), `1e3`, `nan` and `inf`, which nobody means on a command line.
    package static func decimal(_ text: some StringProtocol) -> Double? {
        var digits = 0, points = 0
        for (i, c) in text.utf8.enumerated() {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "-"), UInt8(ascii: "+"): if i != 0 { return nil }
            default: return nil
            }
        }
        guard digits > 0, points <= 1 else { return nil }
        return Double(String(text))
    }

    /// `n` with at least `width` characters, zeros after the sign (`%0<width>d`).
    package static func padded(_ n: Int, width: Int = 2) -> String {
        let digits = String(n.magnitude)
        let sign = n < 0 ? "-" : ""
        let zeros = max(0, width - sign.count - digits.count)
        return sign + String(repeating: "0", count: zeros) + digits
    }

    /// A byte as two lowercase hexadecimal digits (`%02x`).
    package static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xf)]])
    }
}
