import ArgumentParser
import LedgerKit

// MARK: - Values with units and ranges

/// `--size`: a volume (in the user's units unless it carries one) or a serving's name.
struct DrinkSizeValue: OptionValue {
    let given: Given<DrinkSize>

    static func parse(_ text: String) throws -> DrinkSizeValue {
        DrinkSizeValue(given: try WaterlineText.parseSize(text))
    }
}

/// `--amount`: water, in the user's units unless it carries one.
struct WaterAmountValue: OptionValue {
    let given: Given<Volume>

    static func parse(_ text: String) throws -> WaterAmountValue {
        WaterAmountValue(given: try WaterlineText.parseVolume(text, input: .amount))
    }
}

/// `--abv`: a percentage from 0 to 100 (`5`, `5%`).
struct ABVValue: OptionValue {
    let given: Given<Double>

    static func parse(_ text: String) throws -> ABVValue { ABVValue(given: try WaterlineText.parseABV(text)) }
}

/// `--std`: a number of standard drinks, more than 0 and at most `AlcoholMeta.maximumEstimate`.
struct StandardDrinksValue: OptionValue {
    let count: Double

    static func parse(_ text: String) throws -> StandardDrinksValue {
        StandardDrinksValue(count: try WaterlineText.parseStandardDrinks(text))
    }
}

/// `--type`: beer, wine, liquor or cocktail (any case).
struct DrinkTypeValue: OptionValue {
    let given: Given<DrinkType>

    static func parse(_ text: String) throws -> DrinkTypeValue { DrinkTypeValue(given: try WaterlineText.parseType(text)) }
}

// MARK: - The drink options

/// What describes a drink — `--type`, `--size`, `--abv`, `--std` — for `drink`, `edit` and
/// the presets' `add` and `edit`.
struct DrinkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("beer, wine, liquor or cocktail.", valueName: "type"), transform: DrinkTypeValue.parse)
    var type: DrinkTypeValue?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Serving size in your units, with a unit (330ml, 33cl, 0.5l, 12oz), or a serving (pint, glass, double, …).", valueName: "size"),
            transform: DrinkSizeValue.parse)
    var size: DrinkSizeValue?

    @Option(parsing: .unconditional, help: ArgumentHelp("Alcohol by volume, in percent.", valueName: "pct"), transform: ABVValue.parse)
    var abv: ABVValue?

    @Option(name: .customLong("std"), parsing: .unconditional,
            help: ArgumentHelp("Standard drinks it counts for (a double is 2; estimated from the preset, or size × ABV, when left out).", valueName: "n"),
            transform: StandardDrinksValue.parse)
    var standardDrinks: StandardDrinksValue?
}

extension DrinkOptions {
    /// The values given, for what depends on them.
    var values: DrinkValues { DrinkValues(type: type, size: size, abv: abv, standardDrinks: standardDrinks) }
}

/// `--type`, `--size`, `--abv` and `--std` as given (`DrinkOptions` without argument-parser's
/// wrappers, for `drink`'s quick reading).
struct DrinkValues {
    var type: DrinkTypeValue?
    var size: DrinkSizeValue?
    var abv: ABVValue?
    var standardDrinks: StandardDrinksValue?

    /// Says, on stderr, which of these values the estimate could not use and why (`DrinkEstimate.unused`):
    /// "ledger: note: --abv 40 was not used: an ABV counts only with a size …".
    func sayUnused(_ estimate: DrinkEstimate?) {
        for input in estimate?.unused ?? [] {
            switch input {
            case .size:
                Console.error("ledger: note: --size \(size?.given.text ?? "") was not used: a size counts only with an ABV, "
                    + "or a --type whose typical ABV it takes (give --abv or --type too, or --std)")
            case .abv:
                Console.error("ledger: note: --abv \(abv?.given.text ?? "") was not used: an ABV counts only with a size, "
                    + "and this drink has none (give --size too, or --std)")
            default:
                continue
            }
        }
    }
}
