import LedgerKit

/// Draws a `BrewFlow` as lines of text for a terminal of any size (made for 80 × 24, fine
/// without colour): what a brewer must read from a step away — the step's words, the scale
/// reading and the countdown — is in large type (`BigText`), as large as the terminal allows.
///
/// Every value from a document (recipe and step names, instructions, notes) is shown, never
/// obeyed: each line goes through `TerminalText`, so a control character in a hand-edited
/// file appears as `\u001b`; the only escape sequences written are the screen's own.
struct BrewScreen {
    var rows = 24
    var columns = 80
    /// Whether the terminal shows UTF-8 (block characters), else `#`.
    var unicode = true
    /// Whether bold and reverse video may be used.
    var color = false

    /// The screen for `flow` at `now`: exactly `rows` lines, none wider than `columns`. A line
    /// longer than the width goes on over the next lines (`fitted`), never cut; on a short
    /// terminal (fewer than `compactRows` rows) the rules go, and while brewing so does the
    /// line of locked inputs, so that the step and its numbers keep their room.
    func lines(_ flow: BrewFlow, at now: Timestamp) -> [String] {
        var footer: [Line]
        switch flow.phase {
        case .confirm where flow.dialog == .chooseRecipe:
            footer = [Line("  Press the number of the recipe to brew", .reverse), Line("  any other key: keep \(flow.plan.recipeName)")]
        case .confirm: footer = confirmFooter(flow)
        case .brewing: footer = brewingFooter(flow, now)
        case .finished, .done: footer = finishedFooter(flow)
        }
        if flow.dialog == .resumeOffer, let p = flow.progress { footer = resumeOffer(flow, p) }
        let compact = rows < Self.compactRows
        if compact, flow.phase == .brewing, flow.dialog == .none { footer = Array(footer.prefix(1)) }
        footer = fitted(footer)
        let message = fitted([flow.sentence(at: now).map { Line("» " + Words.text($0), .bold) } ?? Line("")])
        let rules = compact ? 0 : 2
        // Below the body: a spare line on a full-size screen, then the rule, the footer and the message.
        let below = footer.count + message.count + (compact ? 0 : 2)
        let available = max(0, rows - 1 - rules / 2 - below)
        var body: [Line]
        switch flow.phase {
        case .confirm where flow.dialog == .chooseRecipe: body = fitted(recipeChoices(flow))
        case .confirm: body = fitted(confirmBody(flow))
        case .brewing: body = brewingBody(flow, now, rows: available)
        case .finished, .done: body = fitted(finishedBody(flow))
        }
        let rule = Line(String(repeating: unicode ? "─" : "-", count: max(0, columns)), .dim)
        if body.count > available { body = Array(body.prefix(available)) }
        var out = [headerLine(flow, now)] + (compact ? [] : [rule]) + body
        while out.count < rows - footer.count - message.count - rules / 2 { out.append(Line("")) }
        out += (compact ? [] : [rule]) + footer + message
        return out.prefix(rows).map(render)
    }

    /// Terminals with fewer rows than this drop the rules (and, while brewing, the locked
    /// inputs) to keep the step's words and numbers large.
    static let compactRows = 20

    /// The offer to resume a brew in progress: what it is, how long it was left, the keys.
    func resumeOffer(_ flow: BrewFlow, _ p: BrewProgress) -> [Line] {
        var out = [Line("A brew is in progress: \(p.plan.recipeName), " + (p.isFinished ? "finished, not saved yet" : "step \(p.stepIndex + 1) of \(p.plan.steps.count)")
                        + ", started \(BrewText.when(p.startedAt)).", .bold)]
        if let away = flow.leftFor {
            out.append(Line("It was left \(BrewFormat.duration(away)) ago" + (p.isFinished ? "." : "; the time away is not counted.")))
        }
        out.append(Line("[enter] Resume it   [d] Discard it and start over   [q] Quit (it stays in progress)"))
        if let fresh = flow.startOver?.recipe { out.append(Line("Starting over brews \(fresh.name).", .dim)) }
        return out
    }

    // MARK: - Header

    func headerLine(_ flow: BrewFlow, _ now: Timestamp) -> Line {
        let left = " BrewGuide · " + flow.plan.recipeName
        var right: String
        switch flow.phase {
        case .confirm: right = "Confirm inputs "
        case .brewing:
            let p = flow.progress!
            right = "Step \(p.stepIndex + 1) of \(p.plan.steps.count) · brew clock \(BrewFormat.clock(Int(p.clock(at: now)))) "
        case .finished, .done:
            right = "Brew complete" + (flow.progress?.brewSeconds.map { " · \(BrewFormat.clock($0))" } ?? "") + " "
        }
        return Line(spread(left, right), .bold)
    }

