/// DotLife Moments — a tiny gratitude journal drawn as dots: its documents and rules, as a ledger sees them.
public enum MomentsApp: LedgerApp {
    public static let app = App.moments
}
