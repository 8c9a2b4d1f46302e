/// Hydrate data for the benchmark ledger.
enum HydrateGenerator {
    static func generate(_ g: inout BenchGenerator) throws {}
}
