/// The ids a full check has seen, in at most 4 MiB whatever the size of the ledger: a blocked
/// Bloom filter over `Run.hash` values (already well mixed) — each id sets 5 bits within one
/// 64-byte block, so adding it costs one cache miss. It answers "maybe seen" for every id
/// seen, and wrongly for a few others; each "maybe" is then settled by looking for the id's
/// files in every shard of its kind, so a false one costs a `stat` per shard (1,200 for the
/// experiences of a century) and never a wrong report. Sized for the number of documents
/// expected (the last check's), 64 bits or more each: about one false "maybe" in a million
/// ids, and a ledger of ten years' filter (512 KiB) stays in the processor's cache. (At 2 MiB
/// for every ledger, the 481,096 ids of a century gave 8, and their lookups a tenth of a
/// revalidation.)
struct IDFilter {
    private static let probes = 5
    private let blockBits: Int
    private var words: [UInt64]

    /// A filter for about `expected` ids (the largest, 4 MiB, when unknown).
    init(expected: Int? = nil) {
        var bits = 16  // 65,536 blocks of 512 bits
        if let expected { while bits > 9, (1 << (bits - 1)) * 512 >= 64 * expected { bits -= 1 } }
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
