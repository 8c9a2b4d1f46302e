import CGit2
import Foundation
import LedgerKit
import ProcessRunner

/// ssh remotes through the user's own OpenSSH client, as git reaches them.
///
/// libgit2's built-in ssh (libssh2) reads no `~/.ssh/config`, signs RSA keys only with SHA-1
/// and cannot prompt; so `ssh://`, `ssh+git://`, `git+ssh://` and scp-like `[user@]host:path`
/// URLs are served by a smart subtransport of ours that runs
/// `ssh [-p PORT] [user@]host "git-upload-pack '<path>'"` (or `git-receive-pack`) and speaks
/// the pack protocol over its standard input and output. Everything OpenSSH does — Host
/// aliases, keys of any type, the agent, ProxyJump, ControlMaster, known_hosts, passphrase
/// prompts on the terminal or through `SSH_ASKPASS` — then works as it does for `git push`.
enum SSHTransport {
    /// Registers the subtransport for the ssh schemes (scp-like URLs are looked up as
    /// `ssh://`), once per process, before any transfer.
    static let registered: Void = {
        _ = Libgit2.initialized
        // A write to an ssh that exited must fail with EPIPE, not kill ledger (git does the same).
        signal(SIGPIPE, SIG_IGN)
        for scheme in ["ssh", "ssh+git", "git+ssh"] {
            _ = git_transport_register(scheme, { out, owner, _ in
                var definition = git_smart_subtransport_definition(callback: { out, owner, _ in
                    SSHSubtransport.create(out, owner)
                }, rpc: 0, param: nil)
                return git_transport_smart(out, owner, &definition)
            }, nil)
        }
    }()
}

/// Where an ssh URL points, parsed as git parses it.
struct SSHTarget: Equatable {
    var user: String?
    var host: String
    var port: String?
    /// The path as the server's shell gets it (relative to the user's home unless it starts
    /// with `/`; `~user/…` kept).
    var path: String

    /// `[user@]host` as ssh takes it.
    var destination: String { (user.map { $0 + "@" } ?? "") + host }

    /// Parses `ssh://[user@]host[:port]/path` (also `ssh+git://`, `git+ssh://`; `/~user/…` gives
    /// `~user/…`) and scp-like `[user@]host:path` (with `[host:port]:path` for a port).
    init?(_ url: String) {
        var authority: Substring
        if let r = url.range(of: "://") {
            guard ["ssh", "ssh+git", "git+ssh"].contains(url[..<r.lowerBound].lowercased()) else { return nil }
            let rest = url[r.upperBound...]
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = rest[..<slash]
            var p = rest[slash...]
            if p.hasPrefix("/~") { p = p.dropFirst() }
            path = String(p)
        } else {
            // scp-like: the first colon outside brackets ends the host.
            var i = url.startIndex
            var depth = 0
            while i < url.endIndex, !(url[i] == ":" && depth == 0) {
                if url[i] == "[" { depth += 1 } else if url[i] == "]" { depth -= 1 }
                i = url.index(after: i)
            }
            guard i < url.endIndex else { return nil }
            authority = url[..<i]
            path = String(url[url.index(after: i)...])
            if authority.hasPrefix("["), authority.hasSuffix("]") { authority = authority.dropFirst().dropLast() }
        }
        if let at = authority.lastIndex(of: "@") {
            user = String(authority[..<at]).removingPercentEncoding ?? String(authority[..<at])
            authority = authority[authority.index(after: at)...]
        }
        // host, host:port, [v6], [v6]:port
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":"), after.count > 1 { port = String(after.dropFirst()) }
        } else if let colon = authority.lastIndex(of: ":"), authority.filter({ $0 == ":" }).count == 1 {
            host = String(authority[..<colon])
            let p = authority[authority.index(after: colon)...]
            if !p.isEmpty { port = String(p) }
        } else {
            host = String(authority)
        }
        guard !host.isEmpty, !path.isEmpty else { return nil }
    }

    init(user: String?, host: String, port: String?, path: String) {
        self.user = user
        self.host = host
        self.port = port
        self.path = path
    }
}

