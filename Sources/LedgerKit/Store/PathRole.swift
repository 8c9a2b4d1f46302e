/// What a file in a ledger is, judged by its path alone: the classification `check` uses,
/// for sync and the merge driver.
package enum PathRole: Sendable {
    /// A JSON document of this type.
    case document(DocumentType)
    /// A non-JSON file kept by an app (a photo, content-addressed: same path, same bytes).
    case attachment
    /// The other machine's version of `original`, left by a sync that could not merge it.
    case conflictCopy(original: String)
    /// Anything else: the user's own files, or files `check` reports as misplaced.
    case other

    /// Classifies a path relative to the ledger root (as a regular file).
    package init(path: String, schema: DocumentSchema = LedgerSchema.standard) {
        switch FileRole.classify(path, type: .file, in: schema) {
        case .document(let t, _): self = .document(t)
        case .attachment: self = .attachment
        case .conflict(let original): self = .conflictCopy(original: original)
        case .stray: self = .other
        }
    }

    /// The name of the conflict file that keeps `theirs` beside `path`: `<stem>.conflict-<tag>.<ext>`
    /// (`settings.conflict-1a2b3c4d.json`), which `check` reports until it is deleted.
    package static func conflictCopyPath(of path: String, tag: String) -> String {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return dir + name[..<dot] + FileRole.conflictMarker + tag + name[dot...]
        }
        return dir + name + FileRole.conflictMarker + tag
    }
}

/// A repair of what a merge of two valid trees can break across documents — such as two
/// sessions, each started on its own machine while offline, both active after the merge.
///
/// Sync gives it every document of `kind` that either side changed since the common
/// ancestor, as merged; it returns the changes to make among those paths (a new document, or
/// nil to remove the file), with notes for the sync report. It must be deterministic, so that
/// every machine reaching the same merge reaches the same repair.
package struct MergeReconciliation: Sendable {
    /// What a reconciliation decided.
    package struct Repair: Sendable {
        /// Documents to write (by path, among the given ones), or nil to remove the file.
        package var changes: [(path: String, document: JSONValue?)]
        /// What was done, one sentence each.
        package var notes: [String]

        package init(changes: [(path: String, document: JSONValue?)] = [], notes: [String] = []) {
            self.changes = changes
            self.notes = notes
        }
    }

    /// The kind name (`DocumentKind.name`) of the documents it looks at.
    package let kind: String
    package let reconcile: @Sendable (_ documents: [(path: String, document: JSONValue)]) -> Repair

    package init(kind: DocumentKind, reconcile: @escaping @Sendable (_ documents: [(path: String, document: JSONValue)]) -> Repair) {
        self.kind = kind.name
        self.reconcile = reconcile
    }
}

extension LedgerSchema {
    /// Every app's merge reconciliations.
    package static var mergeReconciliations: [MergeReconciliation] { apps.flatMap { $0.mergeReconciliations } }
}
