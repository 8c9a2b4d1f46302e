import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// Clone, sync and push over every transport, against real servers on 127.0.0.1.
@Suite(.serialized) struct TransportTests {
    /// How to run `ledger`: in-process, or as the built executable (for what mbedTLS keeps
    /// per process: the trusted certificate authorities).
    enum Runner { case inProcess, binary }

    static func ledger(_ l: TestLedger, _ runner: Runner, _ args: [String], env: [String: String] = [:]) throws -> CommandResult {
        switch runner {
        case .inProcess: return l.run(arguments: args, env: env)
        case .binary: return try LedgerBinary.run(args, environment: l.environment.merging(env) { $1 }, currentDirectory: l.directory.path)
        }
    }

    /// Publishes a ledger through `url`, clones it back through `url`, and syncs a change
    /// each way.
    static func roundTrip(_ url: String, runner: Runner, env: [String: String] = [:], home: ((TestLedger) throws -> Void)? = nil) throws {
        let a = try TestLedger(initialize: false)
        let b = try TestLedger(initialize: false)
        try home?(a)
        try home?(b)
        let initA = try ledger(a, runner, ["init", a.root, "--remote", url], env: env)
        #expect(initA.status == 0, "\(initA)")
        let first = try ledger(a, runner, ["sync", "--repo", a.root], env: env)
        #expect(first.status == 0, "\(first)")
        let clone = try ledger(b, runner, ["clone", url, b.root], env: env)
        #expect(clone.status == 0, "\(clone)")
        try b.write("waterline/from-b.json", "{}\n")
        let syncB = try ledger(b, runner, ["sync", "--repo", b.root, "--json"], env: env)
        #expect(syncB.status == 0, "\(syncB)")
        #expect(syncB.json["pushed"]?.arrayValue?.count == 1)
        try a.write("waterline/from-a.json", "{}\n")
        let syncA = try ledger(a, runner, ["sync", "--repo", a.root], env: env)
        #expect(syncA.status == 0, "\(syncA)")
        #expect(try ledger(b, runner, ["sync", "--repo", b.root], env: env).status == 0)
        #expect(try a.headTree() == b.headTree())
        #expect(try a.headTree().keys.contains("waterline/from-a.json") == true)
        #expect(try b.headTree().keys.contains("waterline/from-b.json") == true)
    }

    @Test func plainPathAndFileURL() throws {
        let fixture = try SyncFixture()
        try Self.roundTrip(fixture.remote, runner: .inProcess)
        let other = fixture.directory.url("other.git")
        try GitCLI.initBare(other)
        try Self.roundTrip("file://" + other, runner: .inProcess)
    }

