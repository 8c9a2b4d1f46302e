#if canImport(CLinux)
import CLinux
#endif
import Foundation
import LedgerKit
@testable import LedgerSync
import LedgerTestSupport
import Testing

/// ssh URLs parsed, ssh commands built and git's configuration read the way git does.
@Suite struct TransportConfigurationTests {
    @Test(arguments: [
        ("ssh://me@host:2222/srv/ledger.git", SSHTarget(user: "me", host: "host", port: "2222", path: "/srv/ledger.git")),
        ("ssh://host/~me/ledger.git", SSHTarget(user: nil, host: "host", port: nil, path: "~me/ledger.git")),
        ("git+ssh://[::1]:22/x.git", SSHTarget(user: nil, host: "::1", port: "22", path: "/x.git")),
        ("myhost:ledger.git", SSHTarget(user: nil, host: "myhost", port: nil, path: "ledger.git")),
        ("git@example.org:me/ledger.git", SSHTarget(user: "git", host: "example.org", port: nil, path: "me/ledger.git")),
        ("[host:2222]:ledger.git", SSHTarget(user: nil, host: "host", port: "2222", path: "ledger.git")),
    ])
    func sshURLs(url: String, target: SSHTarget) {
        #expect(SSHTarget(url) == target)
    }

    @Test func theSSHCommandAsGitRunsIt() throws {
        let target = try #require(SSHTarget("ssh://me@host:2222/it's!.git"))
        #expect(SSHCommand.arguments(target, service: "git-upload-pack") == ["-p", "2222", "me@host", #"git-upload-pack '/it'\''s'\!'.git'"#])
        // GIT_SSH_COMMAND before core.sshCommand before GIT_SSH; plain words run directly.
        let plain = SSHCommand(environment: ["GIT_SSH_COMMAND": "ssh -i /k -o A=b", "GIT_SSH": "/usr/bin/other"], config: nil)
        #expect(plain.origin == .gitSSHCommand)
        #expect(plain.invocation(["h", "c"]).program == "ssh" && plain.invocation(["h", "c"]).arguments == ["-i", "/k", "-o", "A=b", "h", "c"])
        let shell = SSHCommand(environment: ["GIT_SSH_COMMAND": "ssh -i ~/.ssh/k"], config: nil).invocation(["h", "c"])
        #expect(shell.viaShell && shell.program == "/bin/sh" && shell.arguments == ["-c", "ssh -i ~/.ssh/k \"$@\"", "ssh -i ~/.ssh/k", "h", "c"])
        #expect(SSHCommand(environment: ["GIT_SSH": "/usr/bin/other"], config: nil).invocation(["h"]).program == "/usr/bin/other")
        #expect(SSHCommand(environment: [:], config: nil).invocation(["h"]).program == "ssh")
    }

    /// insteadOf (longest prefix), pushInsteadOf for pushes only, per-URL http settings,
    /// the global file found from HOME and GIT_CONFIG_GLOBAL, system skipped by NOSYSTEM.
    @Test func gitsConfigurationRules() throws {
        let dir = TemporaryDirectory()
        try """
            [url "ssh://host/"]
            \tinsteadOf = short:
            [url "ssh://longer/"]
            \tinsteadOf = short:deep/
            [url "ssh://pushes/"]
            \tpushInsteadOf = short:
            [http]
            \tsslVerify = false
            \textraHeader = X-A: 1
            [http "https://example.org/team"]
            \tsslVerify = true
            \textraHeader = X-B: 2

            """.write(toFile: dir.path + "/.gitconfig", atomically: true, encoding: .utf8)
        let env = ["HOME": dir.path, "GIT_CONFIG_NOSYSTEM": "1"]
        let config = try GitConfiguration(environment: env)
        #expect(config.rewrite("short:x.git", forPush: false) == "ssh://host/x.git")
        #expect(config.rewrite("short:deep/x.git", forPush: false) == "ssh://longer/x.git")
        #expect(config.rewrite("short:x.git", forPush: true) == "ssh://pushes/x.git")
        #expect(config.rewrite("other:x.git", forPush: true) == "other:x.git")
        #expect(config.http("sslVerify", for: "https://example.org/team/ledger.git").last == "true")
        #expect(config.http("sslVerify", for: "https://example.org/other.git").last == "false")
        #expect(config.http("extraHeader", for: "https://example.org/team/x") == ["X-A: 1", "X-B: 2"])
        #expect(GitConfiguration.files(environment: env, gitDirectory: "/r/.git").map(\.0) == [dir.path + "/.config/git/config", dir.path + "/.gitconfig", "/r/.git/config"])
        #expect(GitConfiguration.files(environment: ["GIT_CONFIG_GLOBAL": "/g"], gitDirectory: nil).map(\.0) == ["/etc/gitconfig", "/g"])
    }

