/// A notification as the Desktop Notifications Specification (1.2) describes it, ready to be
/// posted with `NotificationClient.notify(_:replacing:)`.
///
/// Only what a reminder needs is modelled: text, buttons and the standard hints that tell the
/// server how to treat it (urgency, category, the application's desktop entry, whether it
/// stays after a button is pressed, whether it skips the server's history).
public struct DesktopNotification: Sendable, Hashable {
    /// A button: `key` comes back in `ActionInvoked`, `label` is what the user reads.
    public struct Action: Sendable, Hashable {
        public var key: String
        public var label: String

        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }
    }

    /// The `urgency` hint (a byte on the wire).
    public enum Urgency: UInt8, Sendable, Hashable {
        case low = 0, normal = 1, critical = 2
    }

    /// How long the server shows it (`expire_timeout`).
    public enum Expiration: Sendable, Hashable {
        /// The server's own default (-1).
        case serverDefault
        /// Until the user or the client closes it (0).
        case never
        /// This many milliseconds.
        case milliseconds(Int32)

        var wireValue: Int32 {
            switch self {
            case .serverDefault: -1
            case .never: 0
            case .milliseconds(let ms): max(1, ms)
            }
        }
    }

    /// The application's name as the server shows and files it (`app_name`).
    public var appName: String
    /// The one-line title.
    public var summary: String
    /// The text under it (servers that announce `body-markup` read a small HTML subset).
    public var body: String
    /// An icon name from the theme or a `file://` URI; empty for none.
    public var icon: String
    /// The buttons, in order. The key `default` is the action of clicking the notification.
    public var actions: [Action]
    public var urgency: Urgency
    /// The `category` hint: one of the specification's (`im.received`, `device`, …) or a
    /// vendor one starting with `x-`; nil sends none.
    public var category: String?
    /// The `desktop-entry` hint: the name of the application's `.desktop` file without the
    /// suffix, so the server can group and configure it per application; nil sends none.
    public var desktopEntry: String?
    /// The `resident` hint: stays when a button is pressed (it is closed explicitly).
    public var resident: Bool
    /// The `transient` hint: bypasses the server's persistence (history) and idle rules.
    public var transient: Bool
    public var expiration: Expiration

    public init(appName: String, summary: String, body: String = "", icon: String = "",
                actions: [Action] = [], urgency: Urgency = .normal, category: String? = nil,
                desktopEntry: String? = nil, resident: Bool = false, transient: Bool = false,
                expiration: Expiration = .serverDefault) {
        self.appName = appName
        self.summary = summary
        self.body = body
        self.icon = icon
        self.actions = actions
        self.urgency = urgency
        self.category = category
        self.desktopEntry = desktopEntry
        self.resident = resident
        self.transient = transient
        self.expiration = expiration
    }
}

/// What `GetServerInformation` answers: which program shows the notifications.
public struct NotificationServerInformation: Sendable, Hashable {
    /// The product name, e.g. `dunst`, `gnome-shell`, `Plasma`.
    public var name: String
    public var vendor: String
    public var version: String
    /// The version of the specification it implements, e.g. `1.2`.
    public var specificationVersion: String
}

/// Why the server closed a notification (`NotificationClosed`'s reason).
public enum NotificationCloseReason: Sendable, Hashable {
    /// Its expiration passed.
    case expired
    /// The user dismissed it.
    case dismissed
    /// A `CloseNotification` call closed it (ours or another client's).
    case closedByCall
    /// The server gave no reason (4), or a value the specification does not define.
    case undefined(UInt32)

    init(wireValue: UInt32) {
        switch wireValue {
        case 1: self = .expired
        case 2: self = .dismissed
        case 3: self = .closedByCall
        default: self = .undefined(wireValue)
        }
    }
}
