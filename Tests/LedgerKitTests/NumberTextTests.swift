import Foundation
@testable import LedgerKit
import Testing

/// `NumberText` writes what C's printf writes: each case is compared with glibc's own
/// `String(format:)` on the same value.
@Suite struct NumberTextTests {
    /// Values where rounding the product `x × 10ⁿ` and rounding `x` disagree (0.15 is
    /// 0.1499999…, 2.675 is 2.67499…), exact ties (0.25, 0.125), signs and zeros, the
    /// numbers the apps show (0.96 std, 1.996 cut to hundredths), and the limit where the
    /// fraction is gone.
    static let edges: [Double] = [
        0, -0.0, 0.05, 0.15, 0.25, 0.35, 0.45, 1.005, 2.675, 0.125, 0.375, -0.05, -0.15, -0.25,
        0.96, 1.99, 1.996, 2.7, 9.95, 99.95, 999.95, 1e-300, Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, 0.5, 1.5, 2.5, -2.5,
        4503599627370495.5, 0x1p52 / 10 - 0.25, 123456.789, 1e15, 0.1 + 0.2, 16.666666666666668,
    ]

    @Test func fixedAgreesWithPrintf() {
        var values = Self.edges
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            // Decimals near ties, as measured quantities give them, and raw doubles.
            let tenths = Double(Int.random(in: -100_000...100_000, using: &rng))
            values.append(tenths / 100 + 0.005)
            values.append(tenths / 1000)
            values.append(Double.random(in: -1e6...1e6, using: &rng))
            values.append(Double(bitPattern: UInt64.random(in: 0x3F00_0000_0000_0000...0x4120_0000_0000_0000, using: &rng)))
        }
        for x in values {
            for decimals in [0, 1, 2, 3] {
                #expect(NumberText.fixed(x, decimals: decimals) == String(format: "%.\(decimals)f", x), "\(x) with \(decimals) decimals")
            }
        }
    }

    @Test func fixedBeyondTheFraction() {
        for x in [1e300, -1e20, Double.greatestFiniteMagnitude, Double.infinity, -Double.infinity] {
            #expect(NumberText.fixed(x, decimals: 1) == String(format: "%.1f", x))
        }
        #expect(NumberText.fixed(.nan, decimals: 1) == "nan")
    }

    @Test func decimalReadsWhatAPersonWrites() {
        for (text, value) in [("12", 12.0), ("0.5", 0.5), (".5", 0.5), ("5.", 5), ("-3", -3), ("+2", 2), ("0330", 330)] {
            #expect(NumberText.decimal(text) == value, "\(text)")
        }
        for text in ["", ".", "-", "0x10", "1e3", "1E3", "nan", "inf", "-inf", "1.2.3", "1-2", " 5", "5 ", "١٢", "0x1p3", "--1"] {
            #expect(NumberText.decimal(text) == nil, "\(text)")
        }
    }

    @Test func paddedAndHexAgreeWithPrintf() {
        for n in [0, 5, 9, 10, 59, 99, 100, 2026, -1, -5, -10, Int.max, Int.min] {
            #expect(NumberText.padded(n) == String(format: "%02ld", n))
            #expect(NumberText.padded(n, width: 4) == String(format: "%04ld", n))
        }
        for byte in 0...255 {
            #expect(NumberText.hex(UInt8(byte)) == String(format: "%02x", byte))
        }
    }
}
