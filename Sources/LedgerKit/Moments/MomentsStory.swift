/// How DotLife Moments tells the changes of its documents: "moment of Sat 21 Nov 15:42 — added: “coffee with Sam”".
extension Experience: NarratedDocument {
    package var subject: String { "moment of \(StoryWords.day(timestamp.local.date)) \(StoryWords.clock(timestamp))" }

    package static var fieldWords: [String: FieldWords] { ["payload": FieldWords("content"), "momentType": FieldWords("moment")] }

    package static func events(from old: Experience?, to new: Experience) -> [String] {
        guard old == nil else { return [] }
        switch new.experienceType {
        case .note: return ["added: “\(new.payload ?? "")”"]
        case .link: return ["link added: \(new.payload ?? "")"]
        case .photo: return ["photo added"]
        case .dot: return ["dot added"]
        }
    }
}

extension MomentsSettings: NarratedDocument {
    package var subject: String { "sentence template" }

    package static var fieldWords: [String: FieldWords] { ["sentenceTemplate": FieldWords("template")] }
}
