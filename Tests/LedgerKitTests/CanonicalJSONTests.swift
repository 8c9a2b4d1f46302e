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
