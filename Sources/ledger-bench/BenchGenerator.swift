import Foundation
import LedgerKit

/// Deterministic data for benchmarks: a seeded random source, the ten-year calendar, and
/// fast writes (no fsync: the data is written once and reused).
struct BenchGenerator {
    let root: String
    /// 1 for ten years of one heavy user, 10 for ten times as much history: a hundred years of
    /// the same life (the same days, nights out and brews per day, going further back), so
    /// that today holds as much as it does at scale 1 and only the past grows.
    let scale: Int
    var random: SplitMix64
    let ids: SeededIDSource
    /// The first and last day of the history: ten years times the scale, ending yesterday.
    let firstDay: LocalDate
    let lastDay = LocalDate(year: 2026, month: 11, day: 20)!
    private(set) var written = 0
    private var madeDirectories: Set<String> = []

    init(root: String, scale: Int, seed: UInt64) {
        self.root = root
        self.scale = scale
        firstDay = LocalDate(year: 2026 - 10 * scale, month: 11, day: 21)!
        random = SplitMix64(seed: seed)
        ids = SeededIDSource(seed: seed &+ 1)
    }

    /// Every day of the history.
    var days: [LocalDate] {
        (firstDay.daysSinceEpoch...lastDay.daysSinceEpoch).map { LocalDate(daysSinceEpoch: $0) }
    }

    /// A timestamp on `day` at `hour:minute` in Paris time (+01:00 in winter, +02:00 in summer).
    func timestamp(_ day: LocalDate, hour: Int, minute: Int = 0, second: Int = 0) -> Timestamp {
        let summer = (4...10).contains(day.month)
        return Timestamp(local: LocalDateTime(date: day, hour: hour, minute: minute, second: second),
                         utcOffsetSeconds: summer ? 7200 : 3600)
    }

    /// A fresh document id.
    func id() -> String { ids.next() }

    /// Writes a document in canonical form.
    mutating func write(_ relative: String, _ json: JSONValue) throws {
        let path = root + "/" + relative
        let dir = (path as NSString).deletingLastPathComponent
        if !madeDirectories.contains(dir) {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            madeDirectories.insert(dir)
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(CanonicalJSON.encode(json))) else {
            throw LedgerError.failure("cannot write \(path)")
        }
        written += 1
    }

    /// Writes a typed document at its path.
    mutating func save<D: CollectionDocument>(_ document: D) throws {
        try write(document.path, document.recomputed.json)
    }
}
