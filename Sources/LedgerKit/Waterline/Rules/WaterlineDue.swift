import Foundation

/// Which Waterline notifications are due at an instant, for a resident reminder process
/// (US-018 – US-020, US-036): a pure function of the active session, the settings and `now`.
///
/// The answer is the whole set that should be showing: a notifier shows each item once (by
/// its `key`, which stays the same while it is the same reminder) and may withdraw a shown
/// item whose key is no longer there (water was logged, the session ended). It asks again at
/// `nextChange`, or when a document changes — nothing else can change the answer, so there
/// is nothing to poll.
public struct WaterlineDue: Sendable, Equatable {
    /// One notification due now.
    public struct Item: Sendable, Equatable {
        /// Stable while it is the same reminder: `SESSION/time/INSTANT`,
        /// `SESSION/per-drink/LAST-WATER-OR-start/COUNT`, `SESSION/pacing/ENTRY`.
        public var key: String
        /// Its texts (discreet or detailed, as the settings say) and its actions.
        public var notification: WaterlineNotification
        /// When it fell due.
        public var since: Timestamp
    }

    /// The active session, or nil.
    public var sessionID: String?
    /// What is due now, in the order to show it: the time-based reminder, the per-drink
    /// reminder, the pacing warning.
    public var items: [Item]
    /// The next instant at which the answer changes with no document changing — the next
    /// time-based reminder, or the moment 90 minutes without a log withdraw what is due; nil
    /// when only a change to the documents can change it (no active session, or 90 minutes
    /// without a log).
    public var nextChange: Timestamp?

    /// What is due at `now` in `session` (the active one) under `settings`:
    /// - the time-based reminder of the last interval boundary at or before `now` (every
    ///   `timeReminderIntervalMinutes` from the start, as `WaterlineEngine.timeReminders`
    ///   counts them), until water is logged at or after it or the next one replaces it;
    /// - the per-drink reminder while `alcoholCountSinceLastWater >= N`, one per drink (each
    ///   further drink repeats it with its count);
    /// - the pacing warning while the Waterline is at or above the threshold, once per upward
    ///   crossing;
    /// judged by the current settings, and nothing once 90 minutes have passed without a log.
    /// Every entry counts, also one stamped a little after `now` (by a device whose clock runs
    /// ahead, or a second before the notifier's clock read `now`): it has been logged.
    /// Instants are compared as instants, whatever offsets they were written with; the
    /// time-based reminders are given on the clock of `timeZone`.
    public static func at(_ now: Timestamp, session: Session?, settings: WaterlineSettings, timeZone: TimeZone) -> WaterlineDue {
        guard let session, session.isActive else { return WaterlineDue(sessionID: nil, items: [], nextChange: nil) }
        let quietAt = session.lastActivity.adding(minutes: Double(WaterlineEngine.inactivityLimitMinutes))
        guard now <= quietAt else { return WaterlineDue(sessionID: session.id, items: [], nextChange: nil) }
        let discreet = settings.discreetNotifications
        let entries = WaterlineEngine.ordered(session.entries)
        var items: [Item] = []
        func add(_ kind: WaterlineNotification.Kind, _ key: String, since: Timestamp) {
            items.append(Item(key: session.id + "/" + key, notification: WaterlineNotification(kind, discreet: discreet), since: since))
        }

        let interval = settings.timeReminderIntervalMinutes
        if settings.timeRemindersEnabled, let t = lastBoundary(of: session, intervalMinutes: interval, atOrBefore: now, timeZone: timeZone),
           WaterlineEngine.timeReminders(for: session, intervalMinutes: interval, through: t, timeZone: timeZone).last?.epochMilliseconds == t.epochMilliseconds,
           !entries.contains(where: { $0.type == .water && $0.timestamp.epochMilliseconds >= t.epochMilliseconds }) {
            add(.timeReminder, "time/\(t.iso8601)", since: t)
        }

        let state = WaterlineEngine.state(from: entries, warningThreshold: settings.warningThreshold)
        let lastWater = entries.last { $0.type == .water }
        if state.alcoholCountSinceLastWater >= settings.waterEveryNDrinks, let lastDrink = entries.last {
            add(.perDrinkReminder(drinks: state.alcoholCountSinceLastWater),
                "per-drink/\(lastWater?.id ?? "start")/\(state.alcoholCountSinceLastWater)", since: lastDrink.timestamp)
        }
        if state.isWarning, let crossing = lastUpwardCrossing(entries, threshold: Double(settings.warningThreshold)) {
            add(.pacingWarning, "pacing/\(crossing.id)", since: crossing.timestamp)
        }

        let next = settings.timeRemindersEnabled ? WaterlineEngine.nextTimeReminder(for: session, settings: settings, now: now, timeZone: timeZone) : nil
        let changes = [next, items.isEmpty ? nil : quietAt].compactMap { $0 }
        return WaterlineDue(sessionID: session.id, items: items, nextChange: changes.min())
    }

    /// The last interval boundary (start + k × interval, k ≥ 1) at or before `now`, on the
    /// clock of `timeZone`.
    static func lastBoundary(of session: Session, intervalMinutes: Int, atOrBefore now: Timestamp, timeZone: TimeZone) -> Timestamp? {
        guard intervalMinutes > 0 else { return nil }
        let intervalMs = Int64(intervalMinutes) * 60_000
        let k = (now.epochMilliseconds - session.startTime.epochMilliseconds) / intervalMs
        guard k >= 1 else { return nil }
        return ZonedClock.timestamp(session.startTime.epochMilliseconds + k * intervalMs, in: timeZone)
    }

    /// The entry with which the Waterline last rose from below `threshold` to it or above.
    static func lastUpwardCrossing(_ ordered: [LogEntry], threshold: Double) -> LogEntry? {
        var value = 0.0, crossing: LogEntry?
        for e in ordered {
            let next = WaterlineEngine.tidy(value + e.waterlineChange)
            if value < threshold, next >= threshold { crossing = e }
            value = next
        }
        return crossing
    }
}

extension WaterlineDue {
    /// The notifications a reminder process shows, one per item, with "Log Water" and
    /// "Dismiss"; the title and body are discreet unless the settings ask for detailed text.
    public var notices: [ReminderNotice] {
        items.map { item in
            ReminderNotice(key: "waterline/" + item.key, app: .waterline, title: item.notification.title, body: item.notification.body,
                           detail: item.notification.detail, actions: [.logWater, .dismiss], since: item.since)
        }
    }
}
