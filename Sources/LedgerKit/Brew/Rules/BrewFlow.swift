/// The guided brew (BrewGuide §3.6): confirm inputs → brew step by step → post-brew screen,
/// as a state machine driven by events and a clock.
///
/// It knows nothing of terminals: a front end maps its keys or buttons to `BrewEvent`s, calls
/// `handle(_:at:)` with the current time and carries out the returned `BrewEffect`s (persist
/// the brew in progress, remember the inputs, save the log, exit). It draws from `phase`,
/// `dialog`, `plan`, `progress` and `message(at:)`; timers are read from `progress` at the
/// current time, so a `.tick` is only needed to expire messages and release a hold.
///
/// Rules: inputs are editable until Start, then locked until the brew completes or restarts;
/// Next always moves on (a timer at zero shows "ready" and waits for it) except while paused;
/// Restart needs a confirmation and then a press-and-hold; leaving a started brew asks first
/// and keeps it resumable; saving needs a rating. A brew back on screen within
/// `resumeGraceSeconds` of when it was last seen was only interrupted (a crash, a terminal
/// closed and reopened): its timers ran on, as the coffee did. Away longer, it was left: its
/// timers stopped where it was last seen (`BrewProgress.lastSeen`), so the time away is never
/// counted. A running brew is persisted every `heartbeatSeconds`, so that is known to within
/// that.
public struct BrewFlow: Sendable {
    /// Where the brew is.
    public enum Phase: Sendable, Equatable {
        /// The confirm-inputs screen: inputs editable.
        case confirm
        /// Brewing: steps and timers, inputs locked.
        case brewing
        /// The post-brew screen: rating, tag, note; save or discard.
        case finished
        /// Over: the front end exits.
        case done(Outcome)
    }

    /// How a flow ended.
    public enum Outcome: Sendable, Equatable {
        /// The log was saved.
        case saved(BrewLog)
        /// The person left a started brew; it stays in progress, resumable.
        case left
        /// The brew was thrown away without a log.
        case discarded
        /// Left before starting.
        case cancelled
    }

    /// An input of the confirm-inputs screen that is typed in.
    public enum InputField: String, Sendable, Equatable {
        case dose, targetYield, waterTemperature

        /// "Dose (g)".
        public var label: String {
            switch self {
            case .dose: "Dose (g)"
            case .targetYield: "Target yield (g)"
            case .waterTemperature: "Water temperature (°C)"
            }
        }
    }

    /// A question or text entry over the current screen.
    public enum Dialog: Sendable, Equatable {
        case none
        /// A brew in progress was found: resume it, or discard it.
        case resumeOffer
        /// Typing a new value for an input.
        case editing(InputField, TypedText)
        /// "Restart the brew?" — the first guard.
        case restartConfirm
        /// Hold the key to restart — the second guard.
        case restartHold(HoldGesture)
        /// "Leave the brew?" — stay, leave (keeping it in progress) or discard it.
        case leave
        /// "Discard this brew without saving?"
        case discardConfirm
        /// Typing the note.
        case note(TypedText)
        /// Choosing another recipe (confirm-inputs screen).
        case chooseRecipe
    }

    /// The steps of the flow's front end.
    public enum Effect: Sendable, Equatable {
        /// Write the brew in progress (device-local).
        case persist(BrewProgress)
        /// Remove the brew in progress.
        case clearProgress
        /// Remember the confirmed inputs and recipe (preferences).
        case rememberInputs(BrewInputs)
        /// Save this log.
        case saveLog(BrewLog)
        /// Leave the screen.
        case exit
    }

