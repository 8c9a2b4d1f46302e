import Foundation
@testable import LedgerKit
import LedgerTestSupport
import Testing

/// The Water Reminder façade's intents and reads, on ledgers in plain folders.
@Suite struct HydrateStoreTests {
    let paris = TimeZone(identifier: "Europe/Paris")!

    func at(_ time: String, on day: String = "2026-11-21") -> Timestamp { Timestamp(iso8601: "\(day)T\(time):00+01:00")! }

    /// A ledger with the default schedule (09:00–17:00 every 60, follow-ups every 15: the seed's day of 8).
    func ledger() -> (HydrateStore, TemporaryDirectory) {
        let dir = TemporaryDirectory()
        return (HydrateStore(LedgerStore.plain(dir.path)), dir)
    }

    @Test func aConfirmationStampedAfterNowStillCountsForItsSlot() throws {
        // Two processes (or devices) whose clocks differ: the one at 14:02 takes the writer
        // lock first; the one at 14:01 must see the 14:00 reminder as confirmed.
        let (hydrate, dir) = ledger()
        defer { withExtendedLifetime(dir) {} }
        guard case .confirmed = try hydrate.confirm(at: at("14:02"), timeZone: paris) else {
            Issue.record("the first tap should confirm")
            return
        }
        guard case .alreadyConfirmed(_, let earlier, let day) = try hydrate.confirm(at: at("14:01"), timeZone: paris) else {
            Issue.record("the second tap should find the slot confirmed")
            return
        }
        #expect(earlier == at("14:02"))
        #expect(day.document?.confirmations.count == 1)
    }

    /// Two machines each changed the schedule and then created today's document offline (their
    /// first `drank`), each recording its own schedule. After the merge — the schedule field by
    /// field, the day's recorded schedule field by field without a base — the two disagree.
    func mergedLedger() throws -> (HydrateStore, merged: ReminderSchedule, recorded: ReminderSchedule, TemporaryDirectory) {
        let defaults = HydrationSchedule(ReminderSchedule(), createdAt: at("08:00"))
        var a = defaults, b = defaults
        a.reminders.intervalMinutes = 30  // 09:00–17:00 every 30
        a.updatedAt = at("08:10")
        b.reminders.endTime = ClockTime(hour: 18, minute: 0)!  // 09:00–18:00 every 60
        b.updatedAt = at("08:20")
        let day = LocalDate("2026-11-21")!
        var dayA = HydrationDay(date: day, schedule: a.reminders, timeZone: paris, createdAt: at("09:05"))
        dayA.confirm(at: at("09:05"))
        var dayB = HydrationDay(date: day, schedule: b.reminders, timeZone: paris, createdAt: at("09:10"))
        dayB.confirm(at: at("09:10"))
        dayB.confirm(at: at("10:02"))
        let schedule = HydrationSchedule.merge(base: defaults, ours: a, theirs: b, context: MergeContext()).document
        let merged = HydrationDay.merge(base: nil, ours: dayA, theirs: dayB, context: MergeContext()).document
        let dir = TemporaryDirectory()
        let store = LedgerStore.plain(dir.path)
        try store.singleton(HydrationSchedule.self).save(schedule)
        try store.repository(HydrationDay.self).save(merged)
        return (HydrateStore(store), schedule.reminders, merged.schedule, dir)
    }

