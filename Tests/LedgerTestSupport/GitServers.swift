import Foundation
import LedgerKit

/// Real git servers on 127.0.0.1 (ephemeral ports) for transport tests, each stopped by its
/// PID when the value goes away. A missing program fails the test with the package to install.

/// `git daemon --enable=receive-pack` serving the repositories under `root` (`git://`); with
/// `pushes: false`, read-only, as git daemon is by default.
package final class GitDaemonServer: @unchecked Sendable {
    // @unchecked: owned by one test.
    package let port: Int
    let process: BackgroundProcess

    package init(root: String, log: String, pushes: Bool = true) throws {
        let daemon = try Processes.require("git-daemon", package: "git")
        port = try Processes.freePort()
        process = try BackgroundProcess(daemon, [
            "--reuseaddr", "--listen=127.0.0.1", "--port=\(port)", "--base-path=\(root)", "--export-all",
            "--informative-errors",
        ] + (pushes ? ["--enable=receive-pack"] : []) + [root], environment: GitCLI.gitEnvironment, log: log)
        guard Processes.waitForPort(self.port) else {
            process.stop()
            throw LedgerError.failure("git daemon did not start: \(process.output)")
        }
    }

    /// The URL of repository `name` under the root.
    package func url(_ name: String) -> String { "git://127.0.0.1:\(port)/\(name)" }

    package func stop() { process.stop() }
}

/// OpenSSH's sshd on a high port, with its own host key (ed25519, or `hostKeyType`),
/// accepting `authorizedKeys` for the current user.
package final class SSHServer: @unchecked Sendable {
    // @unchecked: owned by one test.
    package let port: Int
    package let directory: String
    /// The known_hosts line for this server (`[127.0.0.1]:PORT ssh-ed25519 …`).
    package let knownHostsLine: String
    package let user: String
    let process: BackgroundProcess

    /// `port`: the port of a server stopped before (a server coming back); a free one by default.
    package init(directory: String, authorizedKeys: [String], hostKeyType: String = "ed25519", port: Int? = nil) throws {
        let sshd = try Processes.require("sshd", package: "openssh-server")
        _ = try Processes.require("ssh-keygen", package: "openssh-client")
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let hostKey = directory + "/host_" + hostKeyType
        try SSHKeys.generate(hostKey, type: hostKeyType)
        try authorizedKeys.joined(separator: "\n").appending("\n").write(toFile: directory + "/authorized_keys", atomically: true, encoding: .utf8)
        user = String(cString: getpwuid(geteuid()).pointee.pw_name)
        self.port = try port ?? Processes.freePort()
        let config = """
            Port \(self.port)
            ListenAddress 127.0.0.1
            HostKey \(hostKey)
            PidFile \(directory)/sshd.pid
            AuthorizedKeysFile \(directory)/authorized_keys
            StrictModes no
            UsePAM no
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            PubkeyAuthentication yes
            PermitRootLogin prohibit-password
            AllowUsers \(user)
            LogLevel VERBOSE

            """
        try config.write(toFile: directory + "/sshd_config", atomically: true, encoding: .utf8)
        if geteuid() == 0 { try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true) }
        process = try BackgroundProcess(sshd, ["-D", "-e", "-f", directory + "/sshd_config"], log: directory + "/sshd.log")
        guard Processes.waitForPort(self.port) else {
            process.stop()
            throw LedgerError.failure("sshd did not start: \(process.output)")
        }
        let pub = try String(contentsOfFile: hostKey + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        knownHostsLine = "[127.0.0.1]:\(self.port) \(pub)"
    }

    /// The ssh URL of a repository at an absolute path.
    package func url(_ path: String) -> String { "ssh://\(user)@127.0.0.1:\(port)\(path)" }

    /// sshd's log (why it refused a key).
    package var log: String { process.output }

    /// How many ssh sessions sshd accepted so far (its `Accepted publickey` lines).
    package var acceptedConnections: Int { log.components(separatedBy: "Accepted publickey").count - 1 }

    package func stop() { process.stop() }
}