    public private(set) var phase: Phase
    public private(set) var dialog: Dialog
    /// The recipe, when it is available (a resumed brew's recipe may have been deleted since).
    public private(set) var recipe: Recipe?
    /// The confirm-inputs values.
    public private(set) var inputs: BrewInputs
    /// The plan on screen: the confirm screen's, or the started brew's locked plan.
    public private(set) var plan: BrewPlan
    /// The started brew.
    public private(set) var progress: BrewProgress?
    /// The recipes "Change recipe" offers: every recipe, as `brew recipes` lists them (the
    /// starter first; invalid ones are listed and refused).
    public let choices: [RecipeEntry]
    /// What "discard it and start over" starts, from the resume offer (by default the
    /// brew's own recipe and inputs).
    public let startOver: BrewSelection?
    /// Whether the resume offer's "start over" discarded the earlier brew.
    public private(set) var startedOver = false
    /// The id the log will have.
    public let logID: String
    /// How long the resumed brew had been away when it was found left (longer than
    /// `resumeGraceSeconds`), seconds; nil when it was only interrupted, or not yet judged.
    public private(set) var leftFor: Double?
    /// Whether the absence of the resumed brew has been judged (`judgeAbsence`).
    private var absenceJudged = false
    /// Whether the left brew's timers were running when it was last seen: they run again once
    /// the person resumes it.
    private var resumeRunning = false
    private var note: (text: LedgerError.Sentence, until: Timestamp)?
    /// The restart key, still held after it restarted the brew: its auto-repeats are absorbed
    /// until it is released, so that they do not act on the confirm-inputs screen.
    public private(set) var heldAfterRestart: HoldGesture?

    /// How long a message stays on screen, seconds.
    public static let messageSeconds = 4.0
    /// How often a brew with running timers is persisted, seconds: the most of the brew clock
    /// a crash can lose.
    public static let heartbeatSeconds = 5.0
    /// The longest a brew may be off screen and still count as brewing meanwhile, seconds.
    public static let resumeGraceSeconds = 120.0

    /// A new brew of `recipe` with `inputs`, on the confirm-inputs screen; or, given
    /// `resuming`, the brew in progress behind a resume offer (`startOver` is what discarding
    /// it starts), its absence judged at `now` when given, else when it is resumed. Throws
    /// when the inputs give no plan (see `RecipeScaler.plan`).
    public init(recipe: Recipe?, inputs: BrewInputs, resuming: BrewProgress? = nil, at now: Timestamp? = nil,
                startOver: BrewSelection? = nil, choices: [RecipeEntry] = [], logID: String) throws {
        self.recipe = recipe
        self.inputs = inputs
        self.logID = logID
        self.choices = choices
        self.startOver = startOver
        if let resuming {
            progress = resuming
            plan = resuming.plan
            phase = resuming.isFinished ? .finished : .brewing
            dialog = .resumeOffer
            if let now { judgeAbsence(at: now) }
        } else {
            guard let recipe else { throw LedgerError.invalid("there is no recipe to brew") }
            plan = try RecipeScaler.plan(recipe, inputs: inputs)
            phase = .confirm
            dialog = .none
        }
    }

    /// The message to show at `now`, if any, in an app's words.
    public func message(at now: Timestamp) -> String? { sentence(at: now)?.description }

    /// The message to show at `now`, with the step it suggests as a value (for a front end
    /// that words steps its own way).
    public func sentence(at now: Timestamp) -> LedgerError.Sentence? {
        guard let note, now < note.until else { return nil }
        return note.text
    }

    private mutating func say(_ text: LedgerError.Sentence, at now: Timestamp) {
        note = (text, now.adding(seconds: Self.messageSeconds))
    }

    /// Judges, once, how long the resumed brew was off screen: longer than
    /// `resumeGraceSeconds`, it was left, and its timers stop where it was last seen.
    private mutating func judgeAbsence(at now: Timestamp) {
        guard !absenceJudged, var p = progress else { return }
        absenceJudged = true
        let away = p.secondsAway(at: now)
        guard away > Self.resumeGraceSeconds else { return }
        leftFor = away
        if p.runningSince != nil {
            p.pause(at: p.lastSeen)
            resumeRunning = true
        }
        progress = p
    }

    /// Records `p` as the brew, seen at `now`, and the effect that writes it.
    private mutating func persist(_ p: BrewProgress, at now: Timestamp) -> Effect {
        var p = p
        p.seenAt = now
        progress = p
        return .persist(p)
    }

    // MARK: - Events

