/// Every kind of file a ledger may hold, and the rules that span documents.
///
/// Each app declares its document types, attachment types and cross-document rules in its
/// `LedgerApp`; `check`, `init`, sync and the merge driver find a file's rules through this
/// registry alone.
public enum LedgerSchema {
    /// The apps, in the order they are shown.
    public static let apps: [any LedgerApp.Type] = [WaterlineApp.self, BrewApp.self, HydrateApp.self, MomentsApp.self]

    /// All JSON document types.
    public static let documentTypes: [DocumentType] = [DocumentType(LedgerManifest.self)] + apps.flatMap { $0.documentTypes }

    /// Non-JSON files kept in the ledger (photos).
    public static let attachmentTypes: [AttachmentType] = apps.flatMap { $0.attachmentTypes }

    /// Rules over the facts of all documents at once (beyond duplicate ids and references).
    public static let crossDocumentRules: [CrossDocumentRule] = apps.flatMap { $0.crossDocumentRules }

    /// The top-level directories that belong to apps; other top-level entries are the user's.
    public static let appDirectories: Set<String> = Set(
        documentTypes.compactMap { t -> String? in
            if case .collection(let dir, _) = t.kind.location { return String(dir.split(separator: "/")[0]) }
            if case .singleton(let path) = t.kind.location, path.contains("/") { return String(path.split(separator: "/")[0]) }
            return nil
        } + attachmentTypes.map { String($0.directory.split(separator: "/")[0]) }
    )

    /// The documents a new ledger starts with (`ledger init`), by path relative to the root:
    /// the manifest and each app's defaults (such as Waterline's five drink presets).
    public static func initialDocuments(now: Timestamp) -> [(path: String, document: JSONValue)] {
        [(LedgerManifest.kind.path(), LedgerManifest(createdAt: now).json)] + apps.flatMap { $0.initialDocuments(now: now) }
    }

    /// The document type with this kind name.
    public static func type(named name: String) -> DocumentType? {
        documentTypes.first { $0.kind.name == name }
    }
}

/// A kind of non-JSON file kept in the ledger, such as a photo stored under its content hash.
public struct AttachmentType: Sendable {
    /// A stable name used in messages and references, such as `moments.photo`.
    public let name: String
    /// The directory holding the files, relative to the ledger root.
    public let directory: String
    /// File name extensions allowed (lowercase, without the dot).
    public let extensions: Set<String>
    /// The largest file accepted, in bytes.
    public let maximumBytes: Int
    /// Problems with one file, given its name and contents.
    public let inspect: @Sendable (_ name: String, _ contents: [UInt8]) -> [Issue]

    public init(name: String, directory: String, extensions: Set<String>, maximumBytes: Int,
                inspect: @escaping @Sendable (_ name: String, _ contents: [UInt8]) -> [Issue]) {
        self.name = name
        self.directory = directory
        self.extensions = extensions
        self.maximumBytes = maximumBytes
        self.inspect = inspect
    }
}

/// What `check` remembers of one valid document for rules that span documents.
public struct DocumentFacts: Sendable, Hashable {
    /// Path relative to the ledger root.
    public var path: String
    /// The kind name.
    public var kind: String
    public var id: String?
    public var references: [DocumentReference]
    public var tags: [String]
}

/// A rule over all documents at once, such as "at most one active session".
public struct CrossDocumentRule: Sendable {
    public let name: String
    /// The problems, given the facts of every readable document.
    public let check: @Sendable ([DocumentFacts]) -> [Problem]

    public init(_ name: String, check: @escaping @Sendable ([DocumentFacts]) -> [Problem]) {
        self.name = name
        self.check = check
    }
}

/// An issue in a particular file, as `check` reports it: `PATH: POINTER: severity: message`.
public struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// Path relative to the ledger root.
    public var path: String
    public var issue: Issue

    public init(_ path: String, _ issue: Issue) {
        self.path = path
        self.issue = issue
    }

    public var severity: Issue.Severity { issue.severity }
    public var message: String { issue.message }

    /// `PATH: POINTER: severity: message`; the location is `line:column` for syntax errors
    /// and `/` for the document as a whole.
    public var description: String {
        let location: String
        if let line = issue.line { location = "\(line):\(issue.column ?? 1)" } else if issue.pointer.isRoot { location = "/" } else { location = issue.pointer.description }
        return "\(path): \(location): \(issue.severity.rawValue): \(issue.message)"
    }
}
