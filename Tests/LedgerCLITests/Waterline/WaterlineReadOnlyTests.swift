import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// Read commands on a ledger that cannot be written (a mounted backup, a read-only USB disk):
/// they work without the writer lock, as git's own read commands do on the same copy.
@Suite(.enabled(if: TmpfsCopy.possible, "mounting a tmpfs read-only needs root with CAP_SYS_ADMIN; this machine does not allow it"))
struct WaterlineReadOnlyTests {
    static let now = ["LEDGER_NOW": "2026-11-21T22:30:00+01:00"]

    /// A ledger with an ended night and an active one.
    func ledger() throws -> TestLedger {
        let ledger = try TestLedger()
        for (time, args) in [("21:00", ["start", "--time", "20:00"]), ("21:00", ["drink", "--time", "20:30"]), ("21:00", ["end", "--yes"]),
                             ("22:00", ["start"]), ("22:10", ["drink"]), ("22:20", ["water"])] {
            let r = ledger.run(arguments: ["waterline"] + args, env: ["LEDGER_NOW": "2026-11-21T\(time):00+01:00"])
            #expect(r.status == 0, "\(args): \(r)")
        }
        #expect(try GitCLI.run(["add", "-A"], in: ledger.root).status == 0)
        #expect(try GitCLI.run(["commit", "-q", "-m", "tonight"], in: ledger.root).status == 0)
        return ledger
    }

    /// `ledger …` on the read-only copy.
    func run(_ ledger: TestLedger, _ copy: TmpfsCopy, _ args: String...) -> CommandResult {
        ledger.run(arguments: args, env: Self.now.merging(["LEDGER_REPO": copy.path]) { $1 })
    }

    @Test(arguments: [false, true])
    func readCommandsWorkWithoutTheLock(keepLocalState: Bool) throws {
        let ledger = try ledger()
        // A fresh copy has no device-local state at all (no hint, no lock file); a copy of a
        // ledger in use has both: the lock file then exists but cannot be opened for writing.
        let copy = try TmpfsCopy(copying: ledger.root) { path in
            if !keepLocalState { try FileManager.default.removeItem(atPath: path + "/.git/ledger") }
        }
        defer { copy.unmount() }
        #expect(FileManager.default.createFile(atPath: copy.path + "/probe", contents: nil) == false, "the copy is read-only")
        // Plain git reads it.
        #expect(try GitCLI.run(["log", "--oneline"], in: copy.path).status == 0)
        let status = run(ledger, copy, "waterline", "status", "--json")
        #expect(status.status == 0, "\(status)")
        #expect(status.json["totalAlcoholCount"] == .number(1) && status.json["totalWaterCount"] == .number(1))
        #expect(status.stderr.isEmpty, "nothing alarming: \(status.stderr)")
        #expect(run(ledger, copy, "waterline", "status").stdout.contains("Waterline 0.0"))
        for args in [["waterline", "sessions"], ["waterline", "sessions", "--all", "--json"], ["waterline", "entries"], ["waterline", "summary"],
                     ["waterline", "reminders"], ["waterline", "presets"], ["waterline", "settings"]] {
            let r = ledger.run(arguments: args, env: Self.now.merging(["LEDGER_REPO": copy.path]) { $1 })
            #expect(r.status == 0 && r.stderr.isEmpty, "\(args): \(r)")
        }
        #expect(run(ledger, copy, "waterline", "sessions", "--json").json.arrayValue?.count == 2)
        let overall = run(ledger, copy, "status")
        #expect(overall.status == 0, "\(overall)")
        #expect(overall.stdout.contains("Waterline       session"), "\(overall)")
        // Writing is refused, and says why.
        let drink = run(ledger, copy, "waterline", "drink")
        #expect(drink.status == 4 && drink.stderr.contains("is on a read-only file system"), "\(drink)")
    }
}
