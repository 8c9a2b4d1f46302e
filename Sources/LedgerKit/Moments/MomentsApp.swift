/// DotLife Moments — a tiny gratitude journal drawn as dots: its documents and rules, as a ledger sees them.
public enum MomentsApp: LedgerApp {
    public static let app = AppID.moments

    public static var documentTypes: [DocumentType] { [DocumentType(Experience.self), DocumentType(MomentsSettings.self)] }

    public static var attachmentTypes: [AttachmentType] { [MomentsPhotos.attachmentType] }

    public static func initialDocuments(now: Timestamp) -> [(path: String, document: JSONValue)] {
        [(MomentsSettings.kind.path(), MomentsSettings(createdAt: now).json)]
    }
}
