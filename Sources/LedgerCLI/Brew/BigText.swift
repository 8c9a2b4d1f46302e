import Foundation

/// The terminal brew's large type, read from a step away: a five-row block font for numbers
/// (the scale reading and the countdown), and a three-row font for the step's words.
enum BigText {
    // MARK: - Numbers: five rows

    static let height = 5

    static let glyphs: [Character: [String]] = [
        "0": [" ███ ", "█   █", "█   █", "█   █", " ███ "],
        "1": ["  █  ", " ██  ", "  █  ", "  █  ", " ███ "],
        "2": [" ███ ", "█   █", "  ██ ", " █   ", "█████"],
        "3": ["████ ", "    █", " ███ ", "    █", "████ "],
        "4": ["█   █", "█   █", "█████", "    █", "    █"],
        "5": ["█████", "█    ", "████ ", "    █", "████ "],
        "6": [" ███ ", "█    ", "████ ", "█   █", " ███ "],
        "7": ["█████", "    █", "   █ ", "  █  ", "  █  "],
        "8": [" ███ ", "█   █", " ███ ", "█   █", " ███ "],
        "9": [" ███ ", "█   █", " ████", "    █", " ███ "],
        ":": [" ", "█", " ", "█", " "],
        ".": [" ", " ", " ", " ", "█"],
        "-": ["   ", "   ", "███", "   ", "   "],
        " ": ["  ", "  ", "  ", "  ", "  "],
    ]

    /// The five rows of `text` (characters without a glyph are left out).
    static func render(_ text: String, unicode: Bool) -> [String] {
        var rows = [String](repeating: "", count: height)
        for c in text {
            guard let g = glyphs[c] else { continue }
            for i in 0..<height { rows[i] += (rows[i].isEmpty ? "" : " ") + g[i] }
        }
        return unicode ? rows : rows.map { $0.replacingOccurrences(of: "█", with: "#") }
    }

    // MARK: - Words: three rows

    /// Rows of one line of words: a 5-pixel-high font drawn with half blocks, two pixel rows
    /// per terminal row (the third row's lower half is the space between lines).
    static let wordHeight = 3

    /// Capitals, digits and punctuation, 3 pixels wide (narrower for some punctuation), 5
    /// high; `#` is a pixel. Lower case is drawn in capitals, accented letters without their
    /// accents.
    static let letters: [Character: [String]] = [
        "A": [".#.", "#.#", "###", "#.#", "#.#"], "B": ["##.", "#.#", "##.", "#.#", "##."],
        "C": [".##", "#..", "#..", "#..", ".##"], "D": ["##.", "#.#", "#.#", "#.#", "##."],
        "E": ["###", "#..", "##.", "#..", "###"], "F": ["###", "#..", "##.", "#..", "#.."],
        "G": [".##", "#..", "#.#", "#.#", ".##"], "H": ["#.#", "#.#", "###", "#.#", "#.#"],
        "I": ["###", ".#.", ".#.", ".#.", "###"], "J": ["..#", "..#", "..#", "#.#", ".#."],
        "K": ["#.#", "#.#", "##.", "#.#", "#.#"], "L": ["#..", "#..", "#..", "#..", "###"],
        "M": ["#.#", "###", "###", "#.#", "#.#"], "N": ["##.", "#.#", "#.#", "#.#", "#.#"],
        "O": [".#.", "#.#", "#.#", "#.#", ".#."], "P": ["##.", "#.#", "##.", "#..", "#.."],
        "Q": [".#.", "#.#", "#.#", "##.", ".##"], "R": ["##.", "#.#", "##.", "#.#", "#.#"],
        "S": [".##", "#..", ".#.", "..#", "##."], "T": ["###", ".#.", ".#.", ".#.", ".#."],
        "U": ["#.#", "#.#", "#.#", "#.#", "###"], "V": ["#.#", "#.#", "#.#", "#.#", ".#."],
        "W": ["#.#", "#.#", "###", "###", "#.#"], "X": ["#.#", "#.#", ".#.", "#.#", "#.#"],
        "Y": ["#.#", "#.#", ".#.", ".#.", ".#."], "Z": ["###", "..#", ".#.", "#..", "###"],
        "0": ["###", "#.#", "#.#", "#.#", "###"], "1": [".#.", "##.", ".#.", ".#.", "###"],
        "2": ["##.", "..#", ".#.", "#..", "###"], "3": ["##.", "..#", ".#.", "..#", "##."],
        "4": ["#.#", "#.#", "###", "..#", "..#"], "5": ["###", "#..", "##.", "..#", "##."],
        "6": [".##", "#..", "###", "#.#", "###"], "7": ["###", "..#", ".#.", ".#.", ".#."],
        "8": ["###", "#.#", "###", "#.#", "###"], "9": ["###", "#.#", "###", "..#", "##."],
        " ": ["..", "..", "..", "..", ".."], ".": [".", ".", ".", ".", "#"], ":": [".", "#", ".", "#", "."],
        ",": ["..", "..", "..", ".#", "#."], ";": ["..", ".#", "..", ".#", "#."], "!": ["#", "#", "#", ".", "#"],
        "'": ["#", "#", ".", ".", "."], "\"": ["#.#", "#.#", "...", "...", "..."], "?": ["##.", "..#", ".#.", "...", ".#."],
        "-": ["...", "...", "###", "...", "..."], "–": ["...", "...", "###", "...", "..."], "—": ["...", "...", "###", "...", "..."],
        "(": [".#", "#.", "#.", "#.", ".#"], ")": ["#.", ".#", ".#", ".#", "#."], "/": ["..#", "..#", ".#.", "#..", "#.."],
        "+": ["...", ".#.", "###", ".#.", "..."], "=": ["...", "###", "...", "###", "..."], "×": ["...", "#.#", ".#.", "#.#", "..."],
        "%": ["#.#", "..#", ".#.", "#..", "#.#"], "&": [".#.", "#.#", ".#.", "#.#", ".##"], "°": [".#.", "#.#", ".#.", "...", "..."],
        "…": [".....", ".....", ".....", ".....", "#.#.#"],
    ]