/// Key files and ssh-agent.
package enum SSHKeys {
    /// Creates a key pair (`path`, `path.pub`) without a passphrase unless one is given.
    package static func generate(_ path: String, type: String, passphrase: String = "") throws {
        let keygen = try Processes.require("ssh-keygen", package: "openssh-client")
        var args = ["-q", "-t", type, "-N", passphrase, "-C", "ledger-test", "-f", path]
        if type == "rsa" { args += ["-b", "2048"] }
        let r = try Processes.run(keygen, args)
        guard r.status == 0 else { throw LedgerError.failure("ssh-keygen failed: \(r)") }
    }

    /// The package key line of a key pair.
    package static func publicKey(_ path: String) throws -> String {
        try String(contentsOfFile: path + ".pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A directory that stands in for the account's own home for the programs run through it.
///
/// OpenSSH reads `~/.ssh` (config, keys, known_hosts) from the passwd entry's home whatever
/// `$HOME` says, so a test of "the user's own `~/.ssh/config`" runs each command in a private
/// mount namespace (`unshare --mount`) where this directory is bound over that home, with
/// `HOME` pointing there too, and with no controlling terminal (`setsid`): the real account's
/// files are never read or written. Needs root (as `make test` runs).
package final class PrivateHome: @unchecked Sendable {
    // @unchecked: immutable after init.
    /// The directory, as seen from the tests.
    package let path: String
    /// The home directory it stands in for (what the commands see: `$HOME`, `~`).
    package let home: String

    package init(directory: String) throws {
        _ = try Processes.require("unshare", package: "util-linux")
        path = directory
        home = String(cString: getpwuid(geteuid()).pointee.pw_dir)
        try FileManager.default.createDirectory(atPath: directory + "/.ssh", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    /// The path of `relative` inside the home, as the tests see it.
    package func url(_ relative: String) -> String { path + "/" + relative }

    /// Writes a file of the home (`.ssh/config`, `.gitconfig`, …) with `mode`.
    package func write(_ relative: String, _ text: String, mode: Int = 0o600) throws {
        try text.write(toFile: url(relative), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url(relative))
    }

    /// Runs `executable` with this directory as the account's home, without a terminal.
    package func run(_ executable: String, _ arguments: [String], environment: [String: String], in directory: String) throws -> CommandResult {
        var env = environment
        env["HOME"] = home
        return try Processes.run("/usr/bin/setsid", ["--wait"] + invocation(executable, arguments, in: directory), environment: env)
    }

    /// A shell command line that runs `executable` with this directory as the account's home
    /// and exactly `environment`, on the terminal it is typed into (which stays the
    /// controlling terminal: ssh prompts there).
    package func commandLine(_ executable: String, _ arguments: [String], environment: [String: String], in directory: String) -> String {
        var env = environment
        env["HOME"] = home
        let words = ["/usr/bin/env", "-i"] + env.map { "\($0.key)=\($0.value)" }.sorted() + invocation(executable, arguments, in: directory)
        return words.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
    }

    /// The command that binds this directory over the home in a private mount namespace,
    /// then runs `executable` in `directory`.
    private func invocation(_ executable: String, _ arguments: [String], in directory: String) -> [String] {
        let script = #"mount --bind "$1" "$2" && cd "$3" && shift 3 && exec "$@""#
        return ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh", path, home, directory, executable] + arguments
    }
}

/// An ssh-agent on a socket of its own, holding the given keys.
package final class SSHAgent: @unchecked Sendable {
    // @unchecked: owned by one test.
    package let socket: String
    let process: BackgroundProcess

    package init(directory: String, keys: [String]) throws {
        let agent = try Processes.require("ssh-agent", package: "openssh-client")
        let add = try Processes.require("ssh-add", package: "openssh-client")
        socket = directory + "/agent.sock"
        process = try BackgroundProcess(agent, ["-D", "-a", socket], log: directory + "/agent.log")
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        for key in keys {
            let r = try Processes.run(add, [key], environment: ["SSH_AUTH_SOCK": socket, "PATH": "/usr/bin:/bin"])
            guard r.status == 0 else { throw LedgerError.failure("ssh-add failed: \(r)") }
        }
    }

    package func stop() { process.stop() }
}

/// lighttpd serving `git http-backend` (smart HTTP) for the repositories under `root`,
/// over HTTPS when a certificate is given, with basic authentication when users are given.
package final class HTTPGitServer: @unchecked Sendable {
    // @unchecked: owned by one test.
    package let port: Int
    package let tls: Bool
    let process: BackgroundProcess
    let accessLogFile: String

    /// - Parameters:
    ///   - certificate: a PEM file holding the server's certificate and key (HTTPS), or nil.
    ///   - users: `name:password` lines for basic authentication of every request, or empty
    ///     for none (then the repositories must set `http.receivepack` to accept pushes).
    ///   - loggedHeaders: request headers the access log records for each request.
    package init(root: String, directory: String, certificate: String? = nil, users: [String] = [], loggedHeaders: [String] = []) throws {
        let lighttpd = try Processes.require("lighttpd", package: "lighttpd")
        let backend = try Processes.require("git-http-backend", package: "git")
        if certificate != nil, !FileManager.default.fileExists(atPath: "/usr/lib/lighttpd/mod_openssl.so") {
            throw LedgerError.failure("this test needs lighttpd's TLS module from the Debian package lighttpd-mod-openssl; install it with `apt-get install lighttpd-mod-openssl` (or run `make test`, which does)")
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        port = try Processes.freePort()
        tls = certificate != nil
        accessLogFile = directory + "/access.log"
        // The access log goes through a pipe, which lighttpd writes at once (a file it writes
        // only now and then). Its strings take \" for a quote.
        let headerFields = loggedHeaders.map { #" \"\#($0): %{\#($0)}i\""# }.joined()
        var modules = ["mod_alias", "mod_cgi", "mod_setenv", "mod_accesslog"]
        if certificate != nil { modules.append("mod_openssl") }
        if !users.isEmpty { modules += ["mod_auth", "mod_authn_file"] }
        var config = """
            server.modules = (\(modules.map { "\"\($0)\"" }.joined(separator: ", ")))
            server.port = \(port)
            server.bind = "127.0.0.1"
            server.document-root = "\(directory)"
            server.errorlog = "\(directory)/error.log"
            server.max-request-size = 0
            accesslog.filename = "|exec cat >> \(accessLogFile)"
            accesslog.format = "%r %>s\(headerFields)"
            alias.url = ("/git" => "\(backend)")
            $HTTP["url"] =~ "^/git" {
                cgi.assign = ("" => "")
                setenv.set-environment = ("GIT_PROJECT_ROOT" => "\(root)", "GIT_HTTP_EXPORT_ALL" => "1", "PATH" => "/usr/bin:/bin")
            }

            """
        if let certificate {
            config += """
                ssl.engine = "enable"
                ssl.pemfile = "\(certificate)"

                """
        }
        if !users.isEmpty {
            try users.joined(separator: "\n").appending("\n").write(toFile: directory + "/users", atomically: true, encoding: .utf8)
            config += """
                auth.backend = "plain"
                auth.backend.plain.userfile = "\(directory)/users"
                auth.require = ("/git" => ("method" => "basic", "realm" => "git", "require" => "valid-user"))

                """
        }
        try config.write(toFile: directory + "/lighttpd.conf", atomically: true, encoding: .utf8)
        process = try BackgroundProcess(lighttpd, ["-D", "-f", directory + "/lighttpd.conf"], log: directory + "/lighttpd.log")
        guard Processes.waitForPort(self.port) else {
            process.stop()
            throw LedgerError.failure("lighttpd did not start: \(process.output) \((try? String(contentsOfFile: directory + "/error.log", encoding: .utf8)) ?? "")")
        }
    }

    /// The URL of repository `name` under the root.
    package func url(_ name: String, credentials: String? = nil) -> String {
        "\(tls ? "https" : "http")://\(credentials.map { $0 + "@" } ?? "")127.0.0.1:\(port)/git/\(name)"
    }

    /// The access log: one line per request, `METHOD PATH PROTOCOL STATUS` and the logged
    /// headers as `"Name: value"` (`-` when absent).
    package var accessLog: [String] {
        ((try? String(contentsOfFile: accessLogFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    package func stop() { process.stop() }
}

/// tinyproxy, an HTTP proxy on 127.0.0.1 (plain requests for http:// URLs, CONNECT tunnels
/// for https://), which logs every request it forwards.
package final class HTTPProxy: @unchecked Sendable {
    // @unchecked: owned by one test.
    package let port: Int
    let logFile: String
    let process: BackgroundProcess

    package init(directory: String) throws {
        let tinyproxy = try Processes.require("tinyproxy", package: "tinyproxy-bin")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        port = try Processes.freePort()
        logFile = directory + "/tinyproxy.log"
        try """
            Port \(port)
            Listen 127.0.0.1
            Allow 127.0.0.1
            Timeout 60
            MaxClients 20
            LogFile "\(logFile)"
            LogLevel Connect
            DisableViaHeader Yes

            """.write(toFile: directory + "/tinyproxy.conf", atomically: true, encoding: .utf8)
        process = try BackgroundProcess(tinyproxy, ["-d", "-c", directory + "/tinyproxy.conf"], log: directory + "/tinyproxy.out")
        guard Processes.waitForPort(self.port) else {
            process.stop()
            throw LedgerError.failure("tinyproxy did not start: \(process.output)")
        }
    }

    /// The proxy's URL.
    package var url: String { "http://127.0.0.1:\(port)" }

    /// The requests it forwarded so far, from its log: `GET http://127.0.0.1:PORT/…`,
    /// `CONNECT 127.0.0.1:PORT`, each followed by the protocol.
    package var requests: [String] {
        let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            line.range(of: #"Request \(file descriptor [0-9]+\): "#, options: .regularExpression).map { String(line[$0.upperBound...]) }
        }
    }

    package func stop() { process.stop() }
}

/// A throwaway certificate authority and a server certificate it signed for 127.0.0.1.
package struct TestCertificateAuthority: Sendable {
    /// The CA certificate (what clients must trust).
    package let caFile: String
    /// The server's certificate and key in one PEM file (for lighttpd).
    package let serverPEM: String

    /// - Parameters:
    ///   - caKey: the CA's key type, `ec` (P-256) or `ed25519`.
    ///   - ipOnly: the server certificate names 127.0.0.1 only as an IP address (no DNS name).
    package init(directory: String, caKey: String = "ec", ipOnly: Bool = false) throws {
        let openssl = try Processes.require("openssl", package: "openssl")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        func run(_ args: [String]) throws {
            let r = try Processes.run(openssl, args, currentDirectory: directory)
            guard r.status == 0 else { throw LedgerError.failure("openssl \(args.first ?? "") failed: \(r)") }
        }
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let caNew = caKey == "ed25519" ? ["-newkey", "ed25519", "-nodes"] : ec
        try run(["req", "-x509", "-new"] + caNew + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=ledger test CA",
                 "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try run(["req", "-new"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", ipOnly ? "/CN=ledger test server" : "/CN=127.0.0.1"])
        try """
            basicConstraints = CA:FALSE
            keyUsage = digitalSignature, keyAgreement
            extendedKeyUsage = serverAuth
            subjectAltName = \(ipOnly ? "IP:127.0.0.1" : "DNS:127.0.0.1, DNS:localhost, IP:127.0.0.1")

            """.write(toFile: directory + "/server.ext", atomically: true, encoding: .utf8)
        try run(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.crt",
                 "-days", "2", "-extfile", "server.ext"])
        let pem = try String(contentsOfFile: directory + "/server.crt", encoding: .utf8) + String(contentsOfFile: directory + "/server.key", encoding: .utf8)
        try pem.write(toFile: directory + "/server.pem", atomically: true, encoding: .utf8)
        caFile = directory + "/ca.pem"
        serverPEM = directory + "/server.pem"
    }
}
