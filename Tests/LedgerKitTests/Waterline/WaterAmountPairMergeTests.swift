import LedgerKit
import Testing

/// `WaterlineSettings.merge`: the field-wise rule, with units and the default water amount
/// merged as one value.
@Suite struct WaterAmountPairMergeTests {
    static let base = WaterlineSettings(createdAt: Timestamp(iso8601: "2026-11-01T12:00:00+01:00")!)

    /// The base settings changed at `time` (on 2026-11-21).
    static func changed(at time: String, _ change: (inout WaterlineSettings) -> Void) -> WaterlineSettings {
        var s = base
        change(&s)
        s.updatedAt = Timestamp(iso8601: "2026-11-21T\(time):00+01:00")!
        return s
    }

    static func merge(_ ours: WaterlineSettings, _ theirs: WaterlineSettings, base: WaterlineSettings? = base) -> Merged<WaterlineSettings> {
        WaterlineSettings.merge(base: base, ours: ours, theirs: theirs, context: MergeContext())
    }

    /// One machine switches to ml (the seeds' 8 oz becomes 250 ml), the other sets 12 (oz).
    static let toMillilitres = changed(at: "10:00") { $0.units = .ml; $0.defaultWaterAmount = 250 }
    static let twelveOunces = changed(at: "10:05") { $0.defaultWaterAmount = 12 }

    @Test func bothChangedThePairSoTheLaterWriteGivesBothFields() {
        let merged = Self.merge(Self.toMillilitres, Self.twelveOunces).document
        #expect(merged.units == .oz)
        #expect(merged.defaultWaterAmount == 12)
        // Either machine runs the merge: the same result.
        let other = Self.merge(Self.twelveOunces, Self.toMillilitres).document
        #expect(other == merged)
        // The later write being the switch to ml, 250 ml — never 12 ml.
        let later = Self.changed(at: "10:10") { $0.units = .ml; $0.defaultWaterAmount = 250 }
        let m = Self.merge(Self.twelveOunces, later).document
        #expect(m.units == .ml && m.defaultWaterAmount == 250)
        #expect(Self.merge(Self.twelveOunces, later).notes.contains { $0.contains("kept those of the version saved later, together (250 ml)") })
    }

    @Test func aPairChangedOnOneSideIsTakenWholeWhateverTheOtherSideDidLater() {
        // The other machine changed another field later: the ml switch still arrives whole.
        let threshold = Self.changed(at: "11:00") { $0.warningThreshold = 3 }
        for merged in [Self.merge(Self.toMillilitres, threshold).document, Self.merge(threshold, Self.toMillilitres).document] {
            #expect(merged.units == .ml)
            #expect(merged.defaultWaterAmount == 250)
            #expect(merged.warningThreshold == 3)
            #expect(merged.updatedAt == threshold.updatedAt)
        }
    }

    @Test func otherFieldsStillMergeFieldByField() {
        let a = Self.changed(at: "10:00") { $0.waterEveryNDrinks = 2; $0.discreetNotifications = false }
        let b = Self.changed(at: "10:30") { $0.waterEveryNDrinks = 3; $0.abandonedAfterHours = 6 }
        let merged = Self.merge(a, b).document
        #expect(merged.waterEveryNDrinks == 3)  // changed on both: the later write
        #expect(!merged.discreetNotifications)
        #expect(merged.abandonedAfterHours == 6)
        #expect(merged.units == .oz && merged.waterAmount == 8)
    }

    @Test func aMissingAmountIsTheUnitsDefault() {
        // `defaultWaterAmount` left out by a hand edit is the same 8 oz: not a change of the pair.
        let handEdited = Self.changed(at: "12:00") { $0.defaultWaterAmount = nil; $0.warningThreshold = 4 }
        let merged = Self.merge(handEdited, Self.toMillilitres).document
        #expect(merged.units == .ml && merged.defaultWaterAmount == 250)
        #expect(merged.warningThreshold == 4)
    }

    @Test func twoMachinesCreatingSettingsTakeTheLaterPair() {
        let merged = Self.merge(Self.toMillilitres, Self.twelveOunces, base: nil).document
        #expect(merged.units == .oz && merged.defaultWaterAmount == 12)
    }

    @Test func syncUsesTheRule() throws {
        // The type-erased merge that sync and the merge driver run.
        let resolution = try #require(DocumentType(WaterlineSettings.self).merge(
            base: Self.base.json, ours: Self.toMillilitres.json, theirs: Self.twelveOunces.json))
        let result = try #require(resolution.result)
        #expect(result["units"] == .string("oz"))
        #expect(result["defaultWaterAmount"] == .number(12))
    }
}
