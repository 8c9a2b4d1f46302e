import LedgerKit

/// Document kinds that exist only in tests, so the store, check and merge machinery can be
/// tested independently of the apps.

enum Mood: String, JSONEnum { case calm, busy, tired }

/// A nested object.
struct Attachment: JSONModel, Equatable {
    var label = ""
    var bytes: Int?
    var unknownFields = JSONObject()
    static let fields: [Field<Self>] = [.required("label", { $0.label }, { $0.label = $1 }), .optional("bytes", { $0.bytes }, { $0.bytes = $1 })]
}

/// A collection kind sharded by year, with a derived value, a reference, a tag and domain rules.
struct Note: CollectionDocument, Equatable {
    static let kind = DocumentKind("test.note", app: .ledger, .collection("notes/items", .year))

    var id = ""
    var text = ""
    var mood = Mood.calm
    var at = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    var pinned = false
    var replyTo: String?
    var attachments: [Attachment] = []
    /// Derived: the number of words in `text`.
    var wordCount = 0
    var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    var unknownFields = JSONObject()

    static let fields: [Field<Self>] = [
        .required("id", { $0.id }, { $0.id = $1 }),
        .required("text", { $0.text }, { $0.text = $1 }),
        .required("mood", { $0.mood }, { $0.mood = $1 }),
        .required("at", { $0.at }, { $0.at = $1 }),
        .defaulted("pinned", { $0.pinned }, { $0.pinned = $1 }, false),
        .optional("replyTo", { $0.replyTo }, { $0.replyTo = $1 }),
        .defaulted("attachments", { $0.attachments }, { $0.attachments = $1 }, []),
        .required("wordCount", { $0.wordCount }, { $0.wordCount = $1 }),
        .required("createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        .required("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
    ]

    var shardDate: LocalDate? { at.local.date }

    func validate() -> [DocumentIssue] {
        text.count > 40 ? [.error(.root.appending("text"), "must be at most 40 characters (found \(text.count))")] : []
    }

    mutating func recomputeDerived() { wordCount = text.split(separator: " ").count }

    var references: [DocumentReference] {
        replyTo.map { [DocumentReference(.root.appending("replyTo"), kind: Note.kind, id: $0)] } ?? []
    }

    var tags: [String] { pinned ? ["pinned"] : [] }

    static func make(_ id: String, _ text: String, at: String = "2026-11-21T10:00:00+01:00", pinned: Bool = false) -> Note {
        var n = Note()
        n.id = id
        n.text = text
        n.at = Timestamp(iso8601: at)!
        n.createdAt = n.at
        n.updatedAt = n.at
        n.pinned = pinned
        n.recomputeDerived()
        return n
    }
}

/// A singleton kind merged field by field.
struct NoteSettings: SingletonDocument, Equatable {
    static let kind = DocumentKind("test.settings", app: .ledger, .singleton("notes/settings.json"))
    var colour = "blue"
    var size = 12
    var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    var unknownFields = JSONObject()
    static let fields: [Field<Self>] = [
        .required("colour", { $0.colour }, { $0.colour = $1 }), .required("size", { $0.size }, { $0.size = $1 }),
        .required("createdAt", { $0.createdAt }, { $0.createdAt = $1 }), .required("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
    ]
    static var defaultValue: NoteSettings { NoteSettings() }
    func validate() -> [DocumentIssue] {
        if size < 1 { return [.error(.root.appending("size"), "must be at least 1")] }
        // A rule spanning two fields, which a field-by-field merge can break.
        if colour == "red", size < 10 { return [.error(.root.appending("size"), "red needs a size of at least 10")] }
        return []
    }
}

enum TestSchema {
    static let onePinned = CrossDocumentRule("one pinned note") { facts in
        let pinned = facts.filter { $0.tags.contains("pinned") }
        guard pinned.count > 1 else { return [] }
        return pinned.map { Problem($0.path, .error(.root.appending("pinned"), "at most one note may be pinned (\(pinned.count) are)")) }
    }

    static let schema = DocumentSchema(
        documentTypes: [DocumentType(LedgerManifest.self), DocumentType(Note.self), DocumentType(NoteSettings.self)],
        attachmentTypes: [AttachmentType(directory: "notes/files", extensions: ["txt"], maximumBytes: 1000) { name, bytes in
            bytes.first == UInt8(ascii: "#") ? [] : [.error(.root, "must start with '#'")]
        }],
        crossDocumentRules: [onePinned])
}
