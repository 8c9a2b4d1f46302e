import Foundation
import LedgerCLI
import LedgerKit
import LedgerSync

/// Runs the git command-line tool (for fixtures and for checking what plain git sees).
public enum GitCLI {
    /// Runs `git ARGS` in `directory`; returns its output and status.
    @discardableResult
    public static func run(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> CommandResult {
        try Processes.run("/usr/bin/git", arguments, environment: gitEnvironment.merging(environment) { $1 }, currentDirectory: directory)
    }

    /// An environment that keeps the machine's git configuration out.
    public static let gitEnvironment: [String: String] = [
        "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "HOME": "/nonexistent",
        "GIT_AUTHOR_NAME": "test", "GIT_AUTHOR_EMAIL": "test@example.com",
        "GIT_COMMITTER_NAME": "test", "GIT_COMMITTER_EMAIL": "test@example.com",
        "PATH": LedgerBinary.directory + ":/usr/local/bin:/usr/bin:/bin",
    ]

    /// Creates a bare repository (on branch main) at `path`.
    public static func initBare(_ path: String) throws {
        let r = try run(["init", "-q", "--bare", "-b", "main", path], in: "/")
        guard r.status == 0 else { throw LedgerError.failure("git init --bare failed: \(r)") }
    }

    /// `git fsck --strict` of a repository; the output when it finds anything.
    public static func fsck(_ path: String) throws -> String? {
        let r = try run(["fsck", "--strict", "--no-progress", "--no-dangling"], in: path)
        return r.status == 0 && r.stdout.isEmpty ? nil : r.description
    }
}

/// Starting and stopping helper processes.
public enum Processes {
    /// Runs a program to completion.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           currentDirectory: String = "/", stdin: String = "") throws -> CommandResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let environment { p.environment = environment }
        p.currentDirectoryURL = URL(fileURLWithPath: currentDirectory)
        let out = Pipe(), err = Pipe(), input = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = input
        try p.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty child cannot block on a full pipe.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        let status = p.terminationReason == .uncaughtSignal ? 128 + p.terminationStatus : p.terminationStatus
        return CommandResult(status: status, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The path of a program on this machine, or a failure saying which package provides it
    /// (tests that need a server never skip silently: `make test` installs them).
    public static func require(_ program: String, package: String) throws -> String {
        for dir in ["/usr/sbin", "/usr/bin", "/usr/local/bin", "/usr/local/sbin", "/sbin", "/bin", "/usr/lib/git-core"] {
            let path = dir + "/" + program
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw LedgerError.failure("this test needs `\(program)` from the Debian package \(package); install it with `apt-get install \(package)` (or run `make test`, which does)")
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago (the kernel's choice).
    public static func freePort() throws -> Int {
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
    public static func waitForPort(_ port: Int, seconds: Double = 10) -> Bool {
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
/// Started with `posix_spawn`, not Foundation's `Process`: daemons such as sshd close every
/// inherited descriptor, which makes `Process` believe they exited and block its monitor
/// thread in `wait4` — and with it every other `Process` of the test run.
public final class BackgroundProcess: @unchecked Sendable {
    // @unchecked: `exitStatus` is only touched by the test owning the value.
    public let pid: pid_t
    public let log: String
    /// How it ended (128 + N for signal N), once reaped.
    public private(set) var exitStatus: Int32?
    private var exited: Bool { exitStatus != nil }

    /// Starts `executable` with its output appended to `log`; with `newProcessGroup`, as the
    /// leader of a process group of its own (so that `killpg(pid, …)` reaches what it starts).
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, log: String,
                newProcessGroup: Bool = false) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // A test runs on a worker thread that blocks most signals, and a child inherits that
        // mask: SIGTERM would never reach it and `stop()` would always end in SIGKILL.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (newProcessGroup ? POSIX_SPAWN_SETPGROUP : 0)))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = environment ?? ProcessInfo.processInfo.environment
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw LedgerError.failure("cannot start \(executable): \(String(cString: strerror(rc)))") }
        pid = child
        self.log = log
    }

    /// What the process wrote so far.
    public var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// Whether it is still running.
    public var isRunning: Bool {
        if exited { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exitStatus = Self.exitStatus(status) }
        return !exited
    }

    /// WIFEXITED / WEXITSTATUS / WTERMSIG, which do not import: the status, or 128 + the signal.
    static func exitStatus(_ raw: Int32) -> Int32 { raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f) }

    /// Stops the process by its PID (SIGTERM, then SIGKILL after two seconds) and reaps it.
    public func stop() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        for _ in 0..<100 where isRunning { usleep(20_000) }
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exitStatus = Self.exitStatus(status)
        }
    }

    deinit { stop() }
}

/// A bare git repository acting as the remote, and ledgers that sync through it.
public final class SyncFixture: @unchecked Sendable {
    // @unchecked: owned by one test.
    public let directory: TemporaryDirectory
    /// The bare remote's path.
    public let remote: String

