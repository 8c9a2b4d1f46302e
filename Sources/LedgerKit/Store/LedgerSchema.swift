/// The registry of apps: every kind of file a ledger may hold, and the rules that span
/// documents.
///
/// Each app declares its document types, attachment types and cross-document rules in its
/// `LedgerApp`; `check`, `init`, sync and the merge driver find a file's rules through
/// `LedgerSchema.standard` alone.
package enum LedgerSchema {
    /// The apps, in the order they are shown.
    package static let apps: [any LedgerApp.Type] = [WaterlineApp.self, BrewApp.self, HydrateApp.self, MomentsApp.self]

    /// Everything a ledger holds: the manifest and every app's kinds and rules.
    package static let standard = DocumentSchema(
        documentTypes: [DocumentType(LedgerManifest.self), DocumentType(PurgeRecord.self)] + apps.flatMap { $0.documentTypes },
        attachmentTypes: apps.flatMap { $0.attachmentTypes },
        crossDocumentRules: apps.flatMap { $0.crossDocumentRules },
        checkFollowUps: apps.flatMap { $0.checkFollowUps })

    /// All JSON document types.
    package static var documentTypes: [DocumentType] { standard.documentTypes }

    /// The documents a new ledger starts with (`ledger init`), by path relative to the root:
    /// the manifest and each app's defaults (such as Waterline's five drink presets).
    package static func initialDocuments(now: Timestamp) -> [(path: String, document: JSONValue)] {
        [(LedgerManifest.kind.path(), LedgerManifest(createdAt: now).json)] + apps.flatMap { $0.initialDocuments(now: now) }
    }
}

/// A set of document kinds and rules: what `check` validates and sync knows how to merge.
/// `LedgerSchema.standard` is the one ledgers use; tests may build their own.
package struct DocumentSchema: Sendable {
    package let documentTypes: [DocumentType]
    /// Non-JSON files kept in the ledger (photos).
    package let attachmentTypes: [AttachmentType]
    /// Rules over the facts of all documents at once (beyond duplicate ids and references).
    package let crossDocumentRules: [CrossDocumentRule]
    /// Called with the facts of every document after a check that knows them all.
    package let checkFollowUps: [CheckFollowUp]
    /// The top-level directories that belong to apps; other top-level entries are the user's.
    package let appDirectories: Set<String>

    let singletons: [String: DocumentType]
    /// Collections by directory, longest directory first (nested collections win).
    let collections: [(String, DocumentType)]
    let attachments: [String: AttachmentType]
    let collectionsByKind: [String: DocumentType]

    package init(documentTypes: [DocumentType], attachmentTypes: [AttachmentType] = [], crossDocumentRules: [CrossDocumentRule] = [],
                 checkFollowUps: [CheckFollowUp] = []) {
        self.documentTypes = documentTypes
        self.attachmentTypes = attachmentTypes
        self.crossDocumentRules = crossDocumentRules
        self.checkFollowUps = checkFollowUps
        var s: [String: DocumentType] = [:]
        var c: [(String, DocumentType)] = []
        for t in documentTypes {
            switch t.kind.location {
            case .singleton(let path): s[path] = t
            case .collection(let dir, _): c.append((dir, t))
            }
        }
        singletons = s
        collections = c.sorted { $0.0.count > $1.0.count }
        attachments = Dictionary(uniqueKeysWithValues: attachmentTypes.map { ($0.directory, $0) })
        collectionsByKind = Dictionary(uniqueKeysWithValues: c.map { ($0.1.kind.name, $0.1) })
        appDirectories = Set(
            documentTypes.compactMap { t -> String? in
                if case .collection(let dir, _) = t.kind.location { return String(dir.split(separator: "/")[0]) }
                if case .singleton(let path) = t.kind.location, path.contains("/") { return String(path.split(separator: "/")[0]) }
                return nil
            } + attachmentTypes.map { String($0.directory.split(separator: "/")[0]) })
    }

    /// The document type with this kind name (`waterline.session`).
    package func documentType(named name: String) -> DocumentType? {
        documentTypes.first { $0.kind.name == name }
    }

    /// The document type whose location `path` (relative to the ledger root) is, or nil when
    /// the path is not where a document can be (the same classification `check` uses).
    package func documentType(forPath path: String) -> DocumentType? {
        if case .document(let t, _) = FileRole.classify(path, type: .file, in: self) { return t }
        return nil
    }

    /// The attachment type whose directory holds `path`, when it is an allowed file there.
    package func attachmentType(forPath path: String) -> AttachmentType? {
        if case .attachment(let a) = FileRole.classify(path, type: .file, in: self) { return a }
        return nil
    }
}

