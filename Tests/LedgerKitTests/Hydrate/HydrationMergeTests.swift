import Foundation
import LedgerKit
import Testing

@Suite struct HydrationMergeTests {
    static func day(_ confirmations: [String], updated: String = "2026-11-21T09:00:00+01:00",
                    schedule: ReminderSchedule = ReminderSchedule()) -> HydrationDay {
        var d = HydrationDay(date: LocalDate("2026-11-21")!, schedule: schedule, timeZone: H.paris, createdAt: H.t("2026-11-21T09:00:00+01:00"))
        for c in confirmations { d.confirm(at: H.t("2026-11-21T\(c):00+01:00")) }
        d.updatedAt = H.t(updated)
        d.recomputeDerived()
        return d
    }

    static func times(_ d: HydrationDay) -> [String] {
        d.confirmations.map { String($0.confirmedAt.iso8601.dropFirst(11).prefix(5)) }
    }

    // MARK: - Confirmations

    @Test(arguments: [
        // base, ours, theirs, merged
        (["09:05"], ["09:05", "10:10"], ["09:05", "11:20"], ["09:05", "10:10", "11:20"]),
        // Both sides confirmed the same slot at different instants: both kept, the slot counts once.
        ([], ["10:10"], ["10:40"], ["10:10", "10:40"]),
        // The same instant on both sides is kept once.
        ([], ["10:10"], ["10:10", "12:00"], ["10:10", "12:00"]),
        // Removed on one side (a mistaken confirmation), untouched on the other: stays removed.
        (["09:05", "10:10"], ["09:05"], ["09:05", "10:10", "11:20"], ["09:05", "11:20"]),
        (["09:05", "10:10"], ["09:05", "10:10", "13:00"], ["10:10"], ["10:10", "13:00"]),
        // Both sides created the day independently (no base): union.
        (nil, ["09:05"], ["09:06", "15:00"], ["09:05", "09:06", "15:00"]),
    ] as [([String]?, [String], [String], [String])])
    func confirmationsAreUnited(base: [String]?, ours: [String], theirs: [String], merged: [String]) {
        let result = HydrationDay.merge(base: base.map { Self.day($0) }, ours: Self.day(ours, updated: "2026-11-21T12:00:00+01:00"),
                                        theirs: Self.day(theirs, updated: "2026-11-21T12:30:00+01:00"), context: MergeContext())
        #expect(Self.times(result.document) == merged)
        #expect(result.document.completed == result.document.plan!.progress(confirmations: result.document.confirmations).completed)
    }

    @Test func aLateConfirmationOfANamedReminderKeepsItsSlotThroughAMerge() {
        let base = Self.day(["09:05"])
        var ours = Self.day(["09:05"], updated: "2026-11-21T18:30:00+01:00")
        ours.confirm(at: H.t("2026-11-21T18:30:00+01:00"), slot: H.t("2026-11-21T16:00:00+01:00"))  // the 16:00 notification, after 17:00
        let theirs = Self.day(["09:05", "11:10"], updated: "2026-11-21T11:10:00+01:00")
        let merged = HydrationDay.merge(base: base, ours: ours, theirs: theirs, context: MergeContext()).document
        #expect(merged.confirmations.map(\.slot) == [nil, nil, H.t("2026-11-21T16:00:00+01:00")])
        #expect(merged.completed == 3, "09:00, 11:00 and, late, 16:00")
        // The same tap without its slot is another confirmation (it would confirm nothing).
        var plain = base
        plain.confirm(at: H.t("2026-11-21T18:30:00+01:00"))
        plain.updatedAt = H.t("2026-11-21T18:31:00+01:00")
        let both = HydrationDay.merge(base: base, ours: ours, theirs: plain, context: MergeContext()).document
        #expect(both.confirmations.count == 3 && both.completed == 2)
    }

    @Test func theMergedDayIsRecountedAndTakesTheLaterTimestamps() {
        let base = Self.day(["09:05"])
        let result = HydrationDay.merge(base: base, ours: Self.day(["09:05", "10:10"], updated: "2026-11-21T10:10:00+01:00"),
                                        theirs: Self.day(["09:05", "10:45", "11:05"], updated: "2026-11-21T11:05:00+01:00"), context: MergeContext())
        #expect(result.document.completed == 3)
        #expect(result.document.total == 8)
        #expect(result.document.updatedAt == H.t("2026-11-21T11:05:00+01:00"))
        #expect(result.notes.isEmpty, "\(result.notes)")
    }

