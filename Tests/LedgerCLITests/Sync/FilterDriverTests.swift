import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// git's filter drivers (clean/smudge, git-crypt) are never bypassed: ledger does not run them,
/// so a sync on a ledger where one applies refuses, naming the filter and a file, with nothing
/// committed and nothing pushed — where plain git, on the same setup, stores the filtered form.
@Suite struct FilterDriverTests {
    static let note = "dinner with Sam at the harbour"

    /// A ledger whose remote (a bare repository) nothing has reached yet.
    func unpublished() throws -> (SyncFixture, TestLedger) {
        let fixture = try SyncFixture()
        let ledger = try TestLedger(initialize: false)
        let r = ledger.run("init", "--remote", fixture.remote)
        try #require(r.status == 0, "\(r)")
        return (fixture, ledger)
    }

    /// `git -C ledger ARGS`, succeeding.
    func git(_ ledger: TestLedger, _ arguments: String...) throws {
        let r = try GitCLI.run(arguments, in: ledger.root)
        try #require(r.status == 0, "git \(arguments): \(r)")
    }

    /// The sync refuses: exit 1, the filter and a path named, no commit made, the remote untouched.
    func expectRefusal(_ ledger: TestLedger, fixture: SyncFixture, filter: String, path: String) throws {
        let head = try GitCLI.run(["rev-parse", "HEAD"], in: ledger.root).stdout
        let r = ledger.run("sync")
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("the filter \(filter) (filter.\(filter).clean = "), "\(r)")
        #expect(r.stderr.contains(path) && r.stderr.contains("nothing was committed or pushed"), "\(r)")
        #expect(try GitCLI.run(["rev-parse", "HEAD"], in: ledger.root).stdout == head)
        #expect(try GitCLI.run(["for-each-ref"], in: fixture.remote).stdout.isEmpty)
        #expect(try GitCLI.run(["count-objects", "-v"], in: fixture.remote).stdout.contains("count: 0\n"))
        #expect(try GitCLI.run(["rev-list", "--all", "--objects"], in: fixture.remote).stdout.isEmpty)
        // A preview refuses the same way.
        #expect(ledger.run("sync", "--dry-run").status == 1)
        // `ledger status` says so before any sync.
        let status = ledger.run("status", "--json")
        let unsupported = status.json["sync"]?["unsupported"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(unsupported.contains { $0.contains("the filter \(filter)") && $0.contains("refuses") }, "\(status)")
        #expect(ledger.run("status").stdout.contains("Cannot sync: the filter \(filter)"))
    }

    @Test func aRot13FilterIsRefusedWherePlainGitStoresTheFilteredText() throws {
        let (fixture, ledger) = try unpublished()
        try git(ledger, "config", "filter.rot.clean", "tr a-z n-za-m")
        try git(ledger, "config", "filter.rot.smudge", "tr a-z n-za-m")
        try ledger.write(".gitattributes", (ledger.read(".gitattributes") ?? "") + "secret.txt filter=rot\n")
        try ledger.write("secret.txt", "hello secret\n")
        #expect(ledger.run("moments", "add", Self.note).status == 0)
        try expectRefusal(ledger, fixture: fixture, filter: "rot", path: "secret.txt")

        // Plain git on the same ledger stores what the filter made of it.
        try git(ledger, "add", "-A")
        try git(ledger, "commit", "-qm", "plain git")
        #expect(try GitCLI.run(["cat-file", "-p", "HEAD:secret.txt"], in: ledger.root).stdout == "uryyb frperg\n")
        // Still refused once committed by git: a merge or a checkout would bypass the filter.
        #expect(ledger.run("sync").status == 1)
    }

