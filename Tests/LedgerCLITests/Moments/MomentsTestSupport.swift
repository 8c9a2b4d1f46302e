import Foundation
import LedgerKit
import LedgerTestSupport

/// Fixtures for the Moments command tests: ledgers, images, files.
enum MomentsFixture {
    /// The package's root directory.
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// A ledger filled with a copy of sample-data/, its clock at the demo's evening.
    static func sampleLedger(timeZone: String = "Europe/Paris") throws -> TestLedger {
        let ledger = try TestLedger(now: "2026-11-21T23:30:00+01:00", timeZone: timeZone)
        let source = packageRoot + "/sample-data"
        let fm = FileManager.default
        for name in try fm.contentsOfDirectory(atPath: source) where name != ".git" {
            let target = ledger.root + "/" + name
            if fm.fileExists(atPath: target) { try fm.removeItem(atPath: target) }
            try fm.copyItem(atPath: source + "/" + name, toPath: target)
        }
        return ledger
    }

    /// A 1×1 PNG.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
        0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x08, 0xD7, 0x63, 0xF8, 0xCF, 0xC0, 0x00,
        0x00, 0x03, 0x01, 0x01, 0x00, 0x18, 0xDD, 0x8D, 0xB0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E,
        0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    /// The start of a JPEG file: enough to be recognised.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xFF, 0xD9]

    /// Writes a file outside the ledger (in the test's temporary directory) and returns its path.
    static func file(_ ledger: TestLedger, _ name: String, _ bytes: [UInt8]) throws -> String {
        let path = ledger.directory.path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The experience documents of a ledger.
    static func experiences(_ ledger: TestLedger) -> [JSONValue] {
        ledger.files(under: "moments/experiences").compactMap { ledger.document($0) }
    }
}
