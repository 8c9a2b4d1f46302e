/// What a reminder process shows and withdraws, as a pure state machine: boards in (what is
/// due, `ReminderBoard`), the person's answers in, effects out.
///
/// - A notice is shown once per key; the same key with another text or a later `since` (a
///   follow-up) replaces it.
/// - A shown key that is no longer due (confirmed from the CLI or by a sync, water logged, the
///   session ended, its period over) is withdrawn.
/// - A notice the person closed or answered is not shown again while it stays the same; a
///   later `since` under its key (the next follow-up) is a new alert.
///
/// It knows nothing of D-Bus or terminals: a front end carries out `Effect`s by key and reports
/// back with `closed(_:)` and `pressed(_:action:)`.
public struct ReminderFlow: Sendable {
    /// What the front end does.
    public enum Effect: Sendable, Hashable {
        /// Show the notice, replacing the one showing under its key, if any.
        case show(ReminderNotice)
        /// Take down the notice showing under this key.
        case withdraw(String)
    }

    /// What is showing, in the order it was shown.
    public private(set) var showing: [ReminderNotice] = []
    /// Keys the person closed or answered, with the `since` they had then.
    private var answered: [String: Timestamp] = [:]

    public init() {}

    /// The effects that bring the front end to `board`.
    public mutating func update(_ board: ReminderBoard) -> [Effect] {
        var effects: [Effect] = []
        let due = Set(board.notices.map(\.key))
        for old in showing where !due.contains(old.key) { effects.append(.withdraw(old.key)) }
        showing.removeAll { !due.contains($0.key) }
        answered = answered.filter { due.contains($0.key) }
        for notice in board.notices {
            if let i = showing.firstIndex(where: { $0.key == notice.key }) {
                if showing[i] != notice {
                    showing[i] = notice
                    effects.append(.show(notice))
                }
            } else if answered[notice.key].map({ $0 < notice.since }) ?? true {
                answered[notice.key] = nil
                showing.append(notice)
                effects.append(.show(notice))
            }
        }
        return effects
    }

    /// The notice under `key` was closed by the person (or the server): it is not shown again
    /// until it changes.
    public mutating func closed(_ key: String) {
        guard let i = showing.firstIndex(where: { $0.key == key }) else { return }
        answered[key] = showing[i].since
        showing.remove(at: i)
    }

    /// The button `id` of the notice under `key` was pressed: the action to carry out (nil
    /// for a key or button this flow does not show). The notice counts as answered and the
    /// front end takes it down; what the action changes in the documents shows in the next
    /// board.
    public mutating func pressed(_ key: String, action id: String) -> ReminderNotice.Action? {
        guard let notice = showing.first(where: { $0.key == key }), let action = notice.actions.first(where: { $0.id == id }) else { return nil }
        closed(key)
        return action
    }

    /// The notice of `app` showing now, if any (the terminal's keys answer it).
    public func showing(_ app: AppID) -> ReminderNotice? { showing.first { $0.app == app } }

    /// Takes down everything (the process is stopping: a button pressed after it is gone would
    /// reach no one, and the next process shows what is still due).
    public mutating func withdrawAll() -> [Effect] {
        defer { showing.removeAll() }
        return showing.map { .withdraw($0.key) }
    }
}
