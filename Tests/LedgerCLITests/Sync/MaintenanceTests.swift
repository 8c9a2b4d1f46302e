import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// Repository maintenance as `git gc --auto` does it, inside `ledger sync` and as `ledger gc`,
/// on real repositories, with git's own count of objects as the referee.
@Suite struct MaintenanceTests {
    /// The packs of a repository, as git counts them.
    static func packs(_ repository: String) throws -> Int { try RepositoryFiles.countObjects(repository)["packs"] ?? -1 }

    @Test func syncMaintainsTheRepositoryAndItsPathRemoteWhenGitsThresholdIsPassed() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let b = try fixture.clone()
        // git's threshold, lowered through git's own setting so that a few syncs pass it.
        for repo in [b.root, fixture.remote] { try GitCLI.run(["config", "gc.autoPackLimit", "3"], in: repo) }
        var maintained: [String] = []
        for round in 1...8 {
            try a.write("waterline/a.json", "{\"round\": \(round)}\n")
            #expect(a.run("sync").status == 0)
            try b.write("waterline/b.json", "{\"round\": \(round)}\n")
            let r = b.run("sync", "--json")
            #expect(r.status == 0, "\(r)")
            maintained += r.json["maintenance"]?.arrayValue?.compactMap { $0["repository"]?.stringValue } ?? []
            // Every fetch brings a pack and every push leaves one: never more than the limit stay.
            #expect(try Self.packs(b.root) <= 3, "round \(round)")
            #expect(try Self.packs(fixture.remote) <= 3, "round \(round)")
        }
        #expect(maintained.contains("local") && maintained.contains("remote"))
        #expect(a.run("sync").status == 0)
        // a keeps git's default limit (50): nothing was due there, and nothing ran.
        #expect(try Self.packs(a.root) > 3)
        for repo in [a.root, b.root, fixture.remote] {
            let fsck = try GitCLI.fsck(repo)
            #expect(fsck == nil, "\(repo): \(fsck ?? "")")
        }
        #expect(try a.headTree() == b.headTree())
        #expect(try b.gitStatus().isEmpty)
    }

    @Test func gcPacksEverythingAndItsFiguresAreGits() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let b = try fixture.clone()
        for round in 1...4 {
            try a.write("waterline/a.json", "{\"round\": \(round)}\n")
            #expect(a.run("sync").status == 0)
            try b.write("waterline/b.json", "{\"round\": \(round)}\n")
            #expect(b.run("sync").status == 0)
        }
        let gitBefore = try RepositoryFiles.countObjects(b.root)
        let remoteBefore = try RepositoryFiles.countObjects(fixture.remote)
        #expect((gitBefore["count"] ?? 0) > 0 && (gitBefore["packs"] ?? 0) > 1, "\(gitBefore)")
        let r = b.run("gc", "--json")
        #expect(r.status == 0, "\(r)")
        let runs = r.json["maintenance"]?.arrayValue ?? []
        try #require(runs.count == 2, "\(r)")
        let local = runs[0], remote = runs[1]
        #expect(local["repository"] == .string("local") && remote["repository"] == .string("remote"))
        #expect(remote["path"]?.stringValue == fixture.remote)
        // Before: what `git count-objects -v` said; after: everything in one pack, as git says too.
        #expect(local["before"]?["looseObjects"] == .number(Double(gitBefore["count"] ?? -1)))
        #expect(local["before"]?["packs"] == .number(Double(gitBefore["packs"] ?? -1)))
        #expect(local["before"]?["packedObjects"] == .number(Double(gitBefore["in-pack"] ?? -1)))
        #expect(remote["before"]?["packs"] == .number(Double(remoteBefore["packs"] ?? -1)))
        let gitAfter = try RepositoryFiles.countObjects(b.root)
        #expect(gitAfter["count"] == 0 && gitAfter["packs"] == 1, "\(gitAfter)")
        #expect(local["after"]?["looseObjects"] == .number(0) && local["after"]?["packs"] == .number(1))
        if case .number(let after)? = local["after"]?["bytes"], case .number(let before)? = local["before"]?["bytes"] {
            #expect(after < before)
        } else {
            Issue.record("no byte counts: \(local)")
        }
        #expect(try RepositoryFiles.countObjects(fixture.remote)["packs"] == 1)
        // The text form says the same.
        let text = b.run("gc")
        #expect(text.status == 0)
        #expect(text.stdout.contains("Packed this ledger's repository: 0 loose objects and 1 pack"), "\(text)")
        #expect(text.stdout.contains("Packed the remote \(fixture.remote)"))
        #expect(try GitCLI.fsck(b.root) == nil)
        #expect(b.run("sync").status == 0)
    }

    @Test func gcPrunesOnlyUnreachableObjectsOlderThanGitsExpiry() throws {
        let ledger = try TestLedger()
        func store(_ text: String) throws -> String {
            let file = ledger.directory.url("object.txt")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            return try GitCLI.run(["hash-object", "-w", file], in: ledger.root).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let old = try store("left by an aborted operation a month ago\n")
        let recent = try store("left a moment ago\n")
        RepositoryFiles.age(ledger.root + "/.git/objects/" + old.prefix(2) + "/" + old.dropFirst(2), seconds: 30 * 86400)
        let r = ledger.run("gc")
        #expect(r.status == 0, "\(r)")
        #expect(try GitCLI.run(["cat-file", "-e", old], in: ledger.root).status != 0)
        #expect(try GitCLI.run(["cat-file", "-e", recent], in: ledger.root).status == 0)
        #expect(try GitCLI.fsck(ledger.root) == nil)
        #expect(try ledger.gitStatus().isEmpty)
    }

    @Test func gcWaitsForTheWriterLock() throws {
        let ledger = try TestLedger()
        // Another process holds the ledger's writer lock for a moment.
        try FileManager.default.createDirectory(atPath: ledger.root + "/.git/ledger", withIntermediateDirectories: true)
        let holder = try Processes.spawn("/usr/bin/flock", [ledger.root + "/.git/ledger/lock", "sleep", "1"], environment: [:], currentDirectory: "/")
        for _ in 0..<100 {
            if try Processes.run("/usr/bin/flock", ["-n", ledger.root + "/.git/ledger/lock", "true"]).status != 0 { break }
            usleep(10_000)
        }
        let r = ledger.run("gc")
        #expect(holder.wait().status == 0)
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("waiting for"), "\(r)")
    }

    @Test func theFiguresOfGcAutoComeOnlyWhenSomethingWasDue() throws {
        let ledger = try TestLedger()
        let r = ledger.run("gc", "--auto")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "Nothing was due.\n")
        #expect(ledger.run("gc", "--auto", "--json").json["maintenance"] == .array([]))
    }

    /// How a `ledger gc` is stopped: `kill -9 PID`, `kill PID` (SIGTERM), or Ctrl-C on a
    /// terminal (SIGINT to the foreground process group, which ledger leads here).
    enum Stop: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case kill9, term, ctrlC
        var testDescription: String { rawValue }
        func send(to pid: pid_t) {
            switch self {
            case .kill9: kill(pid, SIGKILL)
            case .term: kill(pid, SIGTERM)
            case .ctrlC: kill(-pid, SIGINT)
            }
        }
    }

    /// The git processes working in `repository` (its work tree or git directory named on their
    /// command line, in their environment as `GIT_DIR`, or their current directory), and every
    /// process of the groups in `groups`, git or not.
    static func processes(in repository: String, orIn groups: Set<pid_t> = []) -> [RunningProcess] {
        RunningProcess.all().filter { p in
            if groups.contains(p.group) { return true }
            guard p.arguments.first.map({ ($0 as NSString).lastPathComponent == "git" }) == true else { return false }
            let cwd = p.directory
            return p.arguments.contains { $0.hasPrefix("--git-dir=" + repository + "/.git") }
                || p.environment.contains { $0.hasPrefix("GIT_DIR=" + repository + "/.git") }
                || cwd == repository || cwd.hasPrefix(repository + "/")
        }
    }

    /// Waits (at most `seconds`) until `condition` holds; whether it does.
    static func waitFor(_ condition: () -> Bool, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(), Date() < deadline { usleep(20_000) }
        return condition()
    }

    /// Ends `processes` with SIGKILL, by PID, and waits (bounded) until they are gone.
    static func end(_ processes: [RunningProcess], in repository: String) {
        for p in processes { kill(p.pid, SIGKILL) }
        _ = waitFor({ Self.processes(in: repository, orIn: Set(processes.map(\.group))).isEmpty }, seconds: 10)
    }

    /// Puts 3,000 moments of 8 KiB each, alike but not the same, in `repository` as loose
    /// objects (on a branch of their own: the work tree stays as it is), and has git look hard
    /// for deltas between them (`pack.window`, one thread): `git gc` then takes minutes in
    /// `pack-objects`. `git fast-import` writes them in a few seconds (as one pack, which
    /// `git unpack-objects` turns into loose objects: a repack reuses a pack's objects as they
    /// are).
    static func fillWithSlowObjects(_ repository: String, scratch: String) throws {
        var stream = "commit refs/heads/history\ncommitter Me <me@example.com> 1763000000 +0100\ndata 8\nhistory\n"
        for i in 0..<3000 {
            let month = String(format: "%02d", i % 12 + 1), id = String(format: "m%09d", i)
            let stamp = "2025-\(month)-\(String(format: "%02d", i % 28 + 1))T12:00:00+01:00"
            let payload = (0..<200).map { "line \($0) of moment \(i): \(i * 31 + $0) \($0 * i % 97)" }.joined(separator: "\\n")
            let body = "{\n  \"createdAt\": \"\(stamp)\",\n  \"experienceType\": \"note\",\n  \"id\": \"\(id)\",\n  \"momentType\": \"now\",\n"
                + "  \"payload\": \"\(payload)\",\n  \"timestamp\": \"\(stamp)\",\n  \"updatedAt\": \"\(stamp)\"\n}\n"
            stream += "M 100644 inline moments/experiences/2025/\(month)/\(id).json\ndata \(body.utf8.count)\n\(body)\n"
        }
        let imported = try Processes.run("/usr/bin/git", ["fast-import", "--quiet"], environment: GitCLI.gitEnvironment,
                                         currentDirectory: repository, stdin: stream)
        try #require(imported.status == 0, "\(imported)")
        let packs = repository + "/.git/objects/pack"
        let pack = try #require(try FileManager.default.contentsOfDirectory(atPath: packs).first { $0.hasSuffix(".pack") })
        try FileManager.default.moveItem(atPath: packs + "/" + pack, toPath: scratch)
        try FileManager.default.removeItem(atPath: packs + "/" + pack.dropLast(5) + ".idx")
        let unpacked = try Processes.run("/bin/sh", ["-c", "git unpack-objects -q < '\(scratch)'"], environment: GitCLI.gitEnvironment,
                                         currentDirectory: repository)
        try #require(unpacked.status == 0, "\(unpacked)")
        for (key, value) in [("pack.window", "1000"), ("pack.threads", "1")] { try GitCLI.run(["config", key, value], in: repository) }
    }

    /// Waits until `process` has git packing in `repository`, stops it by `stop`, and expects
    /// all of git to end with it within a bounded wait — the groups git ran in (with the
    /// process that watches them; not this test's own group, where git runs when it has none
    /// of its own), and git in the repository; ends whatever is left, and returns it.
    @discardableResult
    static func stopWhilePacking(_ process: BackgroundProcess, in repository: String, by stop: Stop, _ what: String) throws -> [RunningProcess] {
        var packing: [RunningProcess] = []
        let started = waitFor({
            packing = processes(in: repository)
            return packing.contains { $0.arguments.contains("pack-objects") }
        }, seconds: 60)
        try #require(started, "git pack-objects never started: \(packing); \(process.output)")
        stop.send(to: process.pid)
        #expect(waitFor({ !process.isRunning }, seconds: 10))
        let groups = Set(packing.map(\.group)).subtracting([getpgrp()])
        var left: [RunningProcess] = []
        let ended = waitFor({
            left = processes(in: repository, orIn: groups)
            return left.isEmpty
        }, seconds: 10)
        #expect(ended, "still running after \(what) was stopped (\(stop)): \(left)")
        end(left, in: repository)
        return left
    }

    /// A `ledger gc` stopped while git packs (`kill -9`, SIGTERM, Ctrl-C) takes all of git with
    /// it — `git gc`, its `git repack` and that one's `git pack-objects`, which the parent-death
    /// signal of `git gc` does not reach — within a bounded wait, so that no git works on in the
    /// repository without ledger's locks; the repository is whole after (`git fsck --full`) and
    /// the next `ledger gc` packs it. Plain `git gc` run by a shell that is killed goes on.
    @Test(arguments: Stop.allCases) func aStoppedGcLeavesNoGitRunning(_ stop: Stop) throws {
        let ledger = try TestLedger()
        try Self.fillWithSlowObjects(ledger.root, scratch: ledger.directory.url("objects.pack"))
        let copy = ledger.directory.url("copy")
        try FileManager.default.copyItem(atPath: ledger.root, toPath: copy)

        // (Its output to a file: a pipe would keep the test waiting for whoever still holds it.)
        let gc = try BackgroundProcess(LedgerBinary.path, ["--repo", ledger.root, "gc"], environment: ledger.environment,
                                       log: ledger.directory.url("gc.log"), newProcessGroup: stop == .ctrlC)
        let left = try Self.stopWhilePacking(gc, in: ledger.root, by: stop, "ledger gc")

        // What git left is what git tolerates: the repository is whole, and packs again.
        let fsck = try GitCLI.run(["fsck", "--full", "--no-progress", "--no-dangling"], in: ledger.root)
        #expect(fsck.status == 0 && fsck.stdout.isEmpty, "\(fsck)")
        for key in ["pack.window", "pack.threads"] { try GitCLI.run(["config", "--unset", key], in: ledger.root) }
        let again = ledger.run("gc")
        #expect(again.status == 0, "\(again)")
        #expect(try RepositoryFiles.countObjects(ledger.root)["count"] == 0)
        #expect(try GitCLI.fsck(ledger.root) == nil)

        // Plain git, for the comparison: a shell running `git gc` in the copy, stopped the same way.
        let shell = try BackgroundProcess("/bin/sh", ["-c", "cd '\(copy)' && git -c gc.autoDetach=false gc -q; true"],
                                          environment: GitCLI.gitEnvironment, log: ledger.directory.url("git-gc.log"),
                                          newProcessGroup: stop == .ctrlC)
        var plain: [RunningProcess] = []
        #expect(Self.waitFor({ Self.processes(in: copy).contains { $0.arguments.contains("pack-objects") } }, seconds: 60))
        stop.send(to: shell.pid)
        _ = Self.waitFor({ !shell.isRunning }, seconds: 10)
        _ = Self.waitFor({
            plain = Self.processes(in: copy)
            return plain.isEmpty
        }, seconds: 2)
        print("ledger gc stopped (\(stop)) left \(left.count) git processes; a shell running git gc, stopped the same way, left \(plain.count)")
        // A terminal's Ctrl-C reaches all of plain git (its foreground group); a signal to the shell alone does not.
        #expect(stop == .ctrlC ? plain.isEmpty : !plain.isEmpty, "\(plain)")
        Self.end(plain, in: copy)
    }

    /// The same for the maintenance a `ledger sync` runs when git's threshold is passed: a sync
    /// killed while its `git gc --auto` packs takes git with it, and the repository is whole.
    @Test func aSyncKilledInItsMaintenanceLeavesNoGitRunning() throws {
        let fixture = try SyncFixture()
        let ledger = try fixture.origin()
        try Self.fillWithSlowObjects(ledger.root, scratch: fixture.directory.url("objects.pack"))
        try GitCLI.run(["config", "gc.auto", "100"], in: ledger.root)
        #expect(ledger.run("moments", "add", "a quiet run").status == 0)  // something to commit and push first

        let sync = try BackgroundProcess(LedgerBinary.path, ["--repo", ledger.root, "sync"], environment: ledger.environment,
                                         log: fixture.directory.url("sync.log"))
        try Self.stopWhilePacking(sync, in: ledger.root, by: .kill9, "ledger sync")

        // The sync's own work was done before its maintenance: pushed, and git finds all whole.
        let fsck = try GitCLI.run(["fsck", "--full", "--no-progress", "--no-dangling"], in: ledger.root)
        #expect(fsck.status == 0 && fsck.stdout.isEmpty, "\(fsck)")
        let pushed = try GitCLI.run(["rev-parse", "main"], in: fixture.remote)
        let head = try GitCLI.run(["rev-parse", "HEAD"], in: ledger.root)
        #expect(pushed.status == 0 && pushed.stdout == head.stdout, "\(pushed) \(head)")
        for key in ["pack.window", "pack.threads"] { try GitCLI.run(["config", "--unset", key], in: ledger.root) }
        let again = ledger.run("sync")
        #expect(again.status == 0, "\(again)")
        #expect(try GitCLI.fsck(ledger.root) == nil)
    }
}
