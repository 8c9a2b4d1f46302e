import Foundation

/// A ledger's Water Reminder documents, with the operations the app performs on them: the
/// only public way to change them.
///
/// Every operation that changes documents takes the ledger's writer lock for its whole
/// read-modify-write; do not call them inside `withWriterLock`. `now` and the time zone for
/// calendar questions are always passed in. Reads take no lock and are pure functions of the
/// documents, `now` and the zone, so a resident reminder process can ask them whenever it
/// wakes (`agenda(at:timeZone:)` says when that should be).
public struct HydrateStore: Sendable {
    /// The ledger.
    let store: LedgerStore

    /// The Water Reminder documents of `store`.
    public init(_ store: LedgerStore) {
        self.store = store
    }

    // MARK: - Reads

    /// The schedule document (the defaults while the file does not exist).
    public func schedule() throws -> HydrationSchedule {
        try store.singleton(HydrationSchedule.self).load()
    }

    /// The document of `date`, or nil: read where it belongs (`hydrate/days/<year>/<date>.json`),
    /// whatever the number of years; one in another folder is `ledger check --fix`'s to move.
    public func document(for date: LocalDate) throws -> HydrationDay? {
        try store.load(HydrationDay.self, at: HydrationDay.kind.path(id: date.description, date: date))
    }

    /// The day current at `now` (see `PlannedDay.current`), always planned with the schedule
    /// in force — the one in `hydrate/schedule.json` — in the zone its document records (else
    /// `timeZone`). Its document may record another schedule (two machines each created the
    /// day offline, and their schedules merged differently from the day's copies); the
    /// schedule in force wins, and the next write of the document records it.
    public func current(at now: Timestamp, timeZone: TimeZone) throws -> PlannedDay {
        try current(at: now, timeZone: timeZone, schedule: schedule().reminders)
    }

    private func current(at now: Timestamp, timeZone: TimeZone, schedule: ReminderSchedule) throws -> PlannedDay {
        try PlannedDay.current(at: now, in: timeZone) { date in
            let document = try document(for: date)
            let zone = document?.zone ?? timeZone
            return PlannedDay(plan: HydrationPlan(date: date, schedule: schedule, timeZone: zone), document: document)
        }
    }

    /// The day a command shows: `date`, else the current one (see `view`).
    public struct View: Sendable {
        public let day: PlannedDay
        /// Whether the defaults are in force because no schedule has been chosen yet
        /// (`HydrationSchedule.awaitsSetup`): the first use, when the seed's onboarding applies.
        public let awaitsSetup: Bool
    }

    /// The plan of `date` as `status --date` shows it — the current day's when `date` is the
    /// current day at `now`, else the one recorded in its document, else the schedule in force
    /// in `timeZone` — or, without a date, the current day.
    public func view(_ date: LocalDate?, at now: Timestamp, timeZone: TimeZone) throws -> View {
        let schedule = try schedule()
        let current = try current(at: now, timeZone: timeZone, schedule: schedule.reminders)
        guard let date, date != current.date else { return View(day: current, awaitsSetup: schedule.awaitsSetup) }
        return View(day: try recordedDay(date, schedule: schedule.reminders, timeZone: timeZone), awaitsSetup: schedule.awaitsSetup)
    }

    /// The plan of a day other than the current one: the schedule recorded in its document,
    /// else `schedule` in `timeZone`.
    private func recordedDay(_ date: LocalDate, schedule: ReminderSchedule, timeZone: TimeZone) throws -> PlannedDay {
        let document = try document(for: date)
        if let document, let plan = document.plan { return PlannedDay(plan: plan, document: document) }
        return PlannedDay(plan: HydrationPlan(date: date, schedule: schedule, timeZone: timeZone), document: document)
    }

    /// What a resident reminder process needs at `now`: the reminder or follow-up to show,
    /// with its slot, and when something next becomes due (`ReminderAgenda.wake`).
    public func agenda(at now: Timestamp, timeZone: TimeZone) throws -> ReminderAgenda {
        let schedule = try schedule().reminders
        let today = try current(at: now, timeZone: timeZone, schedule: schedule)
        let nextDay = try recordedDay(today.date.adding(days: 1), schedule: schedule, timeZone: today.plan.timeZone)
        return ReminderAgenda(day: today, nextDay: nextDay.plan, at: now)
    }

