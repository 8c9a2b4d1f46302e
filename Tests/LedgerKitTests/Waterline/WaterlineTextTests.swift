import LedgerKit
import Testing

@Suite struct WaterlineNotificationTests {
    static let kinds: [WaterlineNotification.Kind] = [.timeReminder, .perDrinkReminder(drinks: 1), .perDrinkReminder(drinks: 5), .pacingWarning]

    // US-036: discreet previews use neutral language, no counts and no alcohol references.
    @Test(arguments: WaterlineNotificationTests.kinds)
    func discreetPreviewsSayNothingSensitive(_ kind: WaterlineNotification.Kind) {
        let n = WaterlineNotification(kind, discreet: true)
        #expect(n.body == WaterlineNotification.discreetBody(kind))
        let preview = (n.title + " " + n.body).lowercased()
        #expect(!preview.contains { $0.isNumber })
        for word in ["drink", "alcohol", "beer", "wine", "liquor", "shot", "cocktail", "booze", "high"] {
            #expect(!preview.contains(word), "\(word) in \(preview)")
        }
        // The full text stays available when the notification is expanded.
        #expect(n.detail == WaterlineNotification(kind, discreet: false).body)
    }

    @Test func detailedTextsAreTheSeeds() {
        #expect(WaterlineNotification(.timeReminder, discreet: false).body == "Time for water")
        #expect(WaterlineNotification(.perDrinkReminder(drinks: 5), discreet: false).body == "You've had 5 drinks — time for water")
        #expect(WaterlineNotification(.perDrinkReminder(drinks: 1), discreet: false).body == "You've had 1 drink — time for water")
        #expect(WaterlineNotification(.pacingWarning, discreet: false).body == "Your Waterline is high — drink water to return to center")
        #expect(WaterlineNotification(.pacingWarning, discreet: false).title == "Pacing Warning")
        #expect(WaterlineNotification(.timeReminder, discreet: true).actions == ["Log Water", "Dismiss"])
    }

    @Test func anEntryTriggersItsNudges() {
        let steps = WaterlineEngine.replay(WaterlineFixture.entries("DD"), rules: WaterlineRules(waterEveryNDrinks: 2, warningThreshold: 2))
        #expect(WaterlineNotification.triggered(by: steps[0], discreet: false).isEmpty)
        let second = WaterlineNotification.triggered(by: steps[1], discreet: false)
        #expect(second.map(\.kind) == [.perDrinkReminder(drinks: 2), .pacingWarning])
        #expect(second[0].body == "You've had 2 drinks — time for water")
        #expect(WaterlineNotification.triggered(by: steps[1], discreet: true).map(\.body) == ["Time for some water", "Time to slow the pace"])
    }

    /// "The pacing warning and the per-drink prompt carry the same discreet text; the
    /// notification server merges them": each kind has a discreet text of its own, the
    /// seed's "Time for a break" for the time-based reminder (US-036).
    @Test func eachKindHasADiscreetTextOfItsOwn() {
        let bodies = [WaterlineNotification.Kind.timeReminder, .perDrinkReminder(drinks: 3), .pacingWarning]
            .map { WaterlineNotification($0, discreet: true).body }
        #expect(bodies == ["Time for a break", "Time for some water", "Time to slow the pace"])
        #expect(Set(bodies).count == 3)
        // Another count is the same kind: its text does not change with the count.
        #expect(WaterlineNotification(.perDrinkReminder(drinks: 9), discreet: true).body == bodies[1])
    }
}

@Suite struct DrinkEstimateTests {
    static let presets = DrinkPreset.defaults(createdAt: WaterlineFixture.start)
    static func preset(_ id: String) -> DrinkPreset { presets.first { $0.id == id }! }

    struct Case: Sendable, CustomTestStringConvertible {
        var preset: String?
        var type: DrinkType?
        var size: Double?
        var abv: Double?
        var std: Double?
        var expected: Double
        var testDescription: String { "\(preset ?? "-") \(type?.rawValue ?? "-") \(size ?? 0) oz \(abv ?? 0)% std \(std ?? 0) → \(expected)" }
    }

