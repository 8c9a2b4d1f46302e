/// What an app contributes to a ledger: its document types and the rules `check`, `init`
/// and sync need. Each app's namespace (`WaterlineApp`, `BrewApp`, …) conforms; every
/// requirement has an empty default.
package protocol LedgerApp: Sendable {
    static var app: AppID { get }
    /// The app's JSON document types.
    static var documentTypes: [DocumentType] { get }
    /// The app's non-JSON files (photos).
    static var attachmentTypes: [AttachmentType] { get }
    /// Rules over many documents at once (e.g. at most one active session).
    static var crossDocumentRules: [CrossDocumentRule] { get }
    /// Repairs across documents after a sync merge (e.g. two sessions left active).
    static var mergeReconciliations: [MergeReconciliation] { get }
    /// What the app does with the facts a full check found (e.g. drop a device-local hint
    /// they prove stale).
    static var checkFollowUps: [CheckFollowUp] { get }
    /// The documents `ledger init` creates for the app (defaults such as drink presets).
    static func initialDocuments(now: Timestamp) -> [(path: String, document: JSONValue)]
}

extension LedgerApp {
    package static var documentTypes: [DocumentType] { [] }
    package static var attachmentTypes: [AttachmentType] { [] }
    package static var crossDocumentRules: [CrossDocumentRule] { [] }
    package static var mergeReconciliations: [MergeReconciliation] { [] }
    package static var checkFollowUps: [CheckFollowUp] { [] }
    package static func initialDocuments(now: Timestamp) -> [(path: String, document: JSONValue)] { [] }
}
