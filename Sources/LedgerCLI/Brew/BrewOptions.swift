import ArgumentParser
import LedgerKit

/// The confirm-inputs values a command line may give (`plan`, `start`, `save`).
struct BrewInputOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Coffee dose in grams; the yield follows from the recipe's ratio.", valueName: "grams"))
    var dose: Double?

    @Option(name: .customLong("yield"), parsing: .unconditional, help: ArgumentHelp("Target yield (water) in grams; the dose follows from the recipe's ratio.", valueName: "grams"))
    var targetYield: Double?

    @Option(name: .customLong("temp"), parsing: .unconditional, help: ArgumentHelp("Water temperature in °C.", valueName: "celsius"))
    var temperature: Double?

    @Option(help: ArgumentHelp("Grind label: fine, medium or coarse.", valueName: "label"))
    var grind: String?

    @Flag(help: "Forget the remembered inputs and start from the recipe's defaults.")
    var reset = false

    init() {}

    /// The values given, checked; `exclusive` refuses a dose together with a yield.
    func inputs(exclusive: Bool) throws -> BrewInputs {
        if exclusive, dose != nil, targetYield != nil {
            throw LedgerError.usage("give --dose or --yield, not both: the other follows from the recipe's ratio (the last one you set wins)")
        }
        var i = BrewInputs()
        i.dose = dose
        i.targetYield = targetYield
        i.waterTemperature = temperature
        if let grind { i.grindLabel = try BrewArguments.grind(grind) }
        if let problem = i.impossibleValues().first { throw LedgerError.usage(problem) }
        return i
    }
}

/// Parsing BrewGuide's argument values with messages that list what is allowed.
enum BrewArguments {
    static func grind(_ text: String) throws -> GrindLabel {
        if let g = GrindLabel(rawValue: text.lowercased()) { return g }
        let all = GrindLabel.allCases.map(\.rawValue)
        throw LedgerError.usage("--grind must be one of \(all.joined(separator: ", ")) (found \"\(text)\")\(Suggestion.didYouMean(text, among: all))")
    }

    static func tag(_ text: String) throws -> TasteTag {
        if let t = TasteTag(lenient: text) { return t }
        let all = TasteTag.allCases.map(\.rawValue)
        throw LedgerError.usage("--tag must be one of \(all.joined(separator: ", ")) (found \"\(text)\")\(Suggestion.didYouMean(text, among: all))")
    }

    /// The longest step timer a flag may set, seconds (a day).
    static let maximumTimerSeconds = 86_400

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
        return (0...maximumTimerSeconds).contains(seconds) ? seconds : nil
    }

    /// Grams of water for a step, from 0 to the largest yield.
    static func stepGrams(_ text: String) -> Double? {
        guard let g = Double(text), g >= 0, g <= BrewLimits.yield.upperBound else { return nil }
        return g
    }
}

/// Text shared by the brew commands.
enum BrewText {
    /// The lines of a plan's steps: number, headline, water, scale total and timer.
    static func steps(_ plan: BrewPlan, indent: String = "  ") -> [String] {
        let width = min(46, max(24, plan.steps.map(\.headline.count).max() ?? 0))
        func row(_ number: String, _ text: String, _ water: String, _ scale: String, _ timer: String) -> String {
            let line = indent + left(number, 2) + (number.isEmpty ? "  " : ". ") + pad(truncate(text, width), width) + "  " + left(water, 6)
                + "  " + left(scale, 6) + "  " + left(timer, 5)
            return String(line.reversed().drop { $0 == " " }.reversed())
        }
        var lines = [Style.dim(row("", "Step", "Water", "Scale", "Timer"))]
        for s in plan.steps {
            let water = s.kind.addsWater ? BrewFormat.grams(s.water) : ""
            let scale = s.kind.addsWater ? BrewFormat.grams(s.totalWater) : ""
            lines.append(row(String(s.number), s.headline, water, scale, s.timerSeconds.map(BrewFormat.clock) ?? ""))
            if let i = s.instruction { lines.append(indent + "    " + Style.dim(i)) }
        }
        return lines
    }

    /// The inputs block of the confirm-inputs screen.
    static func inputs(_ plan: BrewPlan, indent: String = "  ") -> [String] {
        let doseNote = plan.edited == .dose
            ? (plan.fixedStepWeights ? "  (set; the ratio follows from the fixed steps)" : "  (set; the yield follows the recipe's ratio)")
            : plan.edited == .targetYield ? "  (from the yield and the recipe's ratio)" : ""
        let yieldNote = plan.fixedStepWeights ? "  (the fixed steps' total)"
            : plan.edited == .targetYield ? "  (set; the dose follows the recipe's ratio)"
            : plan.edited == .dose ? "  (from the dose and the recipe's ratio)" : ""
        return [
            indent + "Dose          " + BrewFormat.dose(plan.dose) + Style.dim(doseNote),
            indent + "Target yield  " + BrewFormat.grams(plan.targetYield) + Style.dim(yieldNote),
            indent + "Ratio         " + BrewFormat.ratio(plan.ratio),
            indent + "Temperature   " + BrewFormat.temperature(plan.waterTemperature),
            indent + "Grind         " + plan.grindLabel.rawValue + " — " + plan.grindDescriptor,
        ]
    }

    /// "V60 starter · 20.0 g · 333 g · 1:16.7 · 94 °C · medium".
    static func summary(_ plan: BrewPlan) -> String {
        [plan.recipeName, BrewFormat.dose(plan.dose), BrewFormat.grams(plan.targetYield), BrewFormat.ratio(plan.ratio),
         BrewFormat.temperature(plan.waterTemperature), plan.grindLabel.rawValue].joined(separator: " · ")
    }

    /// The hint line for a tag: "Hint (too sour): try slightly finer or hotter".
    static func hint(_ tag: TasteTag) -> String { "Hint (\(tag.title)): \(tag.hint)" }

    /// `2026-11-21 08:12`.
    static func when(_ t: Timestamp) -> String {
        let l = t.local
        return l.date.description + " " + two(l.hour) + ":" + two(l.minute)
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }

    static func left(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }

    static func truncate(_ s: String, _ width: Int) -> String {
        s.count <= width ? s : String(s.prefix(max(0, width - 1))) + "…"
    }
}
