import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// Power cuts, simulated: each command runs on the project's power-cut file system
/// (`PowerCutFileSystem`) — the ledger and its remote on a path on the same "disk" — to its end
/// or until its whole process group is killed at a random moment; then everything not flushed
/// is dropped and the disk mounted again. After each cut: everything a command acknowledged
/// (exit 0) is there, byte for byte; `git fsck` is clean on every repository; the next
/// `ledger sync` succeeds with nothing asked of anyone; and the remote's `main` before the
/// command is an ancestor of its `main` after that sync (no history rewritten, no new root).
/// Plain git runs on the same disk, with its defaults and with `core.fsync=all`, for the
/// comparison; with its defaults it must lose something, or the disk would not be cutting.
///
/// `LEDGER_POWERCUT_SEED` chooses the seed (default 21), `LEDGER_POWERCUT_SCALE` multiplies
/// the number of cuts (default 1: 142 cuts of ledger's commands — 100 of them of `sync` and
/// `gc` — and 32 of plain git's). A failure names its seed and cut.
@Suite struct PowerCutTests {
    static let seed = ProcessInfo.processInfo.environment["LEDGER_POWERCUT_SEED"].flatMap { UInt64($0) } ?? 21
    static let scale = max(1, ProcessInfo.processInfo.environment["LEDGER_POWERCUT_SCALE"].flatMap { Int($0) } ?? 1)

    @Test func everyAppsWriteAndCheckFixSurviveACut() throws {
        var disk = try CutLedger(seed: Self.seed, name: "app writes")
        let writes: [(String, [String])] = [
            ("waterline drink", ["waterline", "drink", "--preset", "beer"]), ("brew save", ["brew", "save", "--rating", "4"]),
            ("hydrate drank", ["hydrate", "drank"]), ("moments add", ["moments", "add", "a moment"]), ("check --fix", ["check", "--fix"]),
        ]
        for round in 0..<(6 * Self.scale) {
            for (name, arguments) in writes {
                if name == "check --fix" { try disk.unformat("waterline/settings.json") }
                try disk.cut(name, arguments, clock: round)
            }
        }
        disk.printTable()
        #expect(disk.cuts >= 30 * Self.scale)
    }

    @Test func syncSurvivesACut() throws {
        var disk = try CutLedger(seed: Self.seed + 1, name: "sync")
        let other = try disk.cloneDevice("b")
        for round in 0..<(50 * Self.scale) {
            // The other device's change, synced (acknowledged): the sync under test merges it.
            try disk.acknowledge(on: other, ["moments", "add", "from b"], clock: round)
            try disk.acknowledge(on: other, ["sync"], clock: round)
            try disk.write(["moments", "add", "from a"], clock: round)
            try disk.cut("sync", ["sync"], clock: round, also: [other])
        }
        disk.printTable()
    }

    @Test func gcSurvivesACut() throws {
        var disk = try CutLedger(seed: Self.seed + 2, name: "gc")
        for round in 0..<(50 * Self.scale) {
            try disk.write(["moments", "add", "before gc"], clock: round)
            try disk.acknowledge(on: disk.root, ["sync"], clock: round)
            try disk.cut("gc", ["gc"], clock: round)
        }
        disk.printTable()
    }

    @Test func cloneSurvivesACut() throws {
        var disk = try CutLedger(seed: Self.seed + 3, name: "clone")
        for round in 0..<(12 * Self.scale) {
            try disk.cutClone(round: round)
        }
        disk.printTable()
    }

    @Test func plainGitOnTheSameDiskLosesWhatItAcknowledged() throws {
        var defaults = try CutGit(seed: Self.seed + 4, settings: [:])
        var durable = try CutGit(seed: Self.seed + 5, settings: ["core.fsync": "all", "core.fsyncMethod": "fsync"])
        for round in 0..<(16 * Self.scale) {
            try defaults.cut(round: round)
            try durable.cut(round: round)
        }
        for git in [defaults, durable] { git.printRow() }
        // The disk must be cutting: git's defaults flush neither objects nor references.
        #expect(defaults.lost + defaults.corrupt > 0, "plain git with its defaults lost nothing in \(defaults.cuts) cuts: the file system is not dropping unflushed data")
    }
}

// MARK: - Ledger on the power-cut disk

/// What the documents hold, counted from the files: what was acknowledged must stay counted.
struct Tally: Equatable, CustomStringConvertible {
    var drinks = 0, brewLogs = 0, moments = 0, confirmations = 0

