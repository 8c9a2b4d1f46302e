import ArgumentParser
import LedgerKit

/// The confirm-inputs values a command line may give (`plan`, `start`, `save`).
struct BrewInputOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Coffee dose in grams; the yield follows from the recipe's ratio.", valueName: "grams"), transform: DecimalNumber.parse)
    var dose: Double?

    @Option(name: .customLong("yield"), parsing: .unconditional, help: ArgumentHelp("Target yield (water) in grams; the dose follows from the recipe's ratio.", valueName: "grams"), transform: DecimalNumber.parse)
    var targetYield: Double?

    @Option(name: .customLong("temp"), parsing: .unconditional, help: ArgumentHelp("Water temperature in °C.", valueName: "celsius"), transform: DecimalNumber.parse)
    var temperature: Double?

    @Option(help: ArgumentHelp("Grind label: fine, medium or coarse.", valueName: "label"), transform: GrindValue.parse)
    var grind: GrindValue?

    @Flag(help: "Forget the remembered inputs and start from the recipe's defaults.")
    var reset = false

    init() {}

    /// The values given, for what depends on them.
    var given: BrewInputsGiven { BrewInputsGiven(dose: dose, targetYield: targetYield, temperature: temperature, grind: grind, reset: reset) }

    func inputs(exclusive: Bool) throws -> BrewInputs { try given.inputs(exclusive: exclusive) }
}

/// The confirm-inputs values as given (`BrewInputOptions` without argument-parser's wrappers,
/// for `save`'s quick reading).
struct BrewInputsGiven {
    var dose: Double?
    var targetYield: Double?
    var temperature: Double?
    var grind: GrindValue?
    var reset: Bool

    /// The values given, checked; `exclusive` refuses a dose together with a yield.
    func inputs(exclusive: Bool) throws -> BrewInputs {
        if exclusive, dose != nil, targetYield != nil {
            throw LedgerError.usage("give --dose or --yield, not both: the other follows from the recipe's ratio (the last one you set wins)")
        }
        var i = BrewInputs()
        i.dose = dose
        i.targetYield = targetYield
        i.waterTemperature = temperature
        if let grind { i.grindLabel = grind.label }
        if let problem = i.impossibleValues().first { throw LedgerError.usage(problem) }
        return i
    }
}

/// `--grind`: fine, medium or coarse.
struct GrindValue: OptionValue {
    let label: GrindLabel

    static func parse(_ text: String) throws -> GrindValue {
        if let g = GrindLabel(rawValue: text.lowercased()) { return GrindValue(label: g) }
        throw BrewArguments.notOneOf(GrindLabel.allCases.map(\.rawValue), text)
    }
}

/// `--tag`: a taste tag.
struct TasteTagValue: OptionValue {
    let tag: TasteTag

    static func parse(_ text: String) throws -> TasteTagValue {
        if let t = TasteTag(lenient: text) { return TasteTagValue(tag: t) }
        throw BrewArguments.notOneOf(TasteTag.allCases.map(\.rawValue), text)
    }
}

/// `--rating`: how a brew turned out, 1 to 5.
struct RatingValue: OptionValue {
    let rating: Int

    static func parse(_ text: String) throws -> RatingValue {
        guard let n = Int(text) else { throw OptionProblem(text: "must be a whole number from 1 to 5 (found \"\(text)\")") }
        if let problem = BrewLog.ratingProblem(n) { throw OptionProblem(text: problem, joiner: ": ") }
        return RatingValue(rating: n)
    }
}

/// Parsing BrewGuide's argument values with messages that list what is allowed.
enum BrewArguments {
    /// "must be one of fine, medium, coarse (found "x"); did you mean …?"
    static func notOneOf(_ all: [String], _ text: String) -> OptionProblem {
        OptionProblem(text: "must be one of \(all.joined(separator: ", ")) (found \"\(text)\")\(Suggestion.didYouMean(text, among: all))")
    }

    /// A timer: `45`, `0:45` or `1:30` (seconds, or minutes:seconds), from 0 to a day.
    static func seconds(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let seconds: Int
        if parts.count == 1 {
            guard let s = Int(text) else { return nil }
            seconds = s
        } else {
            guard parts.count == 2, parts[0].count <= 4, let m = Int(parts[0]), let s = Int(parts[1]), parts[1].count == 2, s < 60, m >= 0
            else { return nil }
            seconds = m * 60 + s
        }
        return BrewLimits.timerSeconds.contains(seconds) ? seconds : nil
    }

    /// Grams of water for a step, from 0 to the largest yield.
    static func stepGrams(_ text: String) -> Double? {
        guard let g = NumberText.decimal(text), g >= 0, g <= BrewLimits.yield.upperBound else { return nil }
        return g
    }
}
