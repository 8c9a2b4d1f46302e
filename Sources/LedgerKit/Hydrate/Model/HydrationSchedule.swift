import Foundation

/// `hydrate/schedule.json`: the reminder schedule in force (start, end, interval, follow-up
/// interval). `ledger init` writes the defaults; `ledger hydrate setup` changes them and
/// records when the person chose them (`setUpAt`), so that until then every view can say the
/// defaults are in force (the seed's onboarding).
///
/// Two machines that change it differently merge field by field, the later change winning
/// per field (the shared rule); a merge whose fields would not make a valid schedule together
/// keeps the later version whole.
public struct HydrationSchedule: SingletonDocument, Equatable {
    package static let kind = DocumentKind("hydrate.schedule", app: .hydrate, .singleton("hydrate/schedule.json"))

    public var reminders = ReminderSchedule()
    /// When the person last chose the schedule (`ledger hydrate setup`); nil until they have.
    public var setUpAt: Timestamp?
    public var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    package var unknownFields = JSONObject()

    public init() {}

    /// A schedule document created at `now`.
    public init(_ reminders: ReminderSchedule, createdAt now: Timestamp) {
        self.reminders = reminders
        createdAt = now
        updatedAt = now
    }

    package static let fields: [Field<HydrationSchedule>] = [
        .required("startTime", { $0.reminders.startTime }, { $0.reminders.startTime = $1 }),
        .required("endTime", { $0.reminders.endTime }, { $0.reminders.endTime = $1 }),
        .required("intervalMinutes", { $0.reminders.intervalMinutes }, { $0.reminders.intervalMinutes = $1 }, ReminderSchedule.intervalRule),
        .required("followUpIntervalMinutes", { $0.reminders.followUpIntervalMinutes }, { $0.reminders.followUpIntervalMinutes = $1 }, ReminderSchedule.followUpRule),
        .optional("setUpAt", { $0.setUpAt }, { $0.setUpAt = $1 }),
        .required("createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        .required("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
    ]

    /// The default schedule, used while the file does not exist.
    public static var defaultValue: HydrationSchedule { HydrationSchedule() }

    /// Whether the defaults are in force because nobody has chosen a schedule yet: never set
    /// up, and still the defaults (a schedule edited by hand was chosen, too).
    public var awaitsSetup: Bool { setUpAt == nil && reminders == ReminderSchedule() }

    public func validate() -> [DocumentIssue] { Self.ruleIssues(self, at: .root) + reminders.relationIssues(at: .root) }
}