    @Test func theCurrentDayIsPlannedWithTheScheduleInForce() throws {
        let (hydrate, inForce, recorded, dir) = try mergedLedger()
        defer { withExtendedLifetime(dir) {} }
        #expect(inForce == H.schedule("09:00", "18:00", every: 30, followUp: 15))
        #expect(recorded != inForce)  // the situation this is about
        let today = try hydrate.current(at: at("10:15"), timeZone: paris)
        #expect(today.plan.schedule == inForce)
        #expect(today.progress(at: at("10:15")).total == 18)
        #expect(today.progress(at: at("10:15")).completed == 2)  // 09:00 and 10:00
        // `status --date` of today is the same day.
        #expect(try hydrate.view(LocalDate("2026-11-21")!, at: at("10:15"), timeZone: paris).day.plan.schedule == inForce)
        // The next write records the schedule in force.
        guard case .confirmed(_, let after) = try hydrate.confirm(at: at("10:35"), timeZone: paris) else {
            Issue.record("10:35 confirms the 10:30 reminder")
            return
        }
        #expect(after.document?.schedule == inForce)
        let stored = try #require(try hydrate.document(for: LocalDate("2026-11-21")!))
        #expect(stored.schedule == inForce)
        #expect(stored.total == 18 && stored.completed == 3)
    }

    @Test func aPastDayKeepsItsRecordedSchedule() throws {
        let (hydrate, inForce, recorded, dir) = try mergedLedger()
        defer { withExtendedLifetime(dir) {} }
        // The next day: the 21st is past and keeps the schedule its file records.
        let tomorrow = Timestamp(iso8601: "2026-11-22T10:00:00+01:00")!
        let past = try hydrate.view(LocalDate("2026-11-21")!, at: tomorrow, timeZone: paris).day
        #expect(past.plan.schedule == recorded)
        #expect(try hydrate.current(at: tomorrow, timeZone: paris).plan.schedule == inForce)
    }

    // MARK: - Changing the schedule; the first use

    @Test func theDefaultsAwaitSetupUntilAScheduleIsChosenEvenTheSameOne() throws {
        let (hydrate, dir) = ledger()
        defer { withExtendedLifetime(dir) {} }
        try LedgerStore.plain(dir.path).singleton(HydrationSchedule.self).save(HydrationSchedule(ReminderSchedule(), createdAt: at("08:00")))
        #expect(try hydrate.view(nil, at: at("08:00"), timeZone: paris).awaitsSetup)
        // Choosing the defaults themselves ends the first use.
        guard case .saved(let saved) = try hydrate.changeSchedule(ScheduleChange(), at: at("08:00"), timeZone: paris) else {
            Issue.record("choosing the schedule for the first time is saved")
            return
        }
        #expect(saved == ReminderSchedule())
        #expect(try hydrate.schedule().setUpAt == at("08:00"))
        #expect(try !hydrate.view(nil, at: at("08:00"), timeZone: paris).awaitsSetup)
        guard case .unchanged = try hydrate.changeSchedule(ScheduleChange(intervalMinutes: 60), at: at("08:05"), timeZone: paris) else {
            Issue.record("the same schedule again writes nothing")
            return
        }
        #expect(try hydrate.schedule().updatedAt == at("08:00"))
    }

    @Test func aScheduleHandEditedAwayFromTheDefaultsWasChosen() throws {
        var schedule = HydrationSchedule(ReminderSchedule(), createdAt: at("08:00"))
        #expect(schedule.awaitsSetup)
        schedule.reminders.intervalMinutes = 45
        #expect(!schedule.awaitsSetup)
    }

    @Test(arguments: [
        // The seed's follow-ups must come between reminders: an interval of 1 minute can never be saved.
        (ScheduleChange(intervalMinutes: 1), "/intervalMinutes", "must be at least 2 minutes"),
        (ScheduleChange(intervalMinutes: 0), "/intervalMinutes", "must be at least 2 minutes"),
        (ScheduleChange(intervalMinutes: 2, followUpIntervalMinutes: 2), "/followUpIntervalMinutes", "must be shorter than intervalMinutes (2)"),
        (ScheduleChange(endTime: ClockTime("09:00")), "/endTime", "must differ from startTime"),
    ])
    func anInvalidScheduleIsRefusedAndNothingIsWritten(change: ScheduleChange, pointer: String, message: String) throws {
        let (hydrate, dir) = ledger()
        defer { withExtendedLifetime(dir) {} }
        guard case .refused(_, let problems) = try hydrate.changeSchedule(change, at: at("08:00"), timeZone: paris) else {
            Issue.record("\(change) should be refused")
            return
        }
        #expect(problems.first?.pointer.description == pointer)
        #expect(problems.first?.message.contains(message) == true, "\(problems)")
        #expect(!FileSystem.exists(dir.path + "/hydrate/schedule.json"))
    }