    @Test func concurrentLocalPushesNeverLoseACommit() throws {
        // libgit2 updates a local remote's ref without compare-and-swap; ledger serializes
        // local pushes with a lock in the remote. Four processes sync at once, five rounds.
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let clones = try (0..<4).map { _ in try fixture.clone() }
        for round in 0..<5 {
            for (i, c) in clones.enumerated() { try c.write("waterline/r\(round)-c\(i).json", "{}\n") }
            let results = try clones.map { c in
                try Processes.spawn(LedgerBinary.path, ["sync"], environment: c.environment, currentDirectory: c.root)
            }.map { $0.wait() }
            for r in results { #expect(r.status == 0, "\(r)") }
        }
        for c in clones { #expect(c.run("sync").status == 0) }
        let tree = try clones[0].headTree()
        for round in 0..<5 {
            for i in 0..<4 { #expect(tree["waterline/r\(round)-c\(i).json"] != nil, "lost r\(round)-c\(i)") }
        }
        for c in clones.dropFirst() { #expect(try c.headTree() == tree) }
    }

    @Test func gitDaemon() throws {
        let fixture = try SyncFixture()
        let daemon = try GitDaemonServer(root: fixture.directory.path, log: fixture.directory.url("daemon.log"))
        defer { daemon.stop() }
        try Self.roundTrip(daemon.url("remote.git"), runner: .inProcess)
    }

    /// A read-only git daemon answers the fetch and refuses the push in its own words: the
    /// sync says the push was refused (exit 3, local work committed), not that the remote
    /// cannot be reached — retrying would never help — as plain `git push` says.
    @Test func aServerRefusingPushesIsARefusalNotAnUnreachableRemote() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let daemon = try GitDaemonServer(root: fixture.directory.path, log: fixture.directory.url("daemon.log"), pushes: false)
        defer { daemon.stop() }
        let c = try fixture.clone(url: daemon.url("remote.git"))
        #expect(c.run("moments", "add", "coffee with Sam").status == 0)
        let r = c.run("sync")
        #expect(r.status == 3, "\(r)")
        #expect(r.stdout.contains("Not synced: origin refused the push"), "\(r)")
        #expect(r.stderr.contains("\(daemon.url("remote.git")) refused the push: remote error: service not enabled: /remote.git"), "\(r)")
        #expect(!r.stderr.contains("cannot reach") && !r.stdout.contains("can be reached"), "\(r)")
        let json = c.run("sync", "--json")
        #expect(json.status == 3 && json.json["outcome"]?.stringValue == "rejected", "\(json)")
        #expect(try c.gitStatus() == "")
        let git = try GitCLI.run(["push", "origin", "main"], in: c.root)
        #expect(git.status != 0 && git.stderr.contains("remote error: service not enabled: /remote.git"), "\(git)")
    }

    @Test func smartHTTP() throws {
        let fixture = try SyncFixture()
        try GitCLI.run(["config", "http.receivepack", "true"], in: fixture.remote)
        let server = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("http"))
        defer { server.stop() }
        try Self.roundTrip(server.url("remote.git"), runner: .inProcess)
    }

    @Test func httpsWithATestCertificateAuthorityAndBasicAuthentication() throws {
        let fixture = try SyncFixture()
        let ca = try TestCertificateAuthority(directory: fixture.directory.url("ca"))
        let password = "s3cret-token-\(UInt32.random(in: 0...UInt32.max))"
        let server = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("https"),
                                       certificate: ca.serverPEM, users: ["me:\(password)"])
        defer { server.stop() }
        // Trusted through SSL_CERT_FILE (never the system store), credentials from the environment.
        let env = ["SSL_CERT_FILE": ca.caFile, "LEDGER_HTTP_USER": "me", "LEDGER_HTTP_PASSWORD": password]
        try Self.roundTrip(server.url("remote.git"), runner: .binary, env: env)

        // Credentials in the URL work too, and are never printed.
        let c = try TestLedger(initialize: false)
        let url = server.url("remote.git", credentials: "me:\(password)")
        let clone = try Self.ledger(c, .binary, ["clone", url, c.root], env: ["SSL_CERT_FILE": ca.caFile])
        #expect(clone.status == 0, "\(clone)")
        #expect(!clone.stdout.contains(password) && !clone.stderr.contains(password))
        let sync = try Self.ledger(c, .binary, ["sync", "--repo", c.root, "--json"], env: ["SSL_CERT_FILE": ca.caFile])
        #expect(sync.status == 0, "\(sync)")
        #expect(!sync.stdout.contains(password) && !sync.stderr.contains(password))
        #expect(sync.json["url"]?.stringValue?.contains("me:***@") == true)

        // A wrong password: exit 3, a clear message, no password printed.
        let d = try TestLedger(initialize: false)
        let wrong = try Self.ledger(d, .binary, ["clone", server.url("remote.git"), d.root],
                                    env: ["SSL_CERT_FILE": ca.caFile, "LEDGER_HTTP_USER": "me", "LEDGER_HTTP_PASSWORD": "nope"])
        #expect(wrong.status == 3, "\(wrong)")
        #expect(wrong.stderr.contains("refused the user name and password"))
        #expect(!wrong.stderr.contains("nope"))

        // Without trusting the test CA, the certificate is refused.
        let e = try TestLedger(initialize: false)
        let untrusted = try Self.ledger(e, .binary, ["clone", url, e.root], env: ["SSL_CERT_FILE": fixture.directory.url("ca/server.crt")])
        #expect(untrusted.status == 3, "\(untrusted)")
        #expect(untrusted.stderr.contains("certificate"))
        #expect(!untrusted.stderr.contains(password))
    }

    /// `remote.<name>.pushurl`: fetches come from the URL, pushes go to the pushurl — here a
    /// read-only HTTP remote (anonymous pushes refused) with pushes over a path to the same
    /// repository, reached through an `insteadOf` rule (which git applies to a pushurl, while
    /// `pushInsteadOf` it does not). Plain git on the same setup does the same.
    @Test func pushesGoToThePushURL() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let server = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("http"))
        defer { server.stop() }
        let url = server.url("remote.git")
        let rules = ["url.\(fixture.directory.path)/.insteadOf": "disk:", "url./nowhere/.pushInsteadOf": "disk:", "remote.origin.pushurl": "disk:remote.git"]

