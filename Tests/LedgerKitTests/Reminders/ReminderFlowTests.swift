import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// What a reminder process shows, withdraws and does, with the seeds' numbers: Water
/// Reminder's day of 8 (09:00–17:00 every 60 minutes, follow-ups every 15, "I Drank" confirming
/// the reminder notified) and a Waterline night (reminders every 20 minutes, N = 1, threshold
/// 2, discreet text by default, "Log Water" and "Dismiss").
@Suite struct ReminderFlowTests {
    let paris = TimeZone(identifier: "Europe/Paris")!

    func at(_ time: String, on day: String = "2026-11-21") -> Timestamp { Timestamp(iso8601: "\(day)T\(time):00+01:00")! }

    /// A ledger with Waterline's initial documents and Water Reminder's defaults.
    func ledger() throws -> (ReminderStore, TemporaryDirectory) {
        let (reminders, _, dir) = try ledgerAndStore()
        return (reminders, dir)
    }

    /// The reminders' façade, the ledger under it (for the other apps' façades and hand edits).
    func ledgerAndStore() throws -> (ReminderStore, LedgerStore, TemporaryDirectory) {
        let dir = TemporaryDirectory()
        let store = try WaterlineFixture.ledger(in: dir)
        return (ReminderStore(store), store, dir)
    }

    func shown(_ effects: [ReminderFlow.Effect]) -> [ReminderNotice] {
        effects.compactMap { if case .show(let n) = $0 { n } else { nil } }
    }