    func isCovered(by other: Tally) -> Bool {
        drinks <= other.drinks && brewLogs <= other.brewLogs && moments <= other.moments && confirmations <= other.confirmations
    }
    var description: String { "\(drinks) drinks, \(brewLogs) brew logs, \(moments) moments, \(confirmations) confirmations" }

    /// Counted in the ledger at `root`.
    init(root: String) {
        for path in files(root + "/waterline/sessions") {
            if case .array(let entries)? = document(path)?["entries"] { drinks += entries.filter { $0["type"] == .string("alcohol") }.count }
        }
        brewLogs = files(root + "/brew/logs").count
        moments = files(root + "/moments/experiences").count
        for path in files(root + "/hydrate/days") {
            if case .array(let c)? = document(path)?["confirmations"] { confirmations += c.count }
        }
    }

    init() {}
}

private func files(_ base: String) -> [String] {
    guard let e = FileManager.default.enumerator(atPath: base) else { return [] }
    var out: [String] = []
    while let p = e.nextObject() as? String {
        if p.hasSuffix(".json"), !(p as NSString).lastPathComponent.hasPrefix(".") { out.append(base + "/" + p) }
    }
    return out
}

private func document(_ path: String) -> JSONValue? {
    (try? FileSystem.read(path)).flatMap { try? JSONParser.parse($0) }
}

/// Every file of a work tree (but `.git`) with its bytes.
private func snapshot(_ root: String) -> [String: [UInt8]] {
    guard let e = FileManager.default.enumerator(atPath: root) else { return [:] }
    var out: [String: [UInt8]] = [:]
    while let p = e.nextObject() as? String {
        if p == ".git" || p.hasPrefix(".git/") { e.skipDescendants(); continue }
        if FileSystem.stamp(root + "/" + p)?.type == .file { out[p] = (try? FileSystem.read(root + "/" + p)) ?? [] }
    }
    return out
}

/// The power-cut disk a test works on (its remote at `remote.git`), its seed, and the moments
/// it kills commands at.
struct CutDisk {
    let fs: PowerCutFileSystem
    let seed: UInt64
    var rng: SplitMix64
    var remote: String { fs.mountPoint + "/remote.git" }

    init(seed: UInt64) throws {
        fs = try PowerCutFileSystem()
        self.seed = seed
        rng = SplitMix64(seed: seed)
    }

    /// When to kill a command whose last run to its end took `typical` seconds: never the first
    /// time (nil: it is timed), then at a random moment up to twice that (about half the runs
    /// end first and are acknowledged).
    mutating func killMoment(typical: Double?) -> Double? {
        typical.map { Double.random(in: 0...($0 * 2), using: &rng) }
    }
}

/// One row of the comparison table.
struct CutCounts {
    var cuts = 0, acknowledged = 0, lost = 0, corrupt = 0, manual = 0
}

/// A ledger (and its remote on a path) on the power-cut disk, cut after each command under test.
struct CutLedger {
    var disk: CutDisk
    let name: String
    let root: String
    let home: String
    /// What was acknowledged so far: the documents' counts and every commit a sync published.
    var acknowledged = Tally()
    var published: [String] = []
    /// Per command: the counts, and how long a run to its end takes (to pick kill moments).
    var counts: [String: CutCounts] = [:]
    var typical: [String: Double] = [:]
    var cuts: Int { counts.values.reduce(0) { $0 + $1.cuts } }

    var fs: PowerCutFileSystem { disk.fs }
    var seed: UInt64 { disk.seed }
    var remote: String { disk.remote }

    init(seed: UInt64, name: String) throws {
        disk = try CutDisk(seed: seed)
        let fs = disk.fs
        self.name = name
        root = fs.mountPoint + "/a"
        home = fs.mountPoint + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try GitCLI.initBare(remote)
        for arguments in [["init", root, "--remote", remote], ["waterline", "start"], ["sync"]] {
            let r = try ledger(arguments, in: root, clock: 0, killAfter: nil)
            guard r.status == 0 else { throw LedgerError.failure("setup `ledger \(arguments.joined(separator: " "))` failed: \(r.output)") }
        }
        // The starting state is on the disk (a clean shutdown flushes everything).
        try fs.remount()
        acknowledged = Tally(root: root)
        published = [try head(remote)]
    }

