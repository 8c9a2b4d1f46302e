import Foundation

/// The Waterline state after a session's entries (seeds US-034: WaterlineState).
public struct WaterlineState: Sendable, Hashable {
    /// Sum of the alcoholic entries' standard-drink estimates minus the number of water
    /// entries (FR-4). Starts at 0 ("center") and may go negative.
    public var waterlineValue = 0.0
    /// Alcoholic entries since the last water entry (or since the start).
    public var alcoholCountSinceLastWater = 0
    /// Alcoholic and water entries in the session.
    public var totalAlcoholCount = 0
    public var totalWaterCount = 0
    /// Sum of the alcoholic entries' standard-drink estimates.
    public var totalStandardDrinks = 0.0
    /// Whether `waterlineValue >= warningThreshold` (FR-8).
    public var isWarning = false

    public init() {}

    /// The stored and `--json` form, with the seeds' key names.
    package var json: JSONValue {
        .object([
            "waterlineValue": .number(waterlineValue),
            "alcoholCountSinceLastWater": .number(Double(alcoholCountSinceLastWater)),
            "totalAlcoholCount": .number(Double(totalAlcoholCount)),
            "totalWaterCount": .number(Double(totalWaterCount)),
            "totalStandardDrinks": .number(totalStandardDrinks),
            "isWarning": .bool(isWarning),
        ])
    }
}

/// One entry replayed: the state before and after it, and what it triggers.
public struct WaterlineStep: Sendable, Equatable {
    /// The entry replayed.
    public var entry: LogEntry
    /// The state before it and after it.
    public var before: WaterlineState
    public var after: WaterlineState
    /// A per-drink water reminder fires: an alcoholic entry after which
    /// `alcoholCountSinceLastWater >= N` (FR-7). This is also a "reminder point" of adherence.
    public var perDrinkReminder: Bool
    /// The pacing warning fires: the Waterline crossed the threshold upward (US-020: once per
    /// crossing, not on every drink above it).
    public var pacingWarning: Bool
}

/// A session's summary (seeds: computedSummary; US-021, US-022).
public struct SessionSummary: Sendable, Hashable {
    /// Alcoholic entries, water entries and the sum of the drinks' estimates.
    public var totalAlcoholCount = 0
    public var totalWaterCount = 0
    public var totalStandardDrinks = 0.0
    /// Total water, in ounces (tenths) and in millilitres (whole), whatever unit each entry used.
    public var totalWaterOz = 0.0
    public var totalWaterMl = 0.0
    /// Whole minutes from the start to the end (or to now, while active).
    public var durationMinutes = 0
    /// Alcoholic entries after which `alcoholCountSinceLastWater >= N` (SPEC §5).
    public var reminderPoints = 0
    /// Reminder points whose next entry is water.
    public var remindersHonoured = 0
    /// `remindersHonoured / reminderPoints` in percent, to one decimal; nil without points.
    public var adherencePercent: Double?
    /// The Waterline after the last entry.
    public var finalWaterlineValue = 0.0
    /// The lowest and highest Waterline over the session, the starting 0 included.
    public var lowestWaterlineValue = 0.0
    public var highestWaterlineValue = 0.0

    public init() {}

    /// Total water in `unit`, rounded for people.
    public func totalWater(in unit: VolumeUnit) -> Double { unit == .oz ? totalWaterOz : totalWaterMl }

    /// The stored and `--json` form.
    package var json: JSONValue {
        .object([
            "totalAlcoholCount": .number(Double(totalAlcoholCount)),
            "totalWaterCount": .number(Double(totalWaterCount)),
            "totalStandardDrinks": .number(totalStandardDrinks),
            "totalWaterOz": .number(totalWaterOz),
            "totalWaterMl": .number(totalWaterMl),
            "durationMinutes": .number(Double(durationMinutes)),
            "reminderPoints": .number(Double(reminderPoints)),
            "remindersHonoured": .number(Double(remindersHonoured)),
            "adherencePercent": adherencePercent.map(JSONValue.number) ?? .null,
            "finalWaterlineValue": .number(finalWaterlineValue),
            "lowestWaterlineValue": .number(lowestWaterlineValue),
            "highestWaterlineValue": .number(highestWaterlineValue),
        ])
    }
}

/// The Waterline rules, pure: state, reminders, warnings, summaries, the time-based schedule
/// and abandonment — all from a session's entries, its rules and the settings, with `now`
/// passed in.
public enum WaterlineEngine {
    /// Time-based reminders stop after this long without a log (US-018).
    public static let inactivityLimitMinutes = 90

