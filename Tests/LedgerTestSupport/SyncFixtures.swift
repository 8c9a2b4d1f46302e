import Foundation
import ProcessRunner
import LedgerCLI
import LedgerKit
import LedgerSync

/// Runs the git command-line tool (for fixtures and for checking what plain git sees).
package enum GitCLI {
    /// Runs `git ARGS` in `directory`; returns its output and status.
    @discardableResult
    package static func run(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> CommandResult {
        try Processes.run("/usr/bin/git", arguments, environment: gitEnvironment.merging(environment) { $1 }, currentDirectory: directory)
    }

    /// An environment that keeps the machine's git configuration out.
    package static let gitEnvironment: [String: String] = [
        "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "HOME": "/nonexistent",
        "GIT_AUTHOR_NAME": "test", "GIT_AUTHOR_EMAIL": "test@example.com",
        "GIT_COMMITTER_NAME": "test", "GIT_COMMITTER_EMAIL": "test@example.com",
        "PATH": LedgerBinary.directory + ":/usr/local/bin:/usr/bin:/bin",
    ]

    /// Creates a bare repository (on branch main) at `path`.
    package static func initBare(_ path: String) throws {
        let r = try run(["init", "-q", "--bare", "-b", "main", path], in: "/")
        guard r.status == 0 else { throw LedgerError.failure("git init --bare failed: \(r)") }
    }

    /// `git fsck --strict` of a repository; the output when it finds anything.
    package static func fsck(_ path: String) throws -> String? {
        let r = try run(["fsck", "--strict", "--no-progress", "--no-dangling"], in: path)
        return r.status == 0 && r.stdout.isEmpty ? nil : r.description
    }
}

/// Starting and stopping helper processes.
package enum Processes {
    /// Runs a program to completion (its whole standard error kept, up to 16 MiB).
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           currentDirectory: String = "/", stdin: String = "") throws -> CommandResult {
        let child = try ChildProcess(executable, arguments, environment: environment ?? ProcessInfo.processInfo.environment,
                                     directory: currentDirectory)
        _ = Array(stdin.utf8).withUnsafeBytes { child.write($0) }
        child.closeInput()
        let out = child.readOutput()
        let status = child.wait()
        return CommandResult(status: status, stdout: String(decoding: out, as: UTF8.self),
                             stderr: String(decoding: child.errorBytes(limit: 1 << 24), as: UTF8.self))
    }

    /// The path of a program on this machine, or a failure saying which package provides it
    /// (tests that need a server never skip silently: `make test` installs them).
    package static func require(_ program: String, package: String) throws -> String {
        if let path = ProgramPath.find(program, path: "/usr/sbin:/usr/bin:/usr/local/bin:/usr/local/sbin:/sbin:/bin:/usr/lib/git-core") {
            return path
        }
        throw LedgerError.failure("this test needs `\(program)` from the Debian package \(package); install it with `apt-get install \(package)` (or run `make test`, which does)")
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago (the kernel's choice).
    package static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LedgerError.failure("socket() failed") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard bound else { throw LedgerError.failure("cannot bind a port on 127.0.0.1") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    /// Waits (at most `seconds`) until something accepts connections on 127.0.0.1:`port`.
    package static func waitForPort(_ port: Int, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            let ok = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(fd)
            if ok { return true }
            usleep(50_000)
        }
        return false
    }
}

/// A background process (a server) stopped by its PID when the value goes away.
///
/// Started by `ChildProcess`, not Foundation's `Process`: daemons such as sshd close every
/// inherited descriptor, which makes `Process` believe they exited and block its monitor
/// thread in `wait4` — and with it every other `Process` of the test run. It does not die with
/// the thread that started it (a test's work moves between threads); `stop()` ends it.
package final class BackgroundProcess: @unchecked Sendable {
    // @unchecked: the child is only touched by the test owning the value.
    package let pid: pid_t
    package let log: String
    private let child: ChildProcess

    /// Starts `executable` with its output appended to `log`, in `directory` when given; with
    /// `newProcessGroup`, as the leader of a process group of its own (so that
    /// `killpg(pid, …)` reaches what it starts).
    package init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
                 log: String, newProcessGroup: Bool = false) throws {
        child = try ChildProcess(executable, arguments, environment: environment ?? ProcessInfo.processInfo.environment,
                                 directory: directory, input: .null, output: .appending(log), errors: .likeOutput, diesWithThread: false,
                                 group: newProcessGroup ? .own : .ours)
        pid = child.handle.pid
        self.log = log
    }

    /// How it ended (128 + N for signal N), once it has (nil while it runs).
    package var exitStatus: Int32? { child.handle.reap(blocking: false) }

    /// What the process wrote so far.
    package var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// Whether it is still running.
    package var isRunning: Bool { child.handle.reap(blocking: false) == nil }

    /// Stops the process (and what it started) by its PID: SIGTERM, then SIGKILL after two
    /// seconds; and reaps it.
    package func stop() { child.terminate() }

    deinit { stop() }
}

/// A bare git repository acting as the remote, and ledgers that sync through it.
package final class SyncFixture: @unchecked Sendable {
    // @unchecked: owned by one test.
    package let directory: TemporaryDirectory
    /// The bare remote's path.
    package let remote: String

    package init() throws {
        TestGit.isolate()
        directory = TemporaryDirectory("ledger-sync")
        remote = directory.path + "/remote.git"
        try GitCLI.initBare(remote)
    }

    /// A first ledger, created with `ledger init --remote` and synced (it publishes the ledger).
    package func origin(now: String = "2026-11-21T22:30:00+01:00") throws -> TestLedger {
        let ledger = try TestLedger(now: now, initialize: false)
        let r = ledger.run("init", "--remote", remote)
        guard r.status == 0 else { throw LedgerError.failure("init failed: \(r)") }
        let s = ledger.run("sync")
        guard s.status == 0 else { throw LedgerError.failure("first sync failed: \(s)") }
        return ledger
    }

    /// Another machine: `ledger clone` of the remote.
    package func clone(now: String = "2026-11-21T22:30:00+01:00", url: String? = nil) throws -> TestLedger {
        let ledger = try TestLedger(now: now, initialize: false)
        let r = ledger.run("clone", url ?? remote, ledger.root)
        guard r.status == 0 else { throw LedgerError.failure("clone failed: \(r)") }
        return ledger
    }
}

extension TestLedger {
    /// Every tracked file at HEAD with its blob id (`git ls-tree -r HEAD`), to compare replicas.
    package func headTree() throws -> [String: String] {
        let r = try GitCLI.run(["ls-tree", "-r", "HEAD"], in: root)
        var out: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { continue }
            out[String(parts[1])] = String(parts[0].split(separator: " ")[2])
        }
        return out
    }

    /// Whether the work tree has uncommitted changes (`git status --porcelain`).
    package func gitStatus() throws -> String {
        try GitCLI.run(["status", "--porcelain"], in: root).stdout
    }

    /// Deletes a file in the ledger (a hand deletion).
    package func remove(_ relative: String) throws {
        try FileManager.default.removeItem(atPath: root + "/" + relative)
    }
}

