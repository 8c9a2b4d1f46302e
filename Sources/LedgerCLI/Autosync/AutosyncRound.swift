import Foundation
import LedgerKit
import LedgerSync

/// One autosync round: a sync, unless the ledger must not be synced now, and what it came to.
/// `ledger autosync --once` is one round; the resident process runs them on its schedule.
struct AutosyncRound {
    enum Result {
        /// The sync ran (its outcome `.synced` or `.upToDate`).
        case synced(SyncReport)
        /// Not now: a guided brew is on a screen, a document fails `check`, git is mid-merge.
        case waiting(String)
        /// The remote could not be reached or kept refusing (exit 3); `credentials` when it
        /// refused the credentials.
        case offline(String, credentials: Bool)
        /// Anything else (a damaged repository, the disk).
        case failed(String, exitStatus: Int32)
    }

    /// A guided brew last on a screen this long ago still counts as being brewed.
    static let brewGrace: Double = 30 * 60

    /// Runs a round on `store` at `now`.
    static func run(_ store: LedgerStore, options: SyncOptions, now: Timestamp) -> Result {
        if let (progress, _) = try? BrewStore(store).brewInProgress(), let progress, progress.secondsAway(at: now) < brewGrace {
            return .waiting("a guided brew is in progress; syncing once it is saved or set aside")
        }
        do {
            let report = try Sync.run(store, options: options)
            if report.outcome == .offline || report.outcome == .rejected {
                let message = report.error ?? "the remote cannot be reached"
                return .offline(message, credentials: refusedCredentials(message))
            }
            return .synced(report)
        } catch let e as LedgerError where e.exitStatus == 1 {
            let problems = e.problems.prefix(3).map(\.commandLineDescription)
            let why = problems.isEmpty ? e.commandLineMessage : "a changed document fails `ledger check`: " + problems.joined(separator: "; ")
            return .waiting(why + "; syncing once it is fixed")
        } catch let e as LedgerError where e.exitStatus == 3 {
            return .offline(e.commandLineMessage, credentials: refusedCredentials(e.commandLineMessage))
        } catch let e as LedgerError {
            return .failed(e.commandLineMessage, exitStatus: e.exitStatus)
        } catch {
            return .failed("\(error)", exitStatus: 4)
        }
    }

    /// Whether a transfer's failure says the remote refused who we are (ssh found no key it
    /// accepts, an HTTP server refused the user name and password).
    static func refusedCredentials(_ message: String) -> Bool {
        let m = message.lowercased()
        return ["permission denied", "refused the user name and password", "asks for a user name and password", "had no key", "authentication"]
            .contains { m.contains($0) }
    }

    /// The record after this round at `now`, with the schedule's next round.
    static func update(_ record: inout AutosyncRecord, with result: Result, at now: Date) {
        record.lastAttempt = now
        switch result {
        case .synced(let report):
            record.outcome = report.outcome.rawValue
            record.lastSync = now
            record.lastError = nil
            record.failingSince = nil
        case .waiting(let why):
            record.outcome = "waiting"
            record.lastError = why
        case .offline(let why, _):
            record.outcome = "offline"
            record.lastError = why
            record.failingSince = record.failingSince ?? now
        case .failed(let why, _):
            record.outcome = "failed"
            record.lastError = why
            record.failingSince = record.failingSince ?? now
        }
    }

    /// One line about a sync that ran, counting changed files as `ledger sync` does:
    /// "synced with origin: 1 change committed, 2 changes pulled, 1 change pushed".
    static func summary(_ report: SyncReport) -> String {
        guard report.outcome == .synced else { return "up to date with \(report.remote)" }
        var parts: [String] = []
        if !report.localChanges.isEmpty { parts.append("\(Output.plural(report.localChanges.count, "change")) committed") }
        for (files, commits, verb) in [(report.pulled.count, report.pulledCommits, "pulled"), (report.pushed.count, report.pushedCommits, "pushed")] {
            if files > 0 { parts.append("\(Output.plural(files, "change")) \(verb)") } else if commits > 0 { parts.append("\(Output.plural(commits, "commit")) \(verb), changing no file") }
        }
        if let left = conflicts(report) { parts.append(left + " to look at") }
        return "synced with \(report.remote): " + (parts.isEmpty ? "in step" : parts.joined(separator: ", "))
    }

    /// What a sync left to look at, as `ledger status` counts it ("1 conflict file, 1
    /// conflicted copy"), or nil when it left nothing.
    static func conflicts(_ report: SyncReport) -> String? {
        Output.conflicts(files: report.conflictFiles.count, copies: report.conflictedCopies.count)
    }
}
