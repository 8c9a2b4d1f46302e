/// A brew that has started: its locked plan, where it is, its timers and the post-brew form.
///
/// It is device-local state (`brew-in-progress.json` in the store's local state, never
/// synced), written at every change — and every few seconds while its timers run — so that
/// a crash or a closed terminal loses nothing: timers are kept as the instant they started
/// running plus the time accumulated before, and `seenAt` says when the brew was last on a
/// screen. Timers run only while the brew is on a screen: a brew resumed later continues
/// from where it was last seen, so the time away is never counted.
public struct BrewProgress: JSONModel, Equatable {
    /// The plan, locked when the brew started.
    public var plan = BrewPlan()
    /// The inputs that gave the plan (to return to the confirm-inputs screen on restart).
    public var inputs = BrewInputs()
    public var startedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    /// The current step, 0-based.
    public var stepIndex = 0
    /// Seconds the current step's timer ran before `runningSince`.
    public var stepElapsedSeconds = 0.0
    /// Seconds the brew clock ran before `runningSince` (it starts with the first timed step).
    public var clockElapsedSeconds = 0.0
    /// When the timers last started running; nil while paused and once finished.
    public var runningSince: Timestamp?
    /// When Next was pressed on the last step: the post-brew screen is open.
    public var finishedAt: Timestamp?
    /// The brew clock at the end, seconds.
    public var brewSeconds: Int?
    public var rating: Int?
    public var tasteTag: TasteTag?
    public var note: String?
    /// When the brew was last on a screen (nil in files of earlier versions: see `lastSeen`).
    public var seenAt: Timestamp?
    package var unknownFields = JSONObject()

    public init() {}

    /// A brew of `plan` starting at `now`, on its first step with the timers running.
    public init(plan: BrewPlan, inputs: BrewInputs, startedAt now: Timestamp) {
        self.plan = plan
        self.inputs = inputs
        startedAt = now
        runningSince = now
    }

    package static let fields: [Field<BrewProgress>] = [
        .required("plan", { $0.plan }, { $0.plan = $1 }),
        .required("inputs", { $0.inputs }, { $0.inputs = $1 }),
        .required("startedAt", { $0.startedAt }, { $0.startedAt = $1 }),
        .required("stepIndex", { $0.stepIndex }, { $0.stepIndex = $1 }),
        .required("stepElapsedSeconds", { $0.stepElapsedSeconds }, { $0.stepElapsedSeconds = $1 }),
        .required("clockElapsedSeconds", { $0.clockElapsedSeconds }, { $0.clockElapsedSeconds = $1 }),
        .optional("runningSince", { $0.runningSince }, { $0.runningSince = $1 }, writeNull: true),
        .optional("finishedAt", { $0.finishedAt }, { $0.finishedAt = $1 }),
        .optional("brewSeconds", { $0.brewSeconds }, { $0.brewSeconds = $1 }),
        .optional("rating", { $0.rating }, { $0.rating = $1 }),
        .optional("tasteTag", { $0.tasteTag }, { $0.tasteTag = $1 }),
        .optional("note", { $0.note }, { $0.note = $1 }),
        .optional("seenAt", { $0.seenAt }, { $0.seenAt = $1 }),
    ]

    public static func == (a: BrewProgress, b: BrewProgress) -> Bool { a.json == b.json }

    /// Problems that make a stored brew unusable (a step index out of range after a hand edit,
    /// a dose or yield no brew log can hold, so that it could never be saved).
    public func problems() -> [String] {
        var out: [String] = []
        if plan.steps.isEmpty { out.append("its plan has no steps") }
        if let p = BrewLimits.doseProblem(plan.dose) { out.append("its dose \(p), so it could never be saved") }
        if let p = BrewLimits.yieldProblem(plan.targetYield) { out.append("its target yield \(p), so it could never be saved") }
        if stepIndex < 0 || stepIndex >= max(plan.steps.count, 1) { out.append("its step \(stepIndex + 1) is not one of the plan's \(plan.steps.count) steps") }
        if let r = rating, let p = BrewLog.ratingProblem(r) { out.append(p) }
        if let n = note, let p = BrewLog.noteProblem(n) { out.append(p) }
        return out
    }

    // MARK: - Reading the clock

    /// The step on screen.
    public var currentStep: PlannedStep { plan.steps[stepIndex] }
    /// Whether this is the last step (Next finishes the brew).
    public var isLastStep: Bool { stepIndex == plan.steps.count - 1 }
    /// Whether the brew is done and the post-brew form is open.
    public var isFinished: Bool { finishedAt != nil }
    /// Whether the timers are paused.
    public var isPaused: Bool { runningSince == nil && !isFinished }

    /// When the brew was last on a screen: `seenAt`, or for a file without it the latest
    /// instant it records.
    public var lastSeen: Timestamp {
        seenAt ?? [runningSince, finishedAt].compactMap { $0 }.reduce(startedAt) { max($0, $1) }
    }

    /// Seconds since the brew was last on a screen (never negative).
    public func secondsAway(at now: Timestamp) -> Double { max(0, now.seconds(since: lastSeen)) }

    /// The index of the first step with a timer: the brew clock starts there.
    var clockStartIndex: Int { plan.steps.firstIndex { $0.timerSeconds != nil } ?? plan.steps.count }

    /// Seconds the timers have been running since `runningSince` (never negative, even if
    /// the wall clock went back).
    func runningInterval(at now: Timestamp) -> Double {
        runningSince.map { max(0, now.seconds(since: $0)) } ?? 0
    }

    /// Seconds the current step's timer has run.
    public func stepElapsed(at now: Timestamp) -> Double { stepElapsedSeconds + runningInterval(at: now) }

    /// The brew clock, seconds (from the first timed step; pauses excluded).
    public func clock(at now: Timestamp) -> Double {
        clockElapsedSeconds + (stepIndex >= clockStartIndex ? runningInterval(at: now) : 0)
    }

    /// Whole seconds left on the current step's countdown (rounded up), or nil without a timer.
    public func remainingSeconds(at now: Timestamp) -> Int? {
        guard let t = currentStep.timerSeconds else { return nil }
        return max(0, Int((Double(t) - stepElapsed(at: now) - 1e-6).rounded(.up)))
    }

    /// Whether the current step's timer has reached zero and waits for Next.
    public func isReady(at now: Timestamp) -> Bool { remainingSeconds(at: now) == 0 }

    // MARK: - Changing it

    /// Folds the running interval into the accumulated times.
    mutating func settle(at now: Timestamp) {
        let run = runningInterval(at: now)
        stepElapsedSeconds += run
        if stepIndex >= clockStartIndex { clockElapsedSeconds += run }
        if runningSince != nil { runningSince = now }
    }

    /// Stops the timers.
    public mutating func pause(at now: Timestamp) {
        settle(at: now)
        runningSince = nil
    }

    /// Starts the timers again from where they stopped.
    public mutating func resume(at now: Timestamp) {
        if runningSince == nil, !isFinished { runningSince = now }
    }

    /// Moves to the next step with a fresh timer, or finishes the brew after the last one.
    public mutating func advance(at now: Timestamp) {
        settle(at: now)
        if isLastStep {
            brewSeconds = Int(clockElapsedSeconds.rounded())
            runningSince = nil
            finishedAt = now
        } else {
            stepIndex += 1
            stepElapsedSeconds = 0
        }
    }

    /// The log of this brew (its rating must be set).
    public func log(id: String, at now: Timestamp) -> BrewLog {
        BrewLog(id: id, plan: plan, rating: rating ?? 0, tasteTag: tasteTag, note: note, brewSeconds: brewSeconds, at: now)
    }
}