    // MARK: - Confirm inputs

    func confirmBody(_ flow: BrewFlow) -> [Line] {
        let plan = flow.plan
        let setDose = plan.edited == .dose ? "  (set)" : plan.edited == .targetYield ? "  (from the yield)" : ""
        let setYield = plan.fixedStepWeights ? "  (the fixed steps' total)"
            : plan.edited == .targetYield ? "  (set)" : plan.edited == .dose ? "  (from the dose)" : ""
        // The recipe's ratio only when the plan's is it; a dose or yield rounded to the scale
        // gives a ratio of its own (at --yield 251 the starter's 1:16.7 is 1:16.6).
        let recipeRatio = flow.recipe.map { BrewFormat.ratio($0.defaultRatio) }
        let ratioNote = plan.fixedStepWeights ? "(the fixed steps' total ÷ the dose)"
            : recipeRatio == nil || recipeRatio == BrewFormat.ratio(plan.ratio) ? "(the recipe's ratio; last edited wins)"
            : "(yield ÷ dose; the recipe's is \(recipeRatio!))"
        var out = [
            Line("  [d] Dose          " + BrewFormat.dose(plan.dose) + setDose),
            Line("  [y] Target yield  " + BrewFormat.grams(plan.targetYield) + setYield),
            Line("      Ratio         " + BrewFormat.ratio(plan.ratio) + "   " + ratioNote),
            Line("  [t] Temperature   " + BrewFormat.temperature(plan.waterTemperature)),
            Line("  [g] Grind         " + plan.grindLabel.rawValue + " — " + plan.grindDescriptor),
            Line(""),
        ]
        if plan.warnings.isEmpty {
            out.append(Line("  Inputs are within the recommended V60 ranges.", .dim))
        } else {
            out += plan.warnings.map { Line("  ! " + $0, .bold) }
        }
        out.append(Line(""))
        out += plan.steps.map { Line("  " + BrewText.left(String($0.number), 2) + "  " + $0.headline) }
        return out
    }

    /// The recipes to change to, as `brew recipes` lists them: invalid ones marked `!` with
    /// their first problem (choosing one says why it cannot be brewed).
    func recipeChoices(_ flow: BrewFlow) -> [Line] {
        var out = [Line("  Change recipe", .bold), Line("")]
        for (i, e) in flow.choices.prefix(9).enumerated() {
            let mark = e.isSelected(by: flow.plan.recipeId) ? "*" : e.isValid ? " " : "!"
            let name = BrewText.pad(BrewText.truncate(BrewText.shown(e.name) + (e.isStarter ? " (starter)" : ""), 34), 34)
            let detail = e.recipe.map { r in
                "\(BrewFormat.dose(r.defaultDose)) · \(BrewFormat.grams(r.defaultTargetYield)) · \(BrewFormat.temperature(r.defaultWaterTemperature)) · \(r.defaultGrindLabel.rawValue)"
            } ?? "INVALID: " + BrewCommand.Recipes.describe(e.problems.first)
            out.append(Line(" \(mark)[\(i + 1)] " + name + "  " + detail))
        }
        if flow.choices.count > 9 {
            out.append(Line(""))
            out.append(Line("  and \(flow.choices.count - 9) more: quit (q) and run `ledger brew start NAME`", .dim))
        }
        if flow.choices.contains(where: { !$0.isValid }) {
            out.append(Line(""))
            out.append(Line("  ! invalid: " + BrewCommand.Recipes.invalidLegend(flow.choices) + ")", .dim))
        }
        return out
    }

    func confirmFooter(_ flow: BrewFlow) -> [Line] {
        if case .editing(let field, let text) = flow.dialog {
            return [Line("  " + field.label + ": " + text.text + (unicode ? "▏" : "_"), .reverse),
                    Line("  Type the new value, [enter] to set it, [escape] to cancel")]
        }
        return [Line("  [enter] Start brew   [c] Change recipe   [q] Quit", .bold),
                Line("  [d] [y] [t] Edit dose, yield, temperature   [g] Grind   [r] Reset to defaults")]
    }

    // MARK: - Brewing

