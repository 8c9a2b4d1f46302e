import Foundation
import LedgerKit

// ledger-bench generate DIR [--scale N] [--seed S]
//
// Writes a deterministic ledger of ten years of heavy use (2016-11-21 … 2026-11-20) in the
// real document format of every kind: about 1,050 sessions with their entries, 7,000 brew
// logs, 3,650 hydration days and 36,500 moments at scale 1; at scale 10 a hundred years of
// the same life (1926-11-21 …), ten times as many documents, with today's as at scale 1.

let args = Array(CommandLine.arguments.dropFirst())
guard args.first == "generate", args.count >= 2 else {
    FileHandle.standardError.write(Data("usage: ledger-bench generate DIR [--scale N] [--seed S]\n".utf8))
    exit(2)
}
func option(_ name: String, _ fallback: Int) -> Int {
    guard let i = args.firstIndex(of: name), i + 1 < args.count, let v = Int(args[i + 1]) else { return fallback }
    return v
}
var generator = BenchGenerator(root: args[1], scale: max(1, option("--scale", 1)), seed: UInt64(option("--seed", 42)))
do {
    for (path, doc) in LedgerSchema.initialDocuments(now: generator.timestamp(generator.firstDay, hour: 20)) {
        try generator.write(path, doc)
    }
    try WaterlineGenerator.generate(&generator)
    try BrewGenerator.generate(&generator)
    try HydrateGenerator.generate(&generator)
    try MomentsGenerator.generate(&generator)
    print("wrote \(generator.written) files to \(args[1])")
} catch {
    FileHandle.standardError.write(Data("ledger-bench: \(error)\n".utf8))
    exit(1)
}