    @Test func theShortestIntervalThatCanBeSavedIsTwoMinutes() throws {
        let (hydrate, dir) = ledger()
        defer { withExtendedLifetime(dir) {} }
        let change = ScheduleChange(intervalMinutes: ReminderSchedule.minimumIntervalMinutes, followUpIntervalMinutes: 1)
        guard case .saved(let r) = try hydrate.changeSchedule(change, at: at("08:00"), timeZone: paris) else {
            Issue.record("the documented minimum can be saved")
            return
        }
        #expect(r.intervalMinutes == 2)
    }

    // MARK: - Confirming the reminder that was notified

    /// The slot's clock time, "09:00".
    func clock(_ slot: HydrationPlan.Slot) -> String { ClockTime(hour: slot.time.local.hour, minute: slot.time.local.minute)!.description }

    @Test func aLateClickConfirmsTheReminderItNamesNotTheCurrentOne() throws {
        let (hydrate, dir) = ledger()
        defer { withExtendedLifetime(dir) {} }
        // The 09:00 notification, clicked at 10:05, during the 10:00 reminder's period.
        guard case .confirmed(let slot, let day) = try hydrate.confirm(.clock(ClockTime("09:00")!), at: at("10:05"), timeZone: paris) else {
            Issue.record("09:00 is confirmed")
            return
        }
        #expect(clock(slot) == "09:00")
        let progress = day.progress(at: at("10:05"))
        #expect(progress.slots.map(\.state).prefix(3) == [.done, .due, .upcoming])
        #expect(day.document?.confirmations == [HydrationConfirmation(at: at("10:05"), slot: at("09:00"))])
        // The 10:00 reminder is still awaited: its follow-up comes.
        #expect(try hydrate.agenda(at: at("10:15"), timeZone: paris).pending?.kind == .followUp)
        // Plain "I Drank" keeps its rule: the reminder whose period holds now.
        guard case .confirmed(let current, _) = try hydrate.confirm(at: at("10:20"), timeZone: paris) else {
            Issue.record("10:00 is confirmed")
            return
        }
        #expect(clock(current) == "10:00")
        #expect(try hydrate.document(for: LocalDate("2026-11-21")!)?.completed == 2)
    }

    @Test func aClickAfterTheWindowClosedConfirmsItsReminderUntilTheEndOfTheDay() throws {
        let (hydrate, dir) = ledger()
        defer { withExtendedLifetime(dir) {} }
        // Plain "I Drank" after 17:00 has no reminder to confirm: the glass is kept, for none …
        guard case .windowClosed(let closed) = try hydrate.confirm(at: at("18:30"), timeZone: paris) else {
            Issue.record("plain drank after the window")
            return
        }
        #expect(closed.progress(at: at("18:30")).outside == [at("18:30")])
        #expect(closed.progress(at: at("18:30")).completed == 0)
        #expect(try hydrate.document(for: LocalDate("2026-11-21")!)?.completed == 0)
        // … but the 16:00 notification clicked then confirms the 16:00 reminder.
        guard case .confirmed(let slot, let day) = try hydrate.confirm(.clock(ClockTime("16:00")!), at: at("18:30"), timeZone: paris) else {
            Issue.record("16:00 is confirmed late")
            return
        }
        #expect(clock(slot) == "16:00")
        #expect(day.progress(at: at("18:30")).slots.last?.state == .done)
        #expect(try hydrate.document(for: LocalDate("2026-11-21")!)?.completed == 1)
        // After midnight it is too late; "15:00" then names the reminder to come today.
        guard case .tooLate(let late, let lateDay, let deadline) = try hydrate.confirm(.instant(at("15:00")), at: at("00:10", on: "2026-11-22"), timeZone: paris) else {
            Issue.record("yesterday's 15:00 is too late after midnight")
            return
        }
        #expect(clock(late) == "15:00" && lateDay.date == LocalDate("2026-11-21"))
        #expect(deadline == at("00:00", on: "2026-11-22"))
        guard case .notYet(let next, let nextDay) = try hydrate.confirm(.clock(ClockTime("15:00")!), at: at("00:10", on: "2026-11-22"), timeZone: paris) else {
            Issue.record("15:00 after midnight is today's")
            return
        }
        #expect(clock(next) == "15:00" && nextDay.date == LocalDate("2026-11-22"))
    }