    @Test func aDaysScheduleMergesFieldByField() {
        let base = Self.day(["09:05"])
        var ours = Self.day(["09:05"], updated: "2026-11-21T12:00:00+01:00")
        ours.schedule.intervalMinutes = 90
        var theirs = Self.day(["09:05", "10:00"], updated: "2026-11-21T11:00:00+01:00")
        theirs.schedule.endTime = ClockTime("21:00")!
        let result = HydrationDay.merge(base: base, ours: ours, theirs: theirs, context: MergeContext())
        #expect(result.document.schedule == H.schedule("09:00", "21:00", every: 90, followUp: 15))
        #expect(Self.times(result.document) == ["09:05", "10:00"])
    }

    @Test func throughTheGenericRuleTheMergedDocumentIsCanonicalAndDerived() throws {
        let type = DocumentType(HydrationDay.self)
        let base = Self.day(["09:05"]).json
        let ours = Self.day(["09:05", "10:10"], updated: "2026-11-21T10:10:00+01:00").json
        let theirs = Self.day(["09:05", "12:02"], updated: "2026-11-21T12:02:00+01:00").json
        let resolution = try #require(type.merge(base: base, ours: ours, theirs: theirs))
        let merged = try #require(resolution.result)
        #expect(merged["completed"] == .number(3))
        #expect(merged["confirmations"]?.arrayValue?.count == 3)
        // Edited on one side, deleted on the other: the edit stays (the shared rule).
        #expect(type.merge(base: base, ours: nil, theirs: theirs)?.result == theirs)
    }

    // MARK: - The schedule

    static func schedule(_ r: ReminderSchedule, updated: String) -> HydrationSchedule {
        var s = HydrationSchedule(r, createdAt: H.t("2026-11-01T09:00:00+01:00"))
        s.updatedAt = H.t(updated)
        return s
    }

    @Test func theScheduleMergesFieldByFieldLaterChangeWinning() {
        let base = Self.schedule(ReminderSchedule(), updated: "2026-11-01T09:00:00+01:00")
        // Ours moved the start; theirs moved the end and (later) the interval, which ours changed too.
        let ours = Self.schedule(H.schedule("08:00", "17:00", every: 45, followUp: 15), updated: "2026-11-20T08:00:00+01:00")
        let theirs = Self.schedule(H.schedule("09:00", "20:00", every: 90, followUp: 15), updated: "2026-11-21T08:00:00+01:00")
        let result = HydrationSchedule.merge(base: base, ours: ours, theirs: theirs, context: MergeContext())
        #expect(result.document.reminders == H.schedule("08:00", "20:00", every: 90, followUp: 15))
        #expect(result.document.updatedAt == theirs.updatedAt)
        #expect(result.notes.count == 1)
        #expect(result.notes.first?.contains("/intervalMinutes") == true)
    }

    @Test func fieldsThatWouldNotMakeAValidScheduleKeepTheLaterVersionWhole() {
        let base = Self.schedule(ReminderSchedule(), updated: "2026-11-01T09:00:00+01:00")
        // Ours shortened the interval to 10; theirs (later) lengthened the follow-up to 20: together invalid.
        let ours = Self.schedule(H.schedule("09:00", "17:00", every: 10, followUp: 5), updated: "2026-11-20T08:00:00+01:00")
        let theirs = Self.schedule(H.schedule("09:00", "17:00", every: 60, followUp: 20), updated: "2026-11-21T08:00:00+01:00")
        let result = HydrationSchedule.merge(base: base, ours: ours, theirs: theirs, context: MergeContext())
        // Field-wise: interval 10 (ours), follow-up conflict → theirs 20: invalid, so theirs whole.
        #expect(result.document.reminders == theirs.reminders)
        #expect(result.document.validate().isEmpty)
        #expect(result.notes.first?.contains("kept the later version whole") == true)
    }
}
