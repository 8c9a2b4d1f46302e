/// The ids a full check has seen, in at most 2 MiB whatever the size of the ledger: a blocked
/// Bloom filter over `Run.hash` values (already well mixed) — each id sets 5 bits within one
/// 64-byte block, so adding it costs one cache miss. It answers "maybe seen" for every id
/// seen, and wrongly for a few others (none over the 47,709 ids of ten years of data, 8 over
/// the 478,694 of ten times that, measured); each "maybe" is then settled by looking for the
/// id's files, so a false one costs a lookup and never a wrong report. Sized for the number
/// of documents expected (the last check's), 32 bits or more each, so that the filter of a
/// ledger of ten years (256 KiB) stays in the processor's cache.
struct IDFilter {
    private static let probes = 5
    private let blockBits: Int
    private var words: [UInt64]

    /// A filter for about `expected` ids (the largest, 2 MiB, when unknown).
    init(expected: Int? = nil) {
        var bits = 15  // 32,768 blocks of 512 bits
        if let expected { while bits > 9, (1 << (bits - 1)) * 512 >= 32 * expected { bits -= 1 } }
        blockBits = bits
        words = [UInt64](repeating: 0, count: (1 << bits) * 8)
    }

    /// The first word of the block (one cache line) that `h` falls in, and `h` mixed.
    @inline(__always)
    private func place(_ h: UInt64) -> (Int, UInt64) {
        let x = (h ^ (h >> 31)) &* 0x9E37_79B9_7F4A_7C15
        return (Int(truncatingIfNeeded: x >> UInt64(64 - blockBits)) * 8, x)
    }

    /// Reads the blocks `hashes` fall in, before they are inserted one by one: the loads do
    /// not depend on each other, so the processor waits for their cache misses together
    /// (the filter is larger than the caches: one miss per document otherwise, in turn). A
    /// block's first and last words are read: the array's storage is not aligned to cache
    /// lines, so a block may straddle two.
    func prefetch(_ hashes: some Sequence<UInt64>) -> UInt64 {
        words.withUnsafeBufferPointer { w in
            hashes.reduce(0) { sum, h in
                let b = place(h).0
                return sum ^ w[b] ^ w[b + 7]
            }
        }
    }

    /// Adds `h`; true when it may have been added before.
    mutating func insert(_ h: UInt64) -> Bool {
        var (block, x) = place(h)
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