    @Test func gitCryptIsRefusedAndTheRemoteStaysUntouchedWherePlainGitPushesCiphertext() throws {
        let gitCrypt = try Processes.require("git-crypt", package: "git-crypt")
        let (fixture, ledger) = try unpublished()
        let initialized = try Processes.run(gitCrypt, ["init"], environment: GitCLI.gitEnvironment, currentDirectory: ledger.root)
        try #require(initialized.status == 0, "\(initialized)")
        try ledger.write(".gitattributes", (ledger.read(".gitattributes") ?? "") + "* filter=git-crypt diff=git-crypt\n.gitattributes !filter !diff\n")
        #expect(ledger.run("moments", "add", Self.note).status == 0)
        let moment = try #require(ledger.files(under: "moments/experiences").first)
        try expectRefusal(ledger, fixture: fixture, filter: "git-crypt", path: "applies to ")

        // Plain git pushes every document encrypted.
        try git(ledger, "add", "-A")
        try git(ledger, "commit", "-qm", "plain git")
        try git(ledger, "push", "-q", "origin", "main")
        let stored = try GitCLI.everythingStored(in: fixture.remote)
        // (The documents `ledger init` committed before git-crypt was set up stay in clear, as with git.)
        #expect(!stored.contains(Self.note))
        let blob = try GitCLI.run(["cat-file", "-p", "main:" + moment], in: fixture.remote).stdout
        #expect(blob.hasPrefix("\0GITCRYPT"))
        // Committed by git, still refused: a merge or a checkout by ledger would bypass the filter.
        #expect(ledger.run("waterline", "start").status == 0)
        #expect(ledger.run("sync").status == 1)
        #expect(try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout == GitCLI.run(["rev-parse", "HEAD"], in: ledger.root).stdout)
    }

    @Test func aFilterNamedButConfiguredNowhereIsIgnoredAsGitIgnoresIt() throws {
        let (fixture, ledger) = try unpublished()
        try ledger.write(".gitattributes", (ledger.read(".gitattributes") ?? "") + "*.json filter=absent\n")
        #expect(ledger.run("moments", "add", Self.note).status == 0)
        #expect(ledger.run("status", "--json").json["sync"]?["unsupported"] == .array([]))
        let r = ledger.run("sync")
        #expect(r.status == 0, "\(r)")
        // git stores the same bytes: nothing left to commit for it.
        #expect(try ledger.gitStatus().isEmpty)
        #expect(try GitCLI.everythingStored(in: fixture.remote).contains(Self.note))
    }

    @Test func aDriverConfiguredForNoFileOfTheLedgerIsNoObstacleButOneNamedInInfoAttributesIs() throws {
        let (fixture, ledger) = try unpublished()
        // What `git lfs install` sets for every repository: a driver, and no file names it here.
        try git(ledger, "config", "filter.lfs.clean", "git-lfs clean -- %f")
        try git(ledger, "config", "filter.lfs.required", "true")
        #expect(ledger.run("moments", "add", Self.note).status == 0)
        let r = ledger.run("sync")
        #expect(r.status == 0, "\(r)")
        // A line in .git/info/attributes (this clone only) counts as much as .gitattributes.
        try "*.json filter=lfs\n".write(toFile: ledger.root + "/.git/info/attributes", atomically: true, encoding: .utf8)
        #expect(ledger.run("moments", "add", "a second one").status == 0)
        let head = try GitCLI.run(["rev-parse", "HEAD"], in: ledger.root).stdout
        let refused = ledger.run("sync")
        #expect(refused.status == 1 && refused.stderr.contains("the filter lfs (filter.lfs.clean = git-lfs clean -- %f)"), "\(refused)")
        #expect(try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout == head)
        #expect(try GitCLI.run(["rev-parse", "HEAD"], in: ledger.root).stdout == head)
        // Plain git agrees that the filter applies.
        #expect(try GitCLI.run(["check-attr", "filter", "--", "ledger.json"], in: ledger.root).stdout == "ledger.json: filter: lfs\n")
    }

