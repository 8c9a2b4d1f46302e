/// DotLife Moments — a tiny gratitude journal drawn as dots: its documents and rules, as a ledger sees them.
package enum MomentsApp: LedgerApp {
    package static let app = AppID.moments

    package static var documentTypes: [DocumentType] { [DocumentType(Experience.self), DocumentType(MomentsSettings.self)] }

    package static var attachmentTypes: [AttachmentType] { [MomentsPhotos.attachmentType] }

    package static func initialDocuments(now: Timestamp) -> [(path: String, document: JSONValue)] {
        [(MomentsSettings.kind.path(), MomentsSettings(createdAt: now).json)]
    }
}
