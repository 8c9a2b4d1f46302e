import CLinux
import Foundation

/// What woke the reminder process.
package enum LoopEvent: Sendable, Hashable {
    /// The instant passed to `EventLoop.next(wakingAt:)` has come.
    case due
    /// A day began (in the clock's time zone) since the last call, or the clock moved to
    /// another day.
    case newDay
    /// Watched paths changed (files, entries of watched directories, or a watched directory
    /// itself when it appeared or went away), sorted.
    case ledgerChanged([String])
    /// The system clock was set (a jump either way); what is due must be worked out again.
    case clockChanged
    /// The machine slept (suspend, hibernate) for about `seconds` since the last call.
    case resumed(seconds: Double)
    /// The descriptor `EventLoop.input` can be read (keys typed, or its end).
    case input
    /// The user pressed the button `key` of notification `id` (one this process posted).
    case action(id: UInt32, key: String)
    /// The server closed notification `id` (one this process posted).
    case closed(id: UInt32, reason: NotificationCloseReason)
    /// SIGTERM or SIGINT: exit cleanly, leaving the notifications that should stay.
    case terminate
}

/// The reminder process's one wait: a single `poll` over the notification connection's
/// socket, an inotify descriptor, a `timerfd` and a signal pipe, with no timeout — it wakes
/// only when something happened.
///
/// The caller says when it next needs to be woken (`next(wakingAt:)`) and gets back what
/// happened, at least one event. Between two due instants with nothing else going on, the
/// process does not wake at all (`wakeUps` counts every return from `poll`). Not `Sendable`:
/// one thread runs it.
package final class EventLoop {
    /// The clock due instants are read on.
    package let clock: ReminderClock
    /// The notification connection whose signals arrive here, if any.
    package let notifications: NotificationClient?
    /// A descriptor to wake for when it can be read (a terminal's keys); nil for none. Set it
    /// to nil once it reaches its end.
    package var input: Int32?
    /// How many times `poll` returned since the loop was made.
    package private(set) var wakeUps = 0

    private let timer: WakeTimer
    private let watcher: PathWatcher
    private let signals: SignalPipe
    private var sleep = SleepDetector(suspendedNanoseconds: SleepDetector.suspendedNanoseconds())
    private var day: Int

    /// A loop on `clock` that watches `paths` and receives `notifications`' signals. It handles
    /// SIGTERM and SIGINT (as `.terminate`) while it exists; one loop per process at a time.
    package init(clock: ReminderClock, watching paths: [WatchedPath] = [], notifications: NotificationClient? = nil) throws(RemindError) {
        self.clock = clock
        self.notifications = notifications
        timer = try WakeTimer()
        watcher = try PathWatcher()
        signals = try SignalPipe()
        day = clock.day(of: clock.now)
        try watcher.watch(paths)
    }

    /// Watches `paths` instead of the paths watched so far (say, when a new year's directory
    /// becomes the one to follow).
    package func watch(_ paths: [WatchedPath]) throws(RemindError) {
        try watcher.watch(paths)
    }

    /// Waits until something happens and returns it: `.due` once `clock.now` reaches `due`,
    /// and whatever else happened meanwhile. Returns at once, without waiting, when something
    /// already happened (a `due` in the past, a signal that arrived during a call, a clock set
    /// since the last call). Nil `due`: wake for nothing but the others (a new day included).
    ///
    /// Throws `.noSessionBus` when the session bus goes away (a supervisor restarts the process).
    package func next(wakingAt due: Date?) throws(RemindError) -> [LoopEvent] {
        let dueNanoseconds = due.map(ReminderClock.nanoseconds)
        var terminate = false
        var clockWasSet = false
        var changed: Set<String> = []
        var inputReady = false
        while true {
            let wake = min(due ?? .distantFuture, clock.nextDay(after: clock.now))
            if try timer.arm(atRealNanoseconds: clock.realNanoseconds(at: wake)) { clockWasSet = true }
            let events = try pending(due: dueNanoseconds, clockWasSet: clockWasSet, changed: changed, input: inputReady)
            if terminate || !events.isEmpty { return (terminate ? [.terminate] : []) + events }

            var entries = [pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: timer.fd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: watcher.fd, events: Int16(POLLIN), revents: 0)]
            if let input { entries.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
            let busStart = entries.count
            let bus = notifications?.pollEntries() ?? []
            entries += bus.map(\.entry)
            guard poll(&entries, nfds_t(entries.count), -1) >= 0 else {
                if errno == EINTR { continue }
                throw RemindError.system("poll")
            }
            wakeUps += 1
            if entries[0].revents != 0 { terminate = signals.drain() }
            if entries[1].revents != 0, try timer.read() == .clockWasSet { clockWasSet = true }
            if entries[2].revents != 0 { changed = try watcher.changes() }
            if input != nil, entries[3].revents != 0 { inputReady = true }
            for (i, (watch, _)) in bus.enumerated() where entries[busStart + i].revents != 0 {
                notifications?.handle(watch, revents: entries[busStart + i].revents)
            }
        }
    }

    /// The events that have happened, in the order a caller should handle them: stop, the
    /// clock, the ledger, the user's answers, then what is due.
    private func pending(due: Int64?, clockWasSet: Bool, changed: Set<String>, input: Bool) throws(RemindError) -> [LoopEvent] {
        var events: [LoopEvent] = []
        if let seconds = sleep.update(suspendedNanoseconds: SleepDetector.suspendedNanoseconds()) {
            events.append(.resumed(seconds: seconds))
        } else if clockWasSet {
            events.append(.clockChanged)
        }
        let now = clock.nowNanoseconds
        let today = clock.day(of: Date(timeIntervalSince1970: Double(now) / 1e9))
        if today != day {
            day = today
            events.append(.newDay)
        }
        if !changed.isEmpty { events.append(.ledgerChanged(changed.sorted())) }
        if input { events.append(.input) }
        if let notifications {
            // Also what arrived while a call waited for its reply, which `poll` would not report.
            try notifications.dispatch()
            events += notifications.takeEvents()
        }
        if let due, now >= due { events.append(.due) }
        return events
    }
}

/// Notices that the machine slept: `CLOCK_BOOTTIME` counts time suspended and
/// `CLOCK_MONOTONIC` does not, so their difference grows by the time asleep.
struct SleepDetector {
    /// Less than this is not a sleep (the two clocks are read one after the other).
    static let thresholdNanoseconds: Int64 = 1_000_000_000
    private var last: Int64

    init(suspendedNanoseconds: Int64) { last = suspendedNanoseconds }

    /// Seconds asleep since the previous reading, or nil when the machine did not sleep.
    mutating func update(suspendedNanoseconds now: Int64) -> Double? {
        defer { last = now }
        let slept = now - last
        return slept >= Self.thresholdNanoseconds ? Double(slept) / 1e9 : nil
    }

    /// `CLOCK_BOOTTIME` − `CLOCK_MONOTONIC`: the time spent suspended since boot.
    static func suspendedNanoseconds() -> Int64 {
        var boot = timespec(), mono = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        clock_gettime(CLOCK_MONOTONIC, &mono)
        return (Int64(boot.tv_sec) - Int64(mono.tv_sec)) * 1_000_000_000 + Int64(boot.tv_nsec) - Int64(mono.tv_nsec)
    }
}