    // MARK: - Intents

    /// "I Drank" at `now`: confirms the reminder whose period holds `now`, once. Before the
    /// day's first reminder or after its window closed there is no reminder to confirm, but
    /// the glass is not lost: it is recorded in the day's document as a confirmation that
    /// counts for no reminder, and shown (`HydrationProgress.outside`).
    public func confirm(at now: Timestamp, timeZone: TimeZone) throws -> ConfirmationOutcome {
        try store.withWriterLock {
            let today = try current(at: now, timeZone: timeZone)
            guard let slot = today.plan.slot(containing: now) else {
                let day = try save(confirmationAt: now, slot: nil, of: today)
                return now < today.plan.start ? .beforeFirstReminder(day) : .windowClosed(day)
            }
            return try record(slot, of: today, named: false, at: now)
        }
    }

    /// "I Drank" for the reminder `reference` names — the one that was notified, even when
    /// the click comes after its period or after the window closed: the latest reminder by
    /// that name that has come, of the current day or (for a window past midnight) the day
    /// before, until the end of the day it came on (`HydrationPlan.confirmationDeadline`).
    /// The confirmation records the reminder it confirms (`HydrationConfirmation.slot`).
    public func confirm(_ reference: SlotReference, at now: Timestamp, timeZone: TimeZone) throws -> ConfirmationOutcome {
        try store.withWriterLock {
            let today = try current(at: now, timeZone: timeZone)
            // The days a reminder so named may belong to, earliest first.
            var dates = [today.date.adding(days: -1), today.date]
            if case .instant(let t) = reference {
                let date = ZonedClock.timestamp(t.epochMilliseconds, in: today.plan.timeZone).local.date
                dates = [date.adding(days: -1), date]
            }
            let inForce = today.plan.schedule
            let days = try dates.map { $0 == today.date ? today : try recordedDay($0, schedule: inForce, timeZone: timeZone) }
            switch reference.resolve(in: days, at: now) {
            case .found(let day, let slot): return try record(slot, of: day, named: true, at: now)
            case .notYet(let day, let slot): return .notYet(slot, day)
            case .tooLate(let day, let slot, let deadline): return .tooLate(slot, day, deadline: deadline)
            case .none: return .noSuchReminder(reference, today)
            }
        }
    }

    /// Records a confirmation of `slot` at `now` in `day`'s document, unless the slot is
    /// already confirmed. `named`: the person named the slot, so the confirmation records it.
    private func record(_ slot: HydrationPlan.Slot, of day: PlannedDay, named: Bool, at now: Timestamp) throws -> ConfirmationOutcome {
        // Every confirmation of the slot counts, even one stamped a little later than `now`
        // (another process or device whose clock is ahead got the writer lock first).
        if let earlier = day.progress(at: nil).slots[slot.index].confirmedAt {
            return .alreadyConfirmed(slot, at: earlier, day)
        }
        return .confirmed(slot, try save(confirmationAt: now, slot: named ? slot.time : nil, of: day))
    }

    /// Writes a confirmation at `now` (of the reminder at `slot`, when named) into `day`'s
    /// document; the day as it stands after it.
    private func save(confirmationAt now: Timestamp, slot: Timestamp?, of day: PlannedDay) throws -> PlannedDay {
        if day.document == nil, let misplaced = try misplacedDocument(of: day.plan.date) {
            let expected = HydrationDay.kind.path(id: day.plan.date.description, date: day.plan.date)
            throw LedgerError.invalid("\(misplaced) holds the document of \(day.plan.date) (its id), which belongs at \(expected); "
                + "nothing was written, so that the day has one document: move the file there by hand, then drink again")
        }
        var document = day.documentForWriting(now: now)
        document.confirm(at: now, slot: slot)
        document.updatedAt = now
        try store.repository(HydrationDay.self).save(document, new: day.document == nil)
        return PlannedDay(plan: day.plan, document: document)
    }