    /// Handles one event at `now`; returns what the front end must do, in order.
    @discardableResult
    public mutating func handle(_ event: BrewEvent, at now: Timestamp) -> [Effect] {
        if case .done = phase { return [] }
        if let held = heldAfterRestart, !held.isHeld(at: now) { heldAfterRestart = nil }
        if event == .holdRestart, var held = heldAfterRestart {
            held.press(at: now)
            heldAfterRestart = held
            return []
        }
        if event == .tick {
            if case .restartHold(let hold) = dialog, hold.lastPressAt != nil, !hold.isHeld(at: now) {
                dialog = .restartHold(HoldGesture())
                say("Released too early: keep r held for 1.5 seconds, or press another key to cancel", at: now)
            }
            // The heartbeat: how long a running brew was on screen survives a crash (a brew
            // behind the resume offer has not been taken up again yet).
            if dialog != .resumeOffer, let p = progress, p.runningSince != nil, p.secondsAway(at: now) >= Self.heartbeatSeconds {
                return [persist(p, at: now)]
            }
            return []
        }
        switch dialog {
        case .none: break
        case .resumeOffer: return handleResumeOffer(event, at: now)
        case .editing(let field, let text): return handleEditing(field, text, event, at: now)
        case .restartConfirm: return handleRestartConfirm(event, at: now)
        case .restartHold(let hold): return handleRestartHold(hold, event, at: now)
        case .leave: return handleLeave(event, at: now)
        case .discardConfirm: return handleDiscardConfirm(event, at: now)
        case .note(let text): return handleNote(text, event, at: now)
        case .chooseRecipe: return handleChooseRecipe(event, at: now)
        }
        switch phase {
        case .confirm: return handleConfirm(event, at: now)
        case .brewing: return handleBrewing(event, at: now)
        case .finished: return handleFinished(event, at: now)
        case .done: return []
        }
    }

    // MARK: Confirm inputs

    private mutating func handleConfirm(_ event: BrewEvent, at now: Timestamp) -> [Effect] {
        switch event {
        case .start, .next, .confirm:
            phase = .brewing
            note = nil  // a message about the inputs is not about the brewing screen
            let started = persist(BrewProgress(plan: plan, inputs: inputs, startedAt: now), at: now)
            return (recipe == nil ? [] : [.rememberInputs(inputs)]) + [started]
        case .edit(let field):
            guard recipe != nil else {
                say("The recipe of this brew is no longer available, so its inputs cannot change", at: now)
                return []
            }
            dialog = .editing(field, TypedText(limit: 8))
        case .cycleGrind:
            let all = GrindLabel.allCases
            var changed = inputs
            changed.grindLabel = all[(all.firstIndex(of: plan.grindLabel)! + 1) % all.count]
            replan(changed, at: now)
        case .resetInputs:
            guard recipe != nil else {
                say("The recipe of this brew is no longer available, so its inputs cannot change", at: now)
                return []
            }
            replan(BrewInputs(recipeId: inputs.recipeId), at: now)
            say("Back to the recipe's defaults", at: now)
        case .changeRecipe:
            if choices.count > 1 { dialog = .chooseRecipe } else { say("There is no other recipe: \(next: .brew(.makeRecipe))", at: now) }
        case .leave, .cancel:
            phase = .done(.cancelled)
            return [.exit]
        default:
            break
        }
        return []
    }

    private mutating func handleEditing(_ field: InputField, _ text: TypedText, _ event: BrewEvent, at now: Timestamp) -> [Effect] {
        var text = text
        switch event {
        case .type(let c):
            let c = c == "," ? "." : c
            guard c.isASCII, c.isNumber || c == "." else {
                say("Type a number, then enter (escape cancels)", at: now)
                return []
            }
            text.type(c)
            dialog = .editing(field, text)
        case .deleteBackward:
            text.deleteBackward()
            dialog = .editing(field, text)
        case .confirm, .start, .next:
            dialog = .none
            guard !text.text.isEmpty else { return [] }
            guard let value = NumberText.decimal(text.text) else {
                say("\"\(text.text)\" is not a number", at: now)
                return []
            }
            var changed = inputs
            switch field {
            case .dose: changed.setDose(value)
            case .targetYield: changed.setTargetYield(value)
            case .waterTemperature: changed.waterTemperature = value
            }
            if let problem = changed.impossibleValueSentences().first {
                say(LedgerError.Sentence(problem), at: now)
                return []
            }
            replan(changed, at: now)
        default:
            dialog = .none
        }
        return []
    }

    /// Re-plans with `changed` inputs, keeping the old plan (and saying why) when they give none.
    private mutating func replan(_ changed: BrewInputs, at now: Timestamp) {
        guard let recipe else { return }
        do {
            plan = try RecipeScaler.plan(recipe, inputs: changed)
            inputs = changed
        } catch {
            say((error as? LedgerError)?.sentence ?? "\(error)", at: now)
        }
    }

