/// What a resident reminder process needs at `now`: which reminder or follow-up to show and
/// for which slot, and when anything next becomes due, so that it can sleep until then
/// (or until the ledger changes) instead of asking every minute.
public struct ReminderAgenda: Sendable {
    /// The day current at `now`.
    public let day: PlannedDay
    /// The reminder or follow-up that should be showing: the latest that came while its
    /// slot is unconfirmed (`HydrationPlan.pending`); nil when nothing awaits a confirmation.
    /// Its `slot` is the one "I Drank" confirms (`HydrateStore.confirm(_:at:timeZone:)` with
    /// `.instant(slot.time)`).
    public let pending: DueReminder?
    /// The next reminder or follow-up of the current day after `now`, if nothing is confirmed
    /// meanwhile; nil when nothing more can come today.
    public let next: DueReminder?
    /// The first reminder of the day after, planned as it stands now (a later change of the
    /// schedule, or another zone, moves it: look again when the ledger changes).
    public let nextDayStart: Timestamp

    /// `day` and the day after it, at `now`.
    public init(day: PlannedDay, nextDay: HydrationPlan, at now: Timestamp) {
        self.day = day
        pending = day.plan.pending(confirmations: day.confirmations, at: now)
        next = day.plan.next(confirmations: day.confirmations, after: now)
        nextDayStart = nextDay.start
    }

    /// When something next becomes due: the next reminder or follow-up of today, else the
    /// first reminder of the day after.
    public var wake: Timestamp { next?.time ?? nextDayStart }

    /// Whether the reminder at `slot` (an instant a notification was shown for) is still
    /// awaiting its confirmation; false once it is confirmed, by any means, or its period is
    /// over — the moment to withdraw its notification.
    public func isAwaiting(slot: Timestamp) -> Bool {
        pending?.slot.time.epochMilliseconds == slot.epochMilliseconds
    }
}

extension ReminderAgenda {
    /// The notification a reminder process shows (at most one): the pending reminder or
    /// follow-up, keyed by its slot — a follow-up replaces its reminder's notification — with
    /// "I Drank" confirming that slot. Withdrawn (the key disappears) once the slot is
    /// confirmed by any means or its period is over.
    public var notices: [ReminderNotice] {
        guard let pending else { return [] }
        let local = day.plan.local(pending.slot.time).local
        let clock = (local.hour < 10 ? "0" : "") + "\(local.hour):" + (local.minute < 10 ? "0" : "") + "\(local.minute)"
        return [ReminderNotice(
            key: "hydrate/" + pending.slot.time.iso8601, app: .hydrate, title: AppID.hydrate.title, body: pending.text,
            detail: pending.text + " (the \(clock) reminder)", actions: [.drank(slot: pending.slot.time)], since: pending.time)]
    }
}
