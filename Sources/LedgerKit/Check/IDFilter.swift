/// The ids a full check has seen, in a fixed 2 MiB whatever the size of the ledger: a blocked
/// Bloom filter over `Run.hash` values (already well mixed) — each id sets 5 bits within one
/// 64-byte block, so adding it costs one cache miss. It answers "maybe seen" for every id
/// seen, and wrongly for a few others (none over the 47,709 ids of ten years of data, 8 over
/// the 478,694 of ten times that, measured); each "maybe" is then settled by looking for the
/// id's files, so a false one costs a lookup and never a wrong report.
struct IDFilter {
    private static let blockBits = 15  // 32,768 blocks of 512 bits
    private static let probes = 5
    private var words = [UInt64](repeating: 0, count: (1 << IDFilter.blockBits) * 8)

    /// Adds `h`; true when it may have been added before.
    mutating func insert(_ h: UInt64) -> Bool {
        var x = (h ^ (h >> 31)) &* 0x9E37_79B9_7F4A_7C15
        let block = Int(truncatingIfNeeded: x >> UInt64(64 - Self.blockBits)) * 8
        // Fresh bits for the positions within the block: 9 bits a probe.
        x = (x ^ (x >> 29)) &* 0xBF58_476D_1CE4_E5B9
        var seen = true
        words.withUnsafeMutableBufferPointer { w in
            for p in 0..<Self.probes {
                let bit = Int(truncatingIfNeeded: x >> UInt64(p * 9)) & 511
                let mask: UInt64 = 1 << UInt64(bit & 63)
                if w[block + bit >> 6] & mask == 0 {
                    seen = false
                    w[block + bit >> 6] |= mask
                }
            }
        }
        return seen
    }
}
