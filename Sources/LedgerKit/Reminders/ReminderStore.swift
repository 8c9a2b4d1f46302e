import Foundation

/// What a resident reminder process asks of a ledger, over the apps that remind (Water
/// Reminder and Waterline): what is due now and until when (`board`), what a button does
/// (`perform`), which documents to watch, and the claim that makes it the only reminder
/// process of this ledger on this device.
///
/// Reads take no lock; `perform` goes through the apps' façades, which take the writer lock
/// for the write alone — a process never holds it while it waits.
public struct ReminderStore: Sendable {
    let store: LedgerStore

    public init(_ store: LedgerStore) {
        self.store = store
    }

    /// What should be showing at `now` and when that can next change, Water Reminder first.
    /// A document that cannot be read (a hand edit gone wrong) silences its app and is named in
    /// `problems`; the other app still reminds.
    public func board(at now: Timestamp, timeZone: TimeZone) -> ReminderBoard {
        var notices: [ReminderNotice] = []
        var wakes: [Timestamp] = []
        var problems: [LedgerError.Sentence] = []
        do {
            let agenda = try HydrateStore(store).agenda(at: now, timeZone: timeZone)
            notices += agenda.notices
            wakes.append(agenda.wake)
        } catch {
            problems.append("Water Reminder: " + Self.sentence(error))
        }
        do {
            let due = try WaterlineStore(store).due(now: now, timeZone: timeZone)
            notices += due.notices
            if let next = due.nextChange { wakes.append(next) }
        } catch {
            problems.append("Waterline: " + Self.sentence(error))
        }
        return ReminderBoard(notices: notices, wake: wakes.min(), problems: problems)
    }

    /// What pressing a button did.
    public enum Outcome: Sendable {
        /// "I Drank": the hydrate façade's answer.
        case drank(ConfirmationOutcome)
        /// "Log Water": the entry logged.
        case loggedWater(WaterlineStore.Logged)
        /// "Dismiss": nothing recorded.
        case dismissed
    }

    /// Carries out `action` at `now` through the app's façade (which takes the writer lock for
    /// its write). Throws what the façade throws (no active session for "Log Water", say).
    public func perform(_ action: ReminderNotice.Action, at now: Timestamp, timeZone: TimeZone, ids: any IDSource) throws -> Outcome {
        switch action {
        case .drank(let slot): .drank(try HydrateStore(store).confirm(.instant(slot), at: now, timeZone: timeZone))
        case .logWater: .loggedWater(try WaterlineStore(store).logWater(now: now, ids: ids))
        case .dismiss: .dismissed
        }
    }

    /// "I Drank" without a notice (a key pressed in the terminal with nothing showing): the
    /// reminder whose period holds `now`, as `ledger hydrate drank` confirms it.
    public func drank(at now: Timestamp, timeZone: TimeZone) throws -> Outcome {
        .drank(try HydrateStore(store).confirm(at: now, timeZone: timeZone))
    }

    /// A path, relative to the ledger, whose changes can change the board.
    public enum Dependency: Sendable, Hashable {
        case file(String)
        /// A directory's entries (not recursive).
        case directory(String)
    }

    /// What the board at `now` depends on: the schedule and the settings, and the year
    /// folders of days and sessions from the year before `now`'s (a window past midnight on
    /// New Year's Eve, a session started last year) to the year after (a day or session
    /// created past New Year). A year folder that does not exist yet is still named: a watcher
    /// waits for it to appear.
    public func dependencies(at now: Timestamp) -> [Dependency] {
        let year = now.local.date.year
        var out: [Dependency] = [.file(HydrationSchedule.kind.path()), .file(WaterlineSettings.kind.path())]
        for kind in [HydrationDay.kind, Session.kind] {
            guard case .collection(let directory, _) = kind.location else { continue }
            for y in (year - 1)...(year + 1) { out.append(.directory(directory + "/" + String(y))) }
        }
        return out
    }

    /// The absolute path of `relative`, a path in the ledger (`dependencies(at:)` gives them).
    package func absolutePath(_ relative: String) -> String { store.absolute(relative) }

    // MARK: - One reminder process per ledger and device

    /// The lock file a reminder process holds while it runs (device-local state).
    public var processLockPath: String { store.localState("remind.lock") }

    /// Claims the ledger's reminder process for this process; `holder` is recorded for
    /// `runningProcess()` ("PID COMMAND…").
    package func claimProcess(holder: String) throws -> ProcessClaim {
        try ProcessClaim.claim(processLockPath, holder: holder)
    }

    /// The reminder process running for this ledger on this device, if any: its pid when it
    /// recorded one, and its command.
    public func runningProcess() -> (pid: Int32?, command: String)? {
        ProcessClaim.running(processLockPath)
    }

    /// One line for the journal: the error and what is wrong in the file (its first problems,
    /// each with its pointer), so the line says which field to fix.
    private static func sentence(_ error: any Error) -> LedgerError.Sentence {
        guard let error = error as? LedgerError else { return LedgerError.Sentence(String(describing: error)) }
        guard !error.problems.isEmpty else { return error.sentence }
        let shown = error.problems.prefix(3).map(\.description).joined(separator: "; ")
        let more = error.problems.count > 3 ? " (and \(error.problems.count - 3) more: `ledger check` lists them)" : ""
        return error.sentence + LedgerError.Sentence(" " + shown + more)
    }
}
