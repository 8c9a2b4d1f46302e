/// One problem found in a document: where (a JSON pointer), how bad, and what to do.
///
/// Domain validation reports problems as values, never by throwing, so that the checker
/// can report every problem of every document at once.
public struct DocumentIssue: Sendable, Hashable {
    /// Whether the problem makes the document unusable.
    public enum Severity: String, Sendable, Hashable, Comparable {
        case error, warning

        public static func < (a: Severity, b: Severity) -> Bool { a == .error && b == .warning }
    }

    /// Where in the document; the root for problems with the whole file.
    public var pointer: JSONPointer
    public var severity: Severity
    /// One sentence a user can act on, with the step it suggests as a value.
    public var sentence: LedgerError.Sentence
    /// The sentence in an app's words.
    public var message: String {
        get { sentence.description }
        set { sentence = LedgerError.Sentence(newValue) }
    }
    /// Whether the checker's fix repairs it without guessing.
    public var fixable: Bool
    /// 1-based line of a syntax error (which has no pointer).
    public var line: Int?
    /// 1-based column (in Unicode scalars) of a syntax error.
    public var column: Int?

    public init(_ severity: Severity, _ pointer: JSONPointer, _ sentence: LedgerError.Sentence, fixable: Bool = false) {
        self.severity = severity
        self.pointer = pointer
        self.sentence = sentence
        self.fixable = fixable
    }

    public init(_ severity: Severity, _ pointer: JSONPointer, _ message: String, fixable: Bool = false) {
        self.init(severity, pointer, LedgerError.Sentence(message), fixable: fixable)
    }

    /// A syntax error, at its line and column, as every command reports it.
    package init(syntax error: JSONSyntaxError, fixable: Bool = false) {
        self.init(.error, .root, error.message, fixable: fixable)
        (line, column) = (error.line, error.column)
    }

    /// An error at `pointer`.
    public static func error(_ pointer: JSONPointer, _ message: String, fixable: Bool = false) -> DocumentIssue {
        DocumentIssue(.error, pointer, message, fixable: fixable)
    }

    /// An error at `pointer` whose sentence suggests a step.
    public static func error(_ pointer: JSONPointer, _ sentence: LedgerError.Sentence, fixable: Bool = false) -> DocumentIssue {
        DocumentIssue(.error, pointer, sentence, fixable: fixable)
    }

    /// A warning at `pointer`.
    public static func warning(_ pointer: JSONPointer, _ message: String, fixable: Bool = false) -> DocumentIssue {
        DocumentIssue(.warning, pointer, message, fixable: fixable)
    }

    /// A warning at `pointer` whose sentence suggests a step.
    public static func warning(_ pointer: JSONPointer, _ sentence: LedgerError.Sentence, fixable: Bool = false) -> DocumentIssue {
        DocumentIssue(.warning, pointer, sentence, fixable: fixable)
    }
}

extension Array where Element == DocumentIssue {
    /// Whether any of the issues is an error.
    public var hasErrors: Bool { contains { $0.severity == .error } }
}

/// Suggestions for misspelt names ("did you mean …?").
package enum Suggestion {
    /// The candidate closest to `word` (case-insensitive edit distance), when it is close
    /// enough to be a plausible typo: at most 2 edits, or a third of the word for long ones.
    package static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let candidates = Array(candidates)
        let w = Array(word.lowercased().unicodeScalars)
        var best: (String, Int)?
        for c in candidates {
            let d = distance(w, Array(c.lowercased().unicodeScalars))
            if d < (best?.1 ?? .max) { best = (c, d) }
        }
        guard let (c, d) = best else { return nil }
        if d <= max(2, w.count / 3) && d < max(w.count, 1) { return c }
        // A word of a hyphenated name (`sour` for `too-sour`), when only one has it.
        let holding = candidates.filter { $0.lowercased().split(separator: "-").contains { $0.unicodeScalars.elementsEqual(w) } }
        return holding.count == 1 ? holding[0] : nil
    }

    /// " (did you mean 'x'?)" or "".
    package static func didYouMean(_ word: String, among candidates: some Sequence<String>) -> String {
        closest(to: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// " (did you mean 'x'?)" among names made of dotted parts (`waterline.session`): the name
    /// closest to `word`, else the names that have a part close to it (`session`; `moment`,
    /// for each kind of `moments`), when they are at most three; or "".
    package static func didYouMean(_ word: String, amongDotted names: [String]) -> String {
        if let near = closest(to: word, among: names) { return " (did you mean '\(near)'?)" }
        let byPart = names.filter { $0.split(separator: ".").contains { closest(to: word, among: [String($0)]) != nil } }
        guard !byPart.isEmpty, byPart.count <= 3 else { return "" }
        return " (did you mean " + byPart.map { "'\($0)'" }.joined(separator: " or ") + "?)"
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev2 = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                cur[j] = Swift.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    cur[j] = Swift.min(cur[j], prev2[j - 2] + 1)
                }
            }
            (prev2, prev, cur) = (prev, cur, prev2)
        }
        return prev[b.count]
    }
}
