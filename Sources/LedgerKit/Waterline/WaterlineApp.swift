/// Waterline — pacing drinks with water on a night out: its documents and rules, as a ledger sees them.
public enum WaterlineApp: LedgerApp {
    public static let app = App.waterline
}