    // US-012: 12 oz beer = 1.0, a double whiskey = 2.0; a US standard drink is 0.6 oz of alcohol.
    @Test(arguments: [
        Case(preset: "beer", expected: 1.0),
        Case(preset: "glass-of-wine", expected: 1.0),
        Case(preset: "shot", expected: 1.0),
        Case(preset: "cocktail", expected: 1.0),
        Case(preset: "double", expected: 2.0),
        Case(preset: "beer", size: 16, expected: 1.3),
        Case(preset: "beer", std: 1.5, expected: 1.5),
        Case(preset: "beer", abv: 8, expected: 1.6),
        Case(preset: "cocktail", size: 8, expected: 1.0),
        Case(type: .beer, expected: 1.0),
        Case(type: .beer, size: 16, expected: 1.3),
        Case(type: .wine, size: 5, expected: 1.0),
        Case(type: .wine, size: 25.4, expected: 5.1),
        Case(type: .liquor, size: 3, expected: 2.0),
        Case(type: .liquor, size: 1.5, abv: 40, expected: 1.0),
        Case(type: .cocktail, expected: 1.0),
        Case(type: .cocktail, size: 6, abv: 15, expected: 1.5),
        Case(expected: 1.0),
        Case(std: 2.5, expected: 2.5),
    ])
    func estimates(_ c: Case) {
        let e = DrinkEstimate.resolve(preset: c.preset.map(Self.preset), type: c.type, sizeOz: c.size, abv: c.abv, standardDrinks: c.std)
        #expect(e.meta.standardDrinkEstimate == c.expected)
        #expect(e.meta.presetId == c.preset)
    }

    @Test func theReasonSaysHowTheEstimateWasReached() {
        #expect(DrinkEstimate.resolve(preset: Self.preset("double"), type: nil, sizeOz: nil, abv: nil, standardDrinks: nil).reason == "preset Double")
        #expect(DrinkEstimate.resolve(preset: nil, type: .beer, sizeOz: 16, abv: nil, standardDrinks: nil).reason == "16 oz at 5% ABV, typical for beer")
        #expect(DrinkEstimate.resolve(preset: nil, type: nil, sizeOz: nil, abv: nil, standardDrinks: 2).reason == "as given")
    }

    /// A drink whose size × ABV rounds below 0.1 counts 0.1 (every drink logged moves the
    /// Waterline), and the reason says so instead of showing a sum that disagrees with it.
    @Test func theLeastADrinkCountsIsSaid() {
        let zero = DrinkEstimate.resolve(preset: nil, type: .liquor, sizeOz: 0.85, abv: 0, standardDrinks: nil, units: .ml)
        #expect(zero.meta.standardDrinkEstimate == 0.1)
        #expect(zero.reason == "25 ml at 0% ABV is 0.0; a drink counts at least 0.1", "\(zero.reason)")
        let tiny = DrinkEstimate.resolve(preset: Self.preset("shot"), type: nil, sizeOz: 0.05, abv: nil, standardDrinks: nil)
        #expect(tiny.meta.standardDrinkEstimate == 0.1 && tiny.reason.hasSuffix("; a drink counts at least 0.1"), "\(tiny.reason)")
        // At or above 0.1 nothing is added.
        #expect(DrinkEstimate.resolve(preset: nil, type: .beer, sizeOz: 1.5, abv: 4, standardDrinks: nil).reason == "1.5 oz at 4% ABV")
    }

    @Test func adjustingAnEntryKeepsWhatIsNotChanged() {
        let meta = AlcoholMeta(drinkType: .beer, sizeOz: 12, abv: nil, standardDrinkEstimate: 1, presetId: "beer")
        #expect(DrinkEstimate.adjusting(meta, type: nil, sizeOz: nil, abv: nil, standardDrinks: 2).meta
                == AlcoholMeta(drinkType: .beer, sizeOz: 12, abv: nil, standardDrinkEstimate: 2, presetId: "beer"))
        let bigger = DrinkEstimate.adjusting(meta, type: nil, sizeOz: 20, abv: nil, standardDrinks: nil)
        #expect(bigger.meta.standardDrinkEstimate == 1.7)
        #expect(bigger.meta.presetId == "beer")
        // A plain drink of unknown type and size scales by nothing: it keeps its estimate.
        let plain = AlcoholMeta(drinkType: nil, sizeOz: nil, abv: nil, standardDrinkEstimate: 1, presetId: nil)
        #expect(DrinkEstimate.adjusting(plain, type: nil, sizeOz: 8, abv: nil, standardDrinks: nil).meta.standardDrinkEstimate == 1)
    }
}
