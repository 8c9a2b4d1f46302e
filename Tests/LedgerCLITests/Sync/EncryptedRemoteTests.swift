import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// An encrypted remote through git-remote-gcrypt (`gcrypt::<path>`), with a throwaway GnuPG key:
/// `ledger init --remote`, `ledger clone`, changes both ways, a recipe fork; the remote holds no
/// plaintext, and plain `git clone`/`git pull` of the same remote read the same tree.
@Suite struct EncryptedRemoteTests {
    static func at(_ time: String) -> [String: String] { ["LEDGER_NOW": "2026-11-21T\(time)+01:00"] }
    static let note = "dinner with Sam at the harbour"
    static let walk = "a walk by the sea"

    /// A new device: a ledger directory whose commands see the GnuPG home.
    func device(_ gnupg: GnuPGHome) throws -> TestLedger {
        let ledger = try TestLedger(initialize: false)
        ledger.environment.merge(gnupg.environment) { $1 }
        return ledger
    }

    /// `git ls-tree -r HEAD` of a plain clone, as path → blob id.
    func tree(_ repository: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for line in try GitCLI.run(["ls-tree", "-r", "HEAD"], in: repository).stdout.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { out[String(parts[1])] = String(parts[0].split(separator: " ")[2]) }
        }
        return out
    }

    /// Nothing of the ledger can be read in the remote: no note, no file name, no field, no commit message.
    func expectNothingReadable(in remote: String, _ secrets: [String]) throws {
        let stored = try GitCLI.everythingStored(in: remote)
        #expect(stored.count > 1000)
        for secret in secrets + ["moments/experiences", "waterline/settings", "createdAt", "ledger sync on", "Device:"] {
            #expect(!stored.contains(secret), "the remote holds \"\(secret)\" in clear")
        }
    }

    @Test func aLedgerSyncsThroughGcryptAndTheRemoteHoldsOnlyCiphertext() throws {
        _ = try Processes.require("git-remote-gcrypt", package: "git-remote-gcrypt")
        let gnupg = try GnuPGHome()
        let fixture = try SyncFixture()
        let url = "gcrypt::" + fixture.remote

        // The first device publishes its ledger.
        let a = try device(gnupg)
        let made = a.run("init", "--remote", url)
        #expect(made.status == 0, "\(made)")
        #expect(a.run("moments", "add", Self.note, env: Self.at("20:00:00")).status == 0)
        let first = a.run("sync", "--json")
        #expect(first.status == 0, "\(first)")
        #expect(first.json["outcome"] == .string("synced") && first.json["url"] == .string(url))
        #expect(first.json["pushed"]?.arrayValue?.isEmpty == false)
        try expectNothingReadable(in: fixture.remote, [Self.note])
        #expect(a.run("sync", "--json").json["outcome"] == .string("up-to-date"))

        // Plain git reads the same tree from the same remote.
        let plain = fixture.directory.path + "/plain"
        let cloned = try GitCLI.run(["clone", "-q", "-b", "main", url, plain], in: "/", environment: gnupg.environment)
        #expect(cloned.status == 0, "\(cloned)")
        #expect(try tree(plain) == a.headTree())

        // A second device clones it and reads the moment.
        let b = try device(gnupg)
        let clone = b.run("clone", url, b.root)
        #expect(clone.status == 0, "\(clone)")
        #expect(try b.headTree() == a.headTree())
        let moment = try #require(b.files(under: "moments/experiences").first)
        #expect(b.read(moment)?.contains(Self.note) == true)
        #expect(b.run("status", "--json").json["sync"]?["unsupported"] == .array([]))

        // A recipe changed differently on both devices, a moment added on one: both survive.
        let id = a.run("brew", "recipe", "duplicate", "v60-starter", "--name", "Sunday", env: Self.at("21:00:00")).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(a.run("sync").status == 0)
        #expect(b.run("sync").status == 0)
        #expect(b.document("brew/recipes/\(id).json")?["name"] == .string("Sunday"))
        #expect(a.run("brew", "recipe", "edit", id, "--temp", "92", env: Self.at("22:00:00")).status == 0)
        #expect(b.run("brew", "recipe", "edit", id, "--temp", "90", env: Self.at("22:30:00")).status == 0)
        #expect(b.run("moments", "add", Self.walk, env: Self.at("22:40:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let merged = b.run("sync", "--json")
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.json["mergeCommit"] != .null && merged.json["resolved"]?.arrayValue?.isEmpty == false)
        #expect(a.run("sync").status == 0)
        #expect(try a.headTree() == b.headTree())
        for l in [a, b] {
            let names = (l.run("brew", "recipes", "--json").json.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
            #expect(names.contains("Sunday") && names.contains("Sunday (Conflicted Copy)"), "\(names)")
            #expect(l.files(under: "moments/experiences").count == 2)
            #expect(l.run("check").status == 0)
        }
        // A preview over the helper changes nothing.
        let preview = a.run("sync", "--dry-run", "--json")
        #expect(preview.status == 0 && preview.json["outcome"] == .string("up-to-date"), "\(preview)")

        // Plain git pulls the same history; the remote still holds nothing readable.
        let pull = try GitCLI.run(["pull", "-q", "--ff-only"], in: plain, environment: gnupg.environment)
        #expect(pull.status == 0, "\(pull)")
        #expect(try tree(plain) == a.headTree())
        try expectNothingReadable(in: fixture.remote, [Self.note, Self.walk, "Sunday"])
    }

    @Test func aHelperThatIsNotInstalledIsNamedByStatusAndSync() throws {
        // git alone on the PATH: no git-remote-gcrypt.
        let bin = TemporaryDirectory("ledger-bin")
        try FileManager.default.createSymbolicLink(atPath: bin.path + "/git", withDestinationPath: "/usr/bin/git")
        let fixture = try SyncFixture()
        let ledger = try TestLedger(initialize: false)
        ledger.environment["PATH"] = bin.path
        #expect(ledger.run("init", "--remote", "gcrypt::" + fixture.remote).status == 0)
        let status = ledger.run("status", "--json")
        let unsupported = status.json["sync"]?["unsupported"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(unsupported.contains { $0.contains("git-remote-gcrypt, which is not installed") }, "\(status)")
        let r = ledger.run("sync")
        #expect(r.status == 3, "\(r)")
        #expect(r.stderr.contains("git-remote-gcrypt, which is not installed") && r.stderr.contains("apt install git-remote-gcrypt"), "\(r)")
        // The local commit is kept, as when any remote is out of reach.
        #expect(try ledger.gitStatus().isEmpty)
        // Plain git says the same, in its words.
        let plain = try GitCLI.run(["ls-remote", "gcrypt::" + fixture.remote], in: ledger.root, environment: ["PATH": bin.path])
        #expect(plain.status != 0 && plain.stderr.contains("remote-gcrypt"), "\(plain)")
    }
}
