import Foundation
import LedgerKit
import LedgerTestSupport

/// Building sessions for tests from a compact pattern: `D` a 1.0 drink, `X` a double (2.0),
/// `H` a 1.5 drink, `W` water (8 oz); one entry per `spacing` minutes from `start` + 5 min.
enum WaterlineFixture {
    static let start = Timestamp(iso8601: "2026-11-21T21:00:00+01:00")!
    /// The zone the fixtures' times are on.
    static let zone = TimeZone(identifier: "Europe/Paris")!

    static func at(_ minutes: Int) -> Timestamp { start.adding(minutes: Double(minutes)) }

    /// A new ledger in `dir` (a plain folder), with Waterline's initial documents.
    static func ledger(in dir: TemporaryDirectory) throws -> LedgerStore {
        let store = LedgerStore.plain(dir.path)
        try store.write("ledger.json", LedgerManifest(createdAt: start).json)
        for (path, doc) in WaterlineApp.initialDocuments(now: start) { try store.write(path, doc) }
        return store
    }

    static func drink(_ minute: Int, std: Double = 1, id: String? = nil) -> LogEntry {
        LogEntry.alcohol(id: id ?? "d\(minute)", at: at(minute),
                         AlcoholMeta(drinkType: .beer, sizeOz: 12, abv: nil, standardDrinkEstimate: std, presetId: nil), now: at(minute))
    }

    static func water(_ minute: Int, id: String? = nil, amount: Double = 8, units: VolumeUnit = .oz) -> LogEntry {
        LogEntry.water(id: id ?? "w\(minute)", at: at(minute), WaterMeta(amount: amount, units: units), now: at(minute))
    }

    static func entries(_ pattern: String, spacing: Int = 10) -> [LogEntry] {
        pattern.enumerated().map { i, c in
            let minute = 5 + i * spacing
            switch c {
            case "W": return water(minute, id: "e\(i)")
            case "X": return drink(minute, std: 2, id: "e\(i)")
            case "H": return drink(minute, std: 1.5, id: "e\(i)")
            default: return drink(minute, id: "e\(i)")
            }
        }
    }

    static func session(_ pattern: String, n: Int = 1, threshold: Int = 2, id: String = "s1", endAfter: Int? = nil) -> Session {
        var s = Session(id: id, start: start, rules: WaterlineRules(waterEveryNDrinks: n, warningThreshold: threshold))
        s.entries = entries(pattern)
        if let endAfter {
            s.endTime = at(endAfter)
            s.isActive = false
        }
        s.recomputeDerived()
        return s
    }
}

/// Ids handed out in the order given, for tests that name what they create.
final class FixedIDs: IDSource, @unchecked Sendable {
    // @unchecked: `ids` is only touched under `lock`.
    private var ids: [String]
    private let lock = NSLock()

    init(_ ids: String...) { self.ids = ids }

    func next() -> String {
        lock.withLock { ids.isEmpty ? "extra\(Int.random(in: 0..<1_000_000))" : ids.removeFirst() }
    }
}