    @Test func theNineOClockReminderItsFollowUpAndIDrankConfirmingIt() throws {
        let (reminders, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        var flow = ReminderFlow()

        let early = reminders.board(at: at("08:30"), timeZone: paris)
        #expect(early.notices.isEmpty && early.problems.isEmpty)
        #expect(early.wake == at("09:00"))
        #expect(flow.update(early).isEmpty)

        let nine = reminders.board(at: at("09:00"), timeZone: paris)
        #expect(nine.wake == at("09:15"))
        let reminderFound = shown(flow.update(nine)).first
        let reminder = try #require(reminderFound)
        #expect(reminder.key == "hydrate/2026-11-21T09:00:00+01:00")
        #expect(reminder.title == "Water Reminder" && reminder.body == "Time for a glass of water.")
        #expect(reminder.actions == [.drank(slot: at("09:00"))])
        #expect(reminder.actions.map(\.label) == ["I Drank"])
        // Nothing new a few minutes later: no effect, and the process sleeps until 09:15.
        #expect(flow.update(reminders.board(at: at("09:07"), timeZone: paris)).isEmpty)

        // The follow-up replaces it under the same key.
        let followUpFound = shown(flow.update(reminders.board(at: at("09:15"), timeZone: paris))).first
        let followUp = try #require(followUpFound)
        #expect(followUp.key == reminder.key)
        #expect(followUp.body == "Still time for a glass of water." && followUp.since == at("09:15"))

        // "I Drank", pressed at 09:20, confirms the 09:00 reminder.
        let actionFound = flow.pressed(followUp.key, action: "drank")
        let action = try #require(actionFound)
        guard case .drank(.confirmed(let slot, let day)) = try reminders.perform(action, at: at("09:20"), timeZone: paris, ids: RandomIDSource()) else {
            Issue.record("I Drank should confirm the 09:00 reminder")
            return
        }
        #expect(slot.time == at("09:00"))
        #expect(day.progress(at: at("09:20")).completed == 1)
        let after = reminders.board(at: at("09:20"), timeZone: paris)
        #expect(after.notices.isEmpty && after.wake == at("10:00"))
        #expect(flow.update(after).isEmpty)  // answered: nothing left to withdraw
    }

    @Test func aReminderConfirmedAnotherWayIsWithdrawn() throws {
        let (reminders, store, dir) = try ledgerAndStore()
        defer { withExtendedLifetime(dir) {} }
        var flow = ReminderFlow()
        _ = flow.update(reminders.board(at: at("10:15"), timeZone: paris))
        #expect(flow.showing.map(\.key) == ["hydrate/2026-11-21T10:00:00+01:00"])
        // `ledger hydrate drank` from a shell (or a sync bringing another device's tap).
        _ = try HydrateStore(store).confirm(at: at("10:16"), timeZone: paris)
        #expect(flow.update(reminders.board(at: at("10:16"), timeZone: paris)) == [.withdraw("hydrate/2026-11-21T10:00:00+01:00")])
        #expect(flow.showing.isEmpty)
    }

    @Test func anUnconfirmedReminderGivesWayToTheNextAndTheDayEnds() throws {
        let (reminders, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        var flow = ReminderFlow()
        _ = flow.update(reminders.board(at: at("11:45"), timeZone: paris))
        let noon = flow.update(reminders.board(at: at("12:00"), timeZone: paris))
        #expect(noon.count == 2)
        #expect(noon.first == .withdraw("hydrate/2026-11-21T11:00:00+01:00"))
        #expect(shown(noon).map(\.key) == ["hydrate/2026-11-21T12:00:00+01:00"])
        // The window closes at 17:00: the 16:00 reminder goes, and nothing is due until 09:00 tomorrow.
        _ = flow.update(reminders.board(at: at("16:45"), timeZone: paris))
        let closed = reminders.board(at: at("17:00"), timeZone: paris)
        #expect(closed.notices.isEmpty && closed.wake == at("09:00", on: "2026-11-22"))
        #expect(flow.update(closed) == [.withdraw("hydrate/2026-11-21T16:00:00+01:00")])
    }

    @Test func aClosedReminderComesBackOnlyWithItsNextFollowUp() throws {
        let (reminders, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        var flow = ReminderFlow()
        let keyFound = shown(flow.update(reminders.board(at: at("09:00"), timeZone: paris))).first?.key
        let key = try #require(keyFound)
        flow.closed(key)
        #expect(flow.update(reminders.board(at: at("09:05"), timeZone: paris)).isEmpty)
        #expect(shown(flow.update(reminders.board(at: at("09:15"), timeZone: paris))).map(\.key) == [key])
        // A button the flow did not show does nothing.
        #expect(flow.pressed(key, action: "log-water") == nil)
        #expect(flow.pressed("hydrate/none", action: "drank") == nil)
    }

    @Test func aWaterlineNightPerDrinkPromptTimeRemindersLogWaterAndTheEnd() throws {
        let (reminders, store, dir) = try ledgerAndStore()
        defer { withExtendedLifetime(dir) {} }
        let waterline = WaterlineStore(store)
        _ = try waterline.start(now: at("21:00"), ids: FixedIDs("night"))
        _ = try waterline.logDrink(WaterlineStore.DrinkOrder(), now: at("21:05"), ids: FixedIDs("beer1"))
        var flow = ReminderFlow()

        // N = 1: the drink brings the per-drink prompt, in discreet text, until 21:20.
        let board = reminders.board(at: at("21:06"), timeZone: paris)
        let promptFound = shown(flow.update(board)).first
        let prompt = try #require(promptFound)
        #expect(prompt.key == "waterline/night/per-drink/start/1")
        #expect(prompt.title == "Waterline" && prompt.body == "Time for some water")
        #expect(prompt.detail == "You've had 1 drink — time for water")
        #expect(prompt.actions == [.logWater, .dismiss])
        #expect(prompt.actions.map(\.label) == ["Log Water", "Dismiss"])
        #expect(board.wake == at("21:20"))

        // 21:20: the time-based reminder joins it.
        let twenty = shown(flow.update(reminders.board(at: at("21:20"), timeZone: paris)))
        #expect(twenty.map(\.key) == ["waterline/night/time/2026-11-21T21:20:00+01:00"])
        #expect(twenty.first?.detail == "Time for water")

        // "Log Water" on the prompt logs water now; both are then withdrawn.
        let actionFound = flow.pressed(prompt.key, action: "log-water")
        let action = try #require(actionFound)
        guard case .loggedWater(let logged) = try reminders.perform(action, at: at("21:22"), timeZone: paris, ids: FixedIDs("water1")) else {
            Issue.record("Log Water should log water")
            return
        }
        #expect(logged.entry.type == .water && logged.entry.timestamp == at("21:22"))
        #expect(flow.update(reminders.board(at: at("21:22"), timeZone: paris)) == [.withdraw(twenty[0].key)])

        // 21:40: the next reminder; "Dismiss" records nothing and it stays down.
        let fortyFound = shown(flow.update(reminders.board(at: at("21:40"), timeZone: paris))).first
        let forty = try #require(fortyFound)
        let dismissFound = flow.pressed(forty.key, action: "dismiss")
        let dismiss = try #require(dismissFound)
        guard case .dismissed = try reminders.perform(dismiss, at: at("21:41"), timeZone: paris, ids: RandomIDSource()) else {
            Issue.record("Dismiss should record nothing")
            return
        }
        #expect(try waterline.current().session?.entries.count == 2)
        #expect(flow.update(reminders.board(at: at("21:45"), timeZone: paris)).isEmpty)

        // Nothing after the end: not at the next boundary, and the process has nothing to wake for
        // but Water Reminder's next day.
        _ = try waterline.end(now: at("21:50"))
        let ended = reminders.board(at: at("22:00"), timeZone: paris)
        #expect(ended.notices.isEmpty)
        #expect(ended.wake == at("09:00", on: "2026-11-22"))
    }

    @Test func detailedTextWhenTheUserChoseIt() throws {
        let (reminders, store, dir) = try ledgerAndStore()
        defer { withExtendedLifetime(dir) {} }
        let waterline = WaterlineStore(store)
        _ = try waterline.setSetting("discreetNotifications", to: "false", now: at("20:59"))
        _ = try waterline.start(now: at("21:00"), ids: FixedIDs("night"))
        _ = try waterline.logDrink(WaterlineStore.DrinkOrder(standardDrinks: 2), now: at("21:05"), ids: FixedIDs("double"))
        let notices = reminders.board(at: at("21:06"), timeZone: paris).notices
        #expect(notices.map(\.title) == ["Water Reminder", "Pacing Warning"])
        #expect(notices.map(\.body) == ["You've had 1 drink — time for water", "Your Waterline is high — drink water to return to center"])
    }

    @Test func ninetyMinutesWithoutALogSilenceTheNight() throws {
        let (reminders, store, dir) = try ledgerAndStore()
        defer { withExtendedLifetime(dir) {} }
        let waterline = WaterlineStore(store)
        _ = try waterline.start(now: at("21:00"), ids: FixedIDs("night"))
        _ = try waterline.logWater(now: at("21:05"), ids: FixedIDs("w1"))
        // 21:05 + 90 minutes = 22:35: the 22:20 reminder is the last, withdrawn at 22:35.
        let last = reminders.board(at: at("22:20"), timeZone: paris)
        #expect(last.notices.map(\.key) == ["waterline/night/time/2026-11-21T22:20:00+01:00"])
        #expect(last.wake == at("22:35"))
        let quiet = reminders.board(at: at("22:36"), timeZone: paris)
        #expect(quiet.notices.isEmpty && quiet.wake == at("09:00", on: "2026-11-22"))
    }

    @Test func anUnreadableScheduleSilencesWaterReminderOnly() throws {
        let (reminders, store, dir) = try ledgerAndStore()
        defer { withExtendedLifetime(dir) {} }
        try store.write("hydrate/schedule.json", .object(["intervalMinutes": .string("often")]))
        _ = try WaterlineStore(store).start(now: at("21:00"), ids: FixedIDs("night"))
        let board = reminders.board(at: at("21:20"), timeZone: paris)
        #expect(board.notices.map(\.app) == [.waterline])
        #expect(board.problems.count == 1)
        #expect(board.problems.first?.description.hasPrefix("Water Reminder: ") == true)
        // The line names the field to fix, not only the file.
        #expect(board.problems.first?.description.contains("hydrate/schedule.json: /intervalMinutes: error: must be an integer (found a string)") == true,
                "\(board.problems)")
    }

    @Test func itWatchesTheSettingsAndTheYearFoldersAroundNow() throws {
        let (reminders, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        #expect(reminders.dependencies(at: at("09:00")) == [
            .file("hydrate/schedule.json"), .file("waterline/settings.json"),
            .directory("hydrate/days/2025"), .directory("hydrate/days/2026"), .directory("hydrate/days/2027"),
            .directory("waterline/sessions/2025"), .directory("waterline/sessions/2026"), .directory("waterline/sessions/2027"),
        ])
    }

    @Test func oneReminderProcessPerLedgerAndStatusNamesIt() throws {
        let (reminders, dir) = try ledger()
        defer { withExtendedLifetime(dir) {} }
        #expect(reminders.runningProcess() == nil)
        guard case .claimed(let lock) = try reminders.claimProcess(holder: "4242 ledger remind") else {
            Issue.record("the first claim should succeed")
            return
        }
        guard case .heldBy(let record) = try reminders.claimProcess(holder: "4343 ledger remind") else {
            Issue.record("a second claim should name the first")
            return
        }
        #expect(record == "4242 ledger remind")
        #expect(reminders.runningProcess()?.pid == 4242)
        #expect(reminders.runningProcess()?.command == "ledger remind")
        lock.release()
        #expect(reminders.runningProcess() == nil)
        #expect(FileLock.holder(of: reminders.processLockPath) == nil)
    }
}
