import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// The binary `make release` installs loads libgit2 and libdbus on first use: a command that
/// never touches git (`waterline status`, `--version`) does not map them (nor the libraries
/// they need) at start, and one that does (`status`, `sync`, plain git's merge driver) works
/// through the stubs. The test makes that binary from the debug one as `make release` does
/// (`scripts/lazy-libraries.py`) and asks the dynamic loader what it loaded (`LD_DEBUG`).
@Suite struct LazyLibrariesTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/lazy-libraries.py").path

    /// A copy of the debug `ledger`, prepared as `make release` prepares the release one.
    static func lazyBinary(in dir: TemporaryDirectory) throws -> String {
        let copy = dir.path + "/ledger"
        try FileManager.default.copyItem(atPath: LedgerBinary.path, toPath: copy)
        let r = try Processes.run("/usr/bin/env", ["python3", script, copy])
        #expect(r.status == 0, "\(r)")
        return copy
    }

    /// The shared libraries the loader mapped while running `arguments` (their file names).
    static func loaded(_ binary: String, _ arguments: [String], ledger: TestLedger) throws -> (result: CommandResult, libraries: Set<String>) {
        let env = ledger.environment.merging(["LD_DEBUG": "files"]) { $1 }
        let r = try Processes.run(binary, arguments, environment: env, currentDirectory: ledger.root)
        var libraries: Set<String> = []
        for line in r.stderr.split(separator: "\n") where line.contains("file=") && line.contains("[0];") {
            guard let name = line.split(separator: " ").first(where: { $0.hasPrefix("file=") })?.dropFirst(5) else { continue }
            libraries.insert(String(name.split(separator: "/").last ?? name))
        }
        return (r, libraries)
    }

    #if os(Linux) && arch(x86_64)
    @Test func gitAndDBusAreLoadedOnlyByTheCommandsThatUseThem() throws {
        let dir = TemporaryDirectory("lazy-libraries")
        let binary = try Self.lazyBinary(in: dir)
        let fixture = try SyncFixture()
        let ledger = try fixture.origin()
        #expect(ledger.run("waterline", "start").status == 0)
        // check looks at HEAD's commit through libgit2 once; later checks trust its record
        // while the commit's files are unchanged (and were written more than 2 s before).
        RepositoryFiles.age(everythingUnder: ledger.root + "/.git/objects", seconds: 3600)
        #expect(ledger.run("check").status == 0)

        for arguments in [["--version"], ["waterline", "status"], ["waterline", "drink"], ["hydrate", "status"], ["check"]] {
            let (r, libraries) = try Self.loaded(binary, arguments, ledger: ledger)
            #expect(r.status == 0, "\(arguments): \(r.stdout)")
            #expect(!libraries.contains { $0.hasPrefix("libgit2") || $0.hasPrefix("libdbus") || $0.hasPrefix("libssh2") }, "\(arguments) loaded \(libraries.sorted())")
        }
        // Through the stubs: the repository's state, a sync to a real remote, and git's own
        // `git pull` running the merge driver.
        let (status, withGit) = try Self.loaded(binary, ["status"], ledger: ledger)
        #expect(status.status == 0 && status.stdout.contains("Waterline"), "\(status.stdout)")
        #expect(withGit.contains { $0.hasPrefix("libgit2") }, "\(withGit.sorted())")
        let sync = try Processes.run(binary, ["sync"], environment: ledger.environment, currentDirectory: ledger.root)
        #expect(sync.status == 0, "\(sync)")
        let other = try fixture.clone()
        #expect(other.run("waterline", "water").status == 0)
        #expect(ledger.run("waterline", "drink").status == 0)
        #expect(ledger.run("sync").status == 0)
        try GitCLI.run(["config", "merge.ledger.driver", binary + " merge-driver %O %A %B %P"], in: other.root)
        try GitCLI.run(["commit", "-qam", "water"], in: other.root)
        let pull = try GitCLI.run(["pull", "--no-rebase", "--no-edit", "origin", "main"], in: other.root)
        #expect(pull.status == 0 && !pull.stdout.contains("CONFLICT"), "\(pull)")
        #expect(other.run("waterline", "status", "--json").json["totalWaterCount"] == .number(1))
        #expect(other.run("check").status == 0)
        // Made once: a second pass finds nothing to drop.
        let again = try Processes.run("/usr/bin/env", ["python3", Self.script, binary])
        #expect(again.status == 0 && again.stdout.contains("already"), "\(again)")
    }
    #endif

    /// A function used by the code but missing from the stubs is refused by name, and the
    /// binary is left as it is.
    @Test func aFunctionWithoutAStubIsNamed() throws {
        let dir = TemporaryDirectory("lazy-libraries-missing")
        let program = dir.path + "/uses-git"
        try "int git_libgit2_init(void);\nint main(int argc, char **argv) { return argc > 5 ? git_libgit2_init() : 0; }\n"
            .write(toFile: dir.path + "/main.c", atomically: true, encoding: .utf8)
        let cc = try Processes.run("/usr/bin/env", ["clang", "-o", program, dir.path + "/main.c", "-lgit2"])  // the Swift toolchain's
        try #require(cc.status == 0, "\(cc)")
        let before = try Data(contentsOf: URL(fileURLWithPath: program))
        let r = try Processes.run("/usr/bin/env", ["python3", Self.script, program])
        #if os(Linux) && arch(x86_64)
        #expect(r.status != 0 && r.stderr.contains("git_libgit2_init has no stub in Sources/LazyLibraries/trampolines.S"), "\(r)")
        #endif
        #expect(try Data(contentsOf: URL(fileURLWithPath: program)) == before)
    }
}
