import Foundation

/// One day's reminders: the window, its reminder slots and their follow-ups, as instants.
///
/// The window opens at the schedule's start time on `date` and closes at its end time on the
/// same day, or on the next day when the window runs past midnight (the night belongs to the
/// day it starts). Reminders are spaced by real elapsed time from the opening, so on the night
/// the clocks change a window spanning the change is an hour shorter or longer and keeps its
/// spacing: every interval, never outside the window. A wall-clock time that does not exist
/// (skipped by a spring-forward) is taken just after the gap; one that occurs twice is taken
/// at its first occurrence.
///
/// Each slot runs from its reminder until the next reminder (the last one until the window
/// closes); a confirmation inside that period confirms it, and while it is unconfirmed a
/// follow-up comes every follow-up interval within it.
public struct HydrationPlan: Sendable {
    /// One reminder and the period it covers.
    public struct Slot: Sendable, Hashable {
        /// 0 for the day's first reminder.
        public let index: Int
        /// The reminder, with the zone's offset at that instant.
        public let time: Timestamp
        /// The end of the slot's period (exclusive): the next reminder, or the window's end.
        public let end: Timestamp
        /// The follow-ups, if the reminder stays unconfirmed: every follow-up interval after
        /// `time` and before `end`.
        public let followUps: [Timestamp]

        /// Whether `t` falls in the slot's period.
        public func contains(_ t: Timestamp) -> Bool {
            t.epochMilliseconds >= time.epochMilliseconds && t.epochMilliseconds < end.epochMilliseconds
        }
    }

    /// The day the window starts on.
    public let date: LocalDate
    public let schedule: ReminderSchedule
    public let timeZone: TimeZone
    /// The window's opening (the first reminder).
    public let start: Timestamp
    /// The window's close (exclusive).
    public let end: Timestamp
    /// The reminders, in order; at least one for a valid schedule.
    public let slots: [Slot]

    /// The plan of `date` for a valid `schedule` in `timeZone`.
    public init(date: LocalDate, schedule: ReminderSchedule, timeZone: TimeZone) {
        self.date = date
        self.schedule = schedule
        self.timeZone = timeZone
        start = ZonedClock.instant(LocalDateTime(date: date, hour: schedule.startTime.hour, minute: schedule.startTime.minute), in: timeZone)
        let endDate = schedule.crossesMidnight ? date.adding(days: 1) : date
        end = ZonedClock.instant(LocalDateTime(date: endDate, hour: schedule.endTime.hour, minute: schedule.endTime.minute), in: timeZone)
        let step = Int64(max(1, schedule.intervalMinutes)) * 60_000
        let followStep = Int64(max(1, schedule.followUpIntervalMinutes)) * 60_000
        var times: [Int64] = []
        var t = start.epochMilliseconds
        while t < end.epochMilliseconds {
            times.append(t)
            t += step
        }
        // When the window opens and closes at the same offset (every day but two a year), no
        // change lies between and every instant shares it: no need to ask the zone each time.
        let (startOffset, endOffset) = (start.utcOffsetSeconds, end.utcOffsetSeconds)
        func stamp(_ ms: Int64) -> Timestamp {
            startOffset == endOffset ? Timestamp(epochMilliseconds: ms, utcOffsetSeconds: startOffset) : ZonedClock.timestamp(ms, in: timeZone)
        }
        var slots: [Slot] = []
        slots.reserveCapacity(times.count)
        for (i, t) in times.enumerated() {
            let slotEnd = i + 1 < times.count ? times[i + 1] : end.epochMilliseconds
            let followUps = stride(from: t + followStep, to: slotEnd, by: Int(followStep)).map(stamp)
            slots.append(Slot(index: i, time: stamp(t), end: stamp(slotEnd), followUps: followUps))
        }
        self.slots = slots
    }

    /// Whether `t` is inside the window.
    public func contains(_ t: Timestamp) -> Bool {
        t.epochMilliseconds >= start.epochMilliseconds && t.epochMilliseconds < end.epochMilliseconds
    }

