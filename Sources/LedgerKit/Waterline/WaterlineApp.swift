/// Waterline — pacing drinks with water on a night out: its documents and rules, as a ledger sees them.
public enum WaterlineApp: LedgerApp {
    public static let app = App.waterline

    /// The tag an active session carries, for the "one active session" rule.
    public static let activeTag = "active"

    public static let documentTypes: [DocumentType] = [
        DocumentType(WaterlineSettings.self), DocumentType(DrinkPreset.self), DocumentType(Session.self),
    ]

    public static let crossDocumentRules: [CrossDocumentRule] = [
        CrossDocumentRule("waterline.one-active-session") { facts in
            let active = facts.filter { $0.kind == Session.kind.name && $0.tags.contains(activeTag) }.map(\.path).sorted()
            guard active.count > 1 else { return [] }
            return active.map { path in
                let others = active.filter { $0 != path }.joined(separator: ", ")
                return Problem(path, .error(.root.appending("isActive"),
                    "only one session may be active, but so is \(others); the next `ledger waterline` command merges them (see the README), or end one by setting its endTime and isActive"))
            }
        },
    ]

    /// The settings with the seeds' defaults and the five default presets (US-016).
    public static func initialDocuments(now: Timestamp) -> [(path: String, document: JSONValue)] {
        [(WaterlineSettings.kind.path(), WaterlineSettings(createdAt: now).json)]
            + DrinkPreset.defaults(createdAt: now).map { ($0.path, $0.json) }
    }
}
