/// Brew data for the benchmark ledger.
enum BrewGenerator {
    static func generate(_ g: inout BenchGenerator) throws {}
}
