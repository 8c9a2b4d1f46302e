import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `ledger autosync`'s notifications, shown by dunst on a private session bus: what matters,
/// once each.
@Suite struct AutosyncNotificationTests {
    /// Short settings: a change is synced 200 ms after it, and a round runs every second.
    static func quick(_ ledger: TestLedger, notifyAfter: String = "1h") {
        for (key, value) in [("debounce", "200ms"), ("interval", "1s"), ("notify-after", notifyAfter)] {
            #expect(ledger.run("autosync", "settings", "set", key, value).status == 0)
        }
    }

    /// `ledger autosync` on `ledger`, notifying through `server` (stopped by its PID by the caller).
    static func start(_ ledger: TestLedger, _ server: NotificationServer, env extra: [String: String] = [:]) throws -> BackgroundProcess {
        var env = ledger.environment.merging(server.bus.environment) { a, _ in a }
        env["DBUS_SESSION_BUS_ADDRESS"] = server.bus.address
        env.merge(extra) { $1 }
        let process = try BackgroundProcess(LedgerBinary.path, ["autosync"], environment: env, directory: ledger.root,
                                            log: ledger.directory.url("autosync-\(UUID().uuidString.prefix(8)).log"))
        #expect(eventually { process.output.contains("notifications through dunst") }, "\(process.output)")
        return process
    }

    /// Waits (bounded) until `count` more rounds have run: the record's last round changed
    /// that many times (it is kept to the second, and a round runs every second).
    static func rounds(_ count: Int, of ledger: TestLedger) -> Bool {
        let autosync = AutosyncStore(ledger.store)
        var last = autosync.record().lastAttempt
        var seen = 0
        return eventually(60) {
            let now = autosync.record().lastAttempt
            if now != last { (last, seen) = (now, seen + 1) }
            return seen >= count
        }
    }

    /// The remote's tree on main, as plain git sees it.
    static func remoteFiles(_ fixture: SyncFixture) throws -> [String] {
        try GitCLI.run(["ls-tree", "-r", "--name-only", "main"], in: fixture.remote).stdout.split(separator: "\n").map(String.init)
    }

    @Test func anInvalidHandEditAndAFailingRemoteAreEachSaidOnce() throws {
        let server = try NotificationServer()
        let fixture = try SyncFixture()
        let ledger = try fixture.origin()
        Self.quick(ledger, notifyAfter: "0s")
        let good = try #require(ledger.read("waterline/settings.json"))
        let process = try Self.start(ledger, server)
        defer { process.stop() }

        try ledger.write("waterline/settings.json", "{ \"waterEveryNDrinks\": \n")
        // (Bounded generously: the machine may be loaded.)
        #expect(eventually(60) { server.shown().count >= 1 }, "\(process.output)")
        let first = server.shown()
        #expect(first.count == 1 && first.first?.summary == "ledger: not syncing", "\(first)")
        #expect(first.first?.body.contains("waterline/settings.json") == true, "\(first)")
        // Several rounds later, still one.
        #expect(Self.rounds(3, of: ledger), "\(process.output)")
        #expect(server.shown().count == 1, "\(server.shown())\n\(process.output)")

        // Fixed: synced, silently. Then the remote goes away: one notification, however many
        // rounds fail.
        try ledger.write("waterline/settings.json", good)
        #expect(eventually { ledger.run("status", "--json").json["autosync"]?["outcome"] == .string("up-to-date") }, "\(process.output)")
        #expect(rename(fixture.remote, fixture.remote + ".away") == 0)
        try ledger.write("waterline/offline.json", "{}\n")
        #expect(eventually(60) { server.shown().count >= 2 }, "\(process.output)")
        let shown = server.shown()
        #expect(shown.count == 2 && shown.last?.summary.hasPrefix("ledger: not synced since ") == true, "\(shown)\n\(process.output)")
        #expect(Self.rounds(3, of: ledger), "\(process.output)")
        #expect(server.shown().count == 2, "\(server.shown())")
    }

