import Foundation

/// A value as the person gave it, with the input and the words they gave it in, so that a
/// refusal can name them ("size 60 and ABV 40 give 40.0 standard drinks"; on the command
/// line, "--size 60 and --abv 40 …").
public struct Given<Value: Sendable>: Sendable {
    /// The value read from the words.
    public var value: Value
    /// What it was given as (the size, or a setting's name).
    public var input: LedgerError.Input
    /// The words (`330ml`).
    public var text: String

    public init(_ value: Value, input: LedgerError.Input, text: String) {
        self.value = value
        self.input = input
        self.text = text
    }

    /// `size 330ml`.
    var wording: LedgerError.Sentence { "\(input: input) \(text)" }

    /// A refusal of this value: "`input` `problem` (found "text")".
    func refused(_ problem: String) -> LedgerError {
        .invalidArgument("\(input: input) \(problem) (found \"\(text)\")")
    }
}

/// A volume as typed: an amount, with the unit it was written in (`330ml`, `8oz`) or none
/// (then it is in the user's units).
public struct Volume: Sendable, Equatable {
    public var amount: Double
    public var unit: VolumeUnit?

    public init(_ amount: Double, _ unit: VolumeUnit?) {
        self.amount = amount
        self.unit = unit
    }

    /// The units a volume may be written in, with what one of them is in a `VolumeUnit`: a
    /// European menu's litres, centilitres and decilitres are millilitres.
    static let writtenUnits: [(suffix: String, unit: VolumeUnit, factor: Double)] = [
        ("ml", .ml, 1), ("cl", .ml, 10), ("dl", .ml, 100), ("l", .ml, 1000), ("oz", .oz, 1),
    ]

    /// `250`, `250ml`, `33cl`, `0.5l`, `8 oz`, `8.5oz`: a positive, finite amount; nil
    /// otherwise. Litres, centilitres and decilitres are kept as millilitres (`33cl` is 330 ml).
    public init?(parsing text: String) {
        var t = text.trimmingWhitespace().lowercased()
        var unit: VolumeUnit?
        var factor = 1.0
        if let written = Self.writtenUnits.first(where: { t.hasSuffix($0.suffix) }) {
            (unit, factor) = (written.unit, written.factor)
            t = String(t.dropLast(written.suffix.count)).trimmingWhitespace()
        }
        guard let v = NumberText.decimal(t), v.isFinite, v > 0, (v * factor).isFinite else { return nil }
        self.init(v * factor, unit)
    }

}

/// A drink's size as the person gives it: a volume, or a serving named for the drink type
/// (US-012: "beer: 12oz/16oz/pint; wine: 5oz/glass; liquor: 1.5oz/double 3oz; cocktail:
/// standard/strong").
public enum DrinkSize: Sendable, Equatable {
    case volume(Volume)
    case serving(Serving)

    /// A named serving of one drink type: a size in ounces, or (cocktails, whose size says
    /// little) a number of standard drinks.
    public struct Serving: Sendable, Equatable {
        public var name: String
        public var drinkType: DrinkType
        public var sizeOz: Double?
        public var standardDrinks: Double?
    }

    /// The servings, by drink type. A US pint is 16 oz.
    public static let servings: [Serving] = [
        Serving(name: "bottle", drinkType: .beer, sizeOz: 12),
        Serving(name: "can", drinkType: .beer, sizeOz: 12),
        Serving(name: "pint", drinkType: .beer, sizeOz: 16),
        Serving(name: "glass", drinkType: .wine, sizeOz: 5),
        Serving(name: "shot", drinkType: .liquor, sizeOz: 1.5),
        Serving(name: "double", drinkType: .liquor, sizeOz: 3),
        Serving(name: "standard", drinkType: .cocktail, standardDrinks: 1),
        Serving(name: "strong", drinkType: .cocktail, standardDrinks: 2),
    ]

    /// "pint, bottle or can" — the servings of `type`, for messages and help.
    public static func servingNames(for type: DrinkType) -> String {
        let names = servings.filter { $0.drinkType == type }.map(\.name)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
    }

    /// A volume (`12`, `330ml`) or a serving's name (`pint`, any case); nil otherwise.
    public init?(parsing text: String) {
        let name = text.trimmingWhitespace().lowercased()
        if let s = Self.servings.first(where: { $0.name == name }) {
            self = .serving(s)
        } else if let v = Volume(parsing: text) {
            self = .volume(v)
        } else {
            return nil
        }
    }

    /// What the size says about a drink of type `type` (nil: not known yet), with a bare
    /// number in `units`: its size in ounces and, for a cocktail serving, its estimate; and
    /// the drink type a serving implies when none was given. Refuses a size out of range
    /// (more than 0, at most 2 litres) and a serving of another drink type.
    static func resolve(_ given: Given<DrinkSize>, type: DrinkType?, units: VolumeUnit) throws
        -> (sizeOz: Double?, standardDrinks: Double?, drinkType: DrinkType?) {
        switch given.value {
        case .serving(let s):
            if let type, type != s.drinkType {
                throw given.refused("is a serving of \(s.drinkType.rawValue), not \(type.rawValue); a \(type.rawValue)'s servings are \(servingNames(for: type)), or give a size like 12 or 330ml")
            }
            return (s.sizeOz, s.standardDrinks, s.drinkType)
        case .volume(let v):
            // Converted sizes keep hundredths of an ounce, so that 25 ml reads back as 25 ml.
            let oz = (v.unit ?? units) == .oz ? v.amount : VolumeUnit.oz.kept(v.amount, from: v.unit ?? units)
            guard WaterMeta.withinLimit(oz, .oz) else { throw given.refused("must be \(WaterMeta.limit)") }
            return (oz, nil, type)
        }
    }
}