/// The ssh command git would run for a remote: `GIT_SSH_COMMAND`, `core.sshCommand`
/// (both through the shell), `GIT_SSH` (a program), else `ssh` — in that order.
struct SSHCommand: Equatable {
    enum Origin: String { case gitSSHCommand = "GIT_SSH_COMMAND", coreSSHCommand = "core.sshCommand", gitSSH = "GIT_SSH", ssh = "ssh" }
    /// The program, or the shell command line.
    var command: String
    var origin: Origin
    var usesShell: Bool { origin == .gitSSHCommand || origin == .coreSSHCommand }

    init(environment: [String: String], config: GitConfiguration?) {
        if let c = environment["GIT_SSH_COMMAND"], !c.isEmpty {
            (command, origin) = (c, .gitSSHCommand)
        } else if let c = config?.string("core.sshCommand"), !c.isEmpty {
            (command, origin) = (c, .coreSSHCommand)
        } else if let c = environment["GIT_SSH"], !c.isEmpty {
            (command, origin) = (c, .gitSSH)
        } else {
            (command, origin) = ("ssh", .ssh)
        }
    }

    /// The ssh arguments for running `service` (`git-upload-pack`, `git-receive-pack`) at
    /// `target`, as git passes them (the remote command with the path single-quoted).
    static func arguments(_ target: SSHTarget, service: String) -> [String] {
        (target.port.map { ["-p", $0] } ?? []) + [target.destination, service + " " + shellQuoted(target.path)]
    }

    /// `text` in single quotes for the remote shell (`'` and `!` escaped as git does).
    static func shellQuoted(_ text: String) -> String {
        var out = "'"
        for c in text {
            if c == "'" || c == "!" { out += "'\\\(c)'" } else { out.append(c) }
        }
        return out + "'"
    }

    /// The program and its arguments: a shell for a command line (`sh -c 'CMD "$@"'`, as
    /// git runs it) — unless it is words the shell would only split (no quotes, variables,
    /// `~`, operators or leading assignment), which then run directly, so ssh is ledger's own
    /// child and dies with it.
    func invocation(_ arguments: [String]) -> (program: String, arguments: [String], viaShell: Bool) {
        guard usesShell else { return (command, arguments, false) }
        let words = command.split(whereSeparator: { $0 == " " }).map(String.init)
        let special = command.contains { "|&;<>()$`\\\"'*?[#~\n\t{}".contains($0) }
        if !special, let first = words.first, !first.contains("=") { return (first, Array(words.dropFirst()) + arguments, false) }
        return ("/bin/sh", ["-c", command + " \"$@\"", command] + arguments, true)
    }
}

extension SSHCommand {
    /// The program to run, its arguments and its environment, for ssh `arguments`.
    func prepared(_ arguments: [String], environment: [String: String]) throws -> (String, [String], [String: String]) {
        let invocation = invocation(arguments)
        var executable = invocation.program
        if !invocation.viaShell {
            guard let found = ProgramPath.find(invocation.program, path: environment["PATH"]) else {
                if invocation.program == "ssh" {
                    throw LedgerError(.unreachable, "ssh remotes need OpenSSH's `ssh` command, which is not installed (or not on PATH): install the openssh-client package (`apt-get install openssh-client`)")
                }
                throw LedgerError(.unreachable, "the ssh program \(invocation.program) named by \(origin.rawValue) cannot be found on PATH")
            }
            executable = found
        }
        var childEnvironment = environment
        // Like git: the repository's location is not passed on to the ssh command.
        for key in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_PREFIX"] { childEnvironment[key] = nil }
        return (executable, invocation.arguments, childEnvironment)
    }

    /// Whether the command is OpenSSH's `ssh` (its first word), which takes `-o` options: a
    /// wrapper script named by `GIT_SSH_COMMAND` is left alone.
    var isOpenSSH: Bool {
        let first = command.split(separator: " ").first.map(String.init) ?? command
        return (first as NSString).lastPathComponent == "ssh"
    }

