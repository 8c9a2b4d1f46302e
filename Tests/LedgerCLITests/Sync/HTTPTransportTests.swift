import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// HTTP(S) remotes set up as a git user has them — passwords in git's credential helpers, a
/// certificate authority in the global `http.sslCAInfo` — against lighttpd running
/// `git http-backend` on 127.0.0.1, with plain `git` run on the same setup.
@Suite(.serialized) struct HTTPTransportTests {
    /// A user's home (`$HOME`, which is where git reads `~/.gitconfig` and the `store`
    /// helper's `~/.git-credentials`) shared by ledger and git.
    struct User {
        let home: String
        /// More of the user's environment (proxy variables).
        var variables: [String: String] = [:]
        var environment: [String: String] { variables.merging(["HOME": home, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"]) { $1 } }

        init(_ directory: String) throws {
            home = directory
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        }

        func write(_ relative: String, _ text: String) throws {
            try text.write(toFile: home + "/" + relative, atomically: true, encoding: .utf8)
        }

        func ledger(_ l: TestLedger, _ args: [String]) throws -> CommandResult {
            try LedgerBinary.run(args, environment: l.environment.merging(environment) { $1 }, currentDirectory: l.directory.path)
        }

        /// `ledger clone URL` into a new ledger, then a sync of one new document.
        func cloneAndSync(_ url: String, document: String = "waterline/from-c.json") throws -> (clone: CommandResult, sync: CommandResult) {
            let c = try TestLedger(initialize: false)
            let clone = try ledger(c, ["clone", url, c.root])
            try c.write(document, "{}\n")
            return (clone, try ledger(c, ["sync", "--repo", c.root, "--json"]))
        }

        func git(_ args: [String], in directory: String) throws -> CommandResult {
            var env = environment
            env["GIT_CONFIG_GLOBAL"] = home + "/.gitconfig"
            return try GitCLI.run(args, in: directory, environment: env)
        }
    }

    /// `credential.helper store` answers the server's 401 for clone and sync; git clones
    /// with it too.
    @Test func aPasswordFromTheStoreCredentialHelper() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let password = "token-\(UInt32.random(in: 0...UInt32.max))"
        let server = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("http"), users: ["me:\(password)"])
        defer { server.stop() }
        let user = try User(fixture.directory.url("home"))
        try user.write(".gitconfig", "[credential]\n\thelper = store\n")
        try user.write(".git-credentials", "http://me:\(password)@127.0.0.1:\(server.port)\n")
        let url = server.url("remote.git")

        let (clone, sync) = try user.cloneAndSync(url)
        #expect(clone.status == 0, "\(clone)")
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.json["pushed"]?.arrayValue?.count == 1)
        #expect(!clone.stdout.contains(password) && !clone.stderr.contains(password) && !sync.stderr.contains(password))

        let plain = fixture.directory.url("plain")
        let gitClone = try user.git(["clone", "-q", url, plain], in: fixture.directory.path)
        #expect(gitClone.status == 0, "\(gitClone)")
        #expect(FileSystem.exists(plain + "/waterline/from-c.json"))
    }