    /// The step in large type as far as `rows` allow: its words, then the scale reading to
    /// reach and the countdown; the same in small text, the state of the timer and the next
    /// step. The numbers are what a brewer glances at: in large type side by side when the
    /// width allows, else the one that matters most for the step (the scale reading for a
    /// pour, the countdown for a wait) in large type with the other in small text; never left out.
    func brewingBody(_ flow: BrewFlow, _ now: Timestamp, rows: Int) -> [Line] {
        let p = flow.progress!
        let step = p.currentStep
        let caption = Line("  " + step.headline, .bold)
        let instruction = step.instruction.map { fitted([Line("  " + $0)]) } ?? []
        let quantity = step.kind.addsWater ? BrewFormat.number(step.totalWater) : ""
        let remaining = p.remainingSeconds(at: now)
        let timer = remaining.map(BrewFormat.clock) ?? ""
        let total = BrewFormat.clock(step.timerSeconds ?? 0)
        let pour = BrewFormat.grams(step.water)
        let left = remaining.map { "\(BrewFormat.clock($0)) left of \(total)" }
        // Labels under the large numbers, shorter on a narrow terminal.
        let labels = [
            (step.kind.addsWater ? "g on the scale (pour \(pour))" : "", left ?? ""),
            (step.kind.addsWater ? "g, pour \(pour)" : "", remaining == nil ? "" : "of \(total)"),
        ]
        let small = quantity.isEmpty && timer.isEmpty ? [] : fitted([Line("  " + (step.kind.addsWater ? "Scale: \(BrewFormat.grams(step.totalWater)) (pour \(pour))   " : "")
                                                                          + (left.map { "Timer: " + $0 } ?? ""))])
        // Both numbers large, side by side, each with its label under it.
        var both: [Line]?
        if !quantity.isEmpty || !timer.isEmpty {
            let leftBig = BigText.render(quantity, unicode: unicode), rightBig = BigText.render(timer, unicode: unicode)
            for (scaleLabel, timerLabel) in labels where both == nil {
                let leftWidth = quantity.isEmpty ? 0 : max(leftBig[0].count, scaleLabel.count) + 2
                let rightWidth = timer.isEmpty ? 0 : max(rightBig[0].count, timerLabel.count)
                let indent = min(2, columns - leftWidth - rightWidth)
                guard indent >= 0 else { continue }
                let pad = String(repeating: " ", count: indent)
                both = (0..<BigText.height).map { Line(pad + BrewText.pad(leftBig[$0], leftWidth) + rightBig[$0]) }
                    + [Line(pad + BrewText.pad(scaleLabel, leftWidth) + timerLabel)]
            }
        }
        // One number large: the scale reading for a pour, else the countdown; the rest small.
        var one: [Line]?
        if let primary = step.kind.addsWater ? quantity : timer.isEmpty ? nil : timer {
            let big = BigText.render(primary, unicode: unicode)
            if big[0].count + 2 <= columns { one = big.map { Line("  " + $0) } + small }
        }
        let status: Line
        if p.isPaused {
            status = Line("  PAUSED — press p to resume", .reverse)
        } else if p.isReady(at: now) {
            status = Line("  READY — press enter for the next step", .reverse)
        } else if let remaining, let total = step.timerSeconds, total > 0 {
            status = Line("  " + progressBar(Double(total - remaining) / Double(total), width: min(50, columns - 6)))
        } else {
            status = Line("  Press enter when done", .dim)
        }
        let next = fitted([Line("  " + (p.isLastStep ? "Next: the brew is complete" : "Next: " + p.plan.steps[p.stepIndex + 1].headline), .dim)])
        // The step's words in large type, when the font can draw them on at most three lines.
        let words = (BigText.words(step.headline, width: columns - 4, maxLines: 3, unicode: unicode) ?? []).map { Line("  " + $0, .bold) }
        let blank = [Line("")]
        let head = fitted([caption])
        let layouts: [[Line]?] = [
            both.map { words + head + instruction + blank + $0 + blank + [status] + next },
            words.isEmpty ? nil : words + head + instruction + small + [status] + next,
            both.map { head + instruction + blank + $0 + blank + [status] + blank + next },
            both.map { head + $0 + [status] + next },
            both.map { head + $0 + [status] },
            one.map { head + $0 + [status] },
            head + instruction + small + [status] + next,
            head + small + [status],
        ]
        let candidates = layouts.compactMap { $0 }
        return candidates.first { $0.count <= rows } ?? candidates.last!
    }

