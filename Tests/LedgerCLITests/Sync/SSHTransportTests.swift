import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// ssh remotes through the user's own OpenSSH, against a real sshd on 127.0.0.1: each setup
/// a user could have in `~/.ssh` (run in a private home: see `PrivateHome`), with plain `git`
/// run on the same setup, so what works for `git push` is shown to work for `ledger sync`.
@Suite(.serialized) struct SSHTransportTests {
    /// One user's machine: a home whose `~/.ssh` holds a key the server accepts, a bare
    /// remote, and the sshd.
    final class Machine: @unchecked Sendable {
        // @unchecked: owned by one test.
        let fixture: SyncFixture
        let server: SSHServer
        let home: PrivateHome
        /// The key, inside the home as the commands see it (`~/.ssh/<name>`).
        let keyName: String

        init(keyType: String = "ed25519", keyName: String = "id_ed25519", passphrase: String = "", hostKeyType: String = "ed25519") throws {
            fixture = try SyncFixture()
            home = try PrivateHome(directory: fixture.directory.url("home"))
            self.keyName = keyName
            try SSHKeys.generate(home.url(".ssh/" + keyName), type: keyType, passphrase: passphrase)
            server = try SSHServer(directory: fixture.directory.url("sshd"), authorizedKeys: [try SSHKeys.publicKey(home.url(".ssh/" + keyName))],
                                   hostKeyType: hostKeyType)
        }

        deinit { server.stop() }

        /// Puts the server's host key in `~/.ssh/known_hosts`.
        func trustHost() throws { try home.write(".ssh/known_hosts", server.knownHostsLine + "\n", mode: 0o644) }

        /// What every command gets: the machine's git configuration only (no system file).
        func environment(_ extra: [String: String]) -> [String: String] {
            var env = GitCLI.gitEnvironment.merging(extra) { $1 }
            env["GIT_CONFIG_NOSYSTEM"] = "1"
            env["GIT_CONFIG_GLOBAL"] = nil
            return env
        }

        /// `ledger ARGS` (the built binary) as this user.
        func ledger(_ l: TestLedger, _ args: [String], env: [String: String] = [:]) throws -> CommandResult {
            try home.run(LedgerBinary.path, args, environment: environment(l.environment.merging(env) { $1 }), in: l.directory.path)
        }

        /// `git ARGS` as this user.
        func git(_ args: [String], in directory: String, env: [String: String] = [:]) throws -> CommandResult {
            try home.run("/usr/bin/git", args, environment: environment(env), in: directory)
        }

        /// ledger: `init --remote URL` and a first sync, a `clone` elsewhere, a change synced
        /// each way. git: `clone URL`, a commit, `push` — which the next `ledger sync` pulls.
        func roundTrip(_ url: String, env: [String: String] = [:]) throws {
            let a = try TestLedger(initialize: false), b = try TestLedger(initialize: false)
            let initA = try ledger(a, ["init", a.root, "--remote", url], env: env)
            #expect(initA.status == 0, "\(initA)")
            let first = try ledger(a, ["sync", "--repo", a.root], env: env)
            #expect(first.status == 0, "\(first)\n\(server.log)")
            let clone = try ledger(b, ["clone", url, b.root], env: env)
            #expect(clone.status == 0, "\(clone)")
            try b.write("waterline/from-b.json", "{}\n")
            let syncB = try ledger(b, ["sync", "--repo", b.root, "--json"], env: env)
            #expect(syncB.status == 0, "\(syncB)")
            #expect(syncB.json["pushed"]?.arrayValue?.count == 1)

            let plain = fixture.directory.url("git-clone-\(UUID().uuidString.prefix(8))")
            let gitClone = try git(["clone", "-q", url, plain], in: fixture.directory.path, env: env)
            #expect(gitClone.status == 0, "git clone: \(gitClone)")
            try "{}\n".write(toFile: plain + "/waterline/from-git.json", atomically: true, encoding: .utf8)
            _ = try git(["add", "-A"], in: plain, env: env)
            _ = try git(["commit", "-qm", "from git"], in: plain, env: env)
            let gitPush = try git(["push", "-q"], in: plain, env: env)
            #expect(gitPush.status == 0, "git push: \(gitPush)")

            let syncA = try ledger(a, ["sync", "--repo", a.root], env: env)
            #expect(syncA.status == 0, "\(syncA)")
            let tree = try a.headTree()
            #expect(tree["waterline/from-b.json"] != nil && tree["waterline/from-git.json"] != nil)
        }
    }

