import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `check --fix` never writes a file `check` would reject, and names a moved file by its new path.
@Suite struct CheckFixSafetyTests {
    /// A valid Water Reminder day, compact, with `extra` members of its own.
    static func day(_ id: String, extra: String = "") -> String {
        "{\"completed\":0,\"confirmations\":[],\"createdAt\":\"\(id)T09:00:00+01:00\",\"id\":\"\(id)\",\(extra)"
            + "\"schedule\":{\"endTime\":\"21:00\",\"followUpIntervalMinutes\":20,\"intervalMinutes\":90,\"startTime\":\"09:00\"},"
            + "\"timeZone\":\"Europe/Paris\",\"total\":8,\"updatedAt\":\"\(id)T09:00:00+01:00\"}"
    }

    /// A 4.18 MB compact day file: under the 4 MiB limit as it is, well over it in canonical
    /// form (one array element per line).
    @Test func aFixThatWouldBreakTheSizeLimitLeavesTheFileAndSaysSo() throws {
        let ledger = try TestLedger()
        let numbers = Array(repeating: "1234567", count: 523_000).joined(separator: ",")
        let text = Self.day("2026-11-20", extra: "\"imported\":[\(numbers)],")
        #expect(text.utf8.count > 4_180_000 && text.utf8.count < LedgerStore.maximumDocumentBytes)
        let path = "hydrate/days/2026/2026-11-20.json"
        try ledger.write(path, text)
        let check = ledger.run("check", path)
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout.contains("\(path): /: warning: cannot be fixed: rewritten as ledger writes documents it would be 6."), "\(check)")
        #expect(!check.stdout.contains("fixable with"), "\(check)")
        let fix = ledger.run("check", "--fix")
        #expect(fix.status == 0, "\(fix)")
        #expect(!fix.stdout.contains("fixed \(path)"), "\(fix)")
        #expect(fix.stdout.contains("larger than the 4.0 MiB a ledger document may be, so `ledger check --fix` leaves it as it is"), "\(fix)")
        #expect(ledger.read(path) == text)
        // What check passed before --fix, it passes after; the app reads it.
        #expect(ledger.run("check").status == 0)
        #expect(ledger.run("hydrate", "plan", "--date", "2026-11-20").status == 0)
    }

    /// A file `check` rejects is left exactly as it is: not reformatted, not moved.
    @Test(arguments: [
        ("hydrate/days/2026/2026-11-20.json", "[1,2]\n", "must be an object (found an array)"),
        ("hydrate/days/2025/2026-11-20.json", CheckFixSafetyTests.day("2026-11-21"), "does not match the file name"),
    ])
    func aFileCheckRejectsIsNotRewritten(_ path: String, _ text: String, _ error: String) throws {
        let ledger = try TestLedger()
        try ledger.write(path, text)
        let check = ledger.run("check", "--json", path)
        #expect(check.status == 1, "\(check)")
        let problems = check.json["problems"]?.arrayValue ?? []
        #expect(problems.contains { $0["message"]?.stringValue?.contains(error) == true }, "\(check)")
        #expect(problems.contains { $0["message"]?.stringValue?.contains("not fixed while this file has an error") == true }, "\(check)")
        #expect(!problems.contains { $0["fixable"] == .bool(true) }, "\(check)")
        let fix = ledger.run("check", "--fix")
        #expect(fix.status == 1, "\(fix)")
        #expect(!fix.stdout.contains("fixed \(path)"), "\(fix)")
        #expect(ledger.read(path) == text)
        #expect(ledger.run("check").status == 1)
    }

    @Test func afterAMoveTheRemainingProblemsNameTheNewPath() throws {
        let ledger = try TestLedger()
        let old = "hydrate/days/2025/2026-11-20.json", new = "hydrate/days/2026/2026-11-20.json"
        try ledger.write(old, Self.day("2026-11-20", extra: "\"mine\":1,"))
        let r = ledger.run("check", "--fix")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("fixed \(old): /: warning: is in the wrong directory: by its date it belongs at \(new)"), "\(r)")
        #expect(r.stdout.contains("\(new): /mine: warning: unknown field \"mine\""), "\(r)")
        #expect(!r.stdout.contains("\(old): /mine"), "\(r)")
        #expect(ledger.read(old) == nil && ledger.read(new) != nil)

        // The same for a scoped check of the old path, in JSON.
        try ledger.write(old, try #require(ledger.read(new)))
        try ledger.remove(new)
        let scoped = ledger.run("check", "--fix", "--json", old)
        let problems = scoped.json["problems"]?.arrayValue ?? []
        #expect(problems.compactMap { $0["path"]?.stringValue } == [new], "\(scoped)")
    }
}