    private mutating func handleChooseRecipe(_ event: BrewEvent, at now: Timestamp) -> [Effect] {
        dialog = .none
        guard case .chooseRecipe(let index) = event, choices.indices.contains(index) else { return [] }
        let entry = choices[index]
        guard entry.id != recipe?.id else { return [] }
        guard let chosen = entry.recipe else {
            say("\"\(entry.name)\" is invalid; fix it first: \(next: .brew(.editRecipe(id: entry.id)))", at: now)
            return []
        }
        do {
            let fresh = BrewInputs(recipeId: chosen.id)
            plan = try RecipeScaler.plan(chosen, inputs: fresh)
            recipe = chosen
            inputs = fresh
            say("Changed to \(chosen.name), at its defaults", at: now)
        } catch {
            say((error as? LedgerError)?.sentence ?? "\(error)", at: now)
        }
        return []
    }

    // MARK: Brewing

    private mutating func handleBrewing(_ event: BrewEvent, at now: Timestamp) -> [Effect] {
        guard var p = progress else { return [] }
        switch event {
        case .next, .confirm, .start:
            if p.isPaused {
                say("Paused: press p to resume first", at: now)
                return []
            }
            p.advance(at: now)
            note = nil  // a message is about the step it was said on
            if p.isFinished { phase = .finished }
            return [persist(p, at: now)]
        case .togglePause:
            if p.isPaused {
                p.resume(at: now)
                say("Resumed", at: now)
            } else {
                p.pause(at: now)
            }
            return [persist(p, at: now)]
        case .restart:
            dialog = .restartConfirm
        case .leave, .cancel:
            dialog = .leave
        case .edit, .cycleGrind, .resetInputs, .changeRecipe:
            say("Inputs are locked while brewing: finish the brew, or restart it (r) to change them", at: now)
        default:
            break
        }
        return []
    }

    private mutating func handleRestartConfirm(_ event: BrewEvent, at now: Timestamp) -> [Effect] {
        if event == .confirm {
            dialog = .restartHold(HoldGesture())
        } else {
            dialog = .none
            say("Restart cancelled", at: now)
        }
        return []
    }

    private mutating func handleRestartHold(_ hold: HoldGesture, _ event: BrewEvent, at now: Timestamp) -> [Effect] {
        guard event == .holdRestart else {
            dialog = .none
            say("Restart cancelled", at: now)
            return []
        }
        var hold = hold
        hold.press(at: now)
        guard hold.isComplete else {
            dialog = .restartHold(hold)
            return []
        }
        dialog = .none
        heldAfterRestart = hold
        if let p = progress {
            inputs = p.inputs
            plan = p.plan
            if recipe != nil { replan(p.inputs, at: now) }
        }
        progress = nil
        phase = .confirm
        say("Restarted: timers reset and inputs editable again; enter starts step 1", at: now)
        return [.clearProgress]
    }

    private mutating func handleLeave(_ event: BrewEvent, at now: Timestamp) -> [Effect] {
        switch event {
        case .leaveKeepingBrew, .leave:
            phase = .done(.left)
            return [.exit]
        case .discardBrew:
            phase = .done(.discarded)
            return [.clearProgress, .exit]
        default:
            dialog = .none
            return []
        }
    }

    // MARK: Post-brew

    private mutating func handleFinished(_ event: BrewEvent, at now: Timestamp) -> [Effect] {
        guard var p = progress else { return [] }
        switch event {
        case .rate(let n):
            guard BrewLog.ratings.contains(n) else { return [] }
            p.rating = n
        case .tag(let t):
            p.tasteTag = p.tasteTag == t ? nil : t
        case .clearTag:
            p.tasteTag = nil
        case .editNote:
            dialog = .note(TypedText(p.note ?? "", limit: BrewLog.maximumNoteLength))
            return []
        case .save, .confirm, .next, .start:
            guard p.rating != nil else {
                say("Choose a rating first: press 1 to 5", at: now)
                return []
            }
            let log = p.log(id: logID, at: now)
            phase = .done(.saved(log))
            return [.saveLog(log), .clearProgress, .exit]
        case .discard, .discardBrew:
            dialog = .discardConfirm
            return []
        case .leave, .cancel:
            dialog = .leave
            return []
        case .edit, .cycleGrind, .resetInputs, .changeRecipe:
            say("The brew is over: its inputs are what you brewed", at: now)
            return []
        default:
            return []
        }
        return [persist(p, at: now)]
    }

