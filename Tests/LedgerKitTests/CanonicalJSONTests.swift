import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

@Suite struct CanonicalJSONTests {
    let sample: JSONValue = .object([
        "zeta": .array([.number(1), .number(2.5), .array([]), .object([:])]),
        "alpha": .string("quote \" backslash \\ newline \n tab \t bell \u{07} é 😀"),
        "Beta": .object(["b": .null, "a": .bool(true)]),
        "n": .number(-0.001), "big": .number(1e21), "int": .number(42),
    ])

    @Test func writesSortedTwoSpaceOneElementPerLineWithFinalNewline() {
        #expect(CanonicalJSON.string(.object(["b": .array([.number(1), .number(2)]), "a": .object([:]), "c": .array([])])) == """
            {
              "a": {},
              "b": [
                1,
                2
              ],
              "c": []
            }

            """)
    }

    @Test func roundTripsThroughTheParser() throws {
        let text = CanonicalJSON.string(sample)
        #expect(try JSONParser.parse(text) == sample)
        #expect(CanonicalJSON.string(try JSONParser.parse(text)) == text)
    }

    @Test func matchesPythonJsonDumpsExceptForIntegralNumbers() throws {
        // The documented equivalence: json.dumps(v, indent=2, sort_keys=True, ensure_ascii=False).
        let text = CanonicalJSON.string(sample)
        let script = "import json,sys; v=json.load(sys.stdin); sys.stdout.write(json.dumps(v, indent=2, sort_keys=True, ensure_ascii=False) + '\\n')"
        let python = try Processes.run("/usr/bin/env", ["python3", "-c", script], stdin: text).stdout
        #expect(python == text)
    }

    /// Integers beyond 2^53: one a double holds exactly is written back digit for digit, as
    /// Python writes it; one it cannot hold is refused where it stands (a rewrite would change
    /// it: 12345678901234567 read as 12345678901234568), never altered.
    @Test func largeIntegersAreKeptDigitForDigitOrRefused() throws {
        let text = "{\n  \"barcode\": 12345678901234568,\n  \"big\": -9007199254740992,\n  \"max\": 9223372036854774784\n}\n"
        #expect(CanonicalJSON.string(try JSONParser.parse(text)) == text)
        let script = "import json,sys; v=json.load(sys.stdin); sys.stdout.write(json.dumps(v, indent=2, sort_keys=True) + '\\n')"
        #expect(try Processes.run("/usr/bin/env", ["python3", "-c", script], stdin: text).stdout == text)
        #expect(CanonicalJSON.formatNumber(9007199254740992.0) == "9007199254740992")
        for literal in ["12345678901234567", "-9007199254740993", "123456789012345678901"] {
            do {
                _ = try JSONParser.parse("{\"barcode\": \(literal)}")
                Issue.record("\(literal) was taken")
            } catch {
                #expect(error.column == 13 && error.message.contains("number \(literal) is too large to be kept exactly") && error.message.contains("\"\(literal)\""), "\(error.message)")
            }
        }
        #expect(try JSONParser.parse("[1234567890123456.5, 1e300, 0.1]") == .array([.number(1234567890123456.5), .number(1e300), .number(0.1)]))
    }

    @Test func nonFiniteNumbersAreNeverWrittenAsInvalidJSON() throws {
        let value = JSONValue.object(["ratio": .number(.nan), "dose": .number(.infinity), "low": .number(-.infinity), "ok": .number(1.5)])
        let text = CanonicalJSON.string(value)
        #expect(!text.contains("nan") && !text.contains("inf"))
        let parsed = try JSONParser.parse(Array(text.utf8))
        #expect(parsed == .object(["ratio": .null, "dose": .null, "low": .null, "ok": .number(1.5)]))
        #expect(CanonicalJSON.compact(.array([.number(.nan)])) == "[null]")
    }

    @Test func numbers() {
        #expect(CanonicalJSON.formatNumber(2.0) == "2")
        #expect(CanonicalJSON.formatNumber(-0.5) == "-0.5")
        #expect(CanonicalJSON.formatNumber(0.1) == "0.1")
        #expect(CanonicalJSON.formatNumber(1e21) == "1e+21")
    }
}
