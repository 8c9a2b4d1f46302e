import Foundation

/// A day's plan together with its document (when it has one).
public struct PlannedDay: Sendable {
    public let plan: HydrationPlan
    /// The day's document; nil until a reminder of the day is confirmed.
    public let document: HydrationDay?

    public init(plan: HydrationPlan, document: HydrationDay?) {
        self.plan = plan
        self.document = document
    }

    public var date: LocalDate { plan.date }
    /// The day's confirmations.
    public var confirmations: [HydrationConfirmation] { document?.confirmations ?? [] }

    /// Where the day stands at `now` (nil: once it is over).
    public func progress(at now: Timestamp?) -> HydrationProgress { plan.progress(confirmations: confirmations, at: now) }

    /// The reminder or follow-up due in the minute holding `now`.
    public func due(at now: Timestamp) -> DueReminder? { plan.due(confirmations: confirmations, at: now) }

    /// The day that is current at `now`: yesterday while its window (past midnight) still
    /// runs, else today, both as seen in `timeZone`. `day` gives the planned day of a date.
    public static func current(at now: Timestamp, in timeZone: TimeZone,
                               day: (LocalDate) throws -> PlannedDay) rethrows -> PlannedDay {
        let today = ZonedClock.timestamp(now.epochMilliseconds, in: timeZone).local.date
        let yesterday = try day(today.adding(days: -1))
        if yesterday.plan.contains(now) { return yesterday }
        return try day(today)
    }

    /// The document this day's next confirmation is written to: its own, or a new one, planned
    /// with the plan's schedule and zone.
    func documentForWriting(now: Timestamp) -> HydrationDay {
        var document = document ?? HydrationDay(date: date, schedule: plan.schedule, timeZone: plan.timeZone, createdAt: now)
        document.schedule = plan.schedule  // the schedule in force, which may differ from the recorded one
        return document
    }
}

/// The reminder an "I Drank" names: by the time shown in its notification (`09:00`), or by
/// its exact instant (the `slot` that `hydrate due --json` and a reminder process give).
public enum SlotReference: Sendable, Hashable, CustomStringConvertible {
    case clock(ClockTime)
    case instant(Timestamp)

    public var description: String {
        switch self {
        case .clock(let t): t.description
        case .instant(let t): t.iso8601
        }
    }

    /// Whether `slot` of `plan` is the reminder named.
    func names(_ slot: HydrationPlan.Slot, in plan: HydrationPlan) -> Bool {
        switch self {
        case .clock(let t):
            let local = plan.local(slot.time).local
            return local.hour == t.hour && local.minute == t.minute
        case .instant(let t): return slot.time.epochMilliseconds == t.epochMilliseconds
        }
    }

    /// Which reminder of `days` (in order, earliest first) `self` names at `now`: the latest
    /// one that has come and can still be confirmed (`HydrationPlan.confirmationDeadline`);
    /// else why none can be — one by that name is still to come, or the last that came can
    /// no longer be confirmed, or there is none.
    func resolve(in days: [PlannedDay], at now: Timestamp) -> Resolution {
        let named = days.flatMap { day in day.plan.slots.filter { names($0, in: day.plan) }.map { (day, $0) } }
        let come = named.filter { $0.1.time <= now }
        if let (day, slot) = come.last(where: { now < $0.0.plan.confirmationDeadline(of: $0.1) }) { return .found(day, slot) }
        if let (day, slot) = named.first(where: { $0.1.time > now }) { return .notYet(day, slot) }
        if let (day, slot) = come.last { return .tooLate(day, slot, deadline: day.plan.confirmationDeadline(of: slot)) }
        return .none
    }

    enum Resolution {
        case found(PlannedDay, HydrationPlan.Slot)
        case notYet(PlannedDay, HydrationPlan.Slot)
        case tooLate(PlannedDay, HydrationPlan.Slot, deadline: Timestamp)
        case none
    }
}

/// What "I Drank" did.
public enum ConfirmationOutcome: Sendable {
    /// The reminder is now confirmed (the day as it stands after it).
    case confirmed(HydrationPlan.Slot, PlannedDay)
    /// It already was (at that instant); a second confirmation does not count twice and is not recorded.
    case alreadyConfirmed(HydrationPlan.Slot, at: Timestamp, PlannedDay)
    /// The day's first reminder has not come yet (plain "I Drank"): the glass is recorded,
    /// counting for no reminder (the day as it stands after it).
    case beforeFirstReminder(PlannedDay)
    /// The day's window has closed (plain "I Drank"): the glass is recorded, counting for no
    /// reminder (the day as it stands after it).
    case windowClosed(PlannedDay)
    /// The reminder named has not come yet.
    case notYet(HydrationPlan.Slot, PlannedDay)
    /// The reminder named can no longer be confirmed: its day ended at `deadline`.
    case tooLate(HydrationPlan.Slot, PlannedDay, deadline: Timestamp)
    /// The current day has no reminder by that name (the day, to list its reminders).
    case noSuchReminder(SlotReference, PlannedDay)
}
