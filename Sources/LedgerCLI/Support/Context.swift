import Foundation
import LedgerKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command's text goes: the process's stdout/stderr, or a buffer in tests.
public final class TextOutput: @unchecked Sendable {
    // @unchecked: `buffer` is only touched under `lock`.
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private let fd: Int32?
    /// The error of the first write that failed (`ENOSPC` for a full disk, `EPIPE` for a
    /// reader that went away); nothing more is written after it.
    public private(set) var writeError: Int32?

    /// Output buffered and written to file descriptor `fd` on `flush()`.
    public init(fd: Int32) { self.fd = fd }
    /// Output kept in memory (read it with `text`).
    public init() { fd = nil }

    /// Appends text.
    public func write(_ s: String) {
        lock.withLock { buffer.append(contentsOf: s.utf8) }
        if fd != nil, buffer.count > 1 << 16 { flush() }
    }

    /// Writes what is buffered to the file descriptor (no-op for in-memory output).
    public func flush() {
        guard let fd else { return }
        lock.withLock {
            var done = 0
            while done < buffer.count, writeError == nil {
                let n = buffer.withUnsafeBytes { posixWrite(fd, $0.baseAddress! + done, buffer.count - done) }
                if n < 0 {
                    if errno == EINTR { continue }
                    writeError = errno
                } else if n == 0 {
                    writeError = EIO
                }
                done += max(n, 0)
            }
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Everything written so far (in-memory output).
    public var text: String { lock.withLock { String(decoding: buffer, as: UTF8.self) } }
}

/// Where a command's input comes from: the terminal or piped stdin, or scripted lines in tests.
public final class TextInput: @unchecked Sendable {
    // @unchecked: `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String]?

    /// Reads from the process's stdin.
    public init() { lines = nil }
    /// Answers with these lines, then end of input.
    public init(lines: [String]) { self.lines = lines }

    /// The next line without its newline, or nil at end of input.
    public func readLine() -> String? {
        lock.withLock {
            guard lines != nil else { return Swift.readLine(strippingNewline: true) }
            return lines!.isEmpty ? nil : lines!.removeFirst()
        }
    }
}

/// Everything a command may take from its surroundings: environment, working directory,
/// standard streams and whether they are terminals. Commands never read process globals, so
/// tests can run many commands in parallel in one process.
public struct CLIContext: Sendable {
    public var environment: [String: String]
    public var currentDirectory: String
    public var stdout: TextOutput
    public var stderr: TextOutput
    public var stdin: TextInput
    /// Whether stdin is an interactive terminal (confirmations may be asked).
    public var stdinIsTerminal: Bool
    /// Whether stdout is a terminal (colour and progress may be used).
    public var stdoutIsTerminal: Bool
    /// `--repo` given before the subcommand (`ledger --repo PATH waterline status`).
    var repoOverride: String?
    /// The command being run, as typed (`ledger waterline drink --preset beer`).
    var commandLine: [String] = ["ledger"]

    public init(environment: [String: String], currentDirectory: String, stdout: TextOutput, stderr: TextOutput,
                stdin: TextInput, stdinIsTerminal: Bool, stdoutIsTerminal: Bool) {
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.stdout = stdout
        self.stderr = stderr
        self.stdin = stdin
        self.stdinIsTerminal = stdinIsTerminal
        self.stdoutIsTerminal = stdoutIsTerminal
    }

    /// The real process: its environment, directory and streams.
    public static func process() -> CLIContext {
        CLIContext(environment: processEnvironment(),
                   currentDirectory: FileManager.default.currentDirectoryPath,
                   stdout: TextOutput(fd: 1), stderr: TextOutput(fd: 2), stdin: TextInput(),
                   stdinIsTerminal: isatty(0) != 0, stdoutIsTerminal: isatty(1) != 0)
    }

    /// The process's environment, read from `environ` (Foundation's `ProcessInfo` builds the
    /// same dictionary through code that looks its types up at run time: a tenth of a
    /// millisecond of every command's start). The first of two equal names wins, as `getenv`.
    static func processEnvironment() -> [String: String] {
        var out: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if out[name] == nil { out[name] = String(text[text.utf8.index(after: equals)...]) }
            }
            entry += 1
        }
        return out
    }

    /// The context of the running command.
    @TaskLocal public static var current = CLIContext(
        environment: [:], currentDirectory: "/", stdout: TextOutput(), stderr: TextOutput(), stdin: TextInput(lines: []),
        stdinIsTerminal: false, stdoutIsTerminal: false)

    /// Whether to use colour: stdout is a terminal and `NO_COLOR` is not set.
    public var useColor: Bool { stdoutIsTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb" }

    /// `path` made absolute against the working directory, with `~` expanded.
    public func absolutePath(_ path: String) -> String {
        var p = path
        if p == "~" || p.hasPrefix("~/"), let home = environment["HOME"] { p = home + p.dropFirst() }
        if !p.hasPrefix("/") { p = currentDirectory + "/" + p }
        return FileSystem.standardized(p)
    }

    /// `text`, a path typed on the command line, relative to the ledger at `root` when it
    /// names a place inside it: an absolute path (there or not), or one relative to the
    /// current directory that is there; nil otherwise (a path relative to the ledger itself,
    /// typed from elsewhere, is the caller's to read).
    func pathInLedger(_ text: String, root: String) -> String? {
        let absolute = absolutePath(text)
        guard absolute.hasPrefix(root + "/"), text.hasPrefix("/") || FileSystem.exists(absolute) else { return nil }
        return String(absolute.dropFirst(root.count + 1))
    }
}

/// Writing to the current command's streams.
enum Console {
    static var context: CLIContext { CLIContext.current }

    /// A line on stdout, made safe for a terminal (`TerminalText`): one line, whatever the
    /// values in it hold.
    static func print(_ s: String = "") { context.stdout.write(TerminalText.render(s, color: context.useColor) + "\n") }
    /// A line on stderr, made safe likewise.
    static func error(_ s: String) { context.stderr.write(TerminalText.render(s, color: context.useColor) + "\n") }
    /// Text on stdout without a line break (a prompt), made safe likewise.
    static func prompt(_ s: String) { context.stdout.write(TerminalText.render(s, color: context.useColor)) }

    /// An error with the problems behind it: its message, then one line per problem.
    static func error(_ e: LedgerError, prefix: String = "ledger: ") {
        error(prefix + e.commandLineMessage)
        for p in e.problems { error("  " + p.commandLineDescription) }
    }

    /// Writes out what both streams hold (before a prompt, or before another program takes
    /// the terminal), so that nothing written earlier shows up after it.
    static func flush() {
        context.stdout.flush()
        context.stderr.flush()
    }

    /// Asks a yes/no question on a terminal (SPEC §2). `yes` answers it for scripts; without a
    /// terminal and without `yes` the command refuses, naming the `action` ("Deleting the
    /// recipe …") that needs the confirmation.
    static func confirm(_ question: String, action: String, yes: Bool, flag: String = "--yes") throws -> Bool {
        if yes { return true }
        guard context.stdinIsTerminal else {
            throw LedgerError.usage("\(action) needs a confirmation: run it on a terminal or pass \(flag)")
        }
        flush()
        prompt("\(question) [y/N] ")
        context.stdout.flush()
        let answer = context.stdin.readLine()?.trimmingWhitespace().lowercased() ?? ""
        return answer == "y" || answer == "yes"
    }
}

private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
