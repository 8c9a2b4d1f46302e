/// The text of a Waterline nudge, as a phone or watch would show it (US-018 – US-020, US-036).
///
/// `body` is the preview shown on a lock screen: with discreet notifications (the default) it
/// is a neutral sentence — no counts, no mention of alcohol — of its own for each kind, so that
/// two nudges showing at once are two notifications (a notification server such as dunst
/// stacks notifications whose texts are the same into one, and closing one would take the
/// other down). `detail` is the full text, shown when the notification is expanded or the app
/// is open.
public struct WaterlineNotification: Sendable, Hashable {
    /// What triggered it.
    public enum Kind: Sendable, Hashable {
        /// Every interval from the session start.
        case timeReminder
        /// After an alcoholic entry with `alcoholCountSinceLastWater >= N`; `drinks` is that count.
        case perDrinkReminder(drinks: Int)
        /// The Waterline crossed the warning threshold upward.
        case pacingWarning

        /// The name used in JSON: `time`, `perDrink`, `pacingWarning`.
        public var name: String {
            switch self {
            case .timeReminder: "time"
            case .perDrinkReminder: "perDrink"
            case .pacingWarning: "pacingWarning"
            }
        }
    }

    /// What triggered it.
    public var kind: Kind
    /// The title line ("Water Reminder", "Pacing Warning"; "Waterline" when discreet).
    public var title: String
    /// The preview text.
    public var body: String
    /// The full text.
    public var detail: String
    /// What the person can do from the notification (US-018 – US-020: "Log Water" and
    /// "Dismiss"): a stable `id` for a notifier to send back, and the button's `title`.
    public enum Action: String, Sendable, CaseIterable {
        /// Logs water with the default amount, now (`WaterlineStore.logWater`).
        case logWater = "log-water"
        /// Closes the notification; nothing is recorded.
        case dismiss

        public var title: String { self == .logWater ? "Log Water" : "Dismiss" }
    }

    /// The actions offered, in order.
    public var actionChoices: [Action] { Action.allCases }
    /// Their titles ("Log Water", "Dismiss").
    public var actions: [String] { actionChoices.map(\.title) }

    /// The discreet title, shared by every kind.
    public static let discreetTitle = "Waterline"

    /// The discreet preview of `kind`: "Time for a break" (the seed's words) for the
    /// time-based reminder, "Time for some water" for the per-drink reminder, "Time to slow the
    /// pace" for the pacing warning.
    public static func discreetBody(_ kind: Kind) -> String {
        switch kind {
        case .timeReminder: "Time for a break"
        case .perDrinkReminder: "Time for some water"
        case .pacingWarning: "Time to slow the pace"
        }
    }

    /// The notification for `kind`, discreet or detailed.
    public init(_ kind: Kind, discreet: Bool) {
        self.kind = kind
        let title: String
        switch kind {
        case .timeReminder:
            title = "Water Reminder"
            detail = "Time for water"
        case .perDrinkReminder(let n):
            title = "Water Reminder"
            detail = "You've had \(n) \(n == 1 ? "drink" : "drinks") — time for water"
        case .pacingWarning:
            title = "Pacing Warning"
            detail = "Your Waterline is high — drink water to return to center"
        }
        self.title = discreet ? Self.discreetTitle : title
        body = discreet ? Self.discreetBody(kind) : detail
    }

    /// The JSON form used by `--json` outputs, actions included (`[{"id", "title"}]`).
    package var json: JSONValue {
        .object([
            "kind": .string(kind.name), "title": .string(title), "body": .string(body), "detail": .string(detail),
            "actions": .array(actionChoices.map { .object(["id": .string($0.rawValue), "title": .string($0.title)]) }),
        ])
    }

    /// The nudges a new entry brings, judged by the state after the change, now (US-019,
    /// US-020), not by the entry's place in the timeline: a drink after the last water while
    /// N or more drinks have been had since brings the reminder (each one repeats it), a drink
    /// backdated before the last water none, and a second drink while the warning already
    /// shows no second warning. `before` and `after` are the current states (current rules) around the change.
    public static func kinds(logging entry: LogEntry, before: WaterlineState, after: WaterlineState,
                             waterEveryNDrinks n: Int) -> [Kind] {
        guard entry.type == .alcohol else { return [] }
        var out: [Kind] = []
        let count = after.alcoholCountSinceLastWater
        if count >= n, count > before.alcoholCountSinceLastWater { out.append(.perDrinkReminder(drinks: count)) }
        if after.isWarning, !before.isWarning { out.append(.pacingWarning) }
        return out
    }

    /// The nudges an entry triggers at its place in the timeline (the marks of `entries`),
    /// in the order they fire.
    public static func triggered(by step: WaterlineStep, discreet: Bool) -> [WaterlineNotification] {
        var out: [WaterlineNotification] = []
        if step.perDrinkReminder { out.append(WaterlineNotification(.perDrinkReminder(drinks: step.after.alcoholCountSinceLastWater), discreet: discreet)) }
        if step.pacingWarning { out.append(WaterlineNotification(.pacingWarning, discreet: discreet)) }
        return out
    }
}