    /// A person slower than the server: lighttpd closes an idle connection after 5 s, so a
    /// password typed in 6 s arrives after the connection that asked for it is gone. git's curl
    /// reconnects; ledger tries once more with what was typed — each command asks once (the
    /// helper counts its questions), for clone and for sync's fetch and push alike.
    @Test func aPasswordTypedSlowerThanTheServersKeepAlive() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let server = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("http"), users: ["me:slowly-typed"])
        defer { server.stop() }
        let user = try User(fixture.directory.url("home"))
        let helper = fixture.directory.url("slow-helper"), asked = fixture.directory.url("asked")
        try "#!/bin/sh\n[ \"$1\" = get ] || exit 0\necho . >> '\(asked)'\nsleep 6\necho username=me\necho password=slowly-typed\n"
            .write(toFile: helper, atomically: true, encoding: .utf8)
        _ = chmod(helper, 0o755)
        try user.write(".gitconfig", "[credential]\n\thelper = \(helper)\n")
        func questions() -> Int { ((try? String(contentsOfFile: asked, encoding: .utf8)) ?? "").count { $0 == "." } }
        let url = server.url("remote.git")

        let (clone, sync) = try user.cloneAndSync(url)
        #expect(clone.status == 0, "\(clone)")
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.json["pushed"]?.arrayValue?.count == 1, "\(sync)")
        #expect(questions() == 3)  // clone, fetch, push

        let gitClone = try user.git(["clone", "-q", url, fixture.directory.url("plain")], in: fixture.directory.path)
        #expect(gitClone.status == 0, "\(gitClone)")
        #expect(questions() == 4)
    }

    /// A wrong stored password: refused, reported, and dropped from the helper (`reject`),
    /// as git does; with no helper at all, the message names credential.helper.
    @Test func aWrongStoredPasswordIsRejected() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let server = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("http"), users: ["me:right"])
        defer { server.stop() }
        let url = server.url("remote.git")
        let stored = "http://me:wrong@127.0.0.1:\(server.port)\n"

        let user = try User(fixture.directory.url("home"))
        try user.write(".gitconfig", "[credential]\n\thelper = store\n")
        try user.write(".git-credentials", stored)
        let c = try TestLedger(initialize: false)
        let r = try user.ledger(c, ["clone", url, c.root])
        #expect(r.status == 3, "\(r)")
        #expect(r.stderr.contains("refused the user name and password git's credential helper gave for me"))
        #expect(!r.stderr.contains("wrong"))
        #expect(!FileSystem.exists(c.root))
        #expect(try String(contentsOfFile: user.home + "/.git-credentials", encoding: .utf8).isEmpty)

        // git, same setup: refused, and the helper forgets it too.
        let gitUser = try User(fixture.directory.url("git-home"))
        try gitUser.write(".gitconfig", "[credential]\n\thelper = store\n")
        try gitUser.write(".git-credentials", stored)
        #expect(try gitUser.git(["clone", "-q", url, fixture.directory.url("plain")], in: fixture.directory.path).status != 0)
        #expect(try String(contentsOfFile: gitUser.home + "/.git-credentials", encoding: .utf8).isEmpty)

        // No helper, no terminal.
        let bare = try User(fixture.directory.url("bare-home"))
        let d = try TestLedger(initialize: false)
        let none = try bare.ledger(d, ["clone", url, d.root])
        #expect(none.status == 3, "\(none)")
        #expect(none.stderr.contains("no git credential helper had them") && none.stderr.contains("credential.helper"))
    }

    /// `ledger clone https://…` trusts the certificate authority named only by the global
    /// `http.sslCAInfo` (a clone has no repository configuration yet), as `git clone` does.
    @Test func aCertificateAuthorityFromTheGlobalSSLCAInfo() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        try GitCLI.run(["config", "http.receivepack", "true"], in: fixture.remote)
        let ca = try TestCertificateAuthority(directory: fixture.directory.url("ca"))
        let server = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("https"), certificate: ca.serverPEM)
        defer { server.stop() }
        let user = try User(fixture.directory.url("home"))
        try user.write(".gitconfig", "[http]\n\tsslCAInfo = \(ca.caFile)\n")
        let url = server.url("remote.git")

        let (clone, sync) = try user.cloneAndSync(url)
        #expect(clone.status == 0 && sync.status == 0, "\(clone)\n\(sync)")
        #expect(try user.git(["clone", "-q", url, fixture.directory.url("plain")], in: fixture.directory.path).status == 0)

        // Without it: not trusted, and the message names the setting.
        let d = try TestLedger(initialize: false)
        let bare = try User(fixture.directory.url("bare-home"))
        let refused = try bare.ledger(d, ["clone", url, d.root])
        #expect(refused.status == 3, "\(refused)")
        #expect(refused.stderr.contains("http.sslCAInfo"))
        // http.sslVerify false (as git) skips the check.
        try bare.write(".gitconfig", "[http]\n\tsslVerify = false\n")
        #expect(try bare.ledger(d, ["clone", url, d.root]).status == 0)
    }

    /// What mbedTLS cannot verify although git can — a certificate naming 127.0.0.1 only as
    /// an IP address, a certificate authority signed with Ed25519 — is said exactly.
    @Test(arguments: [false, true])
    func whatLedgersTLSLibraryCannotVerifyIsSaid(ed25519: Bool) throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let ca = try TestCertificateAuthority(directory: fixture.directory.url("ca"), caKey: ed25519 ? "ed25519" : "ec", ipOnly: !ed25519)
        let server = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("https"), certificate: ca.serverPEM)
        defer { server.stop() }
        let user = try User(fixture.directory.url("home"))
        try user.write(".gitconfig", "[http]\n\tsslCAInfo = \(ca.caFile)\n")
        let url = server.url("remote.git")
        #expect(try user.git(["clone", "-q", url, fixture.directory.url("plain")], in: fixture.directory.path).status == 0)
        let c = try TestLedger(initialize: false)
        let r = try user.ledger(c, ["clone", url, c.root])
        #expect(r.status == 3, "\(r)")
        #expect(r.stderr.contains(ed25519 ? "signed with Ed25519" : "only as an IP address"), "\(r)")
        #expect(r.stderr.contains("mbedTLS"))
    }

    /// On a terminal with no stored credential, git asks for the user name and then the
    /// password (not echoed), and the helper keeps what was typed (`approve`): plain git then
    /// clones with it without asking.
    @Test func onATerminalGitAsksAndTheHelperKeepsWhatWasTyped() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let server = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("http"), users: ["me:typed-secret"])
        defer { server.stop() }
        let user = try User(fixture.directory.url("home"))
        try user.write(".gitconfig", "[credential]\n\thelper = store\n")
        let c = try TestLedger(initialize: false)
        let env = c.environment.merging(["HOME": user.home, "GIT_CONFIG_NOSYSTEM": "1"]) { $1 }
        let assignments = env.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        let term = try TmuxTerminal(command: "env -i \(assignments) \(LedgerBinary.path) clone \(server.url("remote.git")) \(c.root); echo \"[exit $?]\"")
        defer { term.stop() }
        term.waitFor("Username for 'http://127.0.0.1:\(server.port)'")
        try term.type("me")
        try term.send("Enter")
        term.waitFor("Password for 'http://me@127.0.0.1:\(server.port)'")
        try term.type("typed-secret")
        try term.send("Enter")
        #expect(term.waitForExit() == 0, "\(term.screen())")
        #expect(!term.screen().contains("typed-secret"))
        // The store helper writes the host with its port percent-encoded.
        let stored = try String(contentsOfFile: user.home + "/.git-credentials", encoding: .utf8)
        #expect(stored.lowercased().contains("http://me:typed-secret@127.0.0.1%3a\(server.port)"), "\(stored)")
        var gitEnv = user.environment
        gitEnv["GIT_CONFIG_GLOBAL"] = user.home + "/.gitconfig"
        #expect(try GitCLI.run(["clone", "-q", server.url("remote.git"), fixture.directory.url("plain")], in: fixture.directory.path, environment: gitEnv).status == 0)
    }

    /// `http.proxy` (here without a scheme, as git allows) carries an http:// remote's
    /// requests, `https_proxy` tunnels an https:// one (CONNECT), and `no_proxy` bypasses
    /// both — the proxy's log shows it, for ledger as for git; a proxy that is down stops
    /// both, and ledger's message names the setting.
    @Test func proxiesCarryTheTrafficAndNoProxyBypassesThem() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        try GitCLI.run(["config", "http.receivepack", "true"], in: fixture.remote)
        let ca = try TestCertificateAuthority(directory: fixture.directory.url("ca"))
        let http = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("http"))
        defer { http.stop() }
        let https = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("https"), certificate: ca.serverPEM)
        defer { https.stop() }
        let proxy = try HTTPProxy(directory: fixture.directory.url("proxy"))
        defer { proxy.stop() }
        func through(_ server: HTTPGitServer) -> Int { proxy.requests.filter { $0.contains("127.0.0.1:\(server.port)") }.count }

        var user = try User(fixture.directory.url("home"))
        try user.write(".gitconfig", "[http]\n\tsslCAInfo = \(ca.caFile)\n[http \"http://127.0.0.1:\(http.port)/\"]\n\tproxy = 127.0.0.1:\(proxy.port)\n")
        user.variables = ["https_proxy": proxy.url]
        for server in [http, https] {
            let before = through(server)
            let (clone, sync) = try user.cloneAndSync(server.url("remote.git"), document: "waterline/via-\(server.port).json")
            #expect(clone.status == 0 && sync.status == 0, "\(clone)\n\(sync)\n\(proxy.requests)")
            #expect(sync.json["pushed"]?.arrayValue?.count == 1)
            let byLedger = through(server)
            // Requests (http://) or tunnels (https://, one per connection): for the clone and the sync.
            #expect(byLedger - before >= 2, "\(proxy.requests)")
            let plain = fixture.directory.url("plain-\(server.port)")
            #expect(try user.git(["clone", "-q", server.url("remote.git"), plain], in: fixture.directory.path).status == 0)
            #expect(through(server) > byLedger, "\(proxy.requests)")
        }
        #expect(proxy.requests.contains { $0.hasPrefix("GET http://127.0.0.1:\(http.port)/git/remote.git/info/refs") }, "\(proxy.requests)")
        #expect(proxy.requests.contains { $0.hasPrefix("CONNECT 127.0.0.1:\(https.port) ") }, "\(proxy.requests)")

        // no_proxy: straight to the servers, for ledger and git.
        user.variables["no_proxy"] = "localhost,127.0.0.1"
        let before = proxy.requests.count
        for server in [http, https] {
            let (clone, sync) = try user.cloneAndSync(server.url("remote.git"))
            #expect(clone.status == 0 && sync.status == 0, "\(clone)\n\(sync)")
            let plain = fixture.directory.url("bypass-\(server.port)")
            #expect(try user.git(["clone", "-q", server.url("remote.git"), plain], in: fixture.directory.path).status == 0)
        }
        #expect(proxy.requests.count == before, "\(proxy.requests.suffix(4))")

        // The proxy down: neither gets through.
        user.variables["no_proxy"] = nil
        proxy.stop()
        let (down, _) = try user.cloneAndSync(http.url("remote.git"))
        #expect(down.status == 3, "\(down)")
        #expect(down.stderr.contains("through the proxy http://127.0.0.1:\(proxy.port) (http.proxy)"), "\(down)")
        #expect(try user.git(["clone", "-q", http.url("remote.git"), fixture.directory.url("down")], in: fixture.directory.path).status != 0)
    }

    /// `http.extraHeader` lines (general, then per URL) go with every request, as git sends
    /// them: the server's access log records them, and an `Authorization` header given this
    /// way is all a password-protected server needs.
    @Test func extraHeadersReachTheServer() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let server = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("http"), users: ["me:s3cret"],
                                       loggedHeaders: ["User-Agent", "X-Trace"])
        defer { server.stop() }
        let basic = Data("me:s3cret".utf8).base64EncodedString()
        let user = try User(fixture.directory.url("home"))
        try user.write(".gitconfig", """
            [http]
            \textraHeader = X-Trace: from-gitconfig
            [http "http://127.0.0.1:\(server.port)/git/"]
            \textraHeader = Authorization: Basic \(basic)

            """)
        let (clone, sync) = try user.cloneAndSync(server.url("remote.git"))
        #expect(clone.status == 0 && sync.status == 0, "\(clone)\n\(sync)\n\(server.accessLog)")
        #expect(sync.json["pushed"]?.arrayValue?.count == 1)
        #expect(try user.git(["clone", "-q", server.url("remote.git"), fixture.directory.url("plain")], in: fixture.directory.path).status == 0)

        // The server logs a request once it has answered it (through a pipe): wait for git's clone.
        _ = eventually(10) { server.accessLog.contains { !$0.contains("libgit2") && $0.hasPrefix("GET /git/remote.git/info/refs") } }
        let log = server.accessLog
        let byLedger = log.filter { $0.contains("libgit2") }, byGit = log.filter { !$0.contains("libgit2") }
        #expect(byLedger.contains { $0.hasPrefix("POST /git/remote.git/git-receive-pack ") }, "\(log)")
        #expect(byGit.contains { $0.hasPrefix("GET /git/remote.git/info/refs") }, "\(log)")
        for line in log {
            #expect(line.hasSuffix("\"X-Trace: from-gitconfig\"") && line.contains(" 200 "), "\(line)")
        }
        // Without the headers, the server asks for a password nobody has.
        let bare = try User(fixture.directory.url("bare-home"))
        #expect(try bare.cloneAndSync(server.url("remote.git")).clone.status == 3)
    }

    /// A token in the URL works, and `clone` says it stays in plain text in .git/config.
    @Test func aTokenInTheURLIsAcceptedWithANote() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let server = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("http"), users: ["me:tok3n"])
        defer { server.stop() }
        let user = try User(fixture.directory.url("home"))
        let c = try TestLedger(initialize: false)
        let r = try user.ledger(c, ["clone", server.url("remote.git", credentials: "me:tok3n"), c.root])
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("plain text") && r.stderr.contains("credential.helper"))
        #expect(r.stderr.contains("remote set-url origin http://me@127.0.0.1:\(server.port)/git/remote.git"))
        #expect(!r.stderr.contains("tok3n") && !r.stdout.contains("tok3n"))
    }
}
