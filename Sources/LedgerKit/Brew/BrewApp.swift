/// BrewGuide — guided V60 coffee: its documents and rules, as a ledger sees them.
public enum BrewApp: LedgerApp {
    public static let app = App.brew
}
