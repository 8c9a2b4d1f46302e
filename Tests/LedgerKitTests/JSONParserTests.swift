import LedgerKit
import Testing

@Suite struct JSONParserTests {
    @Test func parsesEveryValueKind() throws {
        let v = try JSONParser.parse(#"{"b": [1, -2.5, 3e2, true, false, null], "a": "x\u00e9\n\ud83d\ude00"}"#)
        #expect(v["a"] == .string("xé\n😀"))
        #expect(v["b"] == .array([.number(1), .number(-2.5), .number(300), .bool(true), .bool(false), .null]))
    }

    @Test(arguments: [
        ("{\"a\": 1", 1, 8, "unexpected end of file"),
        ("{\"a\": 1,}", 1, 8, "a comma before '}': JSON allows no trailing comma"),
        ("[1, 2,\n]", 1, 6, "a comma before ']': JSON allows no trailing comma"),
        ("{\"a\": 1, 2}", 1, 10, "expected a member name"),
        ("[1 2]", 1, 4, "expected ',' or ']'"),
        ("{\"a\": 01}", 1, 7, "leading zeros"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate member name \"a\""),
        ("\u{FEFF}{}", 1, 1, "byte order mark"),
        ("{}\n x", 2, 2, "after the end of the JSON value"),
        ("{\"a\": \"tab\there\"}", 1, 11, "control character"),
        ("", 1, 1, "empty"),
        // The slips of a hand edit in the syntax of JSON's neighbours: named, with what JSON takes.
        ("{\"a\": 1, // note\n\"b\": 2}", 1, 10, "a comment ('//'): JSON allows no comments; remove it"),
        ("{\"a\": 1 /* note */}", 1, 9, "a comment ('/*'): JSON allows no comments"),
        ("# settings\n{}", 1, 1, "a comment ('#'): JSON allows no comments"),
        ("[1, 2] // done", 1, 8, "a comment ('//')"),
        ("{'a': 1}", 1, 2, "a single quote ('): JSON strings and member names take double quotes (\")"),
        ("{\"a\": \u{201C}oz\u{201D}}", 1, 7, "a typographic quote (\u{201C}): JSON strings and member names take the straight double quote (\")"),
        ("{units: \"oz\"}", 1, 2, "units: a member name takes double quotes (\"units\")"),
        ("{\"units\": oz}", 1, 11, "oz: a string takes double quotes (\"oz\")"),
        ("[True]", 1, 2, "True: JSON writes true, false and null in lower case"),
        ("[None]", 1, 2, "None: JSON writes null"),
        ("[NaN]", 1, 2, "NaN: JSON has no NaN or Infinity"),
        ("[undefined]", 1, 2, "undefined: JSON has none; write null, or leave the member out"),
        ("[+2]", 1, 2, "a '+' sign: JSON numbers take none"),
        ("[.5]", 1, 2, "JSON numbers start with a digit (0.5, not .5)"),
        ("[1 x]", 1, 4, "unexpected 'x'; expected ',' or ']'"),
        // A count typed with too many digits is no string to quote: no field of ledger's takes it.
        ("{\"waterEveryNDrinks\": 99999999999999999999999}", 1, 23, "no field of ledger's takes a number this large; in a field of your own, write it as a string"),
    ])
    func reportsWhereAndWhy(text: String, line: Int, column: Int, message: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.line == line)
            #expect(error.column == column)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func refusesInvalidUTF8InStrings() {
        let bytes: [UInt8] = Array("{\"a\": \"ok".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(bytes) }
    }

    @Test func refusesDeepNestingWithoutCrashing() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        do {
            _ = try JSONParser.parse(deep)
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("nesting is deeper than \(JSONParser.maximumDepth) levels"))
        }
    }
}