/// A kind of non-JSON file kept in the ledger, such as a photo stored under its content hash.
package struct AttachmentType: Sendable {
    /// A stable name used in messages and references, such as `moments.photo`.
    package let name: String
    /// The directory holding the files, relative to the ledger root.
    package let directory: String
    /// File name extensions allowed (lowercase, without the dot).
    package let extensions: Set<String>
    /// The largest file accepted, in bytes.
    package let maximumBytes: Int
    /// Problems with one file, given its name and contents.
    package let inspect: @Sendable (_ name: String, _ contents: [UInt8]) -> [DocumentIssue]

    /// An attachment type; `name` defaults to the directory.
    package init(name: String? = nil, directory: String, extensions: Set<String>, maximumBytes: Int,
                inspect: @escaping @Sendable (_ name: String, _ contents: [UInt8]) -> [DocumentIssue]) {
        self.name = name ?? directory
        self.directory = directory
        self.extensions = extensions
        self.maximumBytes = maximumBytes
        self.inspect = inspect
    }
}

/// What `check` remembers of one valid document for rules that span documents.
package struct DocumentFacts: Sendable, Hashable {
    /// Path relative to the ledger root.
    package var path: String
    /// The kind name.
    package var kind: String
    package var id: String?
    package var references: [DocumentReference]
    package var tags: [String]
}

/// A rule over all documents at once, such as "at most one active session".
package struct CrossDocumentRule: Sendable {
    package let name: String
    /// The problems, given the facts of every readable document.
    package let check: @Sendable ([DocumentFacts]) -> [Problem]

    package init(_ name: String, check: @escaping @Sendable ([DocumentFacts]) -> [Problem]) {
        self.name = name
        self.check = check
    }
}

/// What an app does with the facts of every document once a check has them (`LedgerApp.checkFollowUps`).
package typealias CheckFollowUp = @Sendable (_ facts: [DocumentFacts], _ store: LedgerStore) -> Void

/// An issue in a particular file, as `check` reports it: `PATH: POINTER: severity: message`.
public struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// Path relative to the ledger root.
    public var path: String
    public var issue: DocumentIssue
    /// Where in the file's text the problem is, 1-based, the column in Unicode scalars: a
    /// syntax error's place, or the place of the value the pointer names (of the closest value
    /// around it that is there, for a missing field). `Checker` places every problem in a JSON
    /// document it reports; nil for other files and for problems found elsewhere.
    public var line: Int?
    public var column: Int?

    public init(_ path: String, _ issue: DocumentIssue) {
        self.path = path
        self.issue = issue
    }

    public var severity: DocumentIssue.Severity { issue.severity }
    public var message: String { issue.message }

    /// `PATH: POINTER: severity: message`; the location is `line:column` for syntax errors
    /// and `/` for the document as a whole.
    public var description: String { rendered(\.description) }

    /// "PATH: POINTER: severity: message", with the message worded by `words`.
    public func rendered(_ words: (LedgerError.Sentence) -> String) -> String {
        let location: String
        if let line = issue.line { location = "\(line):\(issue.column ?? 1)" } else if issue.pointer.isRoot { location = "/" } else { location = issue.pointer.description }
        return "\(path): \(location): \(issue.severity.rawValue): \(words(issue.sentence))"
    }
}
