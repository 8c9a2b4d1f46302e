import Foundation
import LedgerKit

/// What the person did, as a front end reports it.
public enum ReminderAnswer: Sendable, Hashable {
    /// Button `action` of the notice under `key`.
    case pressed(key: String, action: String)
    /// The notice under `key` was closed (by the person, or it expired).
    case closed(key: String)
    /// An action with no notice behind it ("Log Water" typed in the terminal).
    case act(ReminderNotice.Action)
    /// "I Drank" with no reminder showing: the reminder whose period holds now.
    case drankNow
    /// Stop the process.
    case quit
    /// The input descriptor reached its end: stop reading it.
    case inputEnded
}

/// Where notices are shown and answers come from: desktop notifications, or a terminal.
package protocol ReminderFrontEnd: AnyObject {
    /// The notification connection whose signals the loop delivers, if any.
    var notifications: NotificationClient? { get }
    /// A descriptor of typed keys to wake for, if any.
    var input: Int32? { get }
    /// Shows and withdraws notices.
    func carryOut(_ effects: [ReminderFlow.Effect], at now: Timestamp) throws(RemindError)
    /// Takes down what the process showed, as it stops (`effects` withdraws everything).
    func finish(_ effects: [ReminderFlow.Effect])
    /// What the person did, from what woke the loop (reading `input` when it is ready).
    func answers(to events: [LoopEvent], flow: ReminderFlow) -> [ReminderAnswer]
}

/// The resident reminder process: asks the ledger what is due (`ReminderStore.board`), shows
/// it through a front end (`ReminderFlow` decides what to show and withdraw), and sleeps in one
/// `EventLoop.next(wakingAt:)` until the board's next change, a document it depends on changes,
/// the person answers, the clock jumps or a day begins. Buttons are carried out through the
/// apps' façades, which hold the writer lock only for their write.
public final class ReminderProcess {
    /// What happened while it ran.
    public struct Report: Sendable {
        /// Returns from `poll` (see `EventLoop.wakeUps`).
        public var wakeUps: Int
        /// Notices shown (a follow-up replacing its reminder counts).
        public var shown: Int
        /// Buttons and keys carried out.
        public var answered: Int
    }

    public let reminders: ReminderStore
    public let clock: ReminderClock
    package let frontEnd: any ReminderFrontEnd
    let ids: any IDSource
    /// Called with what an answer did, or why it failed.
    public var onOutcome: (Result<ReminderStore.Outcome, any Error>, Timestamp) -> Void = { _, _ in }
    /// Called when the documents that cannot be read change (empty: all readable again).
    public var onProblems: ([LedgerError.Sentence]) -> Void = { _ in }

    /// Days and reminders in `clock`'s zone.
    package init(reminders: ReminderStore, clock: ReminderClock, frontEnd: any ReminderFrontEnd, ids: any IDSource = RandomIDSource()) {
        self.reminders = reminders
        self.clock = clock
        self.frontEnd = frontEnd
        self.ids = ids
    }

    private var now: Timestamp { Timestamp(clock.now, in: clock.timeZone) }

    /// Runs until SIGTERM, SIGINT or a `.quit` answer; takes down what it showed and reports.
    /// Throws when the session bus goes away (a supervisor restarts it).
    public func run() throws(RemindError) -> Report {
        let loop = try EventLoop(clock: clock, notifications: frontEnd.notifications)
        loop.input = frontEnd.input
        var flow = ReminderFlow()
        var report = Report(wakeUps: 0, shown: 0, answered: 0)
        var watched: [WatchedPath] = []
        var problems: [LedgerError.Sentence] = []
        defer { frontEnd.finish(flow.withdrawAll()) }
        while true {
            let now = now
            let board = reminders.board(at: now, timeZone: clock.timeZone)
            if board.problems != problems {
                problems = board.problems
                onProblems(problems)
            }
            let paths = reminders.dependencies(at: now).map { dependency -> WatchedPath in
                switch dependency {
                case .file(let p): .file(reminders.absolutePath(p))
                case .directory(let p): .directory(reminders.absolutePath(p))
                }
            }
            if paths != watched {
                try loop.watch(paths)
                watched = paths
            }
            let effects = flow.update(board)
            report.shown += effects.count { if case .show = $0 { true } else { false } }
            try frontEnd.carryOut(effects, at: now)

            let events = try loop.next(wakingAt: board.wake?.date)
            report.wakeUps = loop.wakeUps
            if events.contains(.terminate) { return report }
            for answer in frontEnd.answers(to: events, flow: flow) {
                switch answer {
                case .closed(let key): flow.closed(key)
                case .pressed(let key, let id):
                    guard let action = flow.pressed(key, action: id) else { break }
                    // Answered: taken down now (a server that closed it already ignores this).
                    try frontEnd.carryOut([.withdraw(key)], at: now)
                    perform(&report) { try reminders.perform(action, at: $0, timeZone: clock.timeZone, ids: ids) }
                case .act(let action): perform(&report) { try reminders.perform(action, at: $0, timeZone: clock.timeZone, ids: ids) }
                case .drankNow: perform(&report) { try reminders.drank(at: $0, timeZone: clock.timeZone) }
                case .quit: return report
                case .inputEnded: loop.input = nil
                }
            }
        }
    }

    /// Carries out an answer now and reports what it did.
    private func perform(_ report: inout Report, _ body: (Timestamp) throws -> ReminderStore.Outcome) {
        let at = now
        report.answered += 1
        onOutcome(Result { try body(at) }, at)
    }
}