    func brewingFooter(_ flow: BrewFlow, _ now: Timestamp) -> [Line] {
        let locked = Line("  " + BrewText.summary(flow.plan) + " — locked while brewing", .dim)
        switch flow.dialog {
        case .restartConfirm:
            return [Line("  Restart the brew? Back to the start, timers reset.", .reverse),
                    Line("  [y] Yes (then hold r)   any other key: no")]
        case .restartHold(let hold):
            return [Line("  Hold r to restart  " + progressBar(hold.progress(at: now), width: 20), .reverse),
                    Line("  Keep r pressed for 1.5 seconds; any other key cancels")]
        case .leave:
            return [Line("  Leave the brew? It stays in progress: `ledger brew start` resumes it.", .reverse),
                    Line("  [l] Leave   [d] Discard the brew   any other key: stay")]
        default:
            let pause = flow.progress?.isPaused == true ? "[p] Resume" : "[p] Pause"
            return [Line("  [enter] Next step   \(pause)   [r] Restart   [q] Leave", .bold), locked]
        }
    }

    // MARK: - Post-brew

    func finishedBody(_ flow: BrewFlow) -> [Line] {
        guard let p = flow.progress else { return [] }
        let stars = p.rating.map { String(repeating: unicode ? "★" : "*", count: $0) + String(repeating: unicode ? "☆" : ".", count: 5 - $0) }
        var out = [
            Line("  " + BrewText.summary(p.plan)),
            Line(""),
            Line("  Rating  [1-5]   " + (p.rating.map { "\($0)/5 " + stars! } ?? "— choose 1 to 5")),
            Line("  Taste   [b s w t p, x clears]   " + (p.tasteTag?.title ?? "—")),
            Line("          b too bitter · s too sour · w too weak · t too strong · p perfect", .dim),
        ]
        let noteWidth = max(20, columns - 20)
        if case .note(let field) = flow.dialog {
            let wrapped = wrap(BrewText.shown(field.text) + (unicode ? "▏" : "_"), width: noteWidth)
            out.append(Line("  Note    (\(field.text.count)/\(BrewLog.maximumNoteLength))  " + wrapped[0], .reverse))
            out += wrapped.dropFirst().prefix(4).map { Line(String(repeating: " ", count: 18) + $0, .reverse) }
        } else {
            let wrapped = wrap(BrewText.shown(p.note ?? "—"), width: noteWidth)
            out.append(Line("  Note    [n]   " + wrapped[0]))
            out += wrapped.dropFirst().prefix(4).map { Line(String(repeating: " ", count: 16) + $0) }
        }
        out.append(Line(""))
        if let t = p.tasteTag { out.append(Line("  " + BrewText.hint(t), .bold)) }
        return out
    }

    func finishedFooter(_ flow: BrewFlow) -> [Line] {
        switch flow.dialog {
        case .note:
            return [Line("  Type the note, [enter] to keep it, [escape] to cancel"), Line("")]
        case .discardConfirm:
            return [Line("  Discard this brew without saving a log?", .reverse), Line("  [y] Discard   any other key: no")]
        case .leave:
            return [Line("  Leave? The brew stays unsaved until `ledger brew start` resumes it.", .reverse),
                    Line("  [l] Leave   [d] Discard the brew   any other key: stay")]
        default:
            return [Line("  [enter] Save brew   [d] Discard   [q] Leave", .bold), Line("")]
        }
    }

    // MARK: - Pieces

    func progressBar(_ fraction: Double, width: Int) -> String {
        let w = max(1, width)
        let filled = Int((min(1, max(0, fraction)) * Double(w)).rounded())
        return "[" + String(repeating: unicode ? "█" : "#", count: filled) + String(repeating: unicode ? "░" : ".", count: w - filled) + "]"
    }

    /// `left` and `right` at the two ends of a line; when they do not both fit, `left` gives
    /// way (the step and the brew clock stay whole).
    func spread(_ left: String, _ right: String) -> String {
        let room = columns - right.count - 1
        guard room >= 1 else { return BrewText.truncate(right, columns) }
        return BrewText.pad(BrewText.truncate(left, room), room) + " " + right
    }

    /// `lines` as they fit the width: a longer line goes on over the next lines, at word
    /// boundaries, indented as it was. (Large type is drawn only where it fits.)
    func fitted(_ lines: [Line]) -> [Line] {
        lines.flatMap { line -> [Line] in
            let text = BrewText.shown(line.text)
            guard text.count > columns else { return [line] }
            let indent = String(text.prefix { $0 == " " })
            return wrap(String(text.dropFirst(indent.count)), width: max(8, columns - indent.count)).map { Line(indent + $0, line.emphasis) }
        }
    }

