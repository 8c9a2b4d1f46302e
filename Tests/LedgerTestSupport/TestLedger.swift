import Foundation
import ProcessRunner
import LedgerCLI
import LedgerKit
import LedgerSync

/// What a command printed and returned.
package struct CommandResult: Sendable, CustomStringConvertible {
    package var status: Int32
    package var stdout: String
    package var stderr: String

    /// stdout parsed as JSON (a test failure shows up as `.null` with the output in `stderr`).
    package var json: JSONValue {
        (try? JSONParser.parse(stdout)) ?? .null
    }

    package init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    package var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Test isolation for libgit2: an empty global config, so the machine's ~/.gitconfig is not read.
package enum TestGit {
    private static let configured: Void = {
        let dir = TemporaryDirectory("ledger-gitconfig")
        try? Git.setGlobalConfigSearchPath(dir.path)
        // Keep the directory for the life of the process.
        keep = dir
    }()
    nonisolated(unsafe) private static var keep: TemporaryDirectory?

    /// Applies the isolation (idempotent).
    package static func isolate() { _ = configured }
}

/// A ledger in a temporary directory, with `ledger` run in-process against it.
///
///     let ledger = try TestLedger()
///     let r = ledger.run("waterline", "start")
///     #expect(r.status == 0)
package final class TestLedger: @unchecked Sendable {
    // @unchecked: `environment` is only changed by the test that owns the value.
    package let directory: TemporaryDirectory
    /// The ledger root.
    package let root: String
    /// The environment every command gets (LEDGER_REPO, LEDGER_NOW, TZ, HOME, …).
    package var environment: [String: String]

    /// A new ledger (created with `ledger init` unless `initialize` is false) whose clock reads
    /// `now`, in time zone `timeZone`.
    package init(now: String = "2026-11-21T22:30:00+01:00", timeZone: String = "Europe/Paris", initialize: Bool = true) throws {
        TestGit.isolate()
        directory = TemporaryDirectory()
        root = directory.path + "/ledger"
        let home = directory.path + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        environment = [
            "HOME": home, "LEDGER_REPO": root, "LEDGER_NOW": now, "TZ": timeZone,
            "PATH": LedgerBinary.directory + ":/usr/local/bin:/usr/bin:/bin", "NO_COLOR": "1",
        ]
        if initialize {
            let r = run("init")
            guard r.status == 0 else { throw LedgerError.failure("ledger init failed: \(r)") }
        }
    }

    /// The store of this ledger.
    package var store: LedgerStore { LedgerStore(gitWorkTree: root) }

    /// Runs `ledger ARGS` in-process. `stdin` lines answer prompts; `terminal` pretends stdin
    /// and stdout are terminals.
    @discardableResult
    package func run(_ arguments: String..., env: [String: String] = [:], stdin: [String] = [], terminal: Bool = false,
                    cwd: String? = nil) -> CommandResult {
        run(arguments: arguments, env: env, stdin: stdin, terminal: terminal, cwd: cwd)
    }

    /// Runs `ledger` with an argument array in-process.
    @discardableResult
    package func run(arguments: [String], env: [String: String] = [:], stdin: [String] = [], terminal: Bool = false,
                    cwd: String? = nil) -> CommandResult {
        let out = TextOutput(), err = TextOutput()
        let context = CLIContext(environment: environment.merging(env) { $1 }, currentDirectory: cwd ?? root,
                                 stdout: out, stderr: err, stdin: TextInput(lines: stdin),
                                 stdinIsTerminal: terminal, stdoutIsTerminal: terminal)
        let status = LedgerCLI.run(arguments, context: context)
        return CommandResult(status: status, stdout: out.text, stderr: err.text)
    }

    /// Runs the built `ledger` executable as a separate process against this ledger.
    @discardableResult
    package func runBinary(_ arguments: String..., env: [String: String] = [:], stdin: String = "") throws -> CommandResult {
        try LedgerBinary.run(arguments, environment: environment.merging(env) { $1 }, currentDirectory: root, stdin: stdin)
    }

    /// The text of a file in the ledger.
    package func read(_ relative: String) -> String? {
        try? String(contentsOfFile: root + "/" + relative, encoding: .utf8)
    }

    /// The JSON of a document in the ledger.
    package func document(_ relative: String) -> JSONValue? {
        guard let bytes = try? FileSystem.read(root + "/" + relative) else { return nil }
        return try? JSONParser.parse(bytes)
    }

    /// Writes a file in the ledger, creating directories (a hand edit).
    package func write(_ relative: String, _ text: String) throws {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// Every file path in the ledger's app directories (relative, sorted).
    package func files(under relative: String) -> [String] {
        let base = root + "/" + relative
        guard let e = FileManager.default.enumerator(atPath: base) else { return [] }
        var out: [String] = []
        while let p = e.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + p, isDirectory: &isDir), !isDir.boolValue {
                out.append(relative + "/" + p)
            }
        }
        return out.sorted()
    }
}

/// The built `ledger` executable, for end-to-end tests and for git's merge driver.
package enum LedgerBinary {
    /// The directory holding the `ledger` executable: `$LEDGER_BIN_DIR`, else the build
    /// directory the tests run from (`swift build` puts `ledger` next to the test bundle).
    package static let directory: String = {
        if let d = ProcessInfo.processInfo.environment["LEDGER_BIN_DIR"] { return d }
        var dir = (CommandLine.arguments[0] as NSString).deletingLastPathComponent
        for _ in 0..<4 {
            if FileManager.default.isExecutableFile(atPath: dir + "/ledger") { return dir }
            dir = (dir as NSString).deletingLastPathComponent
        }
        return (CommandLine.arguments[0] as NSString).deletingLastPathComponent
    }()

    /// The executable's path.
    package static var path: String { directory + "/ledger" }

    /// Runs the executable and waits for it.
    package static func run(_ arguments: [String], environment: [String: String], currentDirectory: String,
                           stdin: String = "") throws -> CommandResult {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw LedgerError.failure("the ledger executable is not built at \(path); run `swift build` first (make test does)")
        }
        // The status as a shell's `$?` would not say it: the signal's number when one ended it
        // (a test that kills a sync expects SIGKILL).
        let child = try ChildProcess(path, arguments, environment: environment, directory: currentDirectory)
        _ = Array(stdin.utf8).withUnsafeBytes { child.write($0) }
        child.closeInput()
        let out = child.readOutput()
        let status = child.wait()
        return CommandResult(status: child.handle.terminatingSignal ?? status, stdout: String(decoding: out, as: UTF8.self),
                             stderr: String(decoding: child.errorBytes(limit: 1 << 24), as: UTF8.self))
    }
}

extension TestLedger {
    /// `systemd-analyze verify --user` (the program at `analyze`) of a unit file, with a runtime
    /// directory and home of this ledger's own: what systemd would say of it on a user's desktop.
    package func verifyUserUnit(_ unitPath: String, analyze: String) throws -> CommandResult {
        let runtime = directory.url("runtime")
        try FileSystem.makeDirectories(runtime)
        chmod(runtime, 0o700)
        return try Processes.run(analyze, ["verify", "--user", "--man=no", unitPath],
                                 environment: ["XDG_RUNTIME_DIR": runtime, "HOME": directory.path, "PATH": "/usr/bin:/bin"])
    }
}