    /// The file other than `date`'s own that holds `date`'s document (its id is the date):
    /// one renamed by hand to another name in its year's folder, or `<date>.json` in another
    /// year's folder — which `document(for:)` does not see, and beside which a new document
    /// would be a second one with the same id. Asked only when the day's document is about to
    /// be created (the day's first glass), as it reads the files of the year's folder: those
    /// whose bytes hold the date in quotes are parsed; a file that cannot be read or parsed is
    /// `check`'s to report.
    func misplacedDocument(of date: LocalDate) throws -> String? {
        let files = store.repository(HydrationDay.self).files
        let own = HydrationDay.kind.path(id: date.description, date: date)
        if let elsewhere = try files.path(of: date.description), elsewhere != own { return elsewhere }
        let shard = files.shard(for: date)
        let listing = try files.listing(in: shard)
        let quoted = Array("\"\(date)\"".utf8)
        for path in (listing.files.map(\.path) + listing.misnamed).sorted() where path != own {
            guard let bytes = try? store.read(path), bytes.firstRange(of: quoted) != nil,
                  let json = try? JSONParser.parse(bytes), json["id"]?.stringValue == date.description else { continue }
            return path
        }
        return nil
    }

    /// Changes the schedule at `now`: the values `change` gives replace the current ones. The
    /// change applies at once: the current day's document, if any, is replanned with it (its
    /// confirmations stay); earlier days keep the schedule they were planned with. A schedule
    /// that would break a rule is refused with its problems (pointers name the fields) and
    /// nothing is written. Choosing the schedule, even unchanged, ends the first use
    /// (`HydrationSchedule.setUpAt`).
    public func changeSchedule(_ change: ScheduleChange, at now: Timestamp, timeZone: TimeZone) throws -> ScheduleChange.Outcome {
        try store.withWriterLock {
            let singleton = store.singleton(HydrationSchedule.self)
            var schedule = try self.schedule()
            let reminders = change.applied(to: schedule.reminders)
            let problems = reminders.validate(at: .root)
            guard problems.isEmpty else { return .refused(reminders, problems) }
            guard schedule.reminders != reminders || schedule.setUpAt == nil || !singleton.exists else { return .unchanged(reminders) }
            let today = try current(at: now, timeZone: timeZone, schedule: schedule.reminders)
            if !singleton.exists { schedule.createdAt = now }
            schedule.reminders = reminders
            schedule.setUpAt = now
            schedule.updatedAt = now
            try singleton.save(schedule)
            if var document = today.document, document.schedule != reminders {
                document.schedule = reminders
                document.updatedAt = now
                try store.repository(HydrationDay.self).save(document)
            }
            return .saved(reminders)
        }
    }
}

/// The values `ledger hydrate setup` gives; those left nil keep their current value.
public struct ScheduleChange: Sendable, Equatable {
    public var startTime: ClockTime?
    public var endTime: ClockTime?
    public var intervalMinutes: Int?
    public var followUpIntervalMinutes: Int?

    public init(startTime: ClockTime? = nil, endTime: ClockTime? = nil, intervalMinutes: Int? = nil, followUpIntervalMinutes: Int? = nil) {
        self.startTime = startTime
        self.endTime = endTime
        self.intervalMinutes = intervalMinutes
        self.followUpIntervalMinutes = followUpIntervalMinutes
    }

    /// Whether every value is given.
    public var isComplete: Bool { startTime != nil && endTime != nil && intervalMinutes != nil && followUpIntervalMinutes != nil }

    /// `schedule` with the values given.
    public func applied(to schedule: ReminderSchedule) -> ReminderSchedule {
        var r = schedule
        if let v = startTime { r.startTime = v }
        if let v = endTime { r.endTime = v }
        if let v = intervalMinutes { r.intervalMinutes = v }
        if let v = followUpIntervalMinutes { r.followUpIntervalMinutes = v }
        return r
    }

    /// What a change did.
    public enum Outcome: Sendable {
        /// Written: the schedule now in force.
        case saved(ReminderSchedule)
        /// Already the schedule in force, and chosen before: nothing was written.
        case unchanged(ReminderSchedule)
        /// The schedule would break a rule (pointers relative to the schedule, such as
        /// `/intervalMinutes`); nothing was written.
        case refused(ReminderSchedule, [DocumentIssue])
    }
}