    /// The slot whose period holds `t`, or nil outside the window.
    public func slot(containing t: Timestamp) -> Slot? {
        guard contains(t) else { return nil }
        // Slots are evenly spaced from the start.
        let i = Int((t.epochMilliseconds - start.epochMilliseconds) / (Int64(max(1, schedule.intervalMinutes)) * 60_000))
        return slots[min(i, slots.count - 1)]
    }

    /// `t` as seen on this plan's wall clock.
    public func local(_ t: Timestamp) -> Timestamp { ZonedClock.timestamp(t.epochMilliseconds, in: timeZone) }

    /// The slot `confirmation` confirms: the one whose period holds the reminder it names, or
    /// else the instant it was made; nil when that is outside the window.
    public func slot(confirmedBy confirmation: HydrationConfirmation) -> Slot? { slot(containing: confirmation.confirmsInstant) }

    /// How many slots hold at least one of `confirmations` (the day's "completed" once it is over).
    public func confirmedSlotCount(_ confirmations: [HydrationConfirmation]) -> Int {
        Set(confirmations.compactMap { slot(confirmedBy: $0)?.index }).count
    }

    /// The last instant at which `slot` can still be confirmed (exclusive): the end of the
    /// day it came on (the next midnight on this plan's clock), or the window's close when
    /// that is later (a window past midnight). A notification's "I Drank" clicked after the
    /// slot's period, even after the window closed, still confirms it until then.
    public func confirmationDeadline(of slot: Slot) -> Timestamp {
        let nextMidnight = ZonedClock.instant(LocalDateTime(date: local(slot.time).local.date.adding(days: 1), hour: 0, minute: 0), in: timeZone)
        return max(nextMidnight, end)
    }

    /// The day's progress given its confirmations: with `now`, as it stands at that instant
    /// (confirmations made later than `now` have not happened yet); without, once the day is over.
    public func progress(confirmations: [HydrationConfirmation], at now: Timestamp? = nil) -> HydrationProgress {
        let nowMs = now?.epochMilliseconds ?? .max
        var first: [Int: Timestamp] = [:]  // slot index → the earliest confirmation of it so far
        var outside: [Timestamp] = []
        for c in confirmations where c.confirmedAt.epochMilliseconds <= nowMs {
            guard let i = slot(confirmedBy: c)?.index else {
                outside.append(c.confirmedAt)
                continue
            }
            if let seen = first[i], seen.epochMilliseconds <= c.confirmedAt.epochMilliseconds { continue }
            first[i] = c.confirmedAt
        }
        var statuses: [HydrationProgress.SlotStatus] = []
        statuses.reserveCapacity(slots.count)
        for slot in slots {
            let confirmation = first[slot.index]
            let state: HydrationProgress.State
            let followUps: [Timestamp]
            if let c = confirmation {
                state = .done
                followUps = slot.followUps.filter { $0.epochMilliseconds < c.epochMilliseconds }
            } else if nowMs < slot.time.epochMilliseconds {
                state = .upcoming
                followUps = slot.followUps
            } else if nowMs < slot.end.epochMilliseconds {
                state = .due
                followUps = slot.followUps
            } else {
                state = .unconfirmed
                followUps = slot.followUps
            }
            statuses.append(.init(slot: slot, state: state, confirmedAt: confirmation, followUps: followUps))
        }
        return HydrationProgress(slots: statuses, outside: outside, now: now)
    }

    /// The reminder or follow-up that should be showing at `now`: the latest one that came,
    /// while the current slot is unconfirmed; nil when nothing is awaiting a confirmation. A
    /// process that woke late (after a suspend) shows this one, not the ones it slept through.
    public func pending(confirmations: [HydrationConfirmation], at now: Timestamp) -> DueReminder? {
        guard let status = progress(confirmations: confirmations, at: now).current, status.state == .due else { return nil }
        if let f = status.slot.followUps.last(where: { $0.epochMilliseconds <= now.epochMilliseconds }) {
            return DueReminder(kind: .followUp, slot: status.slot, time: f)
        }
        return DueReminder(kind: .reminder, slot: status.slot, time: status.slot.time)
    }

