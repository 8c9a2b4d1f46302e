/// One notification a reminder process should be showing: a Water Reminder reminder or
/// follow-up, or a Waterline reminder or warning. The apps make them from what is due
/// (`ReminderAgenda.notices`, `WaterlineDue.notices`); `ReminderFlow` decides when to show and
/// withdraw them; a front end (desktop notifications, a terminal) draws them.
public struct ReminderNotice: Sendable, Hashable {
    /// What a button does.
    public enum Action: Sendable, Hashable {
        /// "I Drank": confirms the Water Reminder reminder at `slot` — the one notified, however
        /// late it is pressed (`HydrateStore.confirm(.instant(slot), …)`).
        case drank(slot: Timestamp)
        /// "Log Water": water of the default amount, now, in the active session.
        case logWater
        /// "Dismiss": closes the notification; nothing is recorded.
        case dismiss

        /// The key sent back by the notification server when it is pressed.
        public var id: String {
            switch self {
            case .drank: "drank"
            case .logWater: WaterlineNotification.Action.logWater.rawValue
            case .dismiss: WaterlineNotification.Action.dismiss.rawValue
            }
        }

        /// The button's label.
        public var label: String {
            switch self {
            case .drank: "I Drank"
            case .logWater: WaterlineNotification.Action.logWater.title
            case .dismiss: WaterlineNotification.Action.dismiss.title
            }
        }
    }

    /// Stable while it is the same reminder (`hydrate/SLOT`, `waterline/SESSION/…`): a front
    /// end shows each key once and replaces it when its text or `since` changes.
    public var key: String
    public var app: AppID
    /// The title line, as a notification shows it (discreet when the settings ask for it).
    public var title: String
    /// The text under it, likewise.
    public var body: String
    /// The full text, for a front end inside the app (the terminal).
    public var detail: String
    /// The buttons, in order.
    public var actions: [Action]
    /// When it fell due. The same key with a later `since` is a new alert (a follow-up), shown
    /// again even after the person closed the earlier one.
    public var since: Timestamp
}

/// Everything due at an instant, over the apps that remind: what should be showing, and the
/// next instant that can change with no document changing (a process sleeps until then, or
/// until a document changes).
public struct ReminderBoard: Sendable {
    /// What should be showing now, Water Reminder first.
    public var notices: [ReminderNotice]
    /// When to look again if no document changes; nil: only a change to the documents can
    /// change the answer.
    public var wake: Timestamp?
    /// Documents that could not be read, one sentence each; that app shows nothing until they
    /// change.
    public var problems: [LedgerError.Sentence]

    init(notices: [ReminderNotice], wake: Timestamp?, problems: [LedgerError.Sentence] = []) {
        self.notices = notices
        self.wake = wake
        self.problems = problems
    }
}
