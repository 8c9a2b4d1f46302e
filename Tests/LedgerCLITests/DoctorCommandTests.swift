import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `ledger doctor` against a healthy setup and each broken one it names; for each, plain git
/// (or systemctl) on the same setup shows the breakage is real.
@Suite struct DoctorCommandTests {
    /// The clock of a user's shell: no `LEDGER_NOW` (the tests' ledgers set one).
    static let userClock = ["LEDGER_NOW": ""]

    /// The finding named `check` in `doctor --json`'s output.
    static func finding(_ r: CommandResult, _ check: String) -> JSONValue? {
        r.json["findings"]?.arrayValue?.first { $0["check"]?.stringValue == check }
    }

    @Test func aHealthySetupExitsZeroAndShowsTheRemotesBranchAsGitSeesIt() throws {
        let fixture = try SyncFixture()
        let ledger = try fixture.origin()
        let r = ledger.run("doctor", "--json", env: Self.userClock)
        #expect(r.status == 0, "\(r)")
        #expect(r.json["healthy"] == .bool(true))
        let remote = try #require(Self.finding(r, "remote"))
        let lsRemote = try GitCLI.run(["ls-remote", "origin", "refs/heads/main"], in: ledger.root)
        let sha = try #require(lsRemote.stdout.split(separator: "\t").first)
        #expect(remote["status"] == .string("ok"))
        #expect(remote["message"]?.stringValue?.contains("main is at \(sha.prefix(7)) there") == true, "\(remote)")
        for check in ["PATH", "ledger", ".gitattributes", "merge driver", "clock", "disk"] {
            #expect(Self.finding(r, check)?["status"] == .string("ok"), "\(check): \(r.stdout)")
        }
        #expect(Self.finding(r, "libgit2")?["message"]?.stringValue?.hasPrefix("libgit2 1.") == true)
        let gitVersion = try GitCLI.run(["--version"], in: "/").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Self.finding(r, "git")?["message"]?.stringValue?.hasPrefix(gitVersion) == true)
        let text = ledger.run("doctor", env: Self.userClock)
        #expect(text.status == 0 && text.stdout.hasSuffix("All is well.\n"), "\(text)")
    }

    /// Without ledger on the PATH, git cannot run the merge driver: doctor says so, and a plain
    /// `git merge` of a document changed on both sides fails on the same setup (and succeeds
    /// once ledger is on the PATH).
    @Test func ledgerOffThePathBreaksPlainGitMerges() throws {
        let ledger = try TestLedger()
        let bare = ["PATH": "/usr/bin:/bin"]
        let r = ledger.run("doctor", "--json", env: Self.userClock.merging(bare) { $1 })
        #expect(r.status == 1, "\(r)")
        #expect(Self.finding(r, "PATH")?["status"] == .string("warning"))
        let driver = try #require(Self.finding(r, "merge driver"))
        #expect(driver["status"] == .string("error"))
        #expect(driver["fix"]?.stringValue?.hasPrefix("make install") == true, "\(driver)")
        // Plain git on the same setup.
        let settings = "waterline/settings.json"
        let original = try #require(ledger.read(settings))
        try GitCLI.run(["checkout", "-q", "-b", "other"], in: ledger.root)
        try ledger.write(settings, original.replacingOccurrences(of: "\"waterEveryNDrinks\": 1", with: "\"waterEveryNDrinks\": 3"))
        try GitCLI.run(["commit", "-qam", "other"], in: ledger.root)
        try GitCLI.run(["checkout", "-q", "main"], in: ledger.root)
        try ledger.write(settings, original.replacingOccurrences(of: "\"warningThreshold\": 2", with: "\"warningThreshold\": 4"))
        try GitCLI.run(["commit", "-qam", "main"], in: ledger.root)
        let failed = try GitCLI.run(["merge", "-q", "--no-edit", "other"], in: ledger.root, environment: bare)
        #expect(failed.status != 0 && (failed.stdout + failed.stderr).contains("ledger: not found"), "\(failed)")
        try GitCLI.run(["merge", "--abort"], in: ledger.root)
        let merged = try GitCLI.run(["merge", "-q", "--no-edit", "other"], in: ledger.root)
        #expect(merged.status == 0, "\(merged)")
        #expect(ledger.run("doctor", env: Self.userClock).status == 0)
    }

    /// Each broken setup: what is changed, the finding and status doctor reports, what its
    /// fix says, and what plain git says on the same setup (traced: git runs a remote helper
    /// where ledger cannot, whether or not it is installed).
    @Test(arguments: [
        ("unregistered driver", ["config", "--unset", "merge.ledger.driver"], "merge driver", "ledger init",
         ["config", "merge.ledger.driver"], nil),
        ("remote path where nothing is", ["remote", "add", "origin", "/nonexistent/remote.git"], "remote",
         "git init --bare -b main /nonexistent/remote.git", ["ls-remote", "origin"], "does not appear to be a git repository"),
        ("unreachable remote", ["remote", "add", "origin", "git://127.0.0.1:1/remote.git"], "remote", "ls-remote origin",
         ["ls-remote", "origin"], "unable to connect to 127.0.0.1"),
        ("missing remote helper", ["remote", "add", "origin", "nohelper::/nonexistent/remote"], "remote", "install git-remote-nohelper",
         ["ls-remote", "origin"], "remote-nohelper"),
        ("remote helper", ["remote", "add", "origin", "gcrypt::/nonexistent/remote"], "remote", "ls-remote origin",
         ["ls-remote", "origin"], "git-remote-gcrypt"),
        ("unknown scheme", ["remote", "add", "origin", "foo://host/ledger"], "remote", "remote set-url origin",
         ["ls-remote", "origin"], "remote-foo"),
    ])
    func aBrokenGitSetupIsNamedWithItsFix(name: String, breaking: [String], check: String, fix: String, gitArguments: [String], gitSays: String?) throws {
        let ledger = try TestLedger()
        try GitCLI.run(breaking, in: ledger.root)
        let r = ledger.run("doctor", "--json", env: Self.userClock)
        #expect(r.status == 1, "\(name): \(r)")
        #expect(r.json["healthy"] == .bool(false))
        let found = try #require(Self.finding(r, check), "\(name): \(r)")
        #expect(found["status"] == .string("error"), "\(name): \(found)")
        #expect(found["fix"]?.stringValue?.contains(fix) == true, "\(name): \(found)")
        let git = try GitCLI.run(gitArguments, in: ledger.root, environment: ["GIT_TRACE": "1"])
        #expect((git.status != 0 || name == "remote helper") && (gitSays.map { (git.stdout + git.stderr).contains($0) } ?? true), "\(name): plain git: \(git)")
        let text = ledger.run("doctor", env: Self.userClock)
        #expect(text.stdout.contains("error   \(check): ") && text.stdout.contains("        fix: "), "\(text)")
        #expect(text.stdout.hasSuffix(" error, 0 warnings.\n"), "\(text)")
    }

    /// `.gitattributes` that no longer sends documents to the driver: doctor names it;
    /// `git check-attr` agrees.
    @Test(arguments: [
        ("# nothing\n", ".gitattributes", "merge", "unspecified", "echo '*.json merge=ledger' >> "),
        ("*.json merge=union\n", ".gitattributes", "merge", "union", "echo '*.json merge=ledger' >> "),
    ])
    func attributesLedgerDoesNotExpect(text: String, check: String, attribute: String, gitValue: String, fix: String) throws {
        let ledger = try TestLedger()
        try ledger.write(".gitattributes", text)
        let r = ledger.run("doctor", "--json", env: Self.userClock)
        #expect(r.status == 1, "\(r)")
        let found = try #require(Self.finding(r, check), "\(r)")
        #expect(found["status"] == .string("error"), "\(found)")
        #expect(found["fix"]?.stringValue?.contains(fix) == true, "\(found)")
        let git = try GitCLI.run(["check-attr", attribute, "--", "ledger.json"], in: ledger.root)
        #expect(git.stdout == "ledger.json: \(attribute): \(gitValue)\n", "\(git)")
    }

    /// A filter driver git runs on the ledger's files, wherever git's attributes set it: the
    /// file `core.attributesFile` names, a `.gitattributes` in a folder, `.git/info/attributes`.
    /// Doctor reports it as the error sync refuses by (the same rule: `ledger status` and
    /// `ledger sync` say so); plain git, on the same setup, finds the filter and its driver and
    /// stores the file filtered.
    @Test(arguments: ["core.attributesFile", "moments/.gitattributes", ".git/info/attributes"])
    func aConfiguredFilterIsFoundWhereverGitsAttributesSetIt(place: String) throws {
        let fixture = try SyncFixture()
        let ledger = try fixture.origin()
        try GitCLI.run(["config", "filter.rot.clean", "tr a-z n-za-m"], in: ledger.root)
        try GitCLI.run(["config", "filter.rot.smudge", "tr a-z n-za-m"], in: ledger.root)
        #expect(ledger.run("moments", "add", "a walk by the river").status == 0)
        let file = try #require(ledger.files(under: "moments/experiences").first)
        switch place {
        case "core.attributesFile":
            let attributes = ledger.directory.path + "/attributes"
            try "moments/**/*.json filter=rot\n".write(toFile: attributes, atomically: true, encoding: .utf8)
            try GitCLI.run(["config", "core.attributesFile", attributes], in: ledger.root)
        case "moments/.gitattributes":
            try ledger.write(place, "*.json filter=rot\n")
        default:
            try "moments/**/*.json filter=rot\n".write(toFile: ledger.root + "/" + place, atomically: true, encoding: .utf8)
        }
        let r = ledger.run("doctor", "--json", "--offline", env: Self.userClock)
        #expect(r.status == 1, "\(place): \(r)")
        let found = try #require(Self.finding(r, "filter"), "\(r)")
        let message = try #require(found["message"]?.stringValue)
        #expect(found["status"] == .string("error"), "\(found)")
        #expect(message.hasPrefix("the filter rot (filter.rot.clean = tr a-z n-za-m) applies to moments/"), "\(place): \(message)")
        #expect(message.hasSuffix("so `ledger sync` refuses before it commits or sends anything"), "\(message)")
        #expect(found["fix"]?.stringValue?.hasPrefix("take filter=rot out of the attributes that set it for moments/") == true, "\(found)")
        // The same rule as sync's: status names it, and the sync refuses.
        let unsupported = ledger.run("status", "--json").json["sync"]?["unsupported"]?.arrayValue?.compactMap(\.stringValue)
        #expect(unsupported == [message], "\(String(describing: unsupported))")
        let sync = ledger.run("sync")
        #expect(sync.status == 1 && sync.stderr.contains("the filter rot (filter.rot.clean = tr a-z n-za-m)"), "\(sync)")
        // Plain git on the same setup: the filter applies, its driver is configured, and the
        // file is stored filtered.
        #expect(try GitCLI.run(["check-attr", "filter", "--", file], in: ledger.root).stdout == "\(file): filter: rot\n")
        #expect(try GitCLI.run(["config", "--get", "filter.rot.clean"], in: ledger.root).stdout == "tr a-z n-za-m\n")
        let filtered = try GitCLI.run(["hash-object", "--path", file, file], in: ledger.root).stdout
        #expect(filtered != (try GitCLI.run(["hash-object", "--no-filters", file], in: ledger.root).stdout))
    }

    /// A filter `.gitattributes` names but no configuration defines is no filter for git, which
    /// stores the file as it is, nor for sync: doctor says so, and is not alarmed.
    @Test func aFilterNamedButConfiguredNowhereIsNoError() throws {
        let fixture = try SyncFixture()
        let ledger = try fixture.origin()
        try ledger.write(".gitattributes", (ledger.read(".gitattributes") ?? "") + "*.json filter=crypt\n")
        let r = ledger.run("doctor", "--json", "--offline", env: Self.userClock)
        #expect(r.status == 0 && r.json["healthy"] == .bool(true), "\(r)")
        let found = try #require(Self.finding(r, "filter"), "\(r)")
        #expect(found["status"] == .string("ok"), "\(found)")
        #expect(found["message"] == .string("no filter driver applies to the ledger's files, so `ledger sync` stores them as git does"), "\(found)")
        #expect(ledger.run("doctor", "--offline", env: Self.userClock).stdout.contains("ok      filter: no filter driver applies"))
        // Sync agrees: nothing keeps it from running, and it commits the attributes.
        #expect(ledger.run("status", "--json").json["sync"]?["unsupported"] == .array([]))
        let sync = ledger.run("sync")
        #expect(sync.status == 0, "\(sync)")
        // Plain git on the same setup: the attribute is set, no driver is configured, and the
        // file is stored as it is.
        #expect(try GitCLI.run(["check-attr", "filter", "--", "ledger.json"], in: ledger.root).stdout == "ledger.json: filter: crypt\n")
        let config = try GitCLI.run(["config", "--get", "filter.crypt.clean"], in: ledger.root)
        #expect(config.status == 1 && config.stdout.isEmpty, "\(config)")
        let stored = try GitCLI.run(["hash-object", "--path", "ledger.json", "ledger.json"], in: ledger.root).stdout
        #expect(stored == (try GitCLI.run(["hash-object", "--no-filters", "ledger.json"], in: ledger.root).stdout))
        #expect(stored == (try GitCLI.run(["rev-parse", "HEAD:ledger.json"], in: ledger.root).stdout))
        #expect(try ledger.gitStatus().isEmpty)
    }

    /// Without git on the PATH, ledger still syncs, but git's credential helpers and `git gc`
    /// are out of reach: a warning.
    @Test func gitMissingIsAWarning() throws {
        let ledger = try TestLedger()
        let r = ledger.run("doctor", "--json", "--offline", env: Self.userClock.merging(["PATH": ledger.directory.path]) { $1 })
        #expect(r.status == 1, "\(r)")
        let git = try #require(Self.finding(r, "git"))
        #expect(git["status"] == .string("warning") && git["fix"] == .string("sudo apt-get install git"), "\(git)")
    }

    @Test func noLedgerIsAnError() throws {
        let ledger = try TestLedger(initialize: false)
        let r = ledger.run("doctor", "--json", "--offline", env: Self.userClock)
        #expect(r.status == 1)
        let found = try #require(Self.finding(r, "ledger"))
        #expect(found["status"] == .string("error") && found["fix"]?.stringValue?.hasPrefix("ledger init ") == true, "\(found)")
        #expect(Self.finding(r, "disk")?["status"] == .string("ok"), "the disk of the nearest existing folder: \(r)")
    }

    /// A clock a user's commands should not run with: `LEDGER_NOW` left set, a `TZ` that names
    /// no zone (the C library falls back to UTC for it: `date` shows it).
    @Test(arguments: [
        (["LEDGER_NOW": "2026-11-21T22:30:00+01:00"], "unset LEDGER_NOW"),
        (["LEDGER_NOW": "", "TZ": "Mars/Olympus_Mons"], "export TZ="),
    ])
    func aClockCommandsShouldNotUseIsAWarning(env: [String: String], fix: String) throws {
        let ledger = try TestLedger()
        let r = ledger.run("doctor", "--json", "--offline", env: env)
        #expect(r.status == 1, "\(r)")
        let clock = try #require(Self.finding(r, "clock"))
        #expect(clock["status"] == .string("warning") && clock["fix"]?.stringValue?.hasPrefix(fix) == true, "\(clock)")
        if let tz = env["TZ"] {
            let date = try Processes.run("/bin/date", ["+%Z"], environment: ["TZ": tz])
            #expect(date.stdout == "Mars\n" || date.stdout == "UTC\n", "the C library does not know the zone either: \(date)")
        }
    }

    /// An installed reminder unit that does not run: doctor asks systemd's user manager as
    /// `systemctl --user` does, and says what it answered.
    @Test func anInstalledUnitThatDoesNotRunIsAWarning() throws {
        let ledger = try TestLedger()
        let home = try #require(ledger.environment["HOME"])
        let units = home + "/.config/systemd/user"
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        #expect(ledger.run("doctor", "--offline", env: Self.userClock).status == 0, "no unit installed is not a problem")
        try "[Service]\nExecStart=/bin/true\n".write(toFile: units + "/ledger-remind.service", atomically: true, encoding: .utf8)
        let r = ledger.run("doctor", "--json", "--offline", env: Self.userClock)
        #expect(r.status == 1, "\(r)")
        let unit = try #require(Self.finding(r, "ledger-remind.service"))
        #expect(unit["status"] == .string("warning"), "\(unit)")
        let manager = try Processes.run("/bin/sh", ["-c", "systemctl --user show-environment"], environment: ledger.environment)
        if manager.status == 0 {
            #expect(unit["fix"] == .string("systemctl --user enable --now ledger-remind.service"), "\(unit)")
        } else {
            #expect(unit["message"]?.stringValue?.contains("cannot be reached") == true, "\(unit)")
        }
    }

    /// The bytes `df` says are available to a user on the file system holding `path`.
    static func dfAvailable(_ path: String) throws -> Int64 {
        let df = try Processes.run("/bin/df", ["-B1", "--output=avail", path])
        let lines = df.stdout.split(separator: "\n")
        guard df.status == 0, lines.count == 2, let bytes = Int64(lines[1].trimmingCharacters(in: .whitespaces)) else {
            throw LedgerError.failure("df failed: \(df)")
        }
        return bytes
    }

    /// A ledger on a small disk of its own (a 64 MiB tmpfs, under the 100 MiB doctor asks for,
    /// filled further by the test): an error with the free space `df` shows and the fix; plain
    /// git on the same disk fails to write a 20 MiB file. On a 1 GiB tmpfs the same ledger is
    /// fine.
    @Test(.enabled(if: TmpfsCopy.possible, "mounting a tmpfs needs root with CAP_SYS_ADMIN; this machine does not allow it"))
    func aNearlyFullDiskIsAnErrorWithTheSpaceDfShows() throws {
        let ledger = try TestLedger()
        let small = try TmpfsCopy(copying: ledger.root, size: "64m", readOnly: false) { path in
            let fill = try Processes.run("/bin/sh", ["-c", "head -c 30M /dev/zero > filler && head -c 20M /dev/urandom > photo.bin"], currentDirectory: path)
            guard fill.status == 0 else { throw LedgerError.failure("filling the disk failed: \(fill)") }
        }
        defer { small.unmount() }
        let r = ledger.run("doctor", "--json", "--offline", "--repo", small.path, env: Self.userClock)
        let available = try Self.dfAvailable(small.path)
        #expect(available < Int64(100 << 20) && available > Int64(4 << 20), "\(available)")
        #expect(r.status == 1, "\(r)")
        let disk = try #require(Self.finding(r, "disk"))
        let shown = ByteCountFormatter.string(fromByteCount: available, countStyle: .binary)
        #expect(disk["status"] == .string("error"), "\(disk)")
        #expect(disk["message"] == .string("only \(shown) free on the disk holding \(small.path): a sync or an edit may fail to write"), "\(disk)")
        #expect(disk["fix"]?.stringValue?.hasPrefix("free space on that disk (`du -sh ") == true, "\(disk)")
        let text = ledger.run("doctor", "--offline", "--repo", small.path, env: Self.userClock)
        #expect(text.stdout.contains("error   disk: only \(shown) free"), "\(text)")
        // Plain git on the same disk: the 20 MiB file does not fit in the object store.
        let add = try GitCLI.run(["add", "photo.bin"], in: small.path)
        #expect(add.status != 0 && add.stderr.contains("No space left on device"), "\(add)")

        let large = try TmpfsCopy(copying: ledger.root, size: "1g", readOnly: false)
        defer { large.unmount() }
        let fine = ledger.run("doctor", "--json", "--offline", "--repo", large.path, env: Self.userClock)
        let largeDisk = try #require(Self.finding(fine, "disk"))
        let largeShown = ByteCountFormatter.string(fromByteCount: try Self.dfAvailable(large.path), countStyle: .binary)
        #expect(largeDisk["status"] == .string("ok"), "\(largeDisk)")
        #expect(largeDisk["message"] == .string("\(largeShown) free on the disk holding \(large.path)"), "\(largeDisk)")
    }
}