    private mutating func handleNote(_ text: TypedText, _ event: BrewEvent, at now: Timestamp) -> [Effect] {
        var text = text
        switch event {
        case .type(let c):
            if c == "\n" || c == "\r" { return handleNote(text, .confirm, at: now) }
            if !text.type(c) { say("Notes are limited to \(BrewLog.maximumNoteLength) characters", at: now) }
            dialog = .note(text)
        case .deleteBackward:
            text.deleteBackward()
            dialog = .note(text)
        case .confirm, .save:
            dialog = .none
            guard var p = progress else { return [] }
            let trimmed = text.text.trimmingWhitespace()
            p.note = trimmed.isEmpty ? nil : trimmed
            return [persist(p, at: now)]
        default:
            dialog = .none
        }
        return []
    }

    private mutating func handleDiscardConfirm(_ event: BrewEvent, at now: Timestamp) -> [Effect] {
        if event == .confirm || event == .discardBrew {
            phase = .done(.discarded)
            return [.clearProgress, .exit]
        }
        dialog = .none
        return []
    }

    // MARK: Resume

    private mutating func handleResumeOffer(_ event: BrewEvent, at now: Timestamp) -> [Effect] {
        switch event {
        case .confirm, .next, .start:
            dialog = .none
            judgeAbsence(at: now)
            guard var p = progress else { return [] }
            if resumeRunning { p.resume(at: now) }
            resumeRunning = false
            if let leftFor { say("Resumed after \(BrewFormat.duration(leftFor)) away; that time is not counted", at: now) }
            return [persist(p, at: now)]
        case .discardBrew, .discard:
            progress = nil
            dialog = .none
            phase = .confirm
            startedOver = true
            if let startOver, let fresh = try? RecipeScaler.plan(startOver.recipe, inputs: startOver.inputs) {
                (recipe, inputs, plan) = (startOver.recipe, startOver.inputs, fresh)
            } else if let recipe {
                do {
                    plan = try RecipeScaler.plan(recipe, inputs: inputs)
                } catch {
                    inputs = BrewInputs(recipeId: recipe.id)
                    plan = (try? RecipeScaler.plan(recipe, inputs: inputs)) ?? plan
                }
            } else {
                phase = .done(.discarded)
                return [.clearProgress, .exit]
            }
            say("The earlier brew was discarded", at: now)
            return [.clearProgress]
        case .leave, .cancel:
            phase = .done(.left)
            return [.exit]
        default:
            break
        }
        return []
    }
}

/// What a person does during a guided brew, whatever the device.
public enum BrewEvent: Sendable, Equatable {
    /// Time passed (expires messages, releases a hold).
    case tick
    /// Start the brew (confirm-inputs screen).
    case start
    /// Type a new value for an input (confirm-inputs screen).
    case edit(BrewFlow.InputField)
    /// Next grind label (confirm-inputs screen).
    case cycleGrind
    /// Reset the inputs to the recipe's defaults (confirm-inputs screen).
    case resetInputs
    /// Open the list of recipes (confirm-inputs screen).
    case changeRecipe
    /// Choose recipe number `n` (0-based) of `BrewFlow.choices`.
    case chooseRecipe(Int)
    /// Next step.
    case next
    /// Pause or resume the timers.
    case togglePause
    /// Ask to restart (opens the confirmation).
    case restart
    /// The restart key is (still) held down: one press or auto-repeat.
    case holdRestart
    /// Rate the brew 1–5 (post-brew screen).
    case rate(Int)
    /// Choose a taste tag; choosing the chosen one clears it (post-brew screen).
    case tag(TasteTag)
    /// Clear the taste tag.
    case clearTag
    /// Write the note (post-brew screen).
    case editNote
    /// Save the log (post-brew screen).
    case save
    /// Discard the brew without a log (post-brew screen; asks first).
    case discard
    /// Yes / enter in a dialog.
    case confirm
    /// No / escape in a dialog.
    case cancel
    /// A typed character (text entry).
    case type(Character)
    /// Backspace (text entry).
    case deleteBackward
    /// Leave (asks first when a brew has started).
    case leave
    /// Leave, keeping the brew in progress (in the leave dialog).
    case leaveKeepingBrew
    /// Throw the brew away (in the leave dialog or the resume offer).
    case discardBrew
}
