/// How a drink's standard-drink estimate is chosen from what the user said (US-012).
///
/// A US standard drink holds 0.6 fl oz of pure alcohol, so a serving of `s` ounces at `a` %
/// ABV is `s × a / 100 / 0.6` standard drinks (12 oz beer at 5 % = 1.0, a 3 oz double at
/// 40 % = 2.0). A drink starts from a base — a preset, or the entry being edited — and the
/// values given override it. In order of precedence:
/// 1. an explicit estimate (`--std`) is used as given;
/// 2. the base's estimate, when neither size nor ABV is overridden;
/// 3. size × ABV, from the flags, the base or the drink type's typical serving and ABV;
/// 4. the base's estimate scaled by a new size (16 oz of a 12 oz 1.0 beer is 1.3);
/// 5. otherwise the base's estimate, or one standard drink (a cocktail, a plain "+ Drink").
/// A `type` other than the base's drops the preset the base came from (`presetId`,
/// `presetName`): a beer preset's drink changed to wine is a wine, not "Beer".
/// Computed estimates are rounded to 0.1, and are at least `minimumEstimate`: every drink
/// logged moves the Waterline (the seeds count each alcoholic entry; an estimate must be more
/// than 0), so 25 ml at 0 % ABV counts 0.1, and its reason says so.
///
/// A size or an ABV that none of these can use — an ABV without any size (`--abv 40` alone,
/// or a cocktail preset, which has none), a size without an ABV or a drink type to take a
/// typical one from — is kept in the meta, as the person said it, and named in `unused`, so
/// that the person is told it did not count.
public struct DrinkEstimate: Sendable, Equatable {
    /// The alcohol meta to record.
    public var meta: AlcoholMeta
    /// How the estimate was reached, for the user ("16 oz at 5% ABV, typical for beer").
    public var reason: String
    /// The values given that the estimate could not use (`.size`, `.abv`), in that order.
    public var unused: [LedgerError.Input.Waterline] = []

    /// US fluid ounces of pure alcohol in one standard drink.
    public static let ouncesOfAlcoholPerStandardDrink = 0.6

    /// What a drink starts from before the given values override it.
    public struct Base: Sendable {
        /// How the reason names it ("preset Beer").
        var label: String
        var meta: AlcoholMeta
    }

    /// A drink logged from `preset` (or from nothing) with the given overrides; sizes in the
    /// reason are shown in `units`. `given` is how the reason names `standardDrinks`: "as
    /// given", or the serving it came from ("a strong cocktail serving").
    public static func resolve(preset: DrinkPreset?, type: DrinkType?, sizeOz: Double?, abv: Double?,
                               standardDrinks: Double?, units: VolumeUnit = .oz, given: String = "as given") -> DrinkEstimate {
        let base = preset.map {
            Base(label: "preset \($0.name)", meta: AlcoholMeta(drinkType: $0.drinkType, sizeOz: $0.sizeOz, abv: $0.abv,
                                                                standardDrinkEstimate: $0.standardDrinkEstimate, presetId: $0.id,
                                                                presetName: $0.name))
        }
        return resolve(base: base, type: type, sizeOz: sizeOz, abv: abv, standardDrinks: standardDrinks, units: units, given: given)
    }

    /// An existing drink (an entry being edited) with the given overrides.
    public static func adjusting(_ meta: AlcoholMeta, type: DrinkType?, sizeOz: Double?, abv: Double?,
                                 standardDrinks: Double?, units: VolumeUnit = .oz, given: String = "as given") -> DrinkEstimate {
        var result = resolve(base: Base(label: "the previous estimate", meta: meta), type: type, sizeOz: sizeOz, abv: abv,
                             standardDrinks: standardDrinks, units: units, given: given)
        result.meta.unknownFields = meta.unknownFields
        return result
    }

