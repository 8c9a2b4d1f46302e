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
