import Foundation
import LedgerRemind
import Testing

/// Tests that run an `EventLoop`, one at a time: a process has one loop at a time (it owns
/// SIGTERM and SIGINT). Every suite that makes a loop is nested in this one.
@Suite(.serialized) enum EventLoopSuites {}

/// A fixed zone, so that days begin at the same instants on every machine.
let paris = TimeZone(identifier: "Europe/Paris")!

/// An instant from an ISO-8601 timestamp with offset.
func instant(_ text: String) -> Date {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let d = f.date(from: text) { return d }
    f.formatOptions = [.withInternetDateTime]
    return f.date(from: text)!
}

extension EventLoop {
    /// Calls `next` until an event satisfies `stop`, or until `seconds` of real time have
    /// passed (a due instant set as a guard, so a missing event fails the test instead of
    /// hanging it); returns every event seen, the guard's `.due` included.
    func events(within seconds: Double = 10, until stop: (LoopEvent) -> Bool = { _ in false }) throws -> [LoopEvent] {
        let guardInstant = clock.now.addingTimeInterval(seconds * clock.rate)
        var seen: [LoopEvent] = []
        while true {
            let batch = try next(wakingAt: guardInstant)
            seen += batch
            if batch.contains(where: stop) || batch.contains(.due) { return seen }
        }
    }
}

extension LoopEvent {
    var isAction: Bool { if case .action = self { true } else { false } }
    var isClosed: Bool { if case .closed = self { true } else { false } }
    var isLedgerChanged: Bool { if case .ledgerChanged = self { true } else { false } }
}