    /// The environment of a ledger command at minute `clock` of the night.
    func environment(_ repo: String, clock: Int) -> [String: String] {
        let minutes = 20 * 60 + clock
        let now = String(format: "2026-11-21T%02d:%02d:00+01:00", min(23, minutes / 60), minutes % 60)
        return ["HOME": home, "LEDGER_REPO": repo, "LEDGER_NOW": now, "TZ": "Europe/Paris", "NO_COLOR": "1", "GIT_CONFIG_NOSYSTEM": "1",
                "PATH": LedgerBinary.directory + ":/usr/local/bin:/usr/bin:/bin"]
    }

    func ledger(_ arguments: [String], in repo: String, clock: Int, killAfter: Double?, env: [String: String] = [:]) throws -> CutRun {
        var e = environment(repo, clock: clock).merging(env) { $1 }
        // hydrate drank confirms the slot of the hour: one hour per round, 09:30 onwards.
        if arguments.first == "hydrate" { e["LEDGER_NOW"] = String(format: "2026-11-21T%02d:30:00+01:00", 9 + clock % 8) }
        return try CutRun.run(LedgerBinary.path, arguments, environment: e, directory: fs.mountPoint, killAfter: killAfter)
    }

    /// The commit `main` names in `repository` (raw, as git reads it).
    func head(_ repository: String) throws -> String {
        try GitCLI.run(["rev-parse", "--verify", "-q", "refs/heads/main"], in: repository).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A change made before the command under test, run to its end and flushed by the command
    /// itself (documents are written durably).
    mutating func write(_ arguments: [String], clock: Int) throws {
        try acknowledge(on: root, arguments, clock: clock)
    }

    /// A command on a device, to its end (it must succeed): its result is acknowledged.
    mutating func acknowledge(on repo: String, _ arguments: [String], clock: Int) throws {
        let r = try ledger(arguments, in: repo, clock: clock, killAfter: nil)
        guard r.status == 0 else { throw LedgerError.failure("[\(name), seed \(seed)] `ledger \(arguments.joined(separator: " "))` in \(repo) failed: \(r.output)") }
        if repo == root { acknowledged = Tally(root: root) }
        if arguments == ["sync"] { published.append(try head(remote)) }
    }

    /// Another device: a clone of the remote on the same disk.
    mutating func cloneDevice(_ device: String) throws -> String {
        let path = fs.mountPoint + "/" + device
        let r = try ledger(["clone", remote, path], in: path, clock: 0, killAfter: nil)
        guard r.status == 0 else { throw LedgerError.failure("clone failed: \(r.output)") }
        try fs.remount()
        return path
    }

    /// Makes a document of the ledger non-canonical (compact), flushed: `check --fix` has
    /// something to rewrite.
    func unformat(_ relative: String) throws {
        guard let json = document(root + "/" + relative) else { return }
        try FileSystem.writeAtomically(root + "/" + relative, Array(CanonicalJSON.encode(json).filter { $0 != 0x0A && $0 != 0x20 }) + [0x0A])
    }

    /// Runs `ledger ARGUMENTS` to its end or until killed at a random moment, cuts the power,
    /// and checks what must hold (see the suite).
    mutating func cut(_ command: String, _ arguments: [String], clock: Int, also devices: [String] = []) throws {
        let label = "[\(name), seed \(seed), cut \(fs.cuts + 1): \(command)]"
        let remoteBefore = try head(remote)
        let killAfter = disk.killMoment(typical: typical[command])
        let run = try ledger(arguments, in: root, clock: clock, killAfter: killAfter)
        var row = counts[command] ?? CutCounts()
        var acknowledgedFiles: [String: [UInt8]]?
        var acknowledgedHead: (local: String, remote: String)?
        if let status = run.status {
            #expect(status == 0, "\(label) ended with exit status \(status): \(run.output)")
            if status == 0 {
                typical[command] = run.seconds
                row.acknowledged += 1
                acknowledged = Tally(root: root)
                acknowledgedFiles = snapshot(root)
                if command == "sync" || command == "gc" { acknowledgedHead = (try head(root), try head(remote)) }
            }
        }
        try fs.cut()
        row.cuts += 1

        // What was acknowledged is there, byte for byte, before anything repairs anything.
        var lost = false
        let afterCut = snapshot(root)
        if let acknowledgedFiles, afterCut != acknowledgedFiles {
            let differing = Set(acknowledgedFiles.keys).union(afterCut.keys).filter { afterCut[$0] != acknowledgedFiles[$0] }
            Issue.record("\(label) acknowledged files changed by the cut: \(differing.sorted().prefix(5))")
            lost = true
        }
        if let acknowledgedHead {
            let now = (try head(root), try head(remote))
            if now != acknowledgedHead {
                Issue.record("\(label) acknowledged main \(acknowledgedHead) became \(now) after the cut")
                lost = true
            }
        }
        // git's own check, on every repository of the disk.
        let corrupt = try fsckAfterCut([root, remote] + devices, label: label)
        if try nextSync(label: label, clock: clock, row: &row).status == 0 {
            published.append(try head(remote))
        }
        // Nothing acknowledged went missing since; no history was rewritten.
        let tally = Tally(root: root)
        if !acknowledged.isCovered(by: tally) {
            Issue.record("\(label) acknowledged \(acknowledged), found \(tally)")
            lost = true
        }
        for commit in published where !(try isAncestor(commit, of: "refs/heads/main", in: remote)) {
            Issue.record("\(label) \(commit), published before, is not in the remote's main any more")
            lost = true
        }
        #expect(try isAncestor(remoteBefore, of: "refs/heads/main", in: remote), "\(label) the remote's main before (\(remoteBefore)) is not an ancestor of its main after the next sync")
        if lost { row.lost += 1 }
        if corrupt { row.corrupt += 1 }
        counts[command] = row
        acknowledged = tally
    }

    /// `git fsck` of each of `repositories` after a cut, an issue recorded per complaint;
    /// whether any complained.
    func fsckAfterCut(_ repositories: [String], label: String) throws -> Bool {
        var corrupt = false
        for repo in repositories {
            if let problem = try GitCLI.fsck(repo) {
                Issue.record("\(label) git fsck of \(repo) after the cut: \(problem)")
                corrupt = true
            }
        }
        return corrupt
    }

    /// The `ledger sync` after a cut, which must need nobody: a failure is recorded and counted
    /// as a manual repair in `row`.
    func nextSync(label: String, clock: Int, row: inout CutCounts) throws -> CutRun {
        let next = try ledger(["sync"], in: root, clock: clock, killAfter: nil)
        if next.status != 0 {
            Issue.record("\(label) the next `ledger sync` failed: \(next.output)")
            row.manual += 1
        }
        return next
    }

    /// A clone cut at a random moment; then the same `ledger clone` again (it finishes an
    /// interrupted one), and a sync from the clone.
    mutating func cutClone(round: Int) throws {
        let command = "clone"
        let label = "[\(name), seed \(seed), cut \(fs.cuts + 1): clone]"
        let target = fs.mountPoint + "/c\(round)"
        let remoteHead = try head(remote)
        let killAfter = disk.killMoment(typical: typical[command])
        let run = try ledger(["clone", remote, target], in: target, clock: round, killAfter: killAfter)
        var row = counts[command] ?? CutCounts()
        if run.status == 0 {
            typical[command] = run.seconds
            row.acknowledged += 1
        } else if let status = run.status {
            Issue.record("\(label) ended with exit status \(status): \(run.output)")
        }
        try fs.cut()
        row.cuts += 1
        if run.status == 0, (try? head(target)) != remoteHead {
            Issue.record("\(label) the acknowledged clone's main is not the remote's after the cut")
            row.lost += 1
        }
        let again = try ledger(["clone", remote, target], in: target, clock: round, killAfter: nil)
        let sync = again.status == 0 ? try ledger(["sync"], in: target, clock: round, killAfter: nil) : again
        if again.status != 0 || sync.status != 0 {
            Issue.record("\(label) cloning again and syncing needed a hand: \(again.output)\(sync.output)")
            row.manual += 1
        }
        if let problem = try GitCLI.fsck(target) {
            Issue.record("\(label) git fsck of the clone: \(problem)")
            row.corrupt += 1
        }
        let status = try GitCLI.run(["status", "--porcelain"], in: target).stdout
        #expect(status.isEmpty, "\(label) the clone's work tree differs from its commit: \(status)")
        #expect(try isAncestor(remoteHead, of: "refs/heads/main", in: remote), "\(label) the remote lost its main")
        counts[command] = row
        try FileManager.default.removeItem(atPath: target)
    }

    func isAncestor(_ commit: String, of reference: String, in repository: String) throws -> Bool {
        try GitCLI.run(["merge-base", "--is-ancestor", commit, reference], in: repository).status == 0
    }

    /// The figures of this run, as the notes and docs/BENCHMARKS.md give them.
    func printTable() {
        for (command, c) in counts.sorted(by: { $0.key < $1.key }) {
            print("power cuts [seed \(seed)] ledger \(command): \(c.cuts) cuts, \(c.acknowledged) acknowledged, \(c.lost) acknowledged and lost, \(c.corrupt) corrupt, \(c.manual) needed a manual repair")
            #expect(c.lost == 0 && c.corrupt == 0 && c.manual == 0, "ledger \(command): \(c.lost) lost, \(c.corrupt) corrupt, \(c.manual) manual repairs in \(c.cuts) cuts")
        }
    }
}

// MARK: - Plain git on the same disk

/// A plain git clone and its remote on the power-cut disk: `git commit` + `git push` or
/// `git gc`, cut at a random moment, with the settings given in both repositories'
/// configuration (git's defaults, or `core.fsync=all`: set so, and not with `git -c`, which
/// git does not pass on to the `receive-pack` of a push to a path). Counted, not asserted (but
/// for the suite's check that the disk cuts).
struct CutGit {
    var disk: CutDisk
    let settings: [String: String]
    let work: String
    var cuts = 0, acknowledged = 0, lost = 0, corrupt = 0
    var typical: Double?
    var fs: PowerCutFileSystem { disk.fs }
    var remote: String { disk.remote }

