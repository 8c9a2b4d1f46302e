/// The ids a full check has seen, in a fixed 2 MiB whatever the size of the ledger: a Bloom
/// filter over `Run.hash` values (already well mixed), 16 Mi bits and 5 probes. It answers
/// "maybe seen" for every id seen and, at ten years of data, for about one other id in a
/// million (one in twenty thousand at ten times that); each "maybe" is then settled by
/// looking for the id's files, so a false one costs a lookup and never a wrong report.
struct IDFilter {
    private static let bits = 1 << 24
    private static let probes = 5
    private var words = [UInt64](repeating: 0, count: IDFilter.bits / 64)

    /// Adds `h`; true when it may have been added before.
    mutating func insert(_ h: UInt64) -> Bool {
        var seen = true
        var x = h
        words.withUnsafeMutableBufferPointer { w in
            for _ in 0..<Self.probes {
                // Each probe takes other bits of a fresh mix of the hash.
                x = (x ^ (x >> 31)) &* 0x9E37_79B9_7F4A_7C15
                let bit = Int(truncatingIfNeeded: x >> 40) & (Self.bits - 1)
                let mask: UInt64 = 1 << UInt64(bit & 63)
                if w[bit >> 6] & mask == 0 {
                    seen = false
                    w[bit >> 6] |= mask
                }
            }
        }
        return seen
    }
}