    /// The first rows: a Host alias in `~/.ssh/config` giving HostName, Port, User and
    /// an IdentityFile that is an RSA key under a name ssh would not try by itself, and a
    /// known_hosts holding only the server's RSA host key.
    @Test func aHostAliasWithAnRSAKeyNamedByIdentityFile() throws {
        let m = try Machine(keyType: "rsa", keyName: "ledger_rsa", hostKeyType: "rsa")
        try m.trustHost()
        try m.home.write(".ssh/config", """
            Host myhost
                HostName 127.0.0.1
                Port \(m.server.port)
                User \(m.server.user)
                IdentityFile ~/.ssh/ledger_rsa

            """)
        try m.roundTrip("myhost:\(m.fixture.remote)")
        // ssh://alias/path too.
        let c = try TestLedger(initialize: false)
        let clone = try m.ledger(c, ["clone", "ssh://myhost\(m.fixture.remote)", c.root])
        #expect(clone.status == 0, "\(clone)")
    }

    /// A `Host` block giving Port and User for the host name the URL uses.
    @Test func aHostBlockForARealHostName() throws {
        let m = try Machine()
        try m.trustHost()
        try m.home.write(".ssh/config", "Host 127.0.0.1\n    Port \(m.server.port)\n    User \(m.server.user)\n")
        try m.roundTrip("127.0.0.1:\(m.fixture.remote)")
    }

    /// `url.<base>.insteadOf` in `~/.gitconfig`: the clone keeps the short URL (as git's
    /// does) and every later sync goes through the rewritten one; `pushInsteadOf` sends only
    /// the pushes elsewhere.
    @Test func insteadOfOnCloneAndSync() throws {
        let m = try Machine()
        try m.trustHost()
        try m.home.write(".ssh/config", "Host myhost\n    HostName 127.0.0.1\n    Port \(m.server.port)\n    User \(m.server.user)\n")
        let base = m.fixture.directory.path + "/"
        try m.home.write(".gitconfig", "[url \"myhost:\(base)\"]\n\tinsteadOf = ledgers:\n", mode: 0o644)
        try m.roundTrip("ledgers:remote.git")
        let c = try TestLedger(initialize: false)
        #expect(try m.ledger(c, ["clone", "ledgers:remote.git", c.root]).status == 0)
        #expect(try GitCLI.run(["config", "remote.origin.url"], in: c.root).stdout == "ledgers:remote.git\n")
        #expect(m.server.acceptedConnections > 0)

        // pushInsteadOf sends the pushes elsewhere (a copy of the remote), fetches stay.
        let copies = m.fixture.directory.url("copies")
        try FileManager.default.createDirectory(atPath: copies, withIntermediateDirectories: true)
        _ = try GitCLI.run(["clone", "-q", "--bare", m.fixture.remote, copies + "/remote.git"], in: copies)
        try m.home.write(".gitconfig", """
            [url "myhost:\(base)"]
            \tinsteadOf = ledgers:
            [url "myhost:\(copies)/"]
            \tpushInsteadOf = ledgers:

            """, mode: 0o644)
        try c.write("waterline/pushed.json", "{}\n")
        let sync = try m.ledger(c, ["sync", "--repo", c.root])
        #expect(sync.status == 0, "\(sync)")
        #expect(try GitCLI.run(["rev-parse", "main:waterline/pushed.json"], in: copies + "/remote.git").status == 0)
        #expect(try GitCLI.run(["rev-parse", "main:waterline/pushed.json"], in: m.fixture.remote).status != 0)
        // git sends its push to the same place.
        let plain = m.fixture.directory.url("plain")
        #expect(try m.git(["clone", "-q", "ledgers:remote.git", plain], in: m.fixture.directory.path).status == 0)
        try "{}\n".write(toFile: plain + "/waterline/git-pushed.json", atomically: true, encoding: .utf8)
        _ = try m.git(["add", "-A"], in: plain)
        _ = try m.git(["commit", "-qm", "from git"], in: plain)
        _ = try m.git(["pull", "-q", "--no-rebase", "--no-edit", copies + "/remote.git", "main"], in: plain)
        let gitPush = try m.git(["push", "-q", "origin", "main"], in: plain)
        #expect(gitPush.status == 0, "\(gitPush)")
        #expect(try GitCLI.run(["rev-parse", "main:waterline/git-pushed.json"], in: copies + "/remote.git").status == 0)
    }

    /// A key with a passphrase: ssh asks through `SSH_ASKPASS` (no terminal here), for ledger
    /// as for git; without any way to ask, ssh's refusal is passed on with what to do.
    @Test func aPassphraseAnsweredThroughSSHAskpass() throws {
        let m = try Machine(passphrase: "open sesame")
        try m.trustHost()
        let askpass = m.fixture.directory.url("askpass.sh")
        try "#!/bin/sh\necho 'open sesame'\n".write(toFile: askpass, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: askpass)
        let url = "ssh://\(m.server.user)@127.0.0.1:\(m.server.port)\(m.fixture.remote)"
        try m.roundTrip(url, env: ["SSH_ASKPASS": askpass, "SSH_ASKPASS_REQUIRE": "force"])

        let c = try TestLedger(initialize: false)
        let refused = try m.ledger(c, ["clone", url, c.root])
        #expect(refused.status == 3, "\(refused)")
        #expect(refused.stderr.contains("Permission denied (publickey)"))
        #expect(refused.stderr.contains("SSH_ASKPASS"))
        #expect(!refused.stderr.contains("open sesame"))
        #expect(!FileSystem.exists(c.root))
        #expect(try m.git(["clone", "-q", url, c.root + "-git"], in: m.fixture.directory.path).status != 0)
    }