    public init() throws {
        TestGit.isolate()
        directory = TemporaryDirectory("ledger-sync")
        remote = directory.path + "/remote.git"
        try GitCLI.initBare(remote)
    }

    /// A first ledger, created with `ledger init --remote` and synced (it publishes the ledger).
    public func origin(now: String = "2026-11-21T22:30:00+01:00") throws -> TestLedger {
        let ledger = try TestLedger(now: now, initialize: false)
        let r = ledger.run("init", "--remote", remote)
        guard r.status == 0 else { throw LedgerError.failure("init failed: \(r)") }
        let s = ledger.run("sync")
        guard s.status == 0 else { throw LedgerError.failure("first sync failed: \(s)") }
        return ledger
    }

    /// Another machine: `ledger clone` of the remote.
    public func clone(now: String = "2026-11-21T22:30:00+01:00", url: String? = nil) throws -> TestLedger {
        let ledger = try TestLedger(now: now, initialize: false)
        let r = ledger.run("clone", url ?? remote, ledger.root)
        guard r.status == 0 else { throw LedgerError.failure("clone failed: \(r)") }
        return ledger
    }
}

extension TestLedger {
    /// Every tracked file at HEAD with its blob id (`git ls-tree -r HEAD`), to compare replicas.
    public func headTree() throws -> [String: String] {
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
    public func gitStatus() throws -> String {
        try GitCLI.run(["status", "--porcelain"], in: root).stdout
    }

    /// Deletes a file in the ledger (a hand deletion).
    public func remove(_ relative: String) throws {
        try FileManager.default.removeItem(atPath: root + "/" + relative)
    }
}

/// A process started without waiting, for running several at once.
public final class SpawnedProcess: @unchecked Sendable {
    // @unchecked: owned by one test.
    let process: Process
    let out: Pipe
    let err: Pipe

    init(_ process: Process, out: Pipe, err: Pipe) {
        self.process = process
        self.out = out
        self.err = err
    }

    public var pid: Int32 { process.processIdentifier }

    /// Waits for the process and returns what it printed.
    public func wait() -> CommandResult {
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = self.err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return CommandResult(status: status, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }
}

extension Processes {
    /// Starts a program and returns at once.
    public static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                             currentDirectory: String) throws -> SpawnedProcess {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.environment = environment
        p.currentDirectoryURL = URL(fileURLWithPath: currentDirectory)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        return SpawnedProcess(p, out: out, err: err)
    }
}

/// A ledger for tests that sync many times (the convergence histories): like `TestLedger`,
/// but kept on a memory file system when there is one (`/dev/shm`), where the fsyncs that
/// make every write durable cost nothing, so that hundreds of histories stay fast.
public final class Replica: @unchecked Sendable {
    // @unchecked: owned by one test.
    public let directory: String
    public let root: String
    public let environment: [String: String]

    /// A directory for a history's remote and replicas: on /dev/shm when available.
    public static func scratchDirectory() -> String {
        let base = FileSystem.stamp("/dev/shm")?.type == .directory ? "/dev/shm/" : NSTemporaryDirectory()
        var template = Array(((base.hasSuffix("/") ? base : base + "/") + "ledger-replicas-XXXXXX").utf8CString)
        guard let p = mkdtemp(&template) else { fatalError("mkdtemp failed") }
        return String(cString: p)
    }

    public init(in directory: String, name: String, now: String) throws {
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
    public func run(arguments: [String], env: [String: String] = [:]) -> CommandResult {
        let out = TextOutput(), err = TextOutput()
        let context = CLIContext(environment: environment.merging(env) { $1 }, currentDirectory: root,
                                 stdout: out, stderr: err, stdin: TextInput(lines: []), stdinIsTerminal: false, stdoutIsTerminal: false)
        let status = LedgerCLI.run(arguments, context: context)
        return CommandResult(status: status, stdout: out.text, stderr: err.text)
    }

    public func document(_ relative: String) -> JSONValue? {
        guard let bytes = try? FileSystem.read(root + "/" + relative) else { return nil }
        return try? JSONParser.parse(bytes)
    }

    public func write(_ relative: String, _ text: String) throws {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    public func remove(_ relative: String) throws { try FileManager.default.removeItem(atPath: root + "/" + relative) }

    /// Every file under a directory of the ledger (relative paths, sorted).
    public func files(under relative: String) -> [String] {
        let base = root + "/" + relative
        guard let e = FileManager.default.enumerator(atPath: base) else { return [] }
        var out: [String] = []
        while let p = e.nextObject() as? String {
            if p.hasSuffix(".json") { out.append(relative + "/" + p) }
        }
        return out.sorted()
    }

    /// `git ls-tree -r HEAD` as path → blob id.
    public func headTree() throws -> [String: String] {
        let r = try GitCLI.run(["ls-tree", "-r", "HEAD"], in: root)
        var out: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { out[String(parts[1])] = String(parts[0].split(separator: " ")[2]) }
        }
        return out
    }

    public func gitStatus() throws -> String { try GitCLI.run(["status", "--porcelain"], in: root).stdout }
}
