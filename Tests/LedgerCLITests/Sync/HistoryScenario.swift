import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// A real history between two devices of one bare remote, made by the apps' own commands: a
/// night out logged on both (a merge that unions entries), a recipe changed on both (a fork
/// into a conflicted copy), a reminder confirmed, a hand edit, and a commit of plain git.
///
/// `laptop` (a) publishes the ledger; `phone` (b) clones it. After `build()` both are in step,
/// the phone's last sync being the merge.
struct HistoryScenario {
    let fixture: SyncFixture
    let a: TestLedger
    let b: TestLedger

    static func at(_ time: String, day: String = "2026-11-21") -> [String: String] { ["LEDGER_NOW": "\(day)T\(time)+01:00"] }

    init() throws {
        fixture = try SyncFixture()
        a = try fixture.origin()
        try Self.name(a, "laptop")
        b = try fixture.clone()
        try Self.name(b, "phone")
    }

    static func name(_ l: TestLedger, _ name: String) throws {
        try FileSystem.writeAtomically(l.root + "/.git/ledger/device.json", Array("{\"id\": \"\(name)-id\", \"name\": \"\(name)\"}".utf8))
    }

    static func ok(_ r: CommandResult, _ what: String = "") {
        #expect(r.status == 0, "\(what) \(r)")
    }

    /// The shared part: a session with a beer, the recipe "Morning V60" (the V60 starter's 15 g
    /// for 250 g), synced to both devices.
    func start() throws {
        Self.ok(a.run("waterline", "start", env: Self.at("21:00:00")))
        Self.ok(a.run("waterline", "drink", "--preset", "beer", env: Self.at("21:10:00")))
        Self.ok(a.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Morning V60", env: Self.at("21:12:00")))
        Self.ok(a.run("sync"))
        Self.ok(b.run("sync"))
    }

    /// Offline on both: drinks and water on both devices, the recipe's dose changed differently
    /// on each (18 g on the laptop, 16 g on the phone), a reminder confirmed on the phone. The
    /// laptop syncs first; the phone's sync is the merge.
    func divergeAndMerge() throws {
        Self.ok(a.run("waterline", "drink", "--preset", "beer", env: Self.at("21:40:00")))
        Self.ok(a.run("brew", "recipe", "edit", "Morning V60", "--dose", "18", env: Self.at("21:41:00")))
        Self.ok(b.run("waterline", "water", env: Self.at("21:20:00")))
        Self.ok(b.run("waterline", "drink", "--preset", "double", env: Self.at("21:50:00")))
        Self.ok(b.run("brew", "recipe", "edit", "Morning V60", "--dose", "16", env: Self.at("21:51:00")))
        Self.ok(b.run("hydrate", "drank", "--slot", "11:00", env: Self.at("11:04:00")))
        Self.ok(a.run("sync"))
        Self.ok(b.run("sync"))
    }

    func build() throws {
        try start()
        try divergeAndMerge()
        Self.ok(a.run("sync"))
    }

    /// The recipe "Morning V60"'s path.
    func recipePath(_ l: TestLedger) -> String {
        l.files(under: "brew/recipes").first { l.document($0)?["name"]?.stringValue == "Morning V60" } ?? ""
    }

    /// The only session's path.
    func sessionPath(_ l: TestLedger) -> String {
        l.files(under: "waterline/sessions").first ?? ""
    }
}

extension TestLedger {
    /// `git rev-parse REV` in this ledger.
    func revParse(_ rev: String) throws -> String {
        try GitCLI.run(["rev-parse", rev], in: root).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every file of `path` (a directory), by its path relative to it, with a digest of its
    /// bytes and its mode: equal exactly when nothing in it changed, byte for byte.
    static func digestTree(_ path: String) throws -> [String: String] {
        var out: [String: String] = [:]
        guard let e = FileManager.default.enumerator(atPath: path) else { return out }
        while let p = e.nextObject() as? String {
            let full = path + "/" + p
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: full) else { continue }
            let mode = (attributes[.posixPermissions] as? Int) ?? 0
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                out[p] = "dir \(mode)"
            } else if attributes[.type] as? FileAttributeType == .typeSymbolicLink {
                out[p] = "link " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "")
            } else {
                out[p] = "\(mode) " + ObjectID.blob(hashing: Array(try Data(contentsOf: URL(fileURLWithPath: full)))).description
            }
        }
        return out
    }
}
