import Foundation

/// `moments/settings.json`: the sentence shown after each capture.
public struct MomentsSettings: SingletonDocument, Equatable {
    package static let kind = DocumentKind("moments.settings", app: .moments, .singleton("moments/settings.json"))

    /// The sentence, with `[experience]` and `[moment]` placeholders.
    public var sentenceTemplate = SentenceTemplate.defaultText
    public var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    package var unknownFields = JSONObject()

    public init() {}

    /// Default settings created at `now`.
    public init(createdAt now: Timestamp) {
        createdAt = now
        updatedAt = now
    }

    package static let fields: [Field<MomentsSettings>] = [
        .defaulted("sentenceTemplate", { $0.sentenceTemplate }, { $0.sentenceTemplate = $1 }, SentenceTemplate.defaultText,
                   .text([], maxLength: SentenceTemplate.maximumLength, SentenceTemplate.lengthProblem),
                   .text(.oneLine, SentenceTemplate.lineProblem),
                   ValueRule(schema: {
                       ["allOf": .array([SentenceTemplate.experiencePlaceholder, SentenceTemplate.momentPlaceholder].map {
                           .object(["pattern": .string(NSRegularExpression.escapedPattern(for: $0))])
                       })]
                   }, problem: SentenceTemplate.placeholderProblem)),
        .required("createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        .required("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
    ]

    public static var defaultValue: MomentsSettings { MomentsSettings() }


}
