import Foundation

/// One small positive experience: a note, a photo, a link or just a dot, at the moment it
/// happened (`moments/experiences/<YYYY>/<MM>/<id>.json`, sharded by its wall-clock date).
///
/// `timestamp` keeps the UTC offset of where it was recorded, so its hour, day, week,
/// month and year buckets are the same for every reader. `momentType` is the intent given
/// at capture (now, today, this week) and is only a label: buckets come from the timestamp.
public struct Experience: CollectionDocument, Equatable {
    package static let kind = DocumentKind("moments.experience", app: .moments, .collection("moments/experiences", .yearMonth))

    public var id = ""
    /// When the experience happened, with the offset of the place.
    public var timestamp = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    /// The intent given at capture; an open set.
    public var momentType = MomentType.now
    public var experienceType = ExperienceType.note
    /// The note's text, the link's URL, the photo's path in the ledger
    /// (`moments/photos/<sha256>.<ext>`); nil (written `null`) for a dot.
    public var payload: String?
    public var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    package var unknownFields = JSONObject()

    public init() {}

    /// A new experience recorded at `createdAt` (now) for the instant `timestamp`.
    public init(id: String, timestamp: Timestamp, momentType: MomentType, experienceType: ExperienceType,
                payload: String?, createdAt: Timestamp) {
        self.id = id
        self.timestamp = timestamp
        self.momentType = momentType
        self.experienceType = experienceType
        self.payload = payload
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    package static let fields: [Field<Experience>] = [
        .required("id", { $0.id }, { $0.id = $1 }, .documentID(DocumentID.problem)),
        .required("timestamp", { $0.timestamp }, { $0.timestamp = $1 }),
        .required("momentType", { $0.momentType }, { $0.momentType = $1 }),
        .required("experienceType", { $0.experienceType }, { $0.experienceType = $1 }),
        .optional("payload", { $0.payload }, { $0.payload = $1 }, writeNull: true),
        .required("createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        .required("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
    ]

    /// The wall-clock date of `timestamp`: the shard folder and the day bucket.
    public var shardDate: LocalDate? { timestamp.local.date }

    public func validate() -> [DocumentIssue] {
        var issues = Self.ruleIssues(self, at: .root)
        let at = JSONPointer.root.appending("payload")
        switch experienceType {
        case .note:
            if let problem = Self.noteProblem(payload ?? "") { issues.append(.error(at, problem)) }
        case .link:
            if let problem = LinkURL.problem(payload ?? "") { issues.append(.error(at, problem)) }
        case .photo:
            if MomentsPhotos.fileName(fromPayload: payload ?? "") == nil {
                issues.append(.error(at, "a photo's payload is its path in the ledger, \(MomentsPhotos.directory)/<SHA-256 of the file>.<\(ImageFormat.allCases.map(\.fileExtension).joined(separator: "|"))> (found \(payload.map { "\"\($0)\"" } ?? "null"))"))
            }
        case .dot:
            if payload != nil {
                issues.append(.warning(at, "a dot carries no payload; this value is kept but not shown (make it a \"note\" to show it)"))
            }
        }
        if !momentType.isKnown {
            let names = MomentType.known.map(\.rawValue)
            issues.append(.warning(.root.appending("momentType"),
                                   "\"\(momentType.rawValue)\" is a moment this version of ledger does not know (it knows \(names.joined(separator: ", ")))"
                                       + Suggestion.didYouMean(momentType.rawValue, among: names) + "; it is kept and shown as it is"))
        }
        return issues
    }

    /// The longest note, in characters: a few sentences, the size of a moment (a longer text
    /// can be linked to).
    public static let maximumNoteLength = 1000

    /// Why `text` cannot be a note's text, or nil when it can.
    public static func noteProblem(_ text: String) -> String? {
        if text.isBlank { return "a note keeps its text in payload; write the text there, or make it a \"dot\"" }
        let count = text.count
        guard count > maximumNoteLength else { return nil }
        return "a note is at most \(maximumNoteLength) characters, a few sentences (found \(count)); keep the moment short, or link to a longer text"
    }

    /// The photo file this experience shows, checked by `ledger check`.
    package var references: [DocumentReference] {
        guard experienceType == .photo, let name = MomentsPhotos.fileName(fromPayload: payload ?? "") else { return [] }
        return [DocumentReference(.root.appending("payload"), attachment: MomentsPhotos.attachmentType, file: name)]
    }

    /// What fills `[experience]` in the sentence: the note's text, the link, "this photo",
    /// "this moment" for a dot.
    public var sentencePhrase: String {
        switch experienceType {
        case .note: (payload ?? "").trimmingWhitespace(newlines: true)
        case .link: payload ?? ""
        case .photo: "this photo"
        case .dot: "this moment"
        }
    }
}

/// The intent given to an experience at capture: now, today, this week — an open set, as the
/// seed asks, so a value written by a newer version survives, is shown as it is, and draws
/// only a warning from `check`.
public struct MomentType: RawRepresentable, Sendable, Hashable, JSONRepresentable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let now = MomentType(rawValue: "now")
    public static let today = MomentType(rawValue: "today")
    public static let thisWeek = MomentType(rawValue: "thisWeek")
    /// The moments this version captures, in the seed's cycling order.
    public static let known: [MomentType] = [.now, .today, .thisWeek]

