import LedgerKit

/// Waterline data for the benchmark ledger: about 1,050 nights out every ten years (two a week,
/// over 10,000 at scale 10), mostly on Fridays and Saturdays, each with its drinks and
/// water as a real user logs them, plus tonight's session, still active on the benchmark's
/// clock (2026-11-21, started 20:40).
enum WaterlineGenerator {
    /// Relative chance of a night out by ISO weekday (Monday first); the mean is 1.
    static let weekdayWeights = [0.45, 0.45, 0.65, 0.95, 1.9, 2.2, 0.4]

    static func generate(_ g: inout BenchGenerator) throws {
        let presets = DrinkPreset.defaults(createdAt: g.timestamp(g.firstDay, hour: 20))
        let perDay = 1050.0 / 3652.5
        for day in g.days {
            let expected = perDay * weekdayWeights[day.isoWeekday - 1]
            var count = Int(expected)
            if Double.random(in: 0..<1, using: &g.random) < expected - Double(count) { count += 1 }
            // Sessions of one day follow each other: the first starts between 17:00 and 21:30.
            var minute = 17 * 60 + Int.random(in: 0...270, using: &g.random)
            for _ in 0..<count {
                let session = night(&g, day: day, startMinute: minute, presets: presets)
                try g.save(session)
                minute = minutes(of: session.endTime!, from: day) + Int.random(in: 30...120, using: &g.random)
            }
        }
        // Tonight: a session in progress (three entries, the last at 22:10).
        let tonight = LocalDate(year: 2026, month: 11, day: 21)!
        var active = Session(id: g.id(), start: at(g, tonight, 20 * 60 + 40), rules: WaterlineRules())
        active.entries = [
            entry(&g, at(g, tonight, 20 * 60 + 55), preset: presets[0]),
            water(&g, at(g, tonight, 21 * 60 + 30)),
            entry(&g, at(g, tonight, 22 * 60 + 10), preset: presets[1]),
        ]
        active.updatedAt = active.entries.last!.timestamp
        try g.save(active)
    }

    /// One ended night: 1–12 drinks, water after some of them, 10–45 minutes apart.
    static func night(_ g: inout BenchGenerator, day: LocalDate, startMinute: Int, presets: [DrinkPreset]) -> Session {
        let n = Double.random(in: 0..<1, using: &g.random) < 0.8 ? 1 : 2
        var s = Session(id: g.id(), start: at(g, day, startMinute), rules: WaterlineRules(waterEveryNDrinks: n, warningThreshold: 2))
        let drinks = Int.random(in: 1...12, using: &g.random)
        let diligence = Double.random(in: 0.2...0.95, using: &g.random)  // how often this night's water follows a drink
        var minute = startMinute + Int.random(in: 5...30, using: &g.random)
        for _ in 0..<drinks {
            let roll = Double.random(in: 0..<1, using: &g.random)
            let preset = presets[roll < 0.45 ? 0 : roll < 0.7 ? 1 : roll < 0.8 ? 2 : roll < 0.93 ? 3 : 4]
            s.entries.append(entry(&g, at(g, day, minute), preset: preset))
            minute += Int.random(in: 10...45, using: &g.random)
            if Double.random(in: 0..<1, using: &g.random) < diligence {
                s.entries.append(water(&g, at(g, day, minute)))
                minute += Int.random(in: 5...30, using: &g.random)
            }
        }
        let end = at(g, day, minute + Int.random(in: 5...40, using: &g.random))
        s.endTime = end
        s.isActive = false
        s.updatedAt = end
        return s
    }

    static let sources: [EntrySource] = [.phone, .phone, .phone, .watch, .watch, .widget, .liveActivity, .cli]

    static func entry(_ g: inout BenchGenerator, _ time: Timestamp, preset: DrinkPreset) -> LogEntry {
        let meta = AlcoholMeta(drinkType: preset.drinkType, sizeOz: preset.sizeOz, abv: preset.abv,
                               standardDrinkEstimate: preset.standardDrinkEstimate, presetId: preset.id)
        return LogEntry.alcohol(id: g.id(), at: time, meta, source: sources[Int.random(in: 0..<sources.count, using: &g.random)], now: time)
    }

    static func water(_ g: inout BenchGenerator, _ time: Timestamp) -> LogEntry {
        let bottle = Double.random(in: 0..<1, using: &g.random) < 0.15
        return LogEntry.water(id: g.id(), at: time, bottle ? WaterMeta(amount: 330, units: .ml) : WaterMeta(amount: 8, units: .oz),
                              source: sources[Int.random(in: 0..<sources.count, using: &g.random)], now: time)
    }

    /// `minutes` after midnight starting `day` (past 24:00 means the next day), in Paris time
    /// with the offset `day` has: a night keeps one offset, so times stay in order across the
    /// generator's month-based summer-time switch.
    static func at(_ g: BenchGenerator, _ day: LocalDate, _ minutes: Int) -> Timestamp {
        let m = minutes % 1440
        let local = LocalDateTime(date: day.adding(days: minutes / 1440), hour: m / 60, minute: m % 60)
        return Timestamp(local: local, utcOffsetSeconds: g.timestamp(day, hour: 12).utcOffsetSeconds)
    }

    /// Minutes from midnight starting `day` to `t`, by its wall clock.
    static func minutes(of t: Timestamp, from day: LocalDate) -> Int {
        let l = t.local
        return (l.date.daysSinceEpoch - day.daysSinceEpoch) * 1440 + l.hour * 60 + l.minute
    }
}