    /// A recipe changed on two devices sharing a bare remote: the sync that merges forks it
    /// into "(Conflicted Copy)" and says so in one notification naming the copy. Plain git on
    /// the same two histories stops at a content conflict in the recipe's file.
    @Test func aRecipeForkedByAConcurrentEditIsNotifiedOnce() throws {
        let server = try NotificationServer()
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let id = a.run("brew", "recipe", "duplicate", "v60-starter", "--name", "My V60").stdout.trimmingCharacters(in: .newlines)
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone()
        #expect(b.run("brew", "recipe", "edit", id, "--dose", "18", "--yield", "300", "--scale-steps").status == 0)
        #expect(b.run("sync").status == 0)
        #expect(a.run("brew", "recipe", "edit", id, "--temp", "92").status == 0)

        // Plain git, same setup: a's edit committed in a copy of its repository, then `git pull`
        // (the repository's merge driver is ledger's): the same fork, silently but for stderr.
        let plain = fixture.directory.url("plain")
        try FileManager.default.copyItem(atPath: a.root, toPath: plain)
        #expect(try GitCLI.run(["commit", "-qam", "temp 92"], in: plain).status == 0)
        let pull = try GitCLI.run(["-c", "pull.rebase=false", "pull", "--no-edit", "origin", "main"], in: plain)
        #expect(pull.status == 0 && pull.stderr.contains("the other one is now \"My V60 (Conflicted Copy)\""), "\(pull)")
        let untracked = try GitCLI.run(["ls-files", "--others", "--exclude-standard"], in: plain).stdout

        Self.quick(a)
        let process = try Self.start(a, server)
        defer { process.stop() }
        #expect(eventually(60) { !server.shown().isEmpty }, "\(process.output)")
        let recipes = try FileManager.default.contentsOfDirectory(atPath: a.root + "/brew/recipes")
        let copy = try #require(recipes.first { $0 != "\(id).json" }, "\(recipes)")
        #expect(a.document("brew/recipes/\(copy)")?["name"] == .string("My V60 (Conflicted Copy)"))
        #expect(untracked == "brew/recipes/\(copy)\n", "the same copy as plain git's merge: \(untracked)")
        let shown = server.shown()
        #expect(shown.map(\.summary) == ["ledger: 1 conflicted copy to look at"], "\(shown)\n\(process.output)")
        #expect(shown.first?.body == "brew/recipes/\(copy)\n`ledger conflicts` shows them.", "\(shown)")
        #expect(shown.first?.appName == "ledger")
        // Pushed: the remote holds both recipes; and said once, however many rounds follow.
        #expect(try eventually(60) { try Self.remoteFiles(fixture).contains("brew/recipes/\(copy)") }, "\(process.output)")
        #expect(Self.rounds(3, of: a), "\(process.output)")
        #expect(server.shown().count == 1, "\(server.shown())")
    }

    /// An HTTP remote on 127.0.0.1 asking for a password, with no credential helper and no
    /// terminal (as under systemd): plain git is refused; autosync says so in one notification
    /// however many rounds the server refuses, and again only after a sync succeeded.
    @Test func refusedCredentialsAreNotifiedOnceUntilASyncSucceeds() throws {
        let server = try NotificationServer()
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let http = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("http"), users: ["me:secret"])
        defer { http.stop() }
        let url = http.url("remote.git")
        #expect(try GitCLI.run(["remote", "set-url", "origin", url], in: a.root).status == 0)
        let noTerminal = ["GIT_TERMINAL_PROMPT": "0"]

        // Plain git, same setup: the server answers 401 and git has no one to ask.
        let git = try GitCLI.run(["ls-remote", "origin"], in: a.root, environment: noTerminal)
        #expect(git.status != 0 && git.stderr.contains("could not read Username"), "\(git)")
        func refusals() -> Int { http.accessLog.filter { $0.hasSuffix(" 401") }.count }
        // The server logs a request once it has answered it: git may have exited before the line.
        #expect(eventually(10) { refusals() >= 1 }, "\(http.accessLog)")
        let gitRefusals = refusals()