    /// Entries in the order the engine replays them: by instant, then by id, so that two
    /// entries logged in the same millisecond replay the same way on every machine.
    public static func ordered(_ entries: [LogEntry]) -> [LogEntry] {
        entries.sorted { a, b in
            if a.timestamp.epochMilliseconds != b.timestamp.epochMilliseconds {
                return a.timestamp.epochMilliseconds < b.timestamp.epochMilliseconds
            }
            return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
    }

    /// Replays the entries in order (FR-5): the state around each one and what it triggers.
    /// Each entry is judged by the rules it recorded when it was logged (a setting changed
    /// later does not move past reminder points or warnings); `rules` stands in for what an
    /// entry does not record.
    public static func replay(_ entries: [LogEntry], rules: WaterlineRules) -> [WaterlineStep] {
        var state = WaterlineState()
        var steps: [WaterlineStep] = []
        steps.reserveCapacity(entries.count)
        for entry in ordered(entries) {
            let before = state
            let own = entry.rules(in: rules)
            switch entry.type {
            case .alcohol:
                state.alcoholCountSinceLastWater += 1
                state.totalAlcoholCount += 1
                state.totalStandardDrinks = tidy(state.totalStandardDrinks + entry.waterlineChange)
            case .water:
                state.alcoholCountSinceLastWater = 0
                state.totalWaterCount += 1
            }
            state.waterlineValue = tidy(state.waterlineValue + entry.waterlineChange)
            let threshold = Double(own.warningThreshold)
            state.isWarning = state.waterlineValue >= threshold
            let isAlcohol = entry.type == .alcohol
            steps.append(WaterlineStep(
                entry: entry, before: before, after: state,
                perDrinkReminder: isAlcohol && state.alcoholCountSinceLastWater >= own.waterEveryNDrinks,
                pacingWarning: isAlcohol && before.waterlineValue < threshold && state.isWarning))
        }
        return steps
    }

    /// The state after all entries (US-034 `computeState(from:)`), its warning judged by
    /// `warningThreshold` — the current one, for the state shown now.
    public static func state(from entries: [LogEntry], warningThreshold: Int) -> WaterlineState {
        var state = replay(entries, rules: WaterlineRules(warningThreshold: warningThreshold)).last?.after ?? WaterlineState()
        state.isWarning = state.waterlineValue >= Double(warningThreshold)
        return state
    }

    /// The state of `session` as stored: its warning judged by the session's threshold.
    public static func state(of session: Session) -> WaterlineState {
        state(from: session.entries, warningThreshold: session.warningThreshold)
    }

    /// Alcoholic drinks left before water is due (0: due now) — "Water due in: X drinks".
    public static func drinksUntilWaterDue(_ state: WaterlineState, waterEveryNDrinks n: Int) -> Int {
        max(0, n - state.alcoholCountSinceLastWater)
    }

    /// The summary of `session`: up to its end, or up to `now` while it is active.
    public static func summary(of session: Session, now: Timestamp) -> SessionSummary {
        let steps = replay(session.entries, rules: session.rules)
        var s = SessionSummary()
        let final = steps.last?.after ?? WaterlineState()
        s.totalAlcoholCount = final.totalAlcoholCount
        s.totalWaterCount = final.totalWaterCount
        s.totalStandardDrinks = final.totalStandardDrinks
        s.finalWaterlineValue = final.waterlineValue
        var ml = 0.0
        for (i, step) in steps.enumerated() {
            s.lowestWaterlineValue = min(s.lowestWaterlineValue, step.after.waterlineValue)
            s.highestWaterlineValue = max(s.highestWaterlineValue, step.after.waterlineValue)
            if let w = step.entry.waterMeta, step.entry.type == .water { ml += w.amount(in: .ml) }
            if step.perDrinkReminder {
                s.reminderPoints += 1
                if i + 1 < steps.count, steps[i + 1].entry.type == .water { s.remindersHonoured += 1 }
            }
        }
        s.totalWaterMl = VolumeUnit.ml.rounded(ml)
        s.totalWaterOz = VolumeUnit.oz.rounded(VolumeUnit.oz.convert(ml, from: .ml))
        if s.reminderPoints > 0 {
            s.adherencePercent = (Double(s.remindersHonoured) / Double(s.reminderPoints) * 1000).rounded() / 10
        }
        let end = session.endTime ?? now
        s.durationMinutes = max(0, Int((end.epochMilliseconds - session.startTime.epochMilliseconds) / 60_000))
        return s
    }

    // MARK: - Time-based reminders

    /// The time-based reminders of `session` up to `limit` (US-018, FR-6): every
    /// `intervalMinutes` of elapsed time from the start; none at or after the end, and none more
    /// than 90 minutes after the last log before it (a later log resumes them on the same
    /// grid). Each is the instant as the clock of `timeZone` shows it then — with the offset
    /// it has at that instant, which need not be the start's on a night the clocks change.
    public static func timeReminders(for session: Session, intervalMinutes: Int, through limit: Timestamp, timeZone: TimeZone) -> [Timestamp] {
        guard intervalMinutes > 0 else { return [] }
        let logs = ordered(session.entries).map(\.timestamp.epochMilliseconds)
        let start = session.startTime.epochMilliseconds, step = Int64(intervalMinutes) * 60_000
        let quiet = Int64(inactivityLimitMinutes) * 60_000
        let stop = min(limit.epochMilliseconds, session.endTime?.epochMilliseconds ?? .max, session.lastActivity.epochMilliseconds + quiet)
        var out: [Timestamp] = []
        var next = 0
        var t = start + step
        while t <= stop, t < session.endTime?.epochMilliseconds ?? .max {
            while next < logs.count, logs[next] <= t { next += 1 }
            let previous = next > 0 ? max(logs[next - 1], start) : start
            if t - previous <= quiet { out.append(ZonedClock.timestamp(t, in: timeZone)) }
            t += step
        }
        return out
    }

    /// The next time-based reminder after `now`, if it will fire with no further logs, on the
    /// clock of `timeZone` (see `timeReminders`): nil when the session has ended, reminders
    /// are off, or it has been quiet too long.
    public static func nextTimeReminder(for session: Session, settings: WaterlineSettings, now: Timestamp, timeZone: TimeZone) -> Timestamp? {
        guard session.isActive, session.endTime == nil, settings.timeRemindersEnabled, settings.timeReminderIntervalMinutes > 0 else { return nil }
        let intervalMs = Int64(settings.timeReminderIntervalMinutes) * 60_000
        let elapsed = now.epochMilliseconds - session.startTime.epochMilliseconds
        let k = elapsed < 0 ? 1 : elapsed / intervalMs + 1
        let t = session.startTime.epochMilliseconds + k * intervalMs
        guard t - session.lastActivity.epochMilliseconds <= Int64(inactivityLimitMinutes) * 60_000 else { return nil }
        return ZonedClock.timestamp(t, in: timeZone)
    }

    /// How far after now an entry may be stamped and still be taken as logged: by a device
    /// whose clock runs ahead (minutes). One stamped later is a mistake — a hand edit's typo
    /// (2027 for 2026) — that `end` refuses and every command names (`entryAhead`).
    public static let clockAheadToleranceMinutes = 15

    /// The entry of `session` stamped furthest after `now`, when that is more than
    /// `clockAheadToleranceMinutes` after it, with its index in the session's entries.
    public static func entryAhead(of session: Session, now: Timestamp) -> (index: Int, entry: LogEntry)? {
        let limit = now.adding(minutes: Double(clockAheadToleranceMinutes))
        guard let i = session.entries.indices.max(by: { session.entries[$0].timestamp < session.entries[$1].timestamp }),
              session.entries[i].timestamp > limit else { return nil }
        return (i, session.entries[i])
    }

    /// Whether time reminders have stopped because nothing was logged for 90 minutes.
    public static func remindersPausedForInactivity(_ session: Session, now: Timestamp) -> Bool {
        session.isActive && now.seconds(since: session.lastActivity) > Double(inactivityLimitMinutes * 60)
    }

    // MARK: - Abandoned sessions

    /// Whether `session` has been active for more than the settings' `abandonedAfterHours`
    /// (US-025: "running for more than 12 hours") — counted from the person's last "Keep
    /// Going" (`keptGoingAt`) when there was one, so that the question comes back only after
    /// as long again.
    public static func isAbandoned(_ session: Session, now: Timestamp, afterHours hours: Int) -> Bool {
        let since = max(session.keptGoingAt ?? session.startTime, session.startTime)
        return session.isActive && now.seconds(since: since) > Double(hours) * 3600
    }

    /// Whole hours since the session started.
    public static func hoursRunning(_ session: Session, now: Timestamp) -> Int {
        max(0, Int(now.seconds(since: session.startTime) / 3600))
    }

    /// Drops floating-point noise (0.1 + 0.2) from sums of estimates.
    static func tidy(_ x: Double) -> Double { (x * 1_000_000).rounded() / 1_000_000 }
}
