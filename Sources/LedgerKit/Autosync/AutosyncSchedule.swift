import Foundation

/// When autosync syncs next — pure, so that every rule is tested without a clock:
///
/// - at start (it pulls first);
/// - once the ledger has been quiet for `debounce` after a change;
/// - every `interval` (±10 %, so that devices drift apart instead of syncing in step);
/// - after a failure (the remote cannot be reached), after a growing random wait
///   (`Backoff.offline`: 30 s up to 30 min) — or sooner, when a change or the interval comes;
/// - never while paused, and never in quiet hours (what is due then waits for their end).
public struct AutosyncSchedule: Sendable, Equatable {
    public var settings: AutosyncSettings
    /// The last change not yet synced.
    public private(set) var changedAt: Date?
    /// The next sync that brings in the other devices' changes.
    public private(set) var intervalAt: Date
    /// Failed rounds in a row.
    public private(set) var failures = 0
    /// The retry after a failure.
    public private(set) var retryAt: Date?

    /// Waits after failures: 30 s up to 30 min.
    public static let offline = Backoff(base: 30, cap: 30 * 60)

    /// A schedule whose first sync is due at `start`.
    public init(settings: AutosyncSettings, start: Date) {
        self.settings = settings
        intervalAt = start
    }

    /// Whether a file named `name` changing in the work tree is a change worth a sync: a
    /// document (`*.json`) — not an editor's swap or backup file (`x.json~`, `#x.json#`,
    /// `.x.json.swp`, vim's `4913`) nor a dot file (an atomic write's temporary file).
    public static func isDocumentChange(_ name: String) -> Bool {
        name.hasSuffix(".json") && !name.hasPrefix(".") && !name.hasPrefix("#")
    }

    /// New settings at `now` (changed by `ledger autosync settings`, pause, resume): a shorter
    /// interval applies at once.
    public mutating func update(_ settings: AutosyncSettings, at now: Date) {
        self.settings = settings
        intervalAt = min(intervalAt, now.addingTimeInterval(settings.interval))
    }

    /// The ledger changed at `instant`: a sync is due once it stays quiet for the debounce.
    public mutating func changed(at instant: Date) {
        changedAt = instant
    }

    /// A round synced (or found nothing to sync) at `now`; `random` in `0..<1`.
    public mutating func synced(at now: Date, random: Double) {
        failures = 0
        retryAt = nil
        rest(at: now, random: random)
    }

    /// A round failed at `now`; returns the wait before the retry.
    @discardableResult
    public mutating func failed(at now: Date, random: Double) -> Double {
        failures += 1
        let wait = Self.offline.delay(afterFailures: failures, random: random)
        retryAt = now.addingTimeInterval(wait)
        rest(at: now, random: random)
        return wait
    }

    /// A round could not sync yet and waits for the ledger to change (an invalid document, a
    /// guided brew): the next change or the interval brings the next round.
    public mutating func waiting(at now: Date, random: Double) {
        retryAt = nil
        rest(at: now, random: random)
    }

    private mutating func rest(at now: Date, random: Double) {
        changedAt = nil
        intervalAt = now.addingTimeInterval(settings.interval * (0.9 + 0.2 * min(max(random, 0), 1)))
    }

    /// When the next round is due (in the past: now), or nil while paused.
    public func due(calendar: Calendar) -> Date? {
        guard !settings.paused else { return nil }
        var next = intervalAt
        if let changedAt { next = min(next, changedAt.addingTimeInterval(settings.debounce)) }
        if let retryAt { next = min(next, retryAt) }
        if let quiet = settings.quietHours, let end = quiet.end(containing: next, calendar: calendar) { next = end }
        return next
    }
}