    @Test func aReminderThatHasNotComeOrDoesNotExistIsNotConfirmed() throws {
        let (hydrate, dir) = ledger()
        defer { withExtendedLifetime(dir) {} }
        guard case .notYet(let slot, _) = try hydrate.confirm(.clock(ClockTime("15:00")!), at: at("14:30"), timeZone: paris) else {
            Issue.record("15:00 has not come")
            return
        }
        #expect(clock(slot) == "15:00")
        guard case .noSuchReminder(let reference, let day) = try hydrate.confirm(.clock(ClockTime("09:30")!), at: at("14:30"), timeZone: paris) else {
            Issue.record("there is no 09:30 reminder")
            return
        }
        #expect(reference == .clock(ClockTime("09:30")!) && day.date == LocalDate("2026-11-21"))
        #expect(try hydrate.document(for: LocalDate("2026-11-21")!) == nil)
    }

    @Test func aNightWindowsReminderCanBeConfirmedAfterItClosesThatMorning() throws {
        let (hydrate, dir) = ledger()
        defer { withExtendedLifetime(dir) {} }
        _ = try hydrate.changeSchedule(ScheduleChange(startTime: ClockTime("22:00"), endTime: ClockTime("06:00"), intervalMinutes: 120, followUpIntervalMinutes: 30),
                                       at: at("12:00"), timeZone: paris)
        // 07:00 on the 22nd: the 21st's window closed at 06:00; its 04:00 reminder came today.
        guard case .confirmed(let slot, let day) = try hydrate.confirm(.clock(ClockTime("04:00")!), at: at("07:00", on: "2026-11-22"), timeZone: paris) else {
            Issue.record("04:00 of the 21st's night is confirmed")
            return
        }
        #expect(clock(slot) == "04:00" && day.date == LocalDate("2026-11-21"))
        #expect(try hydrate.document(for: LocalDate("2026-11-21")!)?.completed == 1)
        // Its 22:00 reminder came yesterday: too late.
        guard case .tooLate = try hydrate.confirm(.instant(at("22:00")), at: at("07:00", on: "2026-11-22"), timeZone: paris) else {
            Issue.record("22:00 of the 21st is too late on the 22nd's morning")
            return
        }
    }

    @Test func theSlotADueReminderNamesIsTheOneConfirmed() throws {
        let (hydrate, dir) = ledger()
        defer { withExtendedLifetime(dir) {} }
        let due = try #require(try hydrate.agenda(at: at("11:45"), timeZone: paris).pending)
        #expect(due.kind == .followUp && due.time == at("11:45") && due.slot.time == at("11:00"))
        // Clicked at 12:10, in the next reminder's period: the notified 11:00 one is confirmed.
        guard case .confirmed(let slot, _) = try hydrate.confirm(.instant(due.slot.time), at: at("12:10"), timeZone: paris) else {
            Issue.record("the instant names the 11:00 slot")
            return
        }
        #expect(slot.time == at("11:00"))
        guard case .alreadyConfirmed(_, let when, _) = try hydrate.confirm(.instant(due.slot.time), at: at("12:11"), timeZone: paris) else {
            Issue.record("a second click counts once")
            return
        }
        #expect(when == at("12:10"))
        guard case .noSuchReminder = try hydrate.confirm(.instant(at("11:30")), at: at("12:11"), timeZone: paris) else {
            Issue.record("11:30 is a follow-up, not a reminder")
            return
        }
    }