    /// An unknown host key: ssh refuses, ledger says which command accepts it; git refuses too.
    @Test func anUnknownHostKey() throws {
        let m = try Machine()
        _ = try m.fixture.origin()
        let url = "ssh://\(m.server.user)@127.0.0.1:\(m.server.port)\(m.fixture.remote)"
        let c = try TestLedger(initialize: false)
        let r = try m.ledger(c, ["clone", url, c.root])
        #expect(r.status == 3, "\(r)")
        #expect(r.stderr.contains("Host key verification failed"))
        #expect(r.stderr.contains("known_hosts") && r.stderr.contains("ssh -p \(m.server.port) \(m.server.user)@127.0.0.1"))
        #expect(try m.git(["clone", "-q", url, c.root + "-git"], in: m.fixture.directory.path).status != 0)
    }
}

/// ssh set up through git's settings alone — `GIT_SSH_COMMAND`, `core.sshCommand` — which
/// never read the account's own `~/.ssh` (`-F`, `UserKnownHostsFile`), so they run in-process.
@Suite(.serialized) struct SSHCommandTests {
    @Test func gitSSHCommandAndCoreSSHCommandWithAKey() throws {
        let fixture = try SyncFixture()
        let key = fixture.directory.url("key")
        try SSHKeys.generate(key, type: "ed25519")
        let server = try SSHServer(directory: fixture.directory.url("sshd"), authorizedKeys: [try SSHKeys.publicKey(key)])
        defer { server.stop() }
        let knownHosts = fixture.directory.url("known_hosts")
        try (server.knownHostsLine + "\n").write(toFile: knownHosts, atomically: true, encoding: .utf8)
        let command = "ssh -F /dev/null -o IdentitiesOnly=yes -i \(key) -o UserKnownHostsFile=\(knownHosts) -o StrictHostKeyChecking=yes"
        let url = server.url(fixture.remote)

        let a = try TestLedger(initialize: false)
        #expect(a.run("init", a.root, "--remote", url).status == 0)
        let sync = a.run("sync", env: ["GIT_SSH_COMMAND": command])
        #expect(sync.status == 0, "\(sync)\n\(server.log)")
        // git, same variable.
        let plain = fixture.directory.url("plain")
        let gitClone = try GitCLI.run(["clone", "-q", url, plain], in: fixture.directory.path, environment: ["GIT_SSH_COMMAND": command])
        #expect(gitClone.status == 0, "\(gitClone)")

        // core.sshCommand in the global configuration ($HOME/.gitconfig), on clone and sync.
        let b = try TestLedger(initialize: false)
        let home = b.environment["HOME"]!
        try "[core]\n\tsshCommand = \(command)\n".write(toFile: home + "/.gitconfig", atomically: true, encoding: .utf8)
        let clone = b.run("clone", url, b.root)
        #expect(clone.status == 0, "\(clone)")
        try b.write("waterline/from-b.json", "{}\n")
        #expect(b.run("sync").status == 0)
        let gitPull = try GitCLI.run(["pull", "-q"], in: plain, environment: ["HOME": home, "GIT_CONFIG_GLOBAL": home + "/.gitconfig"])
        #expect(gitPull.status == 0, "\(gitPull)")
        #expect(FileSystem.exists(plain + "/waterline/from-b.json"))
        // Without the variable or the setting, the account's own ssh setup has no key for it.
        #expect(a.run("sync", env: ["GIT_SSH_COMMAND": "ssh -F /dev/null -o IdentitiesOnly=yes -o UserKnownHostsFile=\(knownHosts) -o BatchMode=yes"]).status == 3)
    }

    @Test func aMissingSSHNamesThePackage() throws {
        let fixture = try SyncFixture()
        let bin = fixture.directory.url("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/git", withDestinationPath: "/usr/bin/git")
        let c = try TestLedger(initialize: false)
        let r = c.run("clone", "me@127.0.0.1:/srv/ledger.git", c.root, env: ["PATH": bin])
        #expect(r.status == 3, "\(r)")
        #expect(r.stderr.contains("openssh-client"))
        let git = try GitCLI.run(["clone", "me@127.0.0.1:/srv/ledger.git", c.root + "-git"], in: fixture.directory.path, environment: ["PATH": bin])
        #expect(git.status != 0 && git.stderr.contains("ssh"), "\(git)")
    }
}
