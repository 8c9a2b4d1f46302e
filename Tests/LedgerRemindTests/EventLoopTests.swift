import CLinux
import Foundation
import LedgerKit
@testable import LedgerRemind
import LedgerTestSupport
import Testing

extension EventLoopSuites {
    /// The timer, the clock, the signals and the wake-up count, on the real kernel facilities.
    @Suite struct EventLoopTests {
        @Test func theTimerFiresAtTheDueInstantAndNotBefore() throws {
            // An hour a second: 09:15 is a quarter of a second away.
            let clock = ReminderClock(start: instant("2026-11-21T09:00:00+01:00"), rate: 3600, timeZone: paris)
            let loop = try EventLoop(clock: clock)
            let due = instant("2026-11-21T09:15:00+01:00")
            let events = try loop.next(wakingAt: due)
            #expect(clock.now >= due)
            #expect(events == [.due])
            #expect(loop.wakeUps == 1)
        }

        @Test func anHourOfRemindersWakesOncePerReminderAndNeverBetween() throws {
            let clock = ReminderClock(start: instant("2026-11-21T09:00:00+01:00"), rate: 3600, timeZone: paris)
            let loop = try EventLoop(clock: clock)
            let reminders = ["09:15", "09:30", "09:45", "10:00"].map { instant("2026-11-21T\($0):00+01:00") }
            for due in reminders {
                #expect(try loop.next(wakingAt: due) == [.due])
                #expect(clock.now >= due)
            }
            #expect(loop.wakeUps == reminders.count)
        }

        @Test func anInstantAlreadyPastIsDueWithoutWaiting() throws {
            let clock = ReminderClock(start: instant("2026-11-21T09:00:00+01:00"), timeZone: paris)
            let loop = try EventLoop(clock: clock)
            #expect(try loop.next(wakingAt: instant("2026-11-21T08:00:00+01:00")) == [.due])
            #expect(loop.wakeUps == 0)
        }

        @Test func midnightBringsANewDayEvenWithNothingDue() throws {
            // A minute a second from 23:59:30: midnight in Paris half a second from now.
            let clock = ReminderClock(start: instant("2026-11-21T23:59:30+01:00"), rate: 60, timeZone: paris)
            let loop = try EventLoop(clock: clock)
            #expect(try loop.next(wakingAt: nil) == [.newDay])
            #expect(clock.now >= instant("2026-11-22T00:00:00+01:00"))
            #expect(loop.wakeUps == 1)
        }

        @Test(.enabled(if: canStepClock, "stepping CLOCK_REALTIME needs CAP_SYS_TIME (run as root)"))
        func settingTheSystemClockWakesTheLoop() throws {
            let loop = try EventLoop(clock: .system(timeZone: paris))
            let later = Date().addingTimeInterval(3600)
            // While it waits: the clock is stepped a nanosecond forward and back, a real
            // clock_was_set for the kernel that leaves the time as it was.
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { stepClockThereAndBack() }
            let events = try loop.next(wakingAt: later)
            #expect(events == [.clockChanged])
            #expect(loop.wakeUps == 1)

            // Between two calls: the kernel keeps the news on the timer until it is armed again,
            // and the next call returns it without waiting.
            stepClockThereAndBack()
            #expect(try loop.next(wakingAt: later) == [.clockChanged])
            #expect(loop.wakeUps == 1)
        }

        @Test func sigtermEndsTheWaitWithTerminate() throws {
            let loop = try EventLoop(clock: .system(timeZone: paris))
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { _ = kill(getpid(), SIGTERM) }
            // A step of the system clock meanwhile (a test before this one, the host's time
            // service) is news of its own, reported as such.
            let got = try loop.events { $0 == .terminate }
            #expect(got.filter { $0 != .clockChanged } == [.terminate], "\(got)")
            // SIGINT too; both only while a loop exists (the previous handlers are back after).
            kill(getpid(), SIGINT)
            #expect(try loop.next(wakingAt: Date().addingTimeInterval(10)) == [.terminate])
        }

