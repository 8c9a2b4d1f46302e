import Foundation
@testable import LedgerKit
import Testing

/// A document's id from its file name: what NSString's path methods give, without them.
@Suite struct FileStemTests {
    @Test(arguments: [
        "moments/experiences/2026/11/6b0f3c2a1d.json", "x1.json", "brew/logs/2026/abc.def.json",
        "waterline/sessions/2026/.hidden", "a/b/noext", "café/été.json", "a.b/c", "", ".json", "a/.json",
    ])
    func stemIsNSStringsLastComponentWithoutExtension(path: String) {
        let expected = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        #expect(FileSystem.stem(path) == expected)
    }
}

/// Blanks trimmed as Foundation's character sets trim them.
@Suite struct WhitespaceTests {
    @Test func trimmingAgreesWithFoundation() {
        let samples = [
            "", " ", "\t a b \t", "\n x \r\n", " \u{00A0}x\u{2003}", "\u{2028}x\u{2029}", "\u{85}x\u{0B}\u{0C}",
            "  \u{301}e ", "caf\u{E9} ", "\u{3000}全角\u{3000}", "x", "\u{1F37A} beer \u{1F37A}", "\u{200B}x\u{200B}",
        ]
        for s in samples {
            #expect(s.trimmingWhitespace() == s.trimmingCharacters(in: .whitespaces), "\(s.unicodeScalars.map { $0.value })")
            #expect(s.trimmingWhitespace(newlines: true) == s.trimmingCharacters(in: .whitespacesAndNewlines), "\(s.unicodeScalars.map { $0.value })")
            #expect(Substring(s).trimmingWhitespace() == s.trimmingCharacters(in: .whitespaces))
        }
        // Every scalar of the Basic Multilingual Plane, alone between two letters and around one.
        for v in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(v) else { continue }
            let s = String(scalar) + "a" + String(scalar)
            #expect(s.trimmingWhitespace() == s.trimmingCharacters(in: .whitespaces), "U+\(String(v, radix: 16))")
            #expect(s.trimmingWhitespace(newlines: true) == s.trimmingCharacters(in: .whitespacesAndNewlines), "U+\(String(v, radix: 16))")
        }
    }
}