    /// `given` names the estimate when one is given: "as given", or the serving it comes from.
    static func resolve(base: Base?, type: DrinkType?, sizeOz: Double?, abv: Double?, standardDrinks: Double?,
                        units: VolumeUnit, given: String = "as given") -> DrinkEstimate {
        let drinkType = type ?? base?.meta.drinkType
        let size = sizeOz ?? base?.meta.sizeOz ?? (base == nil ? drinkType?.typicalSizeOz : nil)
        let givenABV = abv ?? base?.meta.abv
        // A drink of another type than its preset's is no longer that preset's drink: it
        // keeps no preset name that would misname it ("Beer" for a wine).
        let preset = type == nil || type == base?.meta.drinkType ? base?.meta : nil
        var meta = AlcoholMeta(drinkType: drinkType, sizeOz: size, abv: givenABV, standardDrinkEstimate: 1, presetId: preset?.presetId,
                               presetName: preset?.presetName)
        let reason: String
        var unused: [LedgerError.Input.Waterline] = []
        if let std = standardDrinks {
            meta.standardDrinkEstimate = std
            reason = given
        } else if let b = base, sizeOz == nil, abv == nil, type == nil || type == b.meta.drinkType {
            meta.standardDrinkEstimate = b.meta.standardDrinkEstimate
            reason = b.label
        } else if let s = size, let a = givenABV ?? drinkType?.typicalABV {
            let raw = s * a / 100 / ouncesOfAlcoholPerStandardDrink
            meta.standardDrinkEstimate = rounded(raw)
            let typical = givenABV == nil ? ", typical for \(drinkType!.rawValue)" : ""
            reason = "\(units.describe(ounces: s)) at \(format(a))% ABV\(typical)" + leastNote(raw)
        } else if let b = base, let s = size, let bs = b.meta.sizeOz, bs > 0 {
            let raw = b.meta.standardDrinkEstimate * s / bs
            meta.standardDrinkEstimate = rounded(raw)
            reason = "\(b.label) scaled to \(units.describe(ounces: s))" + leastNote(raw)
        } else {
            // Neither size × ABV nor a scaled base: a size or an ABV given did not count.
            if sizeOz != nil { unused.append(.size) }
            if abv != nil { unused.append(.abv) }
            if let b = base {
                meta.standardDrinkEstimate = b.meta.standardDrinkEstimate
                reason = b.label
            } else {
                meta.standardDrinkEstimate = 1
                reason = drinkType == nil ? "one standard drink" : "one standard drink, typical for a \(drinkType!.rawValue)"
            }
        }
        return DrinkEstimate(meta: meta, reason: reason, unused: unused)
    }

    /// Refuses an estimate worked out from the values given (size × ABV, or a preset scaled
    /// to a new size) that no single drink can have, naming the values that gave it.
    func check(given: [LedgerError.Sentence]) throws {
        guard meta.standardDrinkEstimate > AlcoholMeta.maximumEstimate else { return }
        let shown = CanonicalJSON.formatNumber(AlcoholMeta.maximumEstimate)
        let std = NumberText.fixed(meta.standardDrinkEstimate, decimals: 1)
        let values = given.dropFirst().reduce(given.first ?? "") { $0 + " and " + $1 }
        throw LedgerError.invalidArgument(values + " give \(std) standard drinks (\(reason)); "
            + "one entry counts at most \(shown): check the size, or say what it counts for with \(input: .waterline(.standardDrinks))")
    }

    /// The least a computed estimate counts.
    public static let minimumEstimate = 0.1

    /// An estimate rounded to 0.1, and never below `minimumEstimate`.
    static func rounded(_ x: Double) -> Double { max(minimumEstimate, (x * 10).rounded() / 10) }

    /// What the reason adds when `raw` rounds below the minimum (" is 0.0; a drink counts at
    /// least 0.1"), so that the text agrees with the number.
    static func leastNote(_ raw: Double) -> String {
        (raw * 10).rounded() / 10 < minimumEstimate ? " is \(NumberText.fixed((raw * 10).rounded() / 10, decimals: 1)); a drink counts at least \(format(minimumEstimate))" : ""
    }

    static func format(_ x: Double) -> String { CanonicalJSON.formatNumber(x) }
}