    /// The glyph of `c` in the word font, if it has one.
    static func letter(_ c: Character) -> [String]? {
        if let g = letters[c] { return g }
        // An accented letter: its base letter (É is E followed by a combining accent).
        let base = String(c).decomposedStringWithCanonicalMapping.unicodeScalars.first.map { String($0).uppercased() } ?? ""
        return base.count == 1 && base != String(c) ? letters[base.first!] : nil
    }

    /// How many columns `word` takes in the word font (a column between letters).
    static func width(_ word: Substring) -> Int {
        word.reduce(-1) { $0 + (letter($1)?[0].count ?? 0) + 1 }
    }

    /// `text` in the word font, wrapped at word boundaries into lines at most `width` columns
    /// wide: `wordHeight` rows per line. Nil when the font cannot draw it within `maxLines`
    /// lines (a character it has no glyph for, a word wider than the line).
    static func words(_ text: String, width: Int, maxLines: Int, unicode: Bool) -> [String]? {
        let upper = text.uppercased()
        guard upper.allSatisfy({ letter($0) != nil }) else { return nil }
        var lines: [[Substring]] = []
        var current: [Substring] = []
        for word in upper.split(separator: " ") {
            guard Self.width(word) <= width else { return nil }
            let candidate = current + [word]
            if !current.isEmpty, Self.width(Substring(candidate.joined(separator: " "))) > width {
                lines.append(current)
                current = [word]
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { lines.append(current) }
        guard !lines.isEmpty, lines.count <= maxLines else { return nil }
        return lines.flatMap { draw($0.joined(separator: " "), unicode: unicode) }
    }

    /// One line in the word font: each terminal row shows two pixel rows as half blocks (on
    /// a terminal that is not UTF-8, `#`, `"` and `_`).
    static func draw(_ line: String, unicode: Bool) -> [String] {
        var pixels = [String](repeating: "", count: 6)
        for (i, c) in line.enumerated() {
            let g = letter(c)!
            for row in 0..<5 { pixels[row] += (i == 0 ? "" : ".") + g[row] }
        }
        pixels[5] = String(repeating: ".", count: pixels[0].count)
        let (full, upper, lower) = unicode ? ("█", "▀", "▄") : ("#", "\"", "_")
        return (0..<wordHeight).map { r in
            let row = zip(pixels[2 * r], pixels[2 * r + 1]).map { top, bottom in
                top == "#" ? (bottom == "#" ? full : upper) : (bottom == "#" ? lower : " ")
            }.joined()
            return String(row.reversed().drop { $0 == " " }.reversed())
        }
    }
}
