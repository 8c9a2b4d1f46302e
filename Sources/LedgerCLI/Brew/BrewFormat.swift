import LedgerKit

/// How BrewGuide's values are shown in the terminal.
enum BrewText {
    // MARK: - Words for LedgerKit's inputs and steps (see `Words`)

    /// The flag that gives a brew's input.
    static func flag(_ input: LedgerError.Input.Brew) -> String {
        switch input {
        case .dose: "--dose"
        case .targetYield: "--yield"
        case .waterTemperature: "--temp"
        }
    }

    /// The command that takes a BrewGuide step, in its sentence's place.
    static func command(_ step: LedgerError.NextStep.Brew) -> String {
        switch step {
        case .listRecipes: "`ledger brew recipes` lists them"
        case .duplicateRecipe(let id): "duplicate it and edit the copy: `ledger brew recipe duplicate \(id)`"
        case .makeRecipe: "`ledger brew recipe duplicate \(Recipe.starterID)` makes one"
        case .editRecipe(let id): "`ledger brew recipe edit \(id) --editor`"
        case .fitSteps: "change the steps with --step-water, or pass --scale-steps to scale them to the new yield"
        case .changeRemembered: "give --dose or --yield, or --reset to go back to the recipe's defaults"
        }
    }

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

    /// `text` as the terminal will show it (`TerminalText`: control characters written out),
    /// for measuring and laying out a value from a document before it is printed.
    static func shown(_ text: String) -> String { TerminalText.render(text, color: false) }

    static func pad(_ s: String, _ width: Int) -> String { s.padded(to: width) }

    static func left(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }

    static func truncate(_ s: String, _ width: Int) -> String {
        s.count <= width ? s : String(s.prefix(max(0, width - 1))) + "…"
    }

    /// A log in one line: "V60 starter · 20.0 g · 333 g · 1:16.7 · 94 °C · medium · rated 4/5 · too sour".
    static func summary(_ log: BrewLog) -> String {
        var parts = [log.recipeName, BrewFormat.dose(log.dose), BrewFormat.grams(log.targetYield), BrewFormat.ratio(log.ratio),
                     BrewFormat.temperature(log.waterTemperature), log.grindLabel.rawValue, "rated \(log.rating)/5"]
        if let t = log.tasteTag { parts.append(t.title) }
        return parts.joined(separator: " · ")
    }
}

/// BrewGuide's values in `--json` output.
enum BrewJSON {
    /// A log with its ratio and hint.
    static func log(_ log: BrewLog) -> JSONValue {
        guard case .object(var o) = log.json else { return log.json }
        o["ratio"] = .number(log.ratio)
        o["hint"] = log.hint.map(JSONValue.string) ?? .null
        return .object(o)
    }

    /// A recipe as `brew recipes --json` lists it.
    static func recipe(_ e: RecipeEntry, selected: Bool) -> JSONValue {
        var o: JSONObject = ["id": .string(e.id), "name": .string(e.name), "starter": .bool(e.isStarter), "valid": .bool(e.isValid),
                             "selected": .bool(selected), "path": e.path.map(JSONValue.string) ?? .null]
        if let r = e.recipe {
            o["method"] = r.method.json
            o["defaultDose"] = r.defaultDose.json
            o["defaultTargetYield"] = r.defaultTargetYield.json
            o["ratio"] = .number((r.defaultRatio * 10).rounded() / 10)
            o["defaultWaterTemperature"] = r.defaultWaterTemperature.json
            o["defaultGrindLabel"] = r.defaultGrindLabel.json
            o["fixedStepWeights"] = .bool(r.fixedStepWeights)
        }
        o["problems"] = .array(e.problems.map(\.json))
        return .object(o)
    }
}
