import LedgerKit

/// Reminders as desktop notifications: each notice posted to the notification server with
/// its buttons, replaced in place when it changes (a follow-up), closed when withdrawn.
public final class DesktopFrontEnd: ReminderFrontEnd {
    public let client: NotificationClient
    /// Notification ids by notice key, and back.
    private var ids: [String: UInt32] = [:]
    private var keys: [UInt32: String] = [:]

    public init(client: NotificationClient) {
        self.client = client
    }

    public var notifications: NotificationClient? { client }
    public var input: Int32? { nil }

    /// The notification for `notice`: Water Reminder's quiet (low urgency), Waterline's normal;
    /// both stay until answered or withdrawn.
    static func notification(_ notice: ReminderNotice) -> DesktopNotification {
        DesktopNotification(appName: "ledger", summary: notice.title, body: notice.body,
                            actions: notice.actions.map { .init(key: $0.id, label: $0.label) },
                            urgency: notice.app == .hydrate ? .low : .normal, category: "x-ledger.reminder",
                            expiration: .never)
    }

    public func carryOut(_ effects: [ReminderFlow.Effect], at now: Timestamp) throws(RemindError) {
        try apply(effects)
    }

    public func finish(_ effects: [ReminderFlow.Effect]) {
        try? apply(effects)
    }

    private func apply(_ effects: [ReminderFlow.Effect]) throws(RemindError) {
        for effect in effects {
            switch effect {
            case .show(let notice):
                let id = try client.notify(Self.notification(notice), replacing: ids[notice.key] ?? 0)
                if let old = ids[notice.key], old != id { keys[old] = nil }
                ids[notice.key] = id
                keys[id] = notice.key
            case .withdraw(let key):
                guard let id = ids.removeValue(forKey: key) else { continue }
                keys[id] = nil
                try client.close(id)
            }
        }
    }

    /// Buttons first, then closings: a server closes a notification as its button is
    /// pressed, and the press must not be lost behind the closing.
    package func answers(to events: [LoopEvent], flow: ReminderFlow) -> [ReminderAnswer] {
        var pressed: [ReminderAnswer] = [], closed: [ReminderAnswer] = []
        for event in events {
            switch event {
            case .action(let id, let action):
                if let key = keys[id] { pressed.append(.pressed(key: key, action: action)) }
            case .closed(let id, _):
                if let key = keys.removeValue(forKey: id) {
                    ids[key] = nil
                    closed.append(.closed(key: key))
                }
            default: break
            }
        }
        return pressed + closed
    }
}