        @Test func oneLoopAtATimeOwnsTheSignals() throws {
            let loop = try EventLoop(clock: .system(timeZone: paris))
            #expect(throws: RemindError(.system, "another event loop already handles SIGTERM and SIGINT in this process")) {
                try EventLoop(clock: .system(timeZone: paris))
            }
            _ = loop
        }
    }
}

/// Whether this process may step the clock (CAP_SYS_TIME): a zero step asks without changing it.
private let canStepClock = ledger_step_realtime_clock(0) == 0

/// Steps CLOCK_REALTIME one nanosecond forward, then one back.
private func stepClockThereAndBack() {
    _ = ledger_step_realtime_clock(1)
    _ = ledger_step_realtime_clock(-1)
}

/// The pieces of the loop that are pure: the clock, the sleep detector.
@Suite struct ReminderClockTests {
    @Test func ledgerNowStartsTheClockAndTheRateRunsIt() throws {
        let clock = try ReminderClock(environment: ["LEDGER_NOW": "2026-11-21T09:00:00+01:00", "LEDGER_CLOCK_RATE": "3600"], timeZone: paris)
        #expect(clock.rate == 3600)
        let now = clock.now
        #expect(now >= instant("2026-11-21T09:00:00+01:00"))
        #expect(now < instant("2026-11-21T12:00:00+01:00"))
        usleep(100_000)
        #expect(clock.now.timeIntervalSince(now) >= 360)
    }

    @Test func withoutTheVariablesItIsTheRealClock() throws {
        let clock = try ReminderClock(environment: [:], timeZone: paris)
        #expect(clock.rate == 1)
        #expect(abs(clock.now.timeIntervalSinceNow) < 1)
    }

    @Test(arguments: [
        (["LEDGER_CLOCK_RATE": "0"], "LEDGER_CLOCK_RATE must be a positive number of simulated seconds per second, like 60 (found \"0\")"),
        (["LEDGER_CLOCK_RATE": "fast"], "LEDGER_CLOCK_RATE must be a positive number of simulated seconds per second, like 60 (found \"fast\")"),
        (["LEDGER_CLOCK_RATE": "inf"], "LEDGER_CLOCK_RATE must be a positive number of simulated seconds per second, like 60 (found \"inf\")"),
        (["LEDGER_NOW": "2026-11-21 09:00"], "LEDGER_NOW must be an ISO-8601 timestamp with a UTC offset, like 2026-11-21T22:30:00+01:00 (found \"2026-11-21 09:00\")"),
    ])
    func malformedVariablesAreRefused(environment: [String: String], message: String) {
        #expect(throws: RemindError(.invalidClock, message)) { try ReminderClock(environment: environment, timeZone: paris) }
    }

    @Test func daysBeginAtLocalMidnightAcrossDaylightSaving() {
        let clock = ReminderClock(start: instant("2026-03-28T12:00:00+01:00"), timeZone: paris)
        // The night summer time begins (29 March 2026) the next day still starts at 00:00.
        #expect(clock.nextDay(after: instant("2026-03-28T12:00:00+01:00")) == instant("2026-03-29T00:00:00+01:00"))
        #expect(clock.nextDay(after: instant("2026-03-29T12:00:00+02:00")) == instant("2026-03-30T00:00:00+02:00"))
        #expect(clock.day(of: instant("2026-03-29T23:59:59+02:00")) + 1 == clock.day(of: instant("2026-03-30T00:00:00+02:00")))
    }

    @Test(arguments: [
        // (suspended before, after, seconds asleep) — CLOCK_BOOTTIME − CLOCK_MONOTONIC in ns.
        (Int64(0), Int64(0), nil as Double?),
        (5_000_000, 5_400_000, nil),
        (5_000_000, 999_999_999 + 5_000_000, nil),
        (0, 1_000_000_000, 1.0),
        (2_000_000_000, 3_602_000_000_000, 3600.0),
    ])
    func aGrowingSuspendedTimeIsASleep(before: Int64, after: Int64, slept: Double?) {
        var detector = SleepDetector(suspendedNanoseconds: before)
        #expect(detector.update(suspendedNanoseconds: after) == slept)
        #expect(detector.update(suspendedNanoseconds: after) == nil)
    }
}