    init(seed: UInt64, settings: [String: String]) throws {
        disk = try CutDisk(seed: seed)
        self.settings = settings
        work = disk.fs.mountPoint + "/work"
        try reset()
    }

    /// A fresh remote and clone with one commit, flushed (after a corruption, the next cuts
    /// start from a sound repository again).
    mutating func reset() throws {
        for p in [remote, work] { try? FileManager.default.removeItem(atPath: p) }
        try GitCLI.initBare(remote)
        _ = try GitCLI.run(["clone", "-q", remote, work], in: fs.mountPoint)
        _ = try GitCLI.run(["config", "gc.autoDetach", "false"], in: work)
        for (key, value) in settings {
            for repo in [work, remote] { _ = try GitCLI.run(["config", key, value], in: repo) }
        }
        try FileSystem.writeAtomically(work + "/first.json", Array("{}\n".utf8))
        _ = try GitCLI.run(["add", "-A"], in: work)
        _ = try GitCLI.run(["commit", "-q", "-m", "first"], in: work)
        _ = try GitCLI.run(["push", "-q", "origin", "HEAD:main"], in: work)
        try fs.remount()
    }

    mutating func cut(round: Int) throws {
        // The file itself is flushed by the test: what is measured is git's own writes.
        try FileSystem.writeAtomically(work + "/f\(round).json", Array("{\"round\": \(round)}\n".utf8))
        let gc = Int.random(in: 0..<4, using: &disk.rng) == 0
        let script = gc ? "git gc -q" : "git add -A && git commit -q -m r\(round) && git push -q origin HEAD:main"
        let before = try GitCLI.run(["rev-parse", "HEAD"], in: work).stdout
        let run = try CutRun.run("/bin/sh", ["-c", script], environment: GitCLI.gitEnvironment, directory: work,
                                 killAfter: disk.killMoment(typical: typical))
        var expected: String?
        if run.status == 0 {
            typical = run.seconds
            acknowledged += 1
            expected = try GitCLI.run(["rev-parse", "HEAD"], in: work).stdout
        }
        try fs.cut()
        cuts += 1
        var broken = false
        for repo in [work, remote] where try GitCLI.fsck(repo) != nil { broken = true }
        if let expected {
            let local = try GitCLI.run(["rev-parse", "refs/heads/main"], in: work).stdout
            let pushed = try GitCLI.run(["rev-parse", "refs/heads/main"], in: remote).stdout
            if local != expected || (!gc && pushed != expected) || (gc && local != before) { lost += 1 }
        }
        if broken {
            corrupt += 1
            try reset()
        }
    }

    func printRow() {
        let name = settings.isEmpty ? "git's defaults" : settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        print("power cuts [seed \(disk.seed)] plain git (\(name)) commit+push / gc: \(cuts) cuts, \(acknowledged) acknowledged, \(lost) acknowledged and lost, \(corrupt) corrupt")
    }
}