    // MARK: - What a resident reminder process asks

    @Test func theAgendaSaysWhatIsDueForWhichSlotAndWhenToWake() throws {
        let (hydrate, dir) = ledger()
        defer { withExtendedLifetime(dir) {} }
        // Before the window: nothing to show; wake at the 09:00 reminder.
        let early = try hydrate.agenda(at: at("07:30"), timeZone: paris)
        #expect(early.pending == nil)
        #expect(early.next?.kind == .reminder && early.wake == at("09:00"))
        // 09:00: the reminder of the 09:00 slot; next, its 15-minute follow-up.
        let nine = try hydrate.agenda(at: at("09:00"), timeZone: paris)
        #expect(nine.pending?.kind == .reminder && nine.pending?.slot.time == at("09:00"))
        #expect(nine.next?.kind == .followUp && nine.wake == at("09:15"))
        #expect(nine.isAwaiting(slot: at("09:00")))
        // Woken late (a suspend): the latest follow-up that came, for the same slot.
        let late = try hydrate.agenda(at: at("09:37"), timeZone: paris)
        #expect(late.pending?.kind == .followUp && late.pending?.time == at("09:30") && late.pending?.slot.time == at("09:00"))
        #expect(late.wake == at("09:45"))
        // Confirmed (by the CLI, or a sync): nothing awaits; wake at the next reminder.
        _ = try hydrate.confirm(at: at("09:40"), timeZone: paris)
        let done = try hydrate.agenda(at: at("09:40"), timeZone: paris)
        #expect(done.pending == nil && !done.isAwaiting(slot: at("09:00")))
        #expect(done.next?.kind == .reminder && done.wake == at("10:00"))
        // The last follow-up of the day: nothing more can come today; wake at tomorrow's first reminder.
        let last = try hydrate.agenda(at: at("16:50"), timeZone: paris)
        #expect(last.pending?.time == at("16:45"))
        #expect(last.next == nil)
        #expect(last.wake == at("09:00", on: "2026-11-22"))
    }

    @Test func aDayOfRemindersWakesOnlyWhenSomethingIsDue() throws {
        // A resident process from 08:00 to midnight, clicking "I Drank" on the 09:00, 11:00 and
        // 12:00 notifications a few minutes after each shows: the seed's "3 out of 8".
        let (hydrate, dir) = ledger()
        defer { withExtendedLifetime(dir) {} }
        var now = at("08:00")
        var shown: [String] = []
        var idle = 0  // timer wakes with nothing to show
        var confirmed = false  // woken by the ledger changing, not by the timer
        while now < at("00:00", on: "2026-11-22") {
            let agenda = try hydrate.agenda(at: now, timeZone: paris)
            if let pending = agenda.pending, pending.time == now {
                shown.append("\(clock(pending.slot)) \(pending.kind.rawValue) \(ClockTime(hour: now.local.hour, minute: now.local.minute)!)")
                if ["09:00", "11:00", "12:00"].contains(clock(pending.slot)) {
                    now = now.adding(minutes: 3)
                    _ = try hydrate.confirm(.instant(pending.slot.time), at: now, timeZone: paris)
                    confirmed = true
                    continue
                }
            } else if !confirmed, now != at("08:00") {
                idle += 1
            }
            confirmed = false
            now = agenda.wake
        }
        #expect(shown.prefix(4) == ["09:00 reminder 09:00", "10:00 reminder 10:00", "10:00 followUp 10:15", "10:00 followUp 10:30"])
        // 8 reminders and 3 follow-ups for each of the 5 slots left unconfirmed; nothing else.
        #expect(shown.count == 8 + 5 * 3)
        #expect(idle == 0)
        let day = try hydrate.view(LocalDate("2026-11-21")!, at: at("23:00"), timeZone: paris).day
        let progress = day.progress(at: at("23:00"))
        #expect((progress.completed, progress.total) == (3, 8))
    }
}
