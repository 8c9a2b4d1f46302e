import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// What killed processes leave behind — git locks, an index behind HEAD, a half-written work
/// tree, temporary files — and how the next ledger command deals with it, checked with git.
@Suite struct CrashLeftoverTests {
    static func at(_ time: String) -> [String: String] { ["LEDGER_NOW": "2026-11-21T\(time)+01:00"] }

    @Test func aStaleLockInThePathRemoteIsRemovedAndThePushGoesThrough() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let b = try fixture.clone()
        // What a sync killed during its push leaves in the remote.
        let lock = fixture.remote + "/refs/heads/main.lock"
        try RepositoryFiles.leave(lock, aged: 3600)
        // git itself is stuck on it too.
        let blocked = try GitCLI.run(["update-ref", "refs/heads/main", "HEAD"], in: fixture.remote)
        #expect(blocked.status != 0 && blocked.stderr.contains("main.lock"), "\(blocked)")
        try b.write("waterline/b.json", "{}\n")
        let r = b.run("sync", "--json")
        #expect(r.status == 0, "\(r)")
        #expect(r.json["housekeeping"]?.arrayValue?.first?.stringValue?.contains("removed the stale git lock \(lock)") == true, "\(r)")
        #expect(!FileSystem.exists(lock))
        #expect(try RepositoryFiles.revParse("refs/heads/main", in: fixture.remote) == RepositoryFiles.revParse("HEAD", in: b.root))
        #expect(try GitCLI.fsck(fixture.remote) == nil)
    }

    @Test func aLockHeldByARunningProcessIsNamedWithItAndNotRetriedBlindly() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let b = try fixture.clone()
        let lock = fixture.remote + "/refs/heads/main.lock"
        // A process that has the lock open (as a git or libgit2 writer does while it writes).
        let holder = try BackgroundProcess("/bin/sh", ["-c", "exec 3>'\(lock)'; exec sleep 60"], log: fixture.directory.url("holder.log"))
        defer { holder.stop() }
        for _ in 0..<200 where !FileSystem.exists(lock) { usleep(10_000) }
        try b.write("waterline/b.json", "{}\n")
        let r = b.run("sync", "--json")
        #expect(r.status == 3, "\(r)")
        #expect(r.json["outcome"] == .string("rejected"))
        #expect(r.stderr.contains(lock) && r.stderr.contains("process \(holder.pid)"), "\(r)")
        #expect(!r.stderr.contains("in a moment"))
        // The work is committed here; once the holder is gone (its lock left behind), the
        // next sync clears the lock and pushes.
        #expect(try b.gitStatus().isEmpty)
        holder.stop()
        RepositoryFiles.age(lock, seconds: 60)
        let next = b.run("sync")
        #expect(next.status == 0, "\(next)")
        #expect(try RepositoryFiles.revParse("refs/heads/main", in: fixture.remote) == RepositoryFiles.revParse("HEAD", in: b.root))
    }

    @Test func staleLocksInTheLedgerAreRemovedBeforeTheSyncNeedsThem() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let b = try fixture.clone()
        for lock in ["index.lock", "refs/remotes/origin/main.lock"] {
            try RepositoryFiles.leave(b.root + "/.git/" + lock, aged: 600)
        }
        // git refuses to touch the index while index.lock is there.
        #expect(try GitCLI.run(["add", "-A"], in: b.root).stderr.contains("index.lock"))
        try b.write("waterline/b.json", "{}\n")
        let r = b.run("sync")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("Removed the stale git lock \(b.root)/.git/index.lock"), "\(r)")
        #expect(!FileSystem.exists(b.root + "/.git/index.lock") && !FileSystem.exists(b.root + "/.git/refs/remotes/origin/main.lock"))
        #expect(try b.gitStatus().isEmpty)
    }

    @Test func aCrashBetweenHeadAndIndexIsRepairedByTheNextCommandOfAnyKind() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let b = try fixture.clone()
        for i in 0..<40 { try b.write("imported/m\(i).txt", "note \(i)\n") }
        // Killed after the commit, before the index was written: git sees the commit undone.
        let killed = try b.runBinary("sync", env: ["LEDGER_SYNC_KILL_AT": SyncCheckpoint.afterCommit.rawValue])
        #expect(killed.status == SIGKILL, "\(killed)")
        let staged = try b.gitStatus()
        #expect(staged.contains("D  imported/m0.txt"), "\(staged)")
        // Any command — here one that only reads — puts the index back in step with HEAD.
        let r = b.run("waterline", "status")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("reset the index to HEAD"), "\(r)")
        #expect(try b.gitStatus().isEmpty)
        #expect(b.run("waterline", "status").stderr.isEmpty)
        let sync = b.run("sync", "--json")
        #expect(sync.status == 0)
        #expect(sync.json["pushed"]?.arrayValue?.count == 40)
    }

    @Test func anInterruptedCheckoutIsFinishedAndNeverCommittedAsDeletions() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("waterline", "start").status == 0)
        #expect(a.run("sync").status == 0)
        // A clone killed after git set HEAD and before any index: `git clone --no-checkout`
        // leaves the same, and then the first files of the checkout, one of them changed.
        let c = try TestLedger(initialize: false)
        #expect(try GitCLI.run(["clone", "-q", "--no-checkout", fixture.remote, c.root], in: "/").status == 0)
        #expect(!FileSystem.exists(c.root + "/.git/index"))
        for file in ["ledger.json", ".gitattributes"] {
            let content = try GitCLI.run(["show", "HEAD:" + file], in: c.root).stdout
            try c.write(file, file == ".gitattributes" ? content + "# mine\n" : content)
        }
        let r = c.run("status")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("finished the checkout"), "\(r)")
        #expect(try c.headTree().keys.allSatisfy { FileSystem.exists(c.root + "/" + $0) })
        // The changed file is kept, and shows as changed; nothing else does.
        #expect(c.read(".gitattributes")?.hasSuffix("# mine\n") == true)
        #expect(try c.gitStatus() == " M .gitattributes\n")
        let before = try a.headTree()
        #expect(c.run("sync").status == 0)
        var expected = before
        expected[".gitattributes"] = try c.headTree()[".gitattributes"]
        #expect(try c.headTree() == expected)
        #expect(c.run("waterline", "status", "--json").json["sessionId"]?.stringValue != nil)
    }

    @Test func leftoversOfKilledWritesAreRemovedByTheNextSync() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let b = try fixture.clone()
        let dead = try RepositoryFiles.deadPID()
        let leftover = "waterline/.settings.json.tmp-\(dead)-12345"
        // The name the writer gives today: a random suffix (every writer holds the lock sync holds).
        let random = "waterline/presets/.beer.json.tmp-2v26mzjzqwgrm"
        let live = "waterline/.settings.json.tmp-\(getpid())-67890"  // a write still running
        let state = ".git/ledger/.device.json.tmp-\(dead)-1"
        let randomState = ".git/ledger/.device.json.tmp-k3f9a0"
        for f in [leftover, random, live, state, randomState] { try b.write(f, "{\"half\": ") }
        // libgit2's temporary pack of a fetch killed an hour ago, and of one still running.
        let oldPack = b.root + "/.git/objects/pack/pack_git2_0123456789abcdef"
        let newPack = b.root + "/.git/objects/pack/pack_git2_fedcba9876543210"
        try RepositoryFiles.leave(oldPack, aged: 7200)
        try RepositoryFiles.leave(newPack, aged: 0)
        #expect(try GitCLI.run(["count-objects", "-v"], in: b.root).stderr.contains("garbage found"))
        let r = b.run("sync")
        #expect(r.status == 0, "\(r)")
        for f in [leftover, random, state, randomState] { #expect(!FileSystem.exists(b.root + "/" + f), "\(f) is still there") }
        #expect(FileSystem.exists(b.root + "/" + live))
        #expect(!FileSystem.exists(oldPack) && FileSystem.exists(newPack))
        #expect(r.stdout.contains("Removed \(leftover), the temporary file of a write that was interrupted"), "\(r)")
    }
}