    /// Whether this version of ledger knows the value.
    public var isKnown: Bool { Self.known.contains(self) }

    /// The tiny label shown in detail lists and sentences: "now", "today", "this week", or
    /// the stored value itself.
    public var label: String { self == .thisWeek ? "this week" : rawValue }

    /// The moment as a person types it: `now`, `today`, `week` (also `thisWeek`, `this-week`).
    public init?(typed argument: String) {
        switch argument.lowercased() {
        case "now": self = .now
        case "today": self = .today
        case "week", "thisweek", "this-week", "this week": self = .thisWeek
        default: return nil
        }
    }

    public var description: String { rawValue }

    public static var expectation: String { "a moment such as \"now\", \"today\" or \"thisWeek\"" }
    package static var jsonSchema: JSONObject {
        ["type": "string", "pattern": .string(TextPattern.pattern(.notBlank)),
         "examples": .array(known.map { .string($0.rawValue) }), "description": .string(expectation)]
    }

    package static func decode(_ json: JSONValue, at pointer: JSONPointer, issues: inout [DocumentIssue]) -> MomentType? {
        guard case .string(let s) = json else {
            issues.append(.error(pointer, "must be \(expectation) (found \(json.typeDescription))"))
            return nil
        }
        guard !s.isBlank else {
            issues.append(.error(pointer, "must be \(expectation) (found \"\(s)\")"))
            return nil
        }
        return MomentType(rawValue: s)
    }

    package var json: JSONValue { .string(rawValue) }
}

/// What an experience holds (a closed set; the type is shown only in detail lists).
public enum ExperienceType: String, JSONEnum {
    case note, photo, link, dot
}

/// The rule for links: absolute http or https URLs with a host.
public enum LinkURL {
    /// The longest link accepted, in characters.
    public static let maximumLength = 2048

    /// Why `text` is not an acceptable link, or nil when it is.
    public static func problem(_ text: String) -> String? {
        let shown = text.count > 80 ? String(text.prefix(77)) + "…" : text
        let rule = "links are http or https URLs such as https://example.com/page"
        if text.isEmpty { return "\(rule); write the URL in payload" }
        if text.count > maximumLength { return "\(rule) of at most \(maximumLength) characters (found \(text.count))" }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return "\(rule), without spaces or line breaks (found \"\(shown)\")"
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            return "\(rule) (found \"\(shown)\"" + (text.contains("://") ? ")" : "; add https:// in front?)")
        }
        guard scheme == "http" || scheme == "https" else { return "\(rule) (found a \(scheme): URL, \"\(shown)\")" }
        guard let host = components.host, !host.isEmpty else { return "\(rule); \"\(shown)\" names no host" }
        return nil
    }
}

extension String {
    /// Whether the string holds only white space (cheap: stops at the first other character).
    fileprivate var isBlank: Bool { unicodeScalars.allSatisfy(\.properties.isWhitespace) }
}
