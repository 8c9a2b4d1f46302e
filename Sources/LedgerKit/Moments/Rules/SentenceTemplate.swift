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
        var out: [String] = []
        if text.count > maximumLength {
            out.append("the template is one sentence of at most \(maximumLength) characters (found \(text.count))")
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            out.append("the template is one line, without line breaks or tabs")
        }
        let absent = [experiencePlaceholder, momentPlaceholder].filter { !text.contains($0) }
        if !absent.isEmpty {
            var message = "the template must contain " + absent.joined(separator: " and ")
            if absent.allSatisfy({ text.lowercased().contains($0) }) {
                message += " (placeholders are written in lowercase)"
            } else {
                message += ", for example \"\(defaultText)\""
            }
            out.append(message)
        }
        return out
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