    func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty, current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
            while current.count > width {
                lines.append(String(current.prefix(width)))
                current = String(current.dropFirst(width))
            }
        }
        lines.append(current)
        return lines
    }

    /// One line of the screen and how it is emphasised.
    struct Line {
        enum Emphasis { case plain, bold, dim, reverse }
        var text: String
        var emphasis: Emphasis

        init(_ text: String, _ emphasis: Emphasis = .plain) {
            self.text = text
            self.emphasis = emphasis
        }
    }

    /// Stand-ins for the few non-ASCII characters used, on terminals that are not UTF-8.
    static let ascii: [(String, String)] = [("—", "-"), ("–", "-"), ("·", "|"), ("°C", "C"), ("…", "..."), ("»", ">"), ("─", "-")]

    /// One line of the screen: its text shown safely, fitted to the width, then emphasised
    /// with the screen's own escape sequences on a colour terminal.
    func render(_ line: Line) -> String {
        var text = BrewText.shown(line.text)
        if !unicode { for (u, a) in Self.ascii { text = text.replacingOccurrences(of: u, with: a) } }
        text = BrewText.truncate(text, columns)
        if !unicode { text = text.replacingOccurrences(of: "…", with: "~") }
        guard color else { return text }
        switch line.emphasis {
        case .plain: return text
        case .bold: return "\u{1B}[1m" + text + "\u{1B}[0m"
        case .dim: return "\u{1B}[2m" + text + "\u{1B}[0m"
        case .reverse: return "\u{1B}[7m" + text + "\u{1B}[0m"
        }
    }
}

/// Which `BrewEvent` a key means on the current screen.
enum BrewKeys {
    static func event(for key: Key, in flow: BrewFlow, at now: Timestamp) -> BrewEvent? {
        let c: Character? = if case .char(let ch) = key { ch } else { nil }
        let lower = c.map { Character($0.lowercased()) }
        if lower == "r", flow.heldAfterRestart?.isHeld(at: now) == true { return .holdRestart }
        switch flow.dialog {
        case .resumeOffer:
            if key == .enter || c == " " || lower == "r" { return .confirm }
            if lower == "d" { return .discardBrew }
            if lower == "q" || key == .escape || key == .interrupt { return .leave }
            return nil
        case .editing, .note:
            switch key {
            case .enter: return .confirm
            case .escape, .interrupt: return .cancel
            case .backspace: return .deleteBackward
            case .char(let ch): return .type(ch)
            case .other: return nil
            }
        case .restartConfirm, .discardConfirm:
            return lower == "y" ? .confirm : .cancel
        case .restartHold:
            return lower == "r" ? .holdRestart : .cancel
        case .chooseRecipe:
            if let c, c.isASCII, let n = c.wholeNumberValue, n >= 1 { return .chooseRecipe(n - 1) }
            return .cancel
        case .leave:
            if lower == "l" { return .leaveKeepingBrew }
            if lower == "d" { return .discardBrew }
            return .cancel
        case .none:
            break
        }
        if key == .interrupt || key == .escape || lower == "q" { return .leave }
        switch flow.phase {
        case .confirm:
            if key == .enter || c == " " || lower == "s" { return .start }
            switch lower {
            case "d": return .edit(.dose)
            case "y": return .edit(.targetYield)
            case "t": return .edit(.waterTemperature)
            case "g": return .cycleGrind
            case "r": return .resetInputs
            case "c": return .changeRecipe
            default: return nil
            }
        case .brewing:
            if key == .enter || c == " " || lower == "n" { return .next }
            switch lower {
            case "p": return .togglePause
            case "r": return .restart
            case "d": return .edit(.dose)
            case "y": return .edit(.targetYield)
            case "t": return .edit(.waterTemperature)
            case "g": return .cycleGrind
            default: return nil
            }
        case .finished:
            if key == .enter { return .save }
            if let c, let n = c.wholeNumberValue, c.isASCII { return (1...5).contains(n) ? .rate(n) : nil }
            switch lower {
            case "b": return .tag(.tooBitter)
            case "s": return .tag(.tooSour)
            case "w": return .tag(.tooWeak)
            case "t": return .tag(.tooStrong)
            case "p": return .tag(.perfect)
            case "x": return .clearTag
            case "n": return .editNote
            case "d": return .discard
            default: return nil
            }
        case .done:
            return nil
        }
    }
}
