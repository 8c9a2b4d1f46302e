import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// SPEC §6 for DotLife Moments: moments are append-only (union, duplicates allowed) and photos,
/// content-addressed, travel with them.
@Suite struct MomentsSyncTests {
    static func at(_ time: String) -> [String: String] { ["LEDGER_NOW": "2026-11-21T\(time)+01:00"] }

    /// A 1×1 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!

    @Test func momentsAddedOnTwoMachinesAreUnionedWithTheirPhotos() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let b = try fixture.clone()
        let photo = fixture.directory.url("sunset.png")
        try Self.png.write(to: URL(fileURLWithPath: photo))
        #expect(a.run("moments", "add", "coffee with Sam", env: Self.at("09:00:00")).status == 0)
        #expect(a.run("moments", "add", "--photo", photo, env: Self.at("18:00:00")).status == 0)
        // The same words on both machines: two moments (duplicates are allowed).
        #expect(a.run("moments", "add", "tea", env: Self.at("16:00:00")).status == 0)
        #expect(b.run("moments", "add", "tea", env: Self.at("16:05:00")).status == 0)
        #expect(b.run("moments", "add", "--dot", env: Self.at("20:00:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let r = b.run("sync", "--json")
        #expect(r.status == 0, "\(r)")
        #expect(a.run("sync").status == 0)
        #expect(try a.headTree() == b.headTree())
        for l in [a, b] {
            #expect(l.files(under: "moments/experiences").count == 5)
            #expect(l.files(under: "moments/photos").count == 1)
            let check = l.run("check", "--json")
            #expect(check.status == 0 && check.json["warnings"] == .number(0), "\(check)")
            let today = l.run("moments", "today", "--json").json
            let total = today["buckets"]?.arrayValue?.compactMap { $0["count"] }.reduce(0.0) { sum, c in
                if case .number(let n) = c { return sum + n }
                return sum
            }
            #expect(total == 5)
        }
    }
}
