/// The capture sentence: `I appreciate [experience] for [moment]` unless the person chose
/// another. It must keep both placeholders (the seed's rule).
public enum SentenceTemplate {
    /// The seed's default sentence.
    public static let defaultText = "I appreciate [experience] for [moment]"
    public static let experiencePlaceholder = "[experience]"
    public static let momentPlaceholder = "[moment]"
    /// The longest template accepted, in characters: a sentence, not a paragraph.
    public static let maximumLength = 200

    /// What is wrong with `text` as a template, one sentence each; empty when it is fine.
    public static func problems(_ text: String) -> [String] {
        [lengthProblem(text), lineProblem(text), placeholderProblem(text)].compactMap { $0 }
    }

    static func lengthProblem(_ text: String) -> String? {
        text.count > maximumLength ? "the template is one sentence of at most \(maximumLength) characters (found \(text.count))" : nil
    }

    static func lineProblem(_ text: String) -> String? {
        text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) ? "the template is one line, without line breaks or tabs" : nil
    }

    static func placeholderProblem(_ text: String) -> String? {
        let absent = [experiencePlaceholder, momentPlaceholder].filter { !text.contains($0) }
        guard !absent.isEmpty else { return nil }
        var message = "the template must contain " + absent.joined(separator: " and ")
        if absent.allSatisfy({ text.lowercased().contains($0) }) {
            message += " (placeholders are written in lowercase)"
        } else {
            message += ", for example \"\(defaultText)\""
        }
        return message
    }

    /// `template` with every `[experience]` and `[moment]` replaced, in one pass (so text
    /// inside a note that looks like a placeholder stays as it is).
    public static func fill(_ template: String, experience: String, moment: String) -> String {
        var out = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "[") {
            out += rest[..<open]
            let tail = rest[open...]
            if tail.hasPrefix(experiencePlaceholder) {
                out += experience
                rest = tail.dropFirst(experiencePlaceholder.count)
            } else if tail.hasPrefix(momentPlaceholder) {
                out += moment
                rest = tail.dropFirst(momentPlaceholder.count)
            } else {
                out += "["
                rest = tail.dropFirst()
            }
        }
        return out + rest
    }

    /// The sentence for `experience` under `template`.
    public static func sentence(_ template: String, for experience: Experience) -> String {
        fill(template, experience: experience.sentencePhrase, moment: experience.momentType.label)
    }
}
