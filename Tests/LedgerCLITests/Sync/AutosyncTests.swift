import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// `ledger autosync`: real processes on ledgers syncing through a bare remote on a path.
@Suite(.serialized) struct AutosyncTests {
    /// Short settings for tests: a change is synced 200 ms after it, and every 2 s.
    static func quick(_ l: TestLedger) {
        for (key, value) in [("debounce", "200ms"), ("interval", "2s")] {
            let r = l.run("autosync", "settings", "set", key, value)
            #expect(r.status == 0, "\(r)")
        }
    }

    /// Starts `ledger autosync` on `l` (stopped by its PID when the value goes away).
    static func start(_ l: TestLedger, env: [String: String] = [:]) throws -> BackgroundProcess {
        try BackgroundProcess(LedgerBinary.path, ["autosync"], environment: l.environment.merging(env) { $1 }, directory: l.root,
                              log: l.directory.url("autosync-\(UUID().uuidString.prefix(8)).log"))
    }

    /// The tree of the remote's main branch, as plain git sees it.
    static func remoteTree(_ fixture: SyncFixture) throws -> [String: String] {
        let r = try GitCLI.run(["ls-tree", "-r", "main"], in: fixture.remote)
        var out: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { out[String(parts[1])] = String(parts[0].split(separator: " ")[2]) }
        }
        return out
    }

    /// The wake-ups a stopped autosync reported ("stopped after N wake-ups").
    static func wakeUps(_ p: BackgroundProcess) -> Int? {
        p.output.split(separator: "\n").last { $0.contains("stopped after") }
            .flatMap { $0.split(separator: " ").first { Int($0) != nil } }.flatMap { Int($0) }
    }

    @Test func aChangeOnOneDeviceReachesTheOtherAndAHandSaveToo() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let b = try fixture.clone()
        Self.quick(a)
        Self.quick(b)
        let pa = try Self.start(a), pb = try Self.start(b)
        defer { pa.stop(); pb.stop() }
        #expect(a.run("waterline", "start").status == 0)
        #expect(a.run("waterline", "drink", "--type", "beer", "--size", "12").status == 0)
        #expect(eventually(60) { b.run("waterline", "status", "--json").json["totalAlcoholCount"] == .number(1) }, "\(pa.output)\n\(pb.output)")
        // An editor's save: a new file renamed over the document (atomic-rename saves).
        let settings = try #require(b.read("waterline/settings.json"))
        let edited = settings.replacingOccurrences(of: "\"waterEveryNDrinks\": 1", with: "\"waterEveryNDrinks\": 3")
        try #require(edited != settings, "\(settings)")
        try edited.write(toFile: b.root + "/waterline/.settings.json.swp", atomically: false, encoding: .utf8)
        #expect(rename(b.root + "/waterline/.settings.json.swp", b.root + "/waterline/settings.json") == 0)
        #expect(eventually(60) { a.read("waterline/settings.json") == edited }, "\(pa.output)\n\(pb.output)")
        // Plain git sees the same tree on the remote as on each device.
        #expect(try eventually(60) { try Self.remoteTree(fixture) == a.headTree() && a.headTree() == b.headTree() })
        #expect(try a.gitStatus().isEmpty && b.gitStatus().isEmpty)
        // A second autosync on one ledger is refused, naming the first.
        let second = try a.runBinary("autosync")
        #expect(second.status == 1 && second.stderr.contains("autosync is already running for this ledger (process \(pa.pid))"), "\(second)")
        let status = a.run("status", "--json").json["autosync"]
        #expect(status?["running"] == .bool(true) && status?["pid"] == .number(Double(pa.pid)), "\(String(describing: status))")
        #expect(status?["nextAttempt"]?.stringValue != nil)
    }

    @Test func offlineItBacksOffWithoutSpinningSaysSoOnceAndRecovers() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        Self.quick(a)
        let gone = fixture.directory.path + "/remote-away.git"
        #expect(rename(fixture.remote, gone) == 0)
        let p = try Self.start(a)
        defer { p.stop() }
        try a.write("waterline/offline.json", "{}\n")
        #expect(eventually(60) { p.output.contains("not synced:") })
        sleep(3)
        // Said once, however many rounds failed.
        #expect(p.output.components(separatedBy: "not synced:").count == 2, "\(p.output)")
        #expect(a.run("status", "--json").json["autosync"]?["outcome"] == .string("offline"))
        #expect(rename(gone, fixture.remote) == 0)
        #expect(eventually(60) { (try? Self.remoteTree(fixture)["waterline/offline.json"]) != nil }, "\(p.output)")
        p.stop()
        // Some ten seconds of rounds every 2 s: a few dozen wake-ups, not thousands.
        let wakeUps = try #require(Self.wakeUps(p), "\(p.output)")
        #expect(wakeUps < 100, "\(p.output)")
        #expect(try GitCLI.fsck(fixture.remote) == nil)
    }

    @Test func anInvalidHandEditIsNotSyncedUntilFixed() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        Self.quick(a)
        let good = try #require(a.read("waterline/settings.json"))
        let p = try Self.start(a)
        defer { p.stop() }
        try a.write("waterline/settings.json", "{ \"waterEveryNDrinks\": \n")
        #expect(eventually(60) { p.output.contains("waiting: a changed document fails `ledger check`: waterline/settings.json") }, "\(p.output)")
        sleep(3)
        #expect(p.output.components(separatedBy: "waiting:").count == 2, "said more than once: \(p.output)")
        #expect(try GitCLI.run(["status", "--porcelain"], in: a.root).stdout.contains("waterline/settings.json"))
        // What plain git sees on the remote: the good version still.
        let remoteBlob = try GitCLI.run(["show", "main:waterline/settings.json"], in: fixture.remote).stdout
        #expect(remoteBlob == good)
        try a.write("waterline/settings.json", good.replacingOccurrences(of: "\"waterEveryNDrinks\": 1", with: "\"waterEveryNDrinks\": 4"))
        #expect(eventually(60) { (try? GitCLI.run(["show", "main:waterline/settings.json"], in: fixture.remote).stdout.contains("\"waterEveryNDrinks\": 4")) == true }, "\(p.output)")
    }

    @Test func killedMidSyncTheNextRoundRecovers() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        Self.quick(a)
        try a.write("waterline/during-push.json", "{}\n")
        let killed = try Self.start(a, env: ["LEDGER_SYNC_KILL_AT": "during-push"])
        #expect(eventually(60) { !killed.isRunning })
        #expect(killed.exitStatus == 128 + SIGKILL)
        let p = try Self.start(a)
        defer { p.stop() }
        #expect(eventually(60) { (try? Self.remoteTree(fixture)["waterline/during-push.json"]) != nil }, "\(p.output)")
        #expect(eventually(60) { (try? Self.remoteTree(fixture)) == (try? a.headTree()) })
        #expect(try GitCLI.fsck(fixture.remote) == nil && GitCLI.fsck(a.root) == nil)
    }

    @Test func onceSyncsOneRoundAndPausedSyncsNothing() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        try a.write("waterline/once.json", "{}\n")
        #expect(a.run("autosync", "pause").status == 0)
        let paused = a.run("autosync", "--once")
        #expect(paused.status == 0 && paused.stdout.contains("paused"), "\(paused)")
        #expect(try Self.remoteTree(fixture)["waterline/once.json"] == nil)
        #expect(a.run("status", "--json").json["autosync"]?["paused"] == .bool(true))
        #expect(a.run("autosync", "resume").status == 0)
        let once = a.run("autosync", "--once")
        #expect(once.status == 0, "\(once)")
        #expect(try Self.remoteTree(fixture)["waterline/once.json"] != nil)
        let status = a.run("status", "--json").json["autosync"]
        #expect(status?["outcome"] == .string("synced") && status?["running"] == .bool(false), "\(String(describing: status))")
        #expect(a.run("status").stdout.contains("Autosync        not running"))
        // Offline: exit 3, as `ledger sync`.
        #expect(rename(fixture.remote, fixture.remote + ".away") == 0)
        try a.write("waterline/once-2.json", "{}\n")
        #expect(a.run("autosync", "--once").status == 3)
        #expect(a.run("status", "--json").json["autosync"]?["lastError"]?.stringValue?.isEmpty == false)
    }

    /// Quiet hours set while autosync runs: the loop follows at once, a change made in them
    /// waits for their end (no round, so nothing to notify), and is synced then. `--once` in
    /// them syncs nothing and says until when.
    @Test func quietHoursSetWhileRunningHoldChangesUntilTheirEnd() throws {
        let fixture = try SyncFixture()
        // 06:58 in Paris, on a clock five times as fast as real time: 07:00 comes in 24 s.
        let a = try fixture.origin(now: "2026-11-22T06:58:00+01:00")
        for (key, value) in [("debounce", "200ms"), ("interval", "1m")] {
            #expect(a.run("autosync", "settings", "set", key, value).status == 0)
        }
        let autosync = AutosyncStore(a.store)
        let end = try #require(Timestamp(iso8601: "2026-11-22T07:00:00+01:00")).date
        let p = try Self.start(a, env: ["LEDGER_CLOCK_RATE": "5"])
        defer { p.stop() }
        #expect(eventually(60) { autosync.record().outcome == "up-to-date" }, "\(p.output)")

        #expect(a.run("autosync", "settings", "set", "quiet-hours", "23:00-07:00").status == 0)
        #expect(eventually(60) { autosync.record().nextAttempt == end }, "\(p.output)\n\(autosync.record())")
        let before = try #require(autosync.record().lastSync)
        #expect(before < end)
        try a.write("waterline/quiet.json", "{}\n")
        #expect(try Self.remoteTree(fixture)["waterline/quiet.json"] == nil)
        // The next round (its record saved once it pushed) ran at the end of the quiet hours,
        // none between; it pushed the change.
        #expect(eventually(60) { autosync.record().lastSync != before }, "\(p.output)")
        let synced = try #require(autosync.record().lastSync)
        #expect(synced >= end && synced < end.addingTimeInterval(60), "\(autosync.record())")
        #expect(try Self.remoteTree(fixture)["waterline/quiet.json"] != nil, "\(p.output)")
        #expect(p.output.components(separatedBy: "synced with origin").count == 2, "\(p.output)")
        // Changed files counted in `ledger sync`'s words, not a bare number.
        #expect(p.output.contains("synced with origin: 1 change committed, 1 change pushed\n"), "\(p.output)")

        let once = a.run("autosync", "--once", env: ["LEDGER_NOW": "2026-11-22T06:30:00+01:00"])
        #expect(once.status == 0 && once.stdout == "Quiet hours (23:00-07:00) until 2026-11-22 07:00: nothing synced.\n", "\(once)")
    }

    @Test func settingsAreThisDevicesAndRefuseBadValues() throws {
        let a = try TestLedger()
        let bad = a.run("autosync", "settings", "set", "interval", "soon")
        #expect(bad.status == 2 && bad.stderr.contains("interval must be a duration like 300ms, 5s, 15m or 2h"), "\(bad)")
        #expect(a.run("autosync", "settings", "set", "quiet-hours", "23:00-07:00").status == 0)
        let json = a.run("autosync", "settings", "--json").json
        #expect(json["quiet-hours"] == .string("23:00-07:00") && json["interval"] == .string("15m"))
        // Kept in .git/ledger, never in the work tree (so never synced).
        #expect(try a.gitStatus().isEmpty)
    }

    @Test func installWritesAUnitSystemdAcceptsAndUninstallRemovesIt() throws {
        let analyze = try Processes.require("systemd-analyze", package: "systemd")
        let ledger = try TestLedger()
        let config = ledger.directory.url("config")
        let install = try ledger.runBinary("autosync", "install", env: ["XDG_CONFIG_HOME": config])
        let unitPath = config + "/systemd/user/ledger-autosync.service"
        #expect(install.status == 0, "\(install)")
        #expect(install.stdout.hasSuffix("Start it now and at every login with:\n  systemctl --user enable --now ledger-autosync.service\n"), "\(install)")
        let unit = try String(contentsOfFile: unitPath, encoding: .utf8)
        #expect(unit.contains(" autosync --repo \(ledger.root)\n") && unit.contains("WantedBy=default.target\n"), "\(unit)")
        #expect(!unit.contains("graphical-session"))
        let verify = try ledger.verifyUserUnit(unitPath, analyze: analyze)
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify)")
        let uninstall = try ledger.runBinary("autosync", "uninstall", env: ["XDG_CONFIG_HOME": config])
        #expect(uninstall.stdout == "Removed \(unitPath) (autosync for \(ledger.root)).\n", "\(uninstall)")
        #expect(!FileManager.default.fileExists(atPath: unitPath))
    }

    /// One autosync unit per device: installing it for a second ledger says that the first one
    /// no longer syncs by itself, and how to move it back; doctor in the first ledger and
    /// uninstall from anywhere name the ledger the unit serves.
    @Test func installingForAnotherLedgerSaysWhichOneItReplaces() throws {
        let first = try TestLedger(), second = try TestLedger()
        let spaced = first.directory.url("my ledger")
        #expect(first.run("init", spaced).status == 0)
        let env = ["XDG_CONFIG_HOME": first.directory.url("config")]
        let unitPath = first.directory.url("config") + "/systemd/user/ledger-autosync.service"
        #expect(first.run("autosync", "install", env: env).stdout.contains("It replaces") == false)
        let again = first.run("autosync", "install", env: env)
        #expect(again.status == 0 && !again.stdout.contains("It replaces"), "the same ledger: \(again)")
        let moved = second.run("autosync", "install", env: env)
        #expect(moved.status == 0, "\(moved)")
        #expect(moved.stdout.contains("Wrote \(unitPath) (autosync for \(second.root)).\nIt replaces the autosync service of \(first.root): one runs per device, "
                                      + "so that ledger no longer syncs by itself (`ledger autosync install --repo \(first.root)` moves it back).\n"), "\(moved)")
        #expect(try String(contentsOfFile: unitPath, encoding: .utf8).contains("autosync --repo \(second.root)\n"))
        let doctor = first.run("doctor", "--offline", "--json", env: env)
        let unit = doctor.json["findings"]?.arrayValue?.first { $0["check"]?.stringValue == "ledger-autosync.service" }
        #expect(unit?["message"]?.stringValue?.hasSuffix("; it serves \(second.root), not this ledger (one per device: `ledger autosync install` moves it here)") == true, "\(doctor)")
        let own = second.run("doctor", "--offline", "--json", env: env).json["findings"]?.arrayValue?.first { $0["check"]?.stringValue == "ledger-autosync.service" }
        #expect(own?["message"]?.stringValue?.contains("serves") == false, "\(String(describing: own))")
        // A path the shell must quote is quoted in the command that moves it back.
        #expect(first.run("autosync", "install", "--repo", spaced, env: env).status == 0)
        let back = first.run("autosync", "install", env: env)
        #expect(back.stdout.contains("(`ledger autosync install --repo '\(spaced)'` moves it back)"), "\(back)")
        let uninstall = second.run("autosync", "uninstall", env: env)
        #expect(uninstall.stdout == "Removed \(unitPath) (autosync for \(first.root)).\n", "\(uninstall)")
    }
}