/// A process started without waiting, for running several at once.
package final class SpawnedProcess: @unchecked Sendable {
    // @unchecked: owned by one test.
    let child: ChildProcess

    init(_ child: ChildProcess) { self.child = child }

    package var pid: Int32 { child.handle.pid }

    /// Waits for the process and returns what it printed.
    package func wait() -> CommandResult {
        let out = child.readOutput()
        let status = child.wait()
        return CommandResult(status: status, stdout: String(decoding: out, as: UTF8.self),
                             stderr: String(decoding: child.errorBytes(limit: 1 << 24), as: UTF8.self))
    }
}

extension Processes {
    /// Starts a program and returns at once (it is not tied to the starting thread).
    package static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                             currentDirectory: String) throws -> SpawnedProcess {
        SpawnedProcess(try ChildProcess(executable, arguments, environment: environment, directory: currentDirectory,
                                        input: .null, diesWithThread: false))
    }
}

/// A ledger for tests that sync many times (the convergence histories): like `TestLedger`,
/// but kept on a memory file system when there is one (`/dev/shm`), where the fsyncs that
/// make every write durable cost nothing, so that hundreds of histories stay fast.
package final class Replica: @unchecked Sendable {
    // @unchecked: owned by one test.
    package let directory: String
    package let root: String
    package let environment: [String: String]

    /// A directory for a history's remote and replicas: on /dev/shm when available.
    package static func scratchDirectory() -> String {
        let base = FileSystem.stamp("/dev/shm")?.type == .directory ? "/dev/shm/" : NSTemporaryDirectory()
        var template = Array(((base.hasSuffix("/") ? base : base + "/") + "ledger-replicas-XXXXXX").utf8CString)
        guard let p = mkdtemp(&template) else { fatalError("mkdtemp failed") }
        return String(cString: p)
    }

    package init(in directory: String, name: String, now: String) throws {
        TestGit.isolate()
        self.directory = directory
        root = directory + "/" + name
        let home = directory + "/home-" + name
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        environment = ["HOME": home, "LEDGER_REPO": root, "LEDGER_NOW": now, "TZ": "Europe/Paris", "NO_COLOR": "1",
                       "PATH": LedgerBinary.directory + ":/usr/local/bin:/usr/bin:/bin"]
    }

    /// Runs `ledger` in-process.
    @discardableResult
    package func run(arguments: [String], env: [String: String] = [:]) -> CommandResult {
        let out = TextOutput(), err = TextOutput()
        let context = CLIContext(environment: environment.merging(env) { $1 }, currentDirectory: root,
                                 stdout: out, stderr: err, stdin: TextInput(lines: []), stdinIsTerminal: false, stdoutIsTerminal: false)
        let status = LedgerCLI.run(arguments, context: context)
        return CommandResult(status: status, stdout: out.text, stderr: err.text)
    }

    package func document(_ relative: String) -> JSONValue? {
        guard let bytes = try? FileSystem.read(root + "/" + relative) else { return nil }
        return try? JSONParser.parse(bytes)
    }

    package func write(_ relative: String, _ text: String) throws {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    package func remove(_ relative: String) throws { try FileManager.default.removeItem(atPath: root + "/" + relative) }

    /// Every file under a directory of the ledger (relative paths, sorted).
    package func files(under relative: String) -> [String] {
        let base = root + "/" + relative
        guard let e = FileManager.default.enumerator(atPath: base) else { return [] }
        var out: [String] = []
        while let p = e.nextObject() as? String {
            if p.hasSuffix(".json") { out.append(relative + "/" + p) }
        }
        return out.sorted()
    }

    /// `git ls-tree -r HEAD` as path → blob id.
    package func headTree() throws -> [String: String] {
        let r = try GitCLI.run(["ls-tree", "-r", "HEAD"], in: root)
        var out: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { out[String(parts[1])] = String(parts[0].split(separator: " ")[2]) }
        }
        return out
    }

    package func gitStatus() throws -> String { try GitCLI.run(["status", "--porcelain"], in: root).stdout }
}

/// Waits (at most `seconds`, polling) until `condition` holds, for what another process does;
/// returns whether it held. A bound, never a measure: speed is the benchmarks' business.
package func eventually(_ seconds: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(50_000)
    }
    return try condition()
}
