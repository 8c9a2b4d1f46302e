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
        /// The ssh-agent holding the key, when it is not in `~/.ssh`.
        let agent: SSHAgent?

        /// A key of `keyType` as `~/.ssh/<keyName>` — or, `inAgent`, only in an ssh-agent (its
        /// files deleted once added).
        init(keyType: String = "ed25519", keyName: String = "id_ed25519", passphrase: String = "", hostKeyType: String = "ed25519",
             inAgent: Bool = false) throws {
            fixture = try SyncFixture()
            home = try PrivateHome(directory: fixture.directory.url("home"))
            let key = inAgent ? fixture.directory.url(keyName) : home.url(".ssh/" + keyName)
            try SSHKeys.generate(key, type: keyType, passphrase: passphrase)
            server = try SSHServer(directory: fixture.directory.url("sshd"), authorizedKeys: [try SSHKeys.publicKey(key)], hostKeyType: hostKeyType)
            agent = inAgent ? try SSHAgent(directory: fixture.directory.path, keys: [key]) : nil
            if inAgent {
                try FileManager.default.removeItem(atPath: key)
                try FileManager.default.removeItem(atPath: key + ".pub")
            }
        }

        deinit {
            server.stop()
            agent?.stop()
        }

        /// Puts the server's host key in `~/.ssh/known_hosts`.
        func trustHost() throws { try home.write(".ssh/known_hosts", server.knownHostsLine + "\n", mode: 0o644) }

        /// What every command gets: the machine's git configuration only (no system file), and
        /// the agent's socket.
        func environment(_ extra: [String: String]) -> [String: String] {
            var env = GitCLI.gitEnvironment.merging(agent.map { ["SSH_AUTH_SOCK": $0.socket] } ?? [:]) { $1 }.merging(extra) { $1 }
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

    /// The issue's first rows: a Host alias in `~/.ssh/config` giving HostName, Port, User and
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
        // ssh's own words, in one line that says what to change.
        #expect(refused.stderr.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").count == 1, "\(refused)")
        #expect(refused.stderr.contains("through ssh: ") && refused.stderr.contains("Permission denied (publickey)"))
        #expect(refused.stderr.contains("SSH_ASKPASS"))
        #expect(!refused.stderr.contains("open sesame"))
        #expect(!FileSystem.exists(c.root))
        #expect(try m.git(["clone", "-q", url, c.root + "-git"], in: m.fixture.directory.path).status != 0)
    }

    /// An RSA key that is only in ssh-agent (no key file anywhere ssh looks): ssh signs
    /// with rsa-sha2 through the agent, for ledger as for git; without the agent, nothing
    /// can authenticate.
    @Test func anRSAKeyOnlyInTheAgent() throws {
        let m = try Machine(keyType: "rsa", keyName: "agent_rsa", inAgent: true)
        try m.trustHost()
        #expect(try FileManager.default.contentsOfDirectory(atPath: m.home.url(".ssh")) == ["known_hosts"])
        let url = "ssh://\(m.server.user)@127.0.0.1:\(m.server.port)\(m.fixture.remote)"
        try m.roundTrip(url)
        #expect(m.server.log.contains("Accepted publickey for \(m.server.user) from 127.0.0.1"), "\(m.server.log)")
        #expect(!m.server.log.contains("ssh2: ED25519"))
        #expect(m.server.acceptedConnections == m.server.log.components(separatedBy: "ssh2: RSA SHA256:").count - 1)

        let c = try TestLedger(initialize: false)
        let refused = try m.ledger(c, ["clone", url, c.root], env: ["SSH_AUTH_SOCK": m.fixture.directory.url("no-agent.sock")])
        #expect(refused.status == 3 && refused.stderr.contains("Permission denied (publickey)"), "\(refused)")
    }

    /// A key with a passphrase, on a terminal (tmux): ssh asks on /dev/tty itself, the
    /// passphrase typed there opens the key — for `ledger clone` (once) and `ledger sync` (once
    /// for the fetch, once for the push), as for `git clone` and `git push`. ledger waits for
    /// the person as git does: the stall watchdog (8 s here) does not cut ssh while it asks
    /// (20 s before the first answer). Not shorter: after the answer ssh derives the key from
    /// the passphrase (bcrypt) in silence, which took over 3 s on a loaded 2-core machine.
    @Test func aPassphraseTypedAtSSHsPromptOnATerminal() throws {
        let m = try Machine(passphrase: "open sesame")
        try m.trustHost()
        _ = try m.fixture.origin()
        let url = "ssh://\(m.server.user)@127.0.0.1:\(m.server.port)\(m.fixture.remote)"
        let prompt = "Enter passphrase for key '\(m.home.home)/.ssh/id_ed25519':"
        let c = try TestLedger(initialize: false)
        let env = m.environment(c.environment.merging(["LEDGER_NETWORK_TIMEOUT": "8"]) { $1 })
        func command(_ executable: String, _ args: [String], in directory: String) -> String {
            "clear; " + m.home.commandLine(executable, args, environment: env, in: directory) + "; echo \"[exit $?]\""
        }
        /// Types the passphrase at each of `prompts` prompts; the command's exit status.
        func answer(_ term: TmuxTerminal, prompts: Int, waitFirst: Bool = false) throws -> Int32? {
            for n in 1...prompts {
                guard waitForPrompt(term, prompt, count: n) else { return nil }
                if waitFirst, n == 1 { Thread.sleep(forTimeInterval: 20) }
                try term.type("open sesame")
                try term.send("Enter")
            }
            return term.waitForExit()
        }

        let term = try TmuxTerminal(command: command(LedgerBinary.path, ["clone", url, c.root], in: c.directory.path))
        defer { term.stop() }
        #expect(try answer(term, prompts: 1, waitFirst: true) == 0, "\(term.screen())")
        #expect(!term.screen().contains("open sesame"))
        try c.write("waterline/typed.json", "{}\n")
        try term.respawn(command(LedgerBinary.path, ["sync", "--repo", c.root], in: c.directory.path))
        #expect(try answer(term, prompts: 2) == 0, "\(term.screen())")
        #expect(try GitCLI.run(["rev-parse", "main:waterline/typed.json"], in: m.fixture.remote).status == 0)

        // git, same terminal and key.
        let plain = m.fixture.directory.url("plain")
        try term.respawn(command("/usr/bin/git", ["clone", "-q", url, plain], in: m.fixture.directory.path))
        #expect(try answer(term, prompts: 1) == 0, "\(term.screen())")
        try "{}\n".write(toFile: plain + "/waterline/git-typed.json", atomically: true, encoding: .utf8)
        _ = try GitCLI.run(["add", "-A"], in: plain)
        _ = try GitCLI.run(["commit", "-qm", "from git"], in: plain)
        try term.respawn(command("/usr/bin/git", ["push", "-q"], in: plain))
        #expect(try answer(term, prompts: 1) == 0, "\(term.screen())")
        #expect(try GitCLI.run(["rev-parse", "main:waterline/git-typed.json"], in: m.fixture.remote).status == 0)
    }

    /// Waits (at most 30 s) until the terminal shows `text` `count` times.
    func waitForPrompt(_ term: TmuxTerminal, _ text: String, count: Int, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        repeat {
            if term.screen().components(separatedBy: text).count - 1 >= count { return true }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        Issue.record("waited 30 s for prompt \(count), \"\(text)\"; the screen shows:\n\(term.screen())", sourceLocation: sourceLocation)
        return false
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
