/// A document kept in a ledger: a `JSONModel` that knows its kind, its domain rules, its
/// derived values and how two diverged versions of it merge.
///
/// Everything here has a default, so a simple kind only declares `kind` and its fields.
package protocol StoredDocument: JSONModel {
    /// Which kind of document this is, and where its files live.
    static var kind: DocumentKind { get }

    /// When the document was created (SPEC §3: every document carries it).
    var createdAt: Timestamp { get set }
    /// When the document was last changed; the tie-breaker of last-write-wins merges.
    var updatedAt: Timestamp { get set }

    /// Every rule beyond the field types, as issues with pointers: the value rules of the
    /// fields (`Self.ruleIssues(self, at: .root)`, which an implementation includes) and the
    /// rules relating several values (sums, orderings), which only ledger checks.
    func validate() -> [DocumentIssue]

    /// Recomputes stored derived values (such as a session's state) from the source fields.
    /// Derived values are stored for readers but never trusted: ledger calls this before every
    /// write and `check` reports stored values that differ from a recompute.
    mutating func recomputeDerived()

    /// Ids of other documents this one refers to; `check` warns about dangling ones.
    var references: [DocumentReference] { get }

    /// Labels that cross-document rules look at (e.g. "active" for a running session).
    var tags: [String] { get }

    /// Resolves two versions that both changed since `base` (nil when both sides created the
    /// document independently). Deletions are handled before this is called: a document
    /// deleted on one side and unchanged on the other stays deleted, and an edit beats a
    /// deletion. The default is the field-wise last-write-wins rule (`FieldwiseMerge`).
    static func merge(base: Self?, ours: Self, theirs: Self, context: MergeContext) -> Merged<Self>

    /// What of this document outlives a forget of its app at `instant`, for a device that
    /// recorded it without having seen the forget (`Forgetting`): what was recorded at or after
    /// the instant, or nil when nothing was. The default keeps a collection's document recorded
    /// (`createdAt`) at or after it, and a singleton changed (`updatedAt`) at or after it; kinds
    /// made of many records (a session's entries, a day's confirmations) keep those records.
    func remainder(afterForgetAt instant: Timestamp) -> Self?

    /// This document as one of a collection (its id, shard and path), or nil for a singleton.
    /// Asked instead of a cast (`as? any CollectionDocument`): a cast to a protocol makes the
    /// runtime scan every conformance record of the binary, the first time for each type —
    /// 0.25 million instructions for each kind a command reads.
    var asCollection: (any CollectionDocument)? { get }
}

/// A document of which a ledger holds many, one file per `id`.
package protocol CollectionDocument: StoredDocument {
    /// The document id, which is also its file name (without `.json`).
    var id: String { get }
    /// The date that chooses the shard directory (`<YYYY>` or `<YYYY>/<MM>`), for sharded kinds.
    var shardDate: LocalDate? { get }
}

/// A document of which a ledger holds at most one (settings, preferences).
package protocol SingletonDocument: StoredDocument {
    /// The value used while the file does not exist yet.
    static var defaultValue: Self { get }
}

/// A reference from one document to another, checked by `ledger check`.
package struct DocumentReference: Sendable, Hashable {
    /// Where the reference is, in the referring document.
    package var pointer: JSONPointer
    /// The referenced document's kind name (`DocumentKind.name`).
    package var kind: String
    package var id: String

    package init(_ pointer: JSONPointer, kind: DocumentKind, id: String) {
        self.pointer = pointer
        self.kind = kind.name
        self.id = id
    }

    /// A reference to the file `file` (its name, such as `<hash>.jpg`) of an attachment type;
    /// `check` warns when no such file exists.
    package init(_ pointer: JSONPointer, attachment: AttachmentType, file: String) {
        self.init(pointer: pointer, kindName: attachment.name, id: file)
    }

    init(pointer: JSONPointer, kindName: String, id: String) {
        self.pointer = pointer
        self.kind = kindName
        self.id = id
    }
}

extension StoredDocument {
    package func validate() -> [DocumentIssue] { Self.ruleIssues(self, at: .root) }
    package mutating func recomputeDerived() {}
    package var references: [DocumentReference] { [] }
    package var tags: [String] { [] }

    package static func merge(base: Self?, ours: Self, theirs: Self, context: MergeContext) -> Merged<Self> {
        FieldwiseMerge.merge(base: base, ours: ours, theirs: theirs)
    }

    /// The document as ledger writes it: derived values recomputed.
    package var recomputed: Self {
        var copy = self
        copy.recomputeDerived()
        return copy
    }
}

extension StoredDocument {
    /// The remainder of a document made of records (a session's entries, a day's
    /// confirmations) recorded before a forget at `instant`: the records timed at or after it
    /// (`time`), nil when there are none; the document is then as recorded at the instant, its
    /// derived values recomputed. A document recorded after the forget stays whole.
    package func remainder<Record>(afterForgetAt instant: Timestamp, records: WritableKeyPath<Self, [Record]>,
                                   time: (Record) -> Timestamp) -> Self? {
        guard createdAt < instant else { return self }
        let kept = self[keyPath: records].filter { time($0) >= instant }
        guard !kept.isEmpty else { return nil }
        var copy = self
        copy[keyPath: records] = kept
        copy.createdAt = instant
        copy.updatedAt = max(updatedAt, instant)
        copy.recomputeDerived()
        return copy
    }
}

extension CollectionDocument {
    package func remainder(afterForgetAt instant: Timestamp) -> Self? { createdAt >= instant ? self : nil }

    package var asCollection: (any CollectionDocument)? { self }

    package var shardDate: LocalDate? { nil }
    /// This document's path relative to the ledger root.
    package var path: String { Self.kind.path(id: id, date: shardDate) }
}

extension SingletonDocument {
    package var asCollection: (any CollectionDocument)? { nil }

    package func remainder(afterForgetAt instant: Timestamp) -> Self? { updatedAt >= instant ? self : nil }

    /// This document's path relative to the ledger root.
    package var path: String { Self.kind.path() }
}
