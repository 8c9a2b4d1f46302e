/// Waterline data for the benchmark ledger.
enum WaterlineGenerator {
    static func generate(_ g: inout BenchGenerator) throws {}
}
