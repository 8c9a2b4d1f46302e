/// Water Reminder — daily hydration reminders: its documents and rules, as a ledger sees them.
package enum HydrateApp: LedgerApp {
    package static let app = AppID.hydrate

    package static let documentTypes = [DocumentType(HydrationSchedule.self), DocumentType(HydrationDay.self)]

    /// A new ledger starts with the default schedule, visible and editable in `hydrate/schedule.json`.
    package static func initialDocuments(now: Timestamp) -> [(path: String, document: JSONValue)] {
        [(HydrationSchedule.kind.path(), HydrationSchedule(ReminderSchedule(), createdAt: now).json)]
    }
}
