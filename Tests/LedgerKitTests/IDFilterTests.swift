@testable import LedgerKit
import Testing

/// The fixed-size filter of ids a full check has seen: it must never forget an id (a
/// duplicate would go unreported), and rarely claim one it has not seen (each claim costs a
/// lookup of the id's files).
@Suite struct IDFilterTests {
    /// splitmix64: a seeded stream of well-mixed 64-bit values, like `Run.hash` gives.
    struct Stream {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func remembersEveryIdAndRarelyClaimsOthers() {
        var filter = IDFilter()
        var ids = Stream(state: 42)
        // Ten years of heavy use is 47,709 documents; twice that here.
        let seen = (0..<100_000).map { _ in ids.next() }
        let firstTime = seen.filter { filter.insert($0) }.count
        #expect(firstTime <= 2)
        #expect(seen.allSatisfy { filter.insert($0) })
        var others = Stream(state: 7)
        let claimed = (0..<200_000).filter { _ in filter.insert(others.next()) }.count
        #expect(claimed <= 5)
    }
}