    /// Sections read entry by entry as git reads them: a subsection holding dots, a section
    /// without one, sections whose names only begin or end alike — beside plain git's answer
    /// (`ls-remote --get-url` rewrites with insteadOf, `config --get-urlmatch` picks http's).
    @Test func sectionsAsGitReadsThem() throws {
        let dir = TemporaryDirectory()
        try """
            [url]
            	insteadOf = bare:
            [urlx "ssh://decoy/"]
            	insteadOf = short:
            [url "https://mirror.example.org/a.b/"]
            	insteadOf = https://example.org/
            	pushInsteadOf = pushed:
            [url ""]
            	insteadOf = empty:
            [http]
            	sslVerify = false
            [http "https://example.org/team.x"]
            	sslVerify = true
            [xhttp]
            	sslVerify = maybe
            [http "https://example.org/other"]
            	postBuffer = 1

            """.write(toFile: dir.path + "/.gitconfig", atomically: true, encoding: .utf8)
        let env = ["HOME": dir.path, "GIT_CONFIG_NOSYSTEM": "1"]
        let git = ["HOME": dir.path, "GIT_CONFIG_GLOBAL": dir.path + "/.gitconfig"]
        let config = try GitConfiguration(environment: env)
        for url in ["https://example.org/x.git", "bare:x", "short:x", "empty:x", "pushed:x"] {
            let plain = try GitCLI.run(["ls-remote", "--get-url", url], in: dir.path, environment: git).stdout.trimmingCharacters(in: .newlines)
            #expect(config.rewrite(url, forPush: false) == plain, "\(url)")
        }
        #expect(config.rewrite("https://example.org/x.git", forPush: false) == "https://mirror.example.org/a.b/x.git")
        #expect(config.rewrite("pushed:x", forPush: true) == "https://mirror.example.org/a.b/x")
        for url in ["https://example.org/team.x/ledger.git", "https://example.org/team/ledger.git"] {
            let plain = try GitCLI.run(["config", "--get-urlmatch", "http.sslVerify", url], in: dir.path, environment: git).stdout
            #expect(config.http("sslVerify", for: url).last == plain.trimmingCharacters(in: .newlines), "\(url)")
        }
        #expect(config.http("postBuffer", for: "https://example.org/team.x/ledger.git").isEmpty)
    }

    #if canImport(CLinux)
    /// libgit2 1.5.1 leaks pcre2's match data (20 KiB) for every entry its filters by regular
    /// expression do not match; a resident autosync reads the configuration every round
    /// (`rewrite`, `http`, `mentionsFilters`) and grew by 0.8 MiB an hour through it. Counted
    /// with the allocator's bytes in use, not timed: through such filters, 100 reads of these
    /// 50 entries kept 330 MB; read entry by entry, nothing.
    @Test func readingTheConfigurationRepeatedlyKeepsNoMemory() throws {
        TestGit.isolate()
        let dir = TemporaryDirectory()
        let repo = try Repository.initialize(at: dir.path + "/r")
        for i in 0..<50 { try repo.setConfig("section\(i).key", "value \(i)") }
        let config = try GitConfiguration(environment: ["HOME": dir.path, "GIT_CONFIG_NOSYSTEM": "1"], gitDirectory: repo.gitDirectory)
        func read() throws {
            _ = config.rewrite("https://example.org/x.git", forPush: true)
            _ = config.http("sslVerify", for: "https://example.org/x.git")
            _ = try repo.mentionsFilters()
        }
        try read()
        let before = mallinfo2().uordblks
        for _ in 0..<100 { try read() }
        let kept = mallinfo2().uordblks - before
        #expect(kept < 32 << 20, "\(kept) bytes kept by 100 reads of the configuration")
    }
    #endif

