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
    /// The day's confirmation instants.
    public var confirmations: [Timestamp] { document?.confirmationTimes ?? [] }

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
}

/// What "I Drank" did.
public enum ConfirmationOutcome: Sendable {
    /// The current reminder is now confirmed (the day as it stands after it).
    case confirmed(HydrationPlan.Slot, PlannedDay)
    /// It already was (at that instant); a second confirmation does not count twice and is not recorded.
    case alreadyConfirmed(HydrationPlan.Slot, at: Timestamp, PlannedDay)
    /// The day's first reminder has not come yet.
    case beforeFirstReminder(PlannedDay)
    /// The day's window has closed.
    case windowClosed(PlannedDay)
}

/// Water Reminder's documents in a ledger, with intent-level operations. Writers call the
/// mutating operations inside `store.withWriterLock`.
public struct HydrationLog: Sendable {
    public let store: LedgerStore

    public init(store: LedgerStore) { self.store = store }

    /// The schedule document (the defaults while the file does not exist).
    public func schedule() throws -> HydrationSchedule {
        try store.singleton(HydrationSchedule.self).load()
    }

    /// The document of `date`, or nil.
    public func document(for date: LocalDate) throws -> HydrationDay? {
        let repository = store.repository(HydrationDay.self)
        guard let path = try repository.path(of: date.description) else { return nil }
        return try store.load(HydrationDay.self, at: path)
    }

    /// The plan of a past (or future) `date`: the schedule recorded in its document, else
    /// `schedule` in `timeZone`. The current day is planned by `current(at:timeZone:)`.
    public func day(_ date: LocalDate, schedule: ReminderSchedule, timeZone: TimeZone) throws -> PlannedDay {
        let document = try document(for: date)
        if let document, let plan = document.plan { return PlannedDay(plan: plan, document: document) }
        return PlannedDay(plan: HydrationPlan(date: date, schedule: schedule, timeZone: timeZone), document: document)
    }

    /// The plan of `date` as `status --date` shows it: the current day's when `date` is the
    /// current day at `now`, else the one recorded in its document.
    public func day(_ date: LocalDate, at now: Timestamp, timeZone: TimeZone) throws -> PlannedDay {
        let current = try current(at: now, timeZone: timeZone)
        if current.date == date { return current }
        return try day(date, schedule: schedule().reminders, timeZone: timeZone)
    }

    /// The day current at `now` (see `PlannedDay.current`), always planned with the schedule
    /// in force — the one in `hydrate/schedule.json` — in the zone its document records (else
    /// `timeZone`). Its document may record another schedule (two machines each created the
    /// day offline, and their schedules merged differently from the day's copies); the
    /// schedule in force wins, and the next write of the document records it.
    public func current(at now: Timestamp, timeZone: TimeZone) throws -> PlannedDay {
        let schedule = try schedule().reminders
        return try PlannedDay.current(at: now, in: timeZone) { date in
            let document = try document(for: date)
            let zone = document?.zone ?? timeZone
            return PlannedDay(plan: HydrationPlan(date: date, schedule: schedule, timeZone: zone), document: document)
        }
    }

    /// "I Drank" at `now`: confirms the reminder whose period holds `now`, once.
    public func confirm(at now: Timestamp, timeZone: TimeZone) throws -> ConfirmationOutcome {
        let today = try current(at: now, timeZone: timeZone)
        guard let slot = today.plan.slot(containing: now) else {
            return now.epochMilliseconds < today.plan.start.epochMilliseconds ? .beforeFirstReminder(today) : .windowClosed(today)
        }
        // Every confirmation of the slot counts, even one stamped a little later than `now`
        // (another process or device whose clock is ahead got the writer lock first).
        if let earlier = today.progress(at: nil).slots[slot.index].confirmedAt {
            return .alreadyConfirmed(slot, at: earlier, today)
        }
        var document = today.document
            ?? HydrationDay(date: today.date, schedule: today.plan.schedule, timeZone: today.plan.timeZone, createdAt: now)
        document.schedule = today.plan.schedule  // the schedule in force, which may differ from the recorded one
        document.confirm(at: now)
        document.updatedAt = now
        try store.repository(HydrationDay.self).save(document)
        return .confirmed(slot, PlannedDay(plan: today.plan, document: document))
    }

    /// Replaces the schedule at `now`. The change applies at once: the current day's document,
    /// if any, is replanned with it (its confirmations stay); earlier days keep the schedule
    /// they were planned with. False when nothing changed.
    @discardableResult
    public func changeSchedule(to reminders: ReminderSchedule, at now: Timestamp, timeZone: TimeZone) throws -> Bool {
        let singleton = store.singleton(HydrationSchedule.self)
        var schedule = try self.schedule()
        let today = try current(at: now, timeZone: timeZone)
        guard schedule.reminders != reminders || !singleton.exists else { return false }
        if !singleton.exists { schedule.createdAt = now }
        schedule.reminders = reminders
        schedule.updatedAt = now
        try singleton.save(schedule)
        if var document = today.document, document.schedule != reminders {
            document.schedule = reminders
            document.updatedAt = now
            try store.repository(HydrationDay.self).save(document)
        }
        return true
    }
}