    /// A published ledger with a moment, which then gets the rot13 filter on secret.txt,
    /// committed and pushed by plain git (which stores the filtered text).
    func publishedWithRot13() throws -> (fixture: SyncFixture, ledger: TestLedger, moment: String) {
        let fixture = try SyncFixture()
        let ledger = try fixture.origin()
        #expect(ledger.run("moments", "add", Self.note).status == 0)
        let synced = ledger.run("sync")
        try #require(synced.status == 0, "\(synced)")
        let moment = try #require(ledger.files(under: "moments/experiences").first)
        try git(ledger, "config", "filter.rot.clean", "tr a-z n-za-m")
        try git(ledger, "config", "filter.rot.smudge", "tr a-z n-za-m")
        try ledger.write(".gitattributes", (ledger.read(".gitattributes") ?? "") + "secret.txt filter=rot\n")
        try ledger.write("secret.txt", "hello secret\n")
        try git(ledger, "add", "-A")
        try git(ledger, "commit", "-qm", "plain git")
        #expect(try GitCLI.run(["cat-file", "-p", "HEAD:secret.txt"], in: ledger.root).stdout == "uryyb frperg\n")
        try git(ledger, "push", "-q", "origin", "main")
        return (fixture, ledger, moment)
    }

    /// A purge commits and checks out a new history: refused as a sync is, naming the filter
    /// and the setting that makes git run it, with nothing changed here or on the remote.
    @Test func aPurgeIsRefusedLikeASyncNamingTheFilterAndItsSetting() throws {
        let (fixture, ledger, moment) = try publishedWithRot13()
        let head = try GitCLI.run(["rev-parse", "HEAD"], in: ledger.root).stdout
        let remoteHead = try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout
        for arguments in [["purge", moment, "--dry-run"], ["purge", moment, "--yes"]] {
            let r = ledger.run(arguments: arguments)
            #expect(r.status == 1, "\(arguments): \(r)")
            #expect(r.stderr.contains("the filter rot (filter.rot.clean = tr a-z n-za-m) applies to secret.txt"), "\(r)")
            #expect(r.stderr.contains("so nothing was changed"), "\(r)")
        }
        #expect(try GitCLI.run(["rev-parse", "HEAD"], in: ledger.root).stdout == head)
        #expect(try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout == remoteHead)
        #expect(try GitCLI.run(["cat-file", "-e", "HEAD:" + moment], in: ledger.root).status == 0)
        #expect(try GitCLI.everythingStored(in: fixture.remote).contains(Self.note))
        // The refusal is the filter's: without its driver, the same purge goes through.
        try git(ledger, "config", "--unset", "filter.rot.clean")
        try git(ledger, "config", "--unset", "filter.rot.smudge")
        let done = ledger.run("purge", moment, "--yes")
        #expect(done.status == 0, "\(done)")
        #expect(try !GitCLI.everythingStored(in: fixture.remote).contains(Self.note))
    }

    /// A forget only deletes files of the work tree (git runs no filter on a deletion and
    /// ledger writes no object): it goes ahead, and says that the sync which would take it to
    /// the other devices refuses; plain git commits it, through the filter.
    @Test func aForgetDeletesHereAndSaysTheSyncThatWouldCarryItRefuses() throws {
        let (_, ledger, moment) = try publishedWithRot13()
        let warning = "ledger: warning: cannot sync: the filter rot (filter.rot.clean = tr a-z n-za-m) applies to secret.txt"
        let dry = ledger.run("forget", "moments", "--dry-run")
        #expect(dry.status == 0 && dry.stderr.contains(warning), "\(dry)")
        let r = ledger.run("forget", "moments", "--yes")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains(warning), "\(r)")
        #expect(r.stdout.contains("it stays on this device until `ledger sync` can run"), "\(r)")
        #expect(!FileManager.default.fileExists(atPath: ledger.root + "/" + moment))
        let head = try GitCLI.run(["rev-parse", "HEAD"], in: ledger.root).stdout
        #expect(ledger.run("sync").status == 1)
        #expect(try GitCLI.run(["rev-parse", "HEAD"], in: ledger.root).stdout == head)
        try git(ledger, "add", "-A")
        try git(ledger, "commit", "-qm", "plain git")
        #expect(try GitCLI.run(["cat-file", "-e", "HEAD:" + moment], in: ledger.root).status != 0)
        #expect(try GitCLI.run(["cat-file", "-p", "HEAD:secret.txt"], in: ledger.root).stdout == "uryyb frperg\n")
    }
}