        Self.quick(a)
        try a.write("waterline/refused.json", "{}\n")
        let process = try Self.start(a, server, env: noTerminal)
        defer { process.stop() }
        #expect(eventually(60) { !server.shown().isEmpty }, "\(process.output)")
        // Rounds go on, each refused by the server; still one notification.
        #expect(Self.rounds(3, of: a), "\(process.output)")
        #expect(eventually(10) { refusals() >= gitRefusals + 3 }, "\(http.accessLog)")
        var shown = server.shown()
        #expect(shown.map(\.summary) == ["ledger: the remote refused the credentials"], "\(shown)\n\(process.output)")
        #expect(shown.first?.body.hasPrefix("\(url) asks for a user name and password, and no git credential helper had them") == true, "\(shown)")
        #expect(process.output.components(separatedBy: "not synced:").count == 2, "\(process.output)")

        // The right password: synced. A wrong one later: said again, once.
        #expect(try GitCLI.run(["remote", "set-url", "origin", http.url("remote.git", credentials: "me:secret")], in: a.root).status == 0)
        #expect(try eventually(60) { try Self.remoteFiles(fixture).contains("waterline/refused.json") }, "\(process.output)")
        #expect(try GitCLI.run(["remote", "set-url", "origin", http.url("remote.git", credentials: "me:wrong")], in: a.root).status == 0)
        try a.write("waterline/refused-again.json", "{}\n")
        #expect(eventually(60) { server.shown().count >= 2 }, "\(process.output)")
        #expect(Self.rounds(3, of: a), "\(process.output)")
        shown = server.shown()
        #expect(shown.map(\.summary) == ["ledger: the remote refused the credentials", "ledger: the remote refused the credentials"], "\(shown)")
        #expect(shown.last?.body.contains("refused the user name and password in its URL") == true, "\(shown)")
        #expect(!(shown.last?.body.contains("wrong") ?? true), "\(shown)")
    }

    /// A guided brew on this device's screen holds the sync: a change waits (said once in the
    /// log and in one notification) and is synced as soon as the brew is saved.
    @Test func aGuidedBrewInProgressHoldsTheSyncUntilSaved() throws {
        let server = try NotificationServer()
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        Self.quick(a)
        // The guided brew's Start, at the ledger's clock (autosync's clock starts there too).
        let now = try #require(Timestamp(iso8601: a.environment["LEDGER_NOW"] ?? ""))
        let brew = BrewStore(a.store)
        var flow = try brew.startBrew(Recipe.starterID, changes: BrewInputs(), reset: false, now: now, ids: SeededIDSource(seed: 7)).flow
        try brew.perform(flow.handle(.start, at: now), now: now)
        try #require(try brew.brewInProgress().progress != nil)
        try a.write("waterline/during-brew.json", "{}\n")

        let process = try Self.start(a, server)
        defer { process.stop() }
        #expect(eventually(60) { !server.shown().isEmpty }, "\(process.output)")
        #expect(Self.rounds(3, of: a), "\(process.output)")
        let shown = server.shown()
        #expect(shown.map(\.summary) == ["ledger: not syncing"], "\(shown)\n\(process.output)")
        #expect(shown.first?.body == "a guided brew is in progress; syncing once it is saved or set aside", "\(shown)")
        #expect(process.output.components(separatedBy: "waiting: a guided brew is in progress").count == 2, "\(process.output)")
        // Nothing reached the remote, as plain git sees it; the change waits in the work tree.
        #expect(try !Self.remoteFiles(fixture).contains("waterline/during-brew.json"))
        #expect(try !a.gitStatus().isEmpty)

        // Saved: the brew's log and the waiting change are synced.
        for step in 1...6 { try brew.perform(flow.handle(.next, at: now.adding(seconds: Double(step))), now: now.adding(seconds: Double(step))) }
        try brew.perform(flow.handle(.rate(5), at: now.adding(seconds: 10)), now: now.adding(seconds: 10))
        try brew.perform(flow.handle(.save, at: now.adding(seconds: 11)), now: now.adding(seconds: 11))
        try #require(try brew.brewInProgress().progress == nil)
        #expect(try eventually(60) {
            let files = try Self.remoteFiles(fixture)
            return files.contains("waterline/during-brew.json") && files.contains { $0.hasPrefix("brew/logs/") }
        }, "\(process.output)")
        #expect(server.shown().count == 1, "\(server.shown())")
    }
}
