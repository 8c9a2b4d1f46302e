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

    /// How many slots hold at least one of `confirmations` (the day's "completed" once it is over).
    public func confirmedSlotCount(_ confirmations: [Timestamp]) -> Int {
        Set(confirmations.compactMap { slot(containing: $0)?.index }).count
    }

    /// The day's progress given its confirmations: with `now`, as it stands at that instant
    /// (confirmations later than `now` have not happened yet); without, once the day is over.
    public func progress(confirmations: [Timestamp], at now: Timestamp? = nil) -> HydrationProgress {
        let nowMs = now?.epochMilliseconds ?? .max
        let counted = confirmations.filter { $0.epochMilliseconds <= nowMs }.sorted { $0.epochMilliseconds < $1.epochMilliseconds }
        var statuses: [HydrationProgress.SlotStatus] = []
        statuses.reserveCapacity(slots.count)
        for slot in slots {
            let confirmation = counted.first { slot.contains($0) }
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
        return HydrationProgress(slots: statuses, now: now)
    }

    /// The reminder or follow-up due in the minute holding `now` (for a job run every minute),
    /// or nil when none is: a reminder at its slot's start, a follow-up at each follow-up time,
    /// both only while the slot is unconfirmed.
    public func due(confirmations: [Timestamp], at now: Timestamp) -> DueReminder? {
        let minute = now.epochMilliseconds - now.epochMilliseconds.floorModulo(60_000)
        func inMinute(_ t: Timestamp) -> Bool { t.epochMilliseconds >= minute && t.epochMilliseconds < minute + 60_000 }
        guard let status = progress(confirmations: confirmations, at: now).current, status.state == .due else { return nil }
        if inMinute(status.slot.time) { return DueReminder(kind: .reminder, slot: status.slot, time: status.slot.time) }
        if let f = status.slot.followUps.first(where: inMinute) { return DueReminder(kind: .followUp, slot: status.slot, time: f) }
        return nil
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

/// Wall-clock times in a real time zone, for the few questions that need one (DST).
public enum ZonedClock {
    /// The instant `epochMilliseconds`, recorded with the offset `zone` has then.
    public static func timestamp(_ epochMilliseconds: Int64, in zone: TimeZone) -> Timestamp {
        let date = Date(timeIntervalSince1970: Double(epochMilliseconds.floorDivided(by: 1000).0))
        return Timestamp(epochMilliseconds: epochMilliseconds, utcOffsetSeconds: zone.secondsFromGMT(for: date))
    }

    /// The instant the wall clock of `zone` shows `local`: the first of two when the time
    /// occurs twice (autumn), the instant just after the gap when it does not exist (spring:
    /// 02:30 becomes 03:30).
    public static func instant(_ local: LocalDateTime, in zone: TimeZone) -> Timestamp {
        shown(local, in: zone)[0]
    }

    /// The last instant, not later than `now`, at which the wall clock of `zone` showed
    /// `hour:minute:second`: today's once it has come — the later of two when the clocks went
    /// back over it, so at 02:07 after they went back 02:40 is 27 minutes ago — else
    /// yesterday's. A time the clocks skipped is taken just after the gap, as by `instant`.
    public static func lastShowing(hour: Int, minute: Int, second: Int, notAfter now: Timestamp, in zone: TimeZone) -> Timestamp {
        let today = timestamp(now.epochMilliseconds, in: zone).local.date
        func on(_ date: LocalDate) -> [Timestamp] { shown(LocalDateTime(date: date, hour: hour, minute: minute, second: second), in: zone) }
        if let t = on(today).last(where: { $0.epochMilliseconds <= now.epochMilliseconds }) { return t }
        let yesterday = on(today.adding(days: -1))
        return yesterday[yesterday.count - 1]
    }

    /// The instants the wall clock of `zone` shows `local`, earliest first: two when the time
    /// occurs twice (autumn), else one — for a time in a spring gap, the instant just after it.
    static func shown(_ local: LocalDateTime, in zone: TimeZone) -> [Timestamp] {
        // The wall time read as if it were UTC, in seconds.
        let wall = Int64(local.date.daysSinceEpoch) * 86_400 + Int64(local.hour * 3600 + local.minute * 60 + local.second)
        func offset(_ seconds: Int64) -> Int64 { Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))) }
        // The offsets in force half a day before and after; at most one change lies between.
        let before = offset(wall - 43_200), after = offset(wall + 43_200)
        var seconds = Set([wall - before, wall - after]).filter { wall - offset($0) == $0 }.sorted()
        // In the gap: the offset before it carries past it.
        if seconds.isEmpty { seconds = [wall - before] }
        return seconds.map { timestamp($0 * 1000 + Int64(local.millisecond), in: zone) }
    }
}