    /// Whether the user's ssh configuration (`~/.ssh/config`, the options of
    /// `GIT_SSH_COMMAND`) sets a ControlPath for `target`: then theirs is used, never ours.
    /// Asked of ssh itself (`ssh -G`, which reads the configuration and connects nowhere), once
    /// per `sharing` (see `SSHConnectionSharing.ownControlPath`).
    func hasOwnControlPath(_ target: SSHTarget, environment: [String: String], sharing: SSHConnectionSharing) throws -> Bool {
        let (executable, arguments, env) = try prepared(["-G"] + (target.port.map { ["-p", $0] } ?? []) + [target.destination], environment: environment)
        return try sharing.ownControlPath(asked: [executable] + arguments + env.map { "\($0)=\($1)" }.sorted()) {
            let child = try ChildProcess(executable, arguments, environment: env, input: .null)
            let out = String(decoding: child.readOutput(), as: UTF8.self)
            guard child.wait() == 0 else { return true }
            return out.split(separator: "\n").contains { $0.hasPrefix("controlpath ") && $0 != "controlpath none" }
        }
    }
}

/// One connection per server for ledger's own ssh runs while a resident process (autosync)
/// runs: OpenSSH's ControlMaster, with its sockets in a private directory this process makes
/// and, when it stops, closes (`ssh -O exit`) and removes. The fetch and the push of every
/// sync then share one handshake instead of opening two, like `git pull` and `git push` do.
package final class SSHConnectionSharing: @unchecked Sendable {
    // @unchecked: `answers` is only touched under `lock`.

    /// Seconds an idle shared connection stays open (a process killed without stopping
    /// them leaves none for longer).
    package static let persist = 300

    /// The private directory of the sockets.
    package let directory: String
    private let lock = NSLock()
    /// `ssh -G`'s answers (whether the user's configuration sets a ControlPath), by the run
    /// that gave them and the stamps of ssh's configuration files.
    private var answers: [[String]: Bool] = [:]

    /// Sharing through a new private directory (`$XDG_RUNTIME_DIR`, else /tmp: a socket's path
    /// must stay under 108 bytes); nil when none can be made.
    package init?(environment: [String: String]) {
        let base = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") && $0.count < 40 ? $0 : nil } ?? "/tmp"
        var template = Array((base + "/ledger-ssh-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        directory = String(cString: made)
    }

    /// The ssh options that share the connection through a socket in `directory`.
    var options: [String] {
        ["-o", "ControlMaster=auto", "-o", "ControlPath=\(directory)/%C", "-o", "ControlPersist=\(Self.persist)"]
    }

    /// Closes the connections shared through `directory` and removes it.
    package func stop(environment: [String: String]) {
        let ssh = ProgramPath.find("ssh", path: environment["PATH"])
        for entry in (try? FileSystem.list(directory)) ?? [] {
            let socket = directory + "/" + entry.name
            if let ssh, let child = try? ChildProcess(ssh, ["-o", "ControlPath=" + socket, "-O", "exit", "ledger"], environment: environment,
                                                      input: .null, output: .null, errors: .null) {
                _ = child.wait()
            }
            _ = unlink(socket)
        }
        _ = rmdir(directory)
    }

    /// `ask`'s answer for the ssh run `run` (program, arguments, environment): asked once while
    /// ssh's configuration files are unchanged, not before each connection — a sync's fetch and
    /// push, and every round of a resident autosync, ask the same of the same files.
    func ownControlPath(asked run: [String], _ ask: () throws -> Bool) throws -> Bool {
        let key = run + Self.configurationStamps()
        if let known = lock.withLock({ answers[key] }) { return known }
        let answer = try ask()
        lock.withLock { answers[key] = answer }
        return answer
    }

    /// The stamps of the files OpenSSH reads by default: the user's `~/.ssh/config` (in the
    /// account's home, where ssh looks, whatever `HOME` says), `/etc/ssh/ssh_config` and the
    /// files of `/etc/ssh/ssh_config.d` (which Debian's includes). A file one of them includes
    /// from elsewhere, or one named by `-F`, is not watched.
    static func configurationStamps() -> [String] {
        let home = getpwuid(getuid()).map { String(cString: $0.pointee.pw_dir) }
        let included = "/etc/ssh/ssh_config.d"
        let files = [home.map { $0 + "/.ssh/config" }, "/etc/ssh/ssh_config", included].compactMap { $0 }
            + ((try? FileSystem.list(included)) ?? []).map { included + "/" + $0.name }.sorted()
        return files.map { $0 + " " + (FileSystem.stamp(following: $0)?.encoded ?? "-") }
    }
}

/// One ssh conversation of a libgit2 transfer: the ssh child for the `_LS` action, reused by
/// the action that follows it, ended by `close`.
final class SSHSubtransport {
    let owner: UnsafeMutablePointer<git_transport>?
    /// The transfer's session (its environment, configuration and stall watchdog), found
    /// through the callbacks' payload of the remote's connect options once connected.
    private(set) var session: TransportSession?
    private var child: ChildProcess?
    private var described = ""
    private var stream: UnsafeMutablePointer<ledger_subtransport_stream>?

    init(owner: UnsafeMutablePointer<git_transport>?) { self.owner = owner }

    /// The session whose callbacks the transfer runs with (set by `connect`, after the
    /// subtransport is made).
    private func findSession() -> TransportSession? {
        var connect = git_remote_connect_options()
        _ = git_remote_connect_options_init(&connect, UInt32(GIT_REMOTE_CONNECT_OPTIONS_VERSION))
        defer { git_remote_connect_options_dispose(&connect) }
        guard git_transport_remote_connect_options(&connect, owner) == 0, let payload = connect.callbacks.payload,
              connect.callbacks.credentials != nil else { return nil }
        return TransportSession.from(payload)
    }

    /// The subtransport callback: a `ledger_subtransport` whose payload is a retained
    /// `SSHSubtransport`.
    static func create(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_smart_subtransport>?>?,
                       _ owner: UnsafeMutablePointer<git_transport>?) -> Int32 {
        let t = UnsafeMutablePointer<ledger_subtransport>.allocate(capacity: 1)
        t.initialize(to: ledger_subtransport())
        t.pointee.payload = Unmanaged.passRetained(SSHSubtransport(owner: owner)).toOpaque()
        t.pointee.parent.action = { out, sub, url, action in
            SSHSubtransport.from(sub).action(out, sub, url.map { String(cString: $0) } ?? "", action)
        }
        t.pointee.parent.close = { sub in
            SSHSubtransport.from(sub).close()
            return 0
        }
        t.pointee.parent.free = { sub in
            guard let sub else { return }
            let t = UnsafeMutableRawPointer(sub).assumingMemoryBound(to: ledger_subtransport.self)
            let object = Unmanaged<SSHSubtransport>.fromOpaque(t.pointee.payload)
            object.takeUnretainedValue().close()
            object.release()
            t.deallocate()
        }
        out?.pointee = UnsafeMutableRawPointer(t).assumingMemoryBound(to: git_smart_subtransport.self)
        return 0
    }

    static func from(_ sub: UnsafeMutablePointer<git_smart_subtransport>?) -> SSHSubtransport {
        let t = UnsafeMutableRawPointer(sub!).assumingMemoryBound(to: ledger_subtransport.self)
        return Unmanaged<SSHSubtransport>.fromOpaque(t.pointee.payload).takeUnretainedValue()
    }

    /// Starts ssh for an `_LS` action; hands out the same stream for the action after it.
    func action(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_smart_subtransport_stream>?>?,
                _ sub: UnsafeMutablePointer<git_smart_subtransport>?, _ url: String, _ action: git_smart_service_t) -> Int32 {
        switch action {
        case GIT_SERVICE_UPLOADPACK_LS, GIT_SERVICE_RECEIVEPACK_LS:
            close()
            session = findSession()
            do {
                try start(url, service: action == GIT_SERVICE_UPLOADPACK_LS ? "git-upload-pack" : "git-receive-pack")
            } catch {
                session?.failure = (error as? LedgerError)?.message ?? "\(error)"
                return fail(session?.failure ?? "\(error)")
            }
            let s = UnsafeMutablePointer<ledger_subtransport_stream>.allocate(capacity: 1)
            s.initialize(to: ledger_subtransport_stream())
            s.pointee.parent.subtransport = sub
            s.pointee.payload = Unmanaged.passUnretained(self).toOpaque()
            s.pointee.parent.read = { stream, buffer, size, read in
                SSHSubtransport.from(stream).read(buffer, size, read)
            }
            s.pointee.parent.write = { stream, buffer, length in
                SSHSubtransport.from(stream).write(buffer, length)
            }
            // The smart transport frees the stream; the ssh child belongs to the subtransport.
            s.pointee.parent.free = { stream in
                guard let stream else { return }
                let s = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: ledger_subtransport_stream.self)
                SSHSubtransport.from(stream).stream = nil
                s.deallocate()
            }
            stream = s
        default:
            guard child != nil, stream != nil else { return fail("the ssh connection was closed before the transfer") }
        }
        out?.pointee = UnsafeMutableRawPointer(stream!).assumingMemoryBound(to: git_smart_subtransport_stream.self)
        return 0
    }

    static func from(_ stream: UnsafeMutablePointer<git_smart_subtransport_stream>?) -> SSHSubtransport {
        let s = UnsafeMutableRawPointer(stream!).assumingMemoryBound(to: ledger_subtransport_stream.self)
        return Unmanaged<SSHSubtransport>.fromOpaque(s.pointee.payload).takeUnretainedValue()
    }

    private func start(_ url: String, service: String) throws {
        guard let target = SSHTarget(url) else { throw LedgerError(.unreachable, "\(Remote.redact(url)) is not an ssh URL git understands") }
        for part in [target.user ?? "", target.host, target.path] where part.hasPrefix("-") {
            throw LedgerError(.unreachable, "refusing to run ssh for \(Remote.redact(url)): \"\(part)\" would be read as an ssh option")
        }
        let environment = session?.options.environment ?? [:]
        let command = SSHCommand(environment: environment, config: session?.configuration)
        var arguments = SSHCommand.arguments(target, service: service)
        if let sharing = session?.options.sshSharing, command.isOpenSSH,
           try !command.hasOwnControlPath(target, environment: environment, sharing: sharing) {
            arguments = sharing.options + arguments
        }
        let (executable, childArguments, childEnvironment) = try command.prepared(arguments, environment: environment)
        described = command.origin == .ssh ? "ssh" : "\(command.origin.rawValue) (\(command.command))"
        let c = try ChildProcess(executable, childArguments, environment: childEnvironment)
        child = c
        session?.stall?.cutting(c.handle)
    }

    /// Bytes from ssh's standard output; at its end, ssh's own words become the error.
    private func read(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ bytesRead: UnsafeMutablePointer<Int>?) -> Int32 {
        guard let child, let buffer else { return fail("the ssh connection is closed") }
        let n = child.read(into: buffer, count: size)
        if n > 0 {
            session?.stall?.alive()
            bytesRead?.pointee = n
            return 0
        }
        child.closeInput()
        let status = child.wait()
        return ended(status: status, error: child.errorText)
    }

    private func write(_ buffer: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
        guard let child, let buffer else { return fail("the ssh connection is closed") }
        if child.write(UnsafeRawBufferPointer(start: buffer, count: length)) {
            session?.stall?.alive()
            return 0
        }
        child.closeInput()
        let status = child.wait()
        return ended(status: status, error: child.errorText)
    }

    /// Ends the ssh child: its input closed (ssh then ends the session), then stopped.
    func close() {
        guard let c = child else { return }
        child = nil
        c.closeInput()
        // ssh exits once the server's side is done; a few seconds at most, then it is stopped.
        for _ in 0..<1500 {
            if c.handle.reap(blocking: false) != nil { return }
            usleep(2_000)
        }
        c.terminate()
    }

    /// The conversation ended early: ssh's (or the server's) last words are the error, kept
    /// for the session's message.
    private func ended(status: Int32, error: String) -> Int32 {
        let said = error.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty && !$0.hasPrefix("Warning: Permanently added") }
        let quoted = said.suffix(3).joined(separator: " ")
        if status == 127, said.contains(where: { $0.contains("not found") || $0.contains("No such file") }) {
            session?.failure = session?.failure ?? "the ssh command from \(described) could not be run: \(quoted)"
        }
        let text = quoted.isEmpty ? "\(described) ended (exit status \(status)) without a word" : quoted
        session?.sshSaid = session?.sshSaid ?? text
        return fail(text)
    }

    private func fail(_ message: String) -> Int32 {
        git_error_set_str(Int32(GIT_ERROR_SSH.rawValue), message)
        return -1
    }
}
