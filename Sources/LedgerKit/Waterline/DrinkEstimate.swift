/// How a drink's standard-drink estimate is chosen from what the user said (US-012).
///
/// A US standard drink holds 0.6 fl oz of pure alcohol, so a serving of `s` ounces at `a` %
/// ABV is `s × a / 100 / 0.6` standard drinks (12 oz beer at 5 % = 1.0, a 3 oz double at
/// 40 % = 2.0). In order of precedence:
/// 1. an explicit estimate (`--std`) is used as given;
/// 2. a preset's estimate, when neither size nor ABV is overridden;
/// 3. size × ABV, from the flags, the preset or the drink type's typical serving and ABV;
/// 4. a preset's estimate scaled by a new size (16 oz of a 12 oz 1.0 beer is 1.3);
/// 5. otherwise one standard drink (a cocktail, or a plain "+ Drink").
/// Computed estimates are rounded to 0.1.
public struct DrinkEstimate: Sendable, Equatable {
    /// The alcohol meta to record.
    public var meta: AlcoholMeta
    /// How the estimate was reached, for the user ("16 oz at 5% ABV, typical for beer").
    public var reason: String

    /// US fluid ounces of pure alcohol in one standard drink.
    public static let ouncesOfAlcoholPerStandardDrink = 0.6

    /// Resolves a drink from a preset and/or explicit values.
    public static func resolve(preset: DrinkPreset?, type: DrinkType?, sizeOz: Double?, abv: Double?,
                               standardDrinks: Double?) -> DrinkEstimate {
        let drinkType = type ?? preset?.drinkType
        let size = sizeOz ?? preset?.sizeOz ?? (preset == nil ? drinkType?.typicalSizeOz : nil)
        let givenABV = abv ?? preset?.abv
        var meta = AlcoholMeta(drinkType: drinkType, sizeOz: size, abv: givenABV, standardDrinkEstimate: 1, presetId: preset?.id)
        let reason: String
        if let std = standardDrinks {
            meta.standardDrinkEstimate = std
            reason = "as given"
        } else if let p = preset, sizeOz == nil, abv == nil {
            meta.standardDrinkEstimate = p.standardDrinkEstimate
            reason = "preset \(p.name)"
        } else if let s = size, let a = givenABV ?? drinkType?.typicalABV {
            meta.standardDrinkEstimate = rounded(s * a / 100 / ouncesOfAlcoholPerStandardDrink)
            let typical = givenABV == nil ? ", typical for \(drinkType!.rawValue)" : ""
            reason = "\(format(s)) oz at \(format(a))% ABV\(typical)"
        } else if let p = preset, let s = size, let ps = p.sizeOz, ps > 0 {
            meta.standardDrinkEstimate = rounded(p.standardDrinkEstimate * s / ps)
            reason = "preset \(p.name) scaled to \(format(s)) oz"
        } else if let p = preset {
            meta.standardDrinkEstimate = p.standardDrinkEstimate
            reason = "preset \(p.name)"
        } else {
            meta.standardDrinkEstimate = 1
            reason = drinkType == nil ? "one standard drink" : "one standard drink, typical for a \(drinkType!.rawValue)"
        }
        return DrinkEstimate(meta: meta, reason: reason)
    }

    /// An estimate rounded to 0.1, and never below 0.1.
    static func rounded(_ x: Double) -> Double { max(0.1, (x * 10).rounded() / 10) }

    static func format(_ x: Double) -> String { CanonicalJSON.formatNumber(x) }
}
