/// Water Reminder — daily hydration reminders: its documents and rules, as a ledger sees them.
public enum HydrateApp: LedgerApp {
    public static let app = App.hydrate
}
