import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// `ledger autosync` over ssh, against a real sshd on 127.0.0.1 (set up through
/// `GIT_SSH_COMMAND`, which reads nothing of the account's own `~/.ssh`).
@Suite(.serialized) struct AutosyncSSHTests {
    @Test func tenSyncsShareOneHandshakeWhereGitOpensTwenty() throws {
        let fixture = try SyncFixture()
        let key = fixture.directory.url("key")
        try SSHKeys.generate(key, type: "ed25519")
        var server: SSHServer? = try SSHServer(directory: fixture.directory.url("sshd"), authorizedKeys: [try SSHKeys.publicKey(key)])
        defer { server?.stop() }
        let knownHosts = fixture.directory.url("known_hosts")
        try (server!.knownHostsLine + "\n").write(toFile: knownHosts, atomically: true, encoding: .utf8)
        let command = "ssh -F /dev/null -o IdentitiesOnly=yes -i \(key) -o UserKnownHostsFile=\(knownHosts) -o StrictHostKeyChecking=yes -o BatchMode=yes"
        let url = server!.url(fixture.remote)
        // `ssh` on PATH is OpenSSH's, through a script that counts the runs asking for the
        // configuration (`ssh -G`, whether the user shares connections already).
        let bin = fixture.directory.url("bin"), asked = fixture.directory.url("ssh-G.log")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try "#!/bin/sh\ncase \" $* \" in *\" -G \"*) echo G >> \(asked) ;; esac\nexec /usr/bin/ssh \"$@\"\n"
            .write(toFile: bin + "/ssh", atomically: true, encoding: .utf8)
        chmod(bin + "/ssh", 0o755)
        let env = ["GIT_SSH_COMMAND": command, "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
        func askedRuns() -> Int { ((try? String(contentsOfFile: asked, encoding: .utf8)) ?? "").split(separator: "\n").count }

        let a = try TestLedger(initialize: false)
        #expect(a.run("init", a.root, "--remote", url).status == 0)
        #expect(a.run("sync", env: env).status == 0)
        for (k, v) in [("debounce", "100ms"), ("interval", "1h")] { #expect(a.run("autosync", "settings", "set", k, v).status == 0) }

        // Ten changes, each synced by autosync before the next: one ssh connection in all.
        var before = server!.acceptedConnections
        let p = try BackgroundProcess(LedgerBinary.path, ["autosync"], environment: a.environment.merging(env) { $1 }, directory: a.root,
                                      log: a.directory.url("autosync.log"))
        defer { p.stop() }
        for i in 0..<10 {
            try a.write("waterline/ssh-\(i).json", "{}\n")
            #expect(eventually(60) { (try? GitCLI.run(["cat-file", "-e", "main:waterline/ssh-\(i).json"], in: fixture.remote).status) == 0 }, "\(p.output)\n\(server!.log)")
        }
        #expect(server!.acceptedConnections - before == 1, "\(server!.log)")
        // The configuration asked once, not before each of the 20 connections' ssh runs.
        #expect(askedRuns() == 1)

        // sshd stopped: autosync backs off without spinning; back: nothing lost.
        let port = server!.port
        server!.stop()
        try a.write("waterline/while-down.json", "{}\n")
        #expect(eventually(30) { p.output.contains("not synced:") }, "\(p.output)")
        server = try SSHServer(directory: fixture.directory.url("sshd-again"), authorizedKeys: [try SSHKeys.publicKey(key)], port: port)
        try (server!.knownHostsLine + "\n").write(toFile: knownHosts, atomically: true, encoding: .utf8)
        #expect(a.run("autosync", "settings", "set", "interval", "1s").status == 0)
        #expect(eventually(60) { (try? GitCLI.run(["cat-file", "-e", "main:waterline/while-down.json"], in: fixture.remote).status) == 0 }, "\(p.output)")
        p.stop()
        #expect(p.output.contains("stopped after"), "\(p.output)")
        // Its shared connection went with it: no ssh of ours is left.
        let left = try Processes.run("/usr/bin/pgrep", ["-f", "ledger-ssh-"])
        #expect(left.stdout.isEmpty, "\(left)")

        // `ledger sync` by hand: a connection for the fetch and one for the push.
        before = server!.acceptedConnections
        for i in 0..<10 {
            try a.write("waterline/hand-\(i).json", "{}\n")
            #expect(a.run("sync", env: env).status == 0)
        }
        #expect(server!.acceptedConnections - before == 20, "\(server!.log)")
        // Plain git on the same setup, `git pull` then `git push`: two connections a round.
        let plain = fixture.directory.url("plain")
        #expect(try GitCLI.run(["clone", "-q", url, plain], in: fixture.directory.path, environment: env).status == 0)
        before = server!.acceptedConnections
        for i in 0..<10 {
            try "{}\n".write(toFile: plain + "/waterline/git-\(i).json", atomically: true, encoding: .utf8)
            try GitCLI.run(["add", "-A"], in: plain)
            try GitCLI.run(["commit", "-q", "-m", "git \(i)"], in: plain)
            #expect(try GitCLI.run(["pull", "-q", "--no-rebase"], in: plain, environment: env).status == 0)
            #expect(try GitCLI.run(["push", "-q"], in: plain, environment: env).status == 0)
        }
        #expect(server!.acceptedConnections - before == 20, "\(server!.log)")
    }
}