    /// The reminder or follow-up due in the minute holding `now` (for a job run every minute),
    /// or nil when none is: a reminder at its slot's start, a follow-up at each follow-up time,
    /// both only while the slot is unconfirmed.
    public func due(confirmations: [HydrationConfirmation], at now: Timestamp) -> DueReminder? {
        let minute = now.epochMilliseconds - now.epochMilliseconds.floorModulo(60_000)
        guard let pending = pending(confirmations: confirmations, at: now), pending.time.epochMilliseconds >= minute else { return nil }
        return pending
    }

    /// The next reminder or follow-up after `now`, as the day stands then: the current slot's
    /// next follow-up while it is unconfirmed, else the next reminder; nil when nothing more
    /// can come before the window closes.
    public func next(confirmations: [HydrationConfirmation], after now: Timestamp) -> DueReminder? {
        let progress = progress(confirmations: confirmations, at: now)
        if let status = progress.current, status.state == .due,
           let f = status.slot.followUps.first(where: { $0.epochMilliseconds > now.epochMilliseconds }) {
            return DueReminder(kind: .followUp, slot: status.slot, time: f)
        }
        return progress.next.map { DueReminder(kind: .reminder, slot: $0, time: $0.time) }
    }
}

/// Where a day stands: each slot's state, and the counts shown as "3 out of 8 reminders completed".
public struct HydrationProgress: Sendable {
    /// A slot's state. There is deliberately no "missed": a past reminder that was not
    /// confirmed is simply unconfirmed.
    public enum State: String, Sendable {
        /// Confirmed.
        case done
        /// The current slot, not yet confirmed: `drank` would confirm it.
        case due
        /// Its period is over without a confirmation.
        case unconfirmed
        /// Not yet begun.
        case upcoming
    }

    /// One slot and what happened to it.
    public struct SlotStatus: Sendable {
        public let slot: HydrationPlan.Slot
        public let state: State
        /// The confirmation that counts for it (the first in its period).
        public let confirmedAt: Timestamp?
        /// Its follow-ups: those before the confirmation when done, else all of them (sent
        /// ones before `now`, planned ones after).
        public let followUps: [Timestamp]
    }

    public let slots: [SlotStatus]
    /// Glasses recorded outside the reminders' periods — before the day's first reminder,
    /// after its window closed, or in a period a later schedule change removed — in time
    /// order: kept and shown, counted for no reminder.
    public let outside: [Timestamp]
    /// The instant this progress is for; nil once the day is over.
    public let now: Timestamp?

    /// Reminders confirmed (a slot counts once however many confirmations it has).
    public var completed: Int { slots.count { $0.state == .done } }
    /// Reminders in the day.
    public var total: Int { slots.count }
    /// Reminders not yet begun.
    public var upcoming: Int { slots.count { $0.state == .upcoming } }
    /// The slot whose period holds `now`, confirmed or not.
    public var current: SlotStatus? {
        guard let now else { return nil }
        return slots.first { $0.slot.contains(now) }
    }
    /// The next reminder after `now`.
    public var next: HydrationPlan.Slot? { slots.first { $0.state == .upcoming }?.slot }
}

/// A reminder or follow-up due now, with its discreet notification text.
public struct DueReminder: Sendable {
    public enum Kind: String, Sendable {
        case reminder
        case followUp
    }

    public let kind: Kind
    /// The slot it reminds of.
    public let slot: HydrationPlan.Slot
    /// When it is due (the slot's start, or the follow-up time).
    public let time: Timestamp

    /// Short, quiet text that says no more than needed on a shared screen.
    public var text: String {
        switch kind {
        case .reminder: "Time for a glass of water."
        case .followUp: "Still time for a glass of water."
        }
    }
}
