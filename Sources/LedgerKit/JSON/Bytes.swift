#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// FNV-1a, the one small non-cryptographic hash the ledger uses: for names and ids in the
/// checker's tables, directory paths in the status walk, and ids derived from a seed by merges.
package enum FNV1a {
    package static let basis: UInt64 = 0xCBF2_9CE4_8422_2325

    /// The hash of `bytes`, continuing from `h` (the basis to start afresh).
    @inline(__always)
    package static func hash(_ bytes: some Sequence<UInt8>, from h: UInt64 = basis) -> UInt64 {
        var h = h
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    /// The same, for bytes in memory: the loop other modules get compiled for them (the generic
    /// one, called from another module, steps through each byte by the generic iterator:
    /// 2,200 instructions for a 40-byte path).
    package static func hash(_ bytes: UnsafeBufferPointer<UInt8>, from h: UInt64 = basis) -> UInt64 {
        var h = h
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }
}

/// Byte-level helpers for the hot paths of parsing and checking.
enum Bytes {
    /// Whether `a` sorts before `b` by their UTF-8 bytes (the canonical key order).
    @inline(__always)
    static func precedes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let n = Swift.min(x.count, y.count)
                if n > 0 {
                    let c = memcmp(x.baseAddress!, y.baseAddress!, n)
                    if c != 0 { return c < 0 }
                }
                return x.count < y.count
            }
        }
    }

    /// Whether two byte sequences are equal.
    @inline(__always)
    static func equal(_ a: ArraySlice<UInt8>, _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }

    /// Whether a slice holds exactly the bytes of a buffer.
    @inline(__always)
    static func equal(_ a: ArraySlice<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in x.count == 0 || memcmp(x.baseAddress!, b.baseAddress!, x.count) == 0 }
    }

    /// Where `needle` first occurs in `haystack` at or after `from`, or nil.
    static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from: Int = 0) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, from <= haystack.count - needle.count else { return needle.isEmpty ? from : nil }
        return haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                var i = from
                let last = h.count - n.count
                while i <= last {
                    guard let hit = memchr(h.baseAddress! + i, Int32(n[0]), last - i + 1) else { return nil }
                    i = h.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(h.baseAddress! + i, n.baseAddress!, n.count) == 0 { return i }
                    i += 1
                }
                return nil
            }
        }
    }

    /// Whether `haystack` contains `needle` (ASCII needles).
    static func contains(_ haystack: String, _ needle: StaticString) -> Bool {
        var h = haystack
        return h.withUTF8 { hb in
            let n = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
            guard n.count > 0, hb.count >= n.count else { return false }
            for i in 0...(hb.count - n.count) where hb[i] == n[0] {
                if memcmp(hb.baseAddress! + i, n.baseAddress!, n.count) == 0 { return true }
            }
            return false
        }
    }
}