        let c = try TestLedger(initialize: false)
        #expect(c.run("clone", url, c.root).status == 0)
        try c.write("waterline/pushed.json", "{}\n")
        let refused = c.run("sync", "--json")
        #expect(refused.status == 3 && refused.stderr.contains("403"), "\(refused)")
        for (key, value) in rules { try GitCLI.run(["config", key, value], in: c.root) }
        let sync = c.run("sync", "--json")
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.json["pushed"]?.arrayValue?.count == 1)
        #expect(try GitCLI.run(["rev-parse", "main:waterline/pushed.json"], in: fixture.remote).status == 0)
        // The server logs a request once it has answered it (through a pipe): wait for the lines.
        func fetchCount() -> Int { server.accessLog.filter { $0.contains("service=git-upload-pack") }.count }
        #expect(eventually(10) { fetchCount() >= 3 }, "\(server.accessLog)")
        let fetches = fetchCount()
        #expect(!server.accessLog.contains { $0.hasPrefix("POST /git/remote.git/git-receive-pack") && $0.contains(" 200") })

        // git: the same settings, the same places.
        let plain = fixture.directory.url("plain")
        #expect(try GitCLI.run(["clone", "-q", url, plain], in: fixture.directory.path).status == 0)
        for (key, value) in rules { try GitCLI.run(["config", key, value], in: plain) }
        try "{}\n".write(toFile: plain + "/waterline/git-pushed.json", atomically: true, encoding: .utf8)
        _ = try GitCLI.run(["add", "-A"], in: plain)
        _ = try GitCLI.run(["commit", "-qm", "from git"], in: plain)
        let push = try GitCLI.run(["push", "-q", "origin", "main"], in: plain)
        #expect(push.status == 0, "\(push)")
        #expect(try GitCLI.run(["rev-parse", "main:waterline/git-pushed.json"], in: fixture.remote).status == 0)
        #expect(try GitCLI.run(["pull", "-q", "--no-rebase"], in: plain).status == 0)
        #expect(eventually(10) { fetchCount() > fetches }, "\(server.accessLog)")
    }

    /// A push to a URL that `insteadOf` rewrites to a local path holds the remote's push lock
    /// like a push to the path itself: while another process holds it, the sync waits (the
    /// kernel lists it as waiting on the lock) and the remote is untouched; then it pushes.
    @Test func aURLRewrittenToALocalPathPushesUnderTheLock() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let c = try fixture.clone()
        try GitCLI.run(["config", "url.\(fixture.directory.path)/.insteadOf", "disk:"], in: c.root)
        try GitCLI.run(["config", "remote.origin.url", "disk:remote.git"], in: c.root)
        #expect(try GitCLI.run(["ls-remote", "origin", "main"], in: c.root).status == 0)  // git follows the rule too
        try c.write("waterline/locked.json", "{}\n")
        let before = try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout

        let lock = try FileLock(path: fixture.remote + "/ledger-push.lock")
        let sync = try Processes.spawn(LedgerBinary.path, ["sync"], environment: c.environment, currentDirectory: c.root)
        let waited = Self.waitsOnALock(sync.pid)
        #expect(waited, "the sync did not wait for the push lock")
        #expect(try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout == before)
        lock.release()
        let r = sync.wait()
        #expect(r.status == 0, "\(r)")
        #expect(try GitCLI.run(["rev-parse", "main:waterline/locked.json"], in: fixture.remote).status == 0)
    }

    /// Whether process `pid` comes to wait on a file lock (a `->` line of /proc/locks) while
    /// it runs (at most 30 s).
    static func waitsOnALock(_ pid: Int32) -> Bool {
        for _ in 0..<300 {
            let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
            if locks.split(separator: "\n").contains(where: { $0.contains("->") && $0.split(separator: " ").contains("\(pid)") }) { return true }
            guard kill(pid, 0) == 0 else { return false }
            usleep(100_000)
        }
        return false
    }

    // MARK: - ssh (more in SSHTransportTests)

    @Test func sshThroughAgent() throws {
        let fixture = try SyncFixture()
        let key = fixture.directory.url("id_ed25519")
        try SSHKeys.generate(key, type: "ed25519")
        let server = try SSHServer(directory: fixture.directory.url("sshd"), authorizedKeys: [try SSHKeys.publicKey(key)])
        defer { server.stop() }
        let agent = try SSHAgent(directory: fixture.directory.path, keys: [key])
        defer { agent.stop() }
        let knownHosts = fixture.directory.url("known_hosts")
        try (server.knownHostsLine + "\n").write(toFile: knownHosts, atomically: true, encoding: .utf8)
        // The account's own ~/.ssh stays out (-F, UserKnownHostsFile); the key is only in the agent.
        let env = ["SSH_AUTH_SOCK": agent.socket, "GIT_SSH_COMMAND": "ssh -F /dev/null -o UserKnownHostsFile=\(knownHosts)"]
        try Self.roundTrip(server.url(fixture.remote), runner: .inProcess, env: env)
        let plain = fixture.directory.url("plain")
        #expect(try GitCLI.run(["clone", "-q", server.url(fixture.remote), plain], in: fixture.directory.path, environment: env).status == 0)
    }

    /// A server that accepts connections (the kernel completes them) and never answers; or,
    /// with `handshake` false, one whose queue of connections is full, so the kernel drops
    /// new ones and `connect` would wait for the system's SYN retries (about two minutes).
    @Test(arguments: ["http", "git", "ssh"], [true, false])
    func aRemoteThatStopsAnsweringIsGivenUp(scheme: String, handshake: Bool) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { p in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                try #require(bind(listener, $0, length) == 0 && listen(listener, handshake ? 8 : 0) == 0 && getsockname(listener, $0, &length) == 0)
            }
        }
        // A backlog of 0 holds one connection, never accepted: this one.
        let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(filler) }
        if !handshake {
            try withUnsafePointer(to: &address) { p in
                try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { try #require(connect(filler, $0, length) == 0) }
            }
        }
        let port = UInt16(bigEndian: address.sin_port)
        let url = scheme == "ssh" ? "ssh://me@127.0.0.1:\(port)/ledger.git" : "\(scheme)://127.0.0.1:\(port)/ledger.git"
        let a = try TestLedger()
        try GitCLI.run(["remote", "add", "silent", url], in: a.root)
        try a.write("moments/settings.json", (a.read("moments/settings.json") ?? "").replacingOccurrences(of: "[moment]", with: "[moment]!"))
        // ssh runs as a child (kept off the account's own ~/.ssh): the watchdog ends it.
        let r = a.run("sync", "--remote", "silent", env: ["LEDGER_NETWORK_TIMEOUT": "1", "GIT_SSH_COMMAND": "ssh -F /dev/null -o UserKnownHostsFile=/dev/null"])
        #expect(r.status == 3, "\(r)")
        #expect(r.stderr.contains("stopped answering (nothing came for 1 s)"), "\(r)")
        #expect(Self.children(running: ["ssh", "\(port)"]).isEmpty, "an ssh child outlived the sync")
        #expect(try a.gitStatus().isEmpty)  // the local commit is kept
        #expect(a.run("sync", env: ["LEDGER_NETWORK_TIMEOUT": "soon"]).status == 2)
    }

    /// The PIDs of this process's children whose command line holds all of `words`.
    static func children(running words: [String]) -> [Int32] {
        let me = getpid()
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry -> Int32? in
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")"), let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            let args = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return fields.count > 1 && Int32(fields[1]) == me && words.allSatisfy({ w in args.contains { $0.contains(w) } }) ? pid : nil
        }
    }
}
