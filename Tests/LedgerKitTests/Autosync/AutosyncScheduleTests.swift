import Foundation
import LedgerKit
import Testing

/// When autosync syncs: the schedule's rules, and the backoff they use.
@Suite struct AutosyncScheduleTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    var paris: Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "Europe/Paris")!
        return c
    }

    @Test func backoffGrowsToItsCapWithJitterAndNeverReachesZero() {
        let b = Backoff(base: 30, cap: 30 * 60)
        // 30 s, 60 s, 120 s, … up to 30 min; each wait in [d/2, d].
        #expect(b.ceiling(afterFailures: 1) == 30)
        #expect(b.ceiling(afterFailures: 2) == 60)
        #expect(b.ceiling(afterFailures: 7) == 1800)
        #expect(b.ceiling(afterFailures: 1000) == 1800)
        #expect(b.delay(afterFailures: 1, random: 0) == 15)
        #expect(b.delay(afterFailures: 1, random: 0.999_999) < 30)
        #expect(b.delay(afterFailures: 20, random: 0) == 900)
        // Two devices that failed together wait differently.
        #expect(b.delay(afterFailures: 3, random: 0.1) != b.delay(afterFailures: 3, random: 0.7))
    }

    @Test func syncsAtStartThenAfterTheDebounceOfTheLastChange() {
        var s = AutosyncSchedule(settings: AutosyncSettings(), start: start)
        #expect(s.due(calendar: paris) == start)
        s.synced(at: start, random: 0.5)
        // Every 15 min (±10 %: 0.5 is the middle).
        #expect(s.due(calendar: paris) == start.addingTimeInterval(900))
        s.changed(at: start.addingTimeInterval(60))
        s.changed(at: start.addingTimeInterval(62))
        #expect(s.due(calendar: paris) == start.addingTimeInterval(67))
    }

    @Test func theIntervalCarriesJitter() {
        var a = AutosyncSchedule(settings: AutosyncSettings(), start: start)
        var b = a
        a.synced(at: start, random: 0)
        b.synced(at: start, random: 0.999)
        #expect(a.due(calendar: paris) == start.addingTimeInterval(810))
        #expect(b.due(calendar: paris)! > start.addingTimeInterval(989))
    }

    @Test func offlineRetriesBackOffButAChangeOrTheIntervalComesFirst() {
        var settings = AutosyncSettings()
        settings.interval = 3600
        var s = AutosyncSchedule(settings: settings, start: start)
        #expect(s.failed(at: start, random: 0) == 15)
        #expect(s.due(calendar: paris) == start.addingTimeInterval(15))
        #expect(s.failed(at: start.addingTimeInterval(15), random: 0) == 30)
        #expect(s.failed(at: start.addingTimeInterval(45), random: 0) == 60)
        #expect(s.failures == 3)
        // A change does not wait for the backoff.
        s.changed(at: start.addingTimeInterval(50))
        #expect(s.due(calendar: paris) == start.addingTimeInterval(55))
        // Never more than 30 min between tries, however many failures.
        for i in 0..<20 { s.failed(at: start.addingTimeInterval(Double(i) * 2000), random: 1) }
        #expect(s.due(calendar: paris)! <= start.addingTimeInterval(19 * 2000 + 1800))
        s.synced(at: start.addingTimeInterval(50_000), random: 0.5)
        #expect(s.failures == 0 && s.retryAt == nil)
    }

    @Test func pausedIsNeverDueAndQuietHoursWaitForTheirEnd() throws {
        var settings = AutosyncSettings()
        try settings.set("quiet-hours", "23:00-07:00")
        // 2027-01-15 23:30 in Paris (22:30 UTC): due at 07:00 the next morning.
        let late = ISO8601DateFormatter().date(from: "2027-01-15T22:30:00Z")!
        var s = AutosyncSchedule(settings: settings, start: late)
        #expect(s.due(calendar: paris) == ISO8601DateFormatter().date(from: "2027-01-16T06:00:00Z"))
        // 12:00 is outside them.
        let noon = ISO8601DateFormatter().date(from: "2027-01-16T11:00:00Z")!
        s = AutosyncSchedule(settings: settings, start: noon)
        #expect(s.due(calendar: paris) == noon)
        s.settings.paused = true
        #expect(s.due(calendar: paris) == nil)
        // A shorter interval applies at once.
        var fast = AutosyncSettings()
        fast.interval = 60
        s.synced(at: noon, random: 0.5)
        s.update(fast, at: noon.addingTimeInterval(10))
        #expect(s.due(calendar: paris) == noon.addingTimeInterval(70))
    }

    @Test func editorsSwapAndBackupFilesAreNotChanges() {
        for name in ["settings.json", "2026-11-21-a1b2.json"] { #expect(AutosyncSchedule.isDocumentChange(name), "\(name)") }
        for name in ["settings.json~", "#settings.json#", ".settings.json.swp", "4913", ".settings.json.tmp-x1", "notes.txt"] {
            #expect(!AutosyncSchedule.isDocumentChange(name), "\(name)")
        }
    }

    @Test func settingsTakeDurationsAndRefuseWhatIsNotOne() throws {
        var s = AutosyncSettings()
        try s.set("debounce", "300ms")
        try s.set("interval", "2h")
        try s.set("notify-after", "45m")
        #expect(s.debounce == 0.3 && s.interval == 7200 && s.notifyAfter == 2700)
        #expect(s.text("debounce") == "300ms" && s.text("interval") == "2h" && s.text("notify-after") == "45m")
        try s.set("debounce", "1.5ms")
        #expect(s.debounce == 0.0015 && s.text("debounce") == "1.5ms", "shown as set, not rounded to 2ms")
        #expect(throws: LedgerError.self) { try s.set("interval", "0s") }
        #expect(throws: LedgerError.self) { try s.set("interval", "soon") }
        #expect(throws: LedgerError.self) { try s.set("quiet-hours", "25:00-07:00") }
        #expect(throws: LedgerError.self) { try s.set("colour", "red") }
        #expect(QuietHours("12:00-14:00")?.description == "12:00-14:00")
    }
}
