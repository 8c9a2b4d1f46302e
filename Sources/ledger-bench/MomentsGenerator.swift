/// Moments data for the benchmark ledger.
enum MomentsGenerator {
    static func generate(_ g: inout BenchGenerator) throws {}
}