    /// The proxy as git picks it: http.proxy (per URL, empty for none) before the variables,
    /// https_proxy for https:// and http_proxy for http://, no_proxy (lower case first; a
    /// name matches itself and its subdomains) over both; no scheme means http://, no port 1080.
    @Test func theProxyAsGitPicksIt() throws {
        let dir = TemporaryDirectory()
        try """
            [http]
            \tproxy = proxy.lan:3128
            [http "https://direct.org/"]
            \tproxy =
            [remote "origin"]
            \tpushurl = ssh://one/x.git
            \tpushurl = ssh://two/x.git

            """.write(toFile: dir.path + "/.gitconfig", atomically: true, encoding: .utf8)
        let config = try GitConfiguration(environment: ["HOME": dir.path, "GIT_CONFIG_NOSYSTEM": "1"])
        let none = try GitConfiguration(environment: ["GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"])
        func proxy(_ url: String, _ config: GitConfiguration, _ env: [String: String] = [:]) -> String? {
            TransportSession.proxy(for: url, configuration: config, environment: env).map { "\($0.url) \($0.from)" }
        }
        let env = ["https_proxy": "http://s:1", "http_proxy": "http://p:2", "HTTPS_PROXY": "http://upper:3"]
        #expect(proxy("https://example.org/x.git", config, env) == "http://proxy.lan:3128 http.proxy")
        #expect(proxy("https://direct.org/x.git", config, env) == nil)
        #expect(proxy("https://example.org/x.git", none, env) == "http://s:1 https_proxy")
        #expect(proxy("http://example.org/x.git", none, env) == "http://p:2 http_proxy")
        #expect(proxy("http://example.org/x.git", none, ["http_proxy": "https://user:pw@p"]) == "https://user:pw@p:1080 http_proxy")
        #expect(proxy("http://example.org/x.git", none, ["HTTP_PROXY": "http://p:2"]) == nil)
        #expect(proxy("https://git.example.org/x.git", config, ["no_proxy": "example.org", "NO_PROXY": "*"]) == nil)
        #expect(proxy("https://notexample.org/x.git", none, env.merging(["no_proxy": "example.org"]) { $1 }) == "http://s:1 https_proxy")
        #expect(proxy("ssh://example.org/x.git", config, env) == nil)
        #expect(config.values("remote.origin.pushurl") == ["ssh://one/x.git", "ssh://two/x.git"])
    }
}

/// The merge driver read from `.git/config` without libgit2, before every command: what git
/// itself reads there, or nil (then libgit2 answers) — never another value.
@Suite struct ConfiguredDriverTests {
    @Test(arguments: [
        "[merge \"ledger\"]\n\tdriver = ledger merge-driver %O %A %B %P\n",
        "[core]\n\tbare = false\r\n[merge \"ledger\"]\r\n\tname = ledger\r\n\tDriver = first %A\r\n\tdriver=last %A\r\n",
        "[merge \"ledger\"]\n\tdriver = one\n[merge \"other\"]\n\tdriver = two\n[merge \"ledger\"]\n  driver = three %A \n",
        "[merge \"other\"]\n\tdriver = not-ours\n",
        "[merge \"ledger\"]\n\tdriver = \"quoted %A\"\n",
        "[merge \"ledger\"]\n\tdriver = a ; comment\n",
        "[merge \"ledger\"]\n\tdriver =\n",
        "",
    ])
    func whatGitReads(config: String) throws {
        let dir = TemporaryDirectory()
        let repository = dir.path + "/r"
        #expect(try GitCLI.run(["init", "-q", repository], in: dir.path).status == 0)
        try config.write(toFile: repository + "/.git/config", atomically: true, encoding: .utf8)
        let git = try GitCLI.run(["config", "--get", "merge.ledger.driver"], in: repository)
        let expected = git.status == 0 ? git.stdout.trimmingCharacters(in: .newlines) : nil
        let read = Housekeeping.configuredDriver(repository + "/.git")
        // Plainly set: the same value as git; otherwise nil, never a different value.
        #expect(read == expected || read == nil, "ledger read \(read ?? "nil"), git \(expected ?? "nil")")
        if !config.contains("\"quoted") && !config.contains(";") && expected?.isEmpty == false {
            #expect(read == expected)
        }
    }
}
