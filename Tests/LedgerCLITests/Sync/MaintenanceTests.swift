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

    /// A `ledger gc` killed with SIGKILL (its process alone, as `kill -9 PID` does) takes its
    /// `git gc` with it, which would otherwise go on working in the repository without the
    /// locks ledger held for it. Plain `git gc` started by a shell that is killed goes on.
    @Test func aKilledGcLeavesNoGitGcRunning() throws {
        let ledger = try TestLedger()
        // Enough to pack that git gc takes a while: 32 MiB that does not compress.
        let big = ledger.root + "/big.bin"
        var random = SplitMix64(seed: 1)
        _ = FileManager.default.createFile(atPath: big, contents: Data((0..<(4 << 20)).flatMap { _ in withUnsafeBytes(of: random.next()) { Array($0) } }))
        try GitCLI.run(["add", "big.bin"], in: ledger.root)
        try GitCLI.run(["commit", "-q", "-m", "big"], in: ledger.root)
        func gitGc(in repository: String) -> [pid_t] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }.filter { pid in
                let argv = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?.split(separator: "\0").map(String.init) ?? []
                return argv.first.map { ($0 as NSString).lastPathComponent == "git" } == true && argv.contains("gc")
                    && (argv.contains("--git-dir=" + repository + "/.git") || (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")) == repository)
            }
        }
        func waitFor(_ condition: () -> Bool, seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !condition(), Date() < deadline { usleep(10_000) }
            return condition()
        }
        // (Its output to a file: a pipe would keep the test waiting for whoever still holds it.)
        let gc = try BackgroundProcess(LedgerBinary.path, ["--repo", ledger.root, "gc"], environment: ledger.environment, log: ledger.directory.url("gc.log"))
        #expect(waitFor({ !gitGc(in: ledger.root).isEmpty }, seconds: 20), "git gc never started")
        kill(gc.pid, SIGKILL)
        _ = waitFor({ !gc.isRunning }, seconds: 5)
        #expect(waitFor({ gitGc(in: ledger.root).isEmpty }, seconds: 0.3), "git gc is still running after ledger gc was killed: \(gitGc(in: ledger.root))")

        // Plain git, for the comparison (in a clone: the killed gc left its gc.pid here): a
        // shell running `git gc`, killed the same way.
        let copy = ledger.directory.url("copy")
        try GitCLI.run(["clone", "-q", ledger.root, copy], in: ledger.directory.path)
        let shell = try BackgroundProcess("/bin/sh", ["-c", "cd '\(copy)' && git gc --aggressive -q; true"], environment: GitCLI.gitEnvironment,
                                          log: ledger.directory.url("git-gc.log"))
        #expect(waitFor({ !gitGc(in: copy).isEmpty }, seconds: 20))
        kill(shell.pid, SIGKILL)
        _ = waitFor({ !shell.isRunning }, seconds: 5)
        let orphans = gitGc(in: copy)
        print("a killed ledger gc left 0 git gc running; a killed shell running git gc left \(orphans.count)")
        for pid in orphans { kill(pid, SIGKILL) }
    }
}
