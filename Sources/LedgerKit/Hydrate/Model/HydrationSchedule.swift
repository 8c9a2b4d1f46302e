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
        .required("startTime", \.reminders.startTime),
        .required("endTime", \.reminders.endTime),
        .required("intervalMinutes", \.reminders.intervalMinutes, ReminderSchedule.intervalRule),
        .required("followUpIntervalMinutes", \.reminders.followUpIntervalMinutes, ReminderSchedule.followUpRule),
        .optional("setUpAt", \.setUpAt),
        .required("createdAt", \.createdAt),
        .required("updatedAt", \.updatedAt),
    ]

    /// The default schedule, used while the file does not exist.
    public static var defaultValue: HydrationSchedule { HydrationSchedule() }

    /// Whether the defaults are in force because nobody has chosen a schedule yet: never set
    /// up, and still the defaults (a schedule edited by hand was chosen, too).
    public var awaitsSetup: Bool { setUpAt == nil && reminders == ReminderSchedule() }

    public func validate() -> [DocumentIssue] { Self.ruleIssues(self, at: .root) + reminders.relationIssues(at: .root) }
}
