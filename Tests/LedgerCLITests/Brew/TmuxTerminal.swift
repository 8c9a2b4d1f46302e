import Foundation
import ProcessRunner
import LedgerTestSupport
import Testing

/// A real pseudo-terminal for end-to-end tests of `ledger brew start`: a private tmux server
/// (its own socket, no status line, panes kept after their command exits) with one 80 × 24
/// window running a command.
///
/// Waits poll `capture-pane` for expected text with a bounded timeout, so the tests hold on
/// a loaded machine; the server is killed by its socket, then by its PID, when the value goes.
final class TmuxTerminal {
    let socket: String
    let directory: TemporaryDirectory
    private var serverPID: Int32?

    /// The tmux executable; a test without it fails saying how to install it (`make test`
    /// installs it), it is never skipped.
    let executable: String

    /// Starts the server with `command` in a window of `columns` × `rows` (80 × 24 unless
    /// told). Commands are expected to end by printing `[exit N]` (see
    /// `BrewTerminalTests.command`): tmux does not always reap a pane's process promptly, so
    /// its exit status is read from the screen.
    init(command: String, columns: Int = 80, rows: Int = 24) throws {
        executable = try Processes.require("tmux", package: "tmux")
        directory = TemporaryDirectory("ledger-tmux")
        socket = directory.url("s")
        let config = directory.url("tmux.conf")
        try "set -g status off\nset -g remain-on-exit on\nset -g history-limit 0\n".write(toFile: config, atomically: true, encoding: .utf8)
        // The server daemonizes from this first client and would inherit a pipe given as its
        // stdout, so this one call gets /dev/null.
        try tmux(["-f", config, "new-session", "-d", "-x", String(columns), "-y", String(rows), "-s", "t", command], capture: false)
        serverPID = Int32(try tmux(["display-message", "-p", "-t", "t", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    deinit { stop() }

    /// A pane's command: `ledger ARGS` in a clean environment (`now` for its clock, else the
    /// ledger's; `environment` added), under a shell that prints `[exit N]` when it ends and
    /// then runs `after`; `pause` seconds first.
    static func ledgerCommand(_ ledger: TestLedger, _ args: String, now: String? = nil, pause: Int = 0,
                              environment: [String: String] = [:], after: String = "") -> String {
        func q(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let env = ["HOME": ledger.environment["HOME"]!, "PATH": "/usr/bin:/bin", "LEDGER_REPO": ledger.root,
                   "LEDGER_NOW": now ?? ledger.environment["LEDGER_NOW"]!, "TZ": "Europe/Paris", "LANG": "C.UTF-8", "TERM": "xterm",
                   "NO_COLOR": "1"].merging(environment) { $1 }
        let inner = (pause > 0 ? "sleep \(pause); " : "") + q(LedgerBinary.path) + " " + args + "; echo \"[exit $?]\"" + (after.isEmpty ? "" : "; " + after)
        return "exec env -i " + env.sorted { $0.key < $1.key }.map { q("\($0.key)=\($0.value)") }.joined(separator: " ")
            + " /bin/sh -c " + q(inner)
    }

    /// Kills the server (by socket, then by PID if it is still there).
    func stop() {
        _ = try? tmux(["kill-server"], capture: false)
        if let pid = serverPID, kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        serverPID = nil
    }

    /// Runs tmux on this server; its stdout (read from a file: the server daemonizes from
    /// the first client and would keep a pipe open forever).
    @discardableResult
    func tmux(_ arguments: [String], capture: Bool = true) throws -> String {
        let exe = executable
        let output = directory.url("out-\(UInt32.random(in: 0...UInt32.max))")
        defer { unlink(output) }
        let status: Int32
        do {
            // Not tied to this thread: the server tmux starts is the test's until it is stopped.
            // tmux keeps the test thread's signal mask, as these tests were written against:
            // with every signal delivered, the pane of an exited command is shown cleared.
            status = try ChildProcess(exe, ["-S", socket] + arguments, environment: ProcessInfo.processInfo.environment,
                                      input: .null, output: capture ? .appending(output) : .null, errors: .null, diesWithThread: false,
                                      keepsSignals: true).wait()
        } catch {
            throw TmuxError("cannot run tmux: \(error)")
        }
        let text = capture ? ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "") : ""
        guard status == 0 else { throw TmuxError("tmux \(arguments.joined(separator: " ")) failed (status \(status))") }
        return text
    }

    /// The screen as text.
    func screen() -> String { (try? tmux(["capture-pane", "-p", "-t", "t"])) ?? "" }

    /// Sends keys by tmux name (`Enter`, `Space`, `r`).
    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", "t"] + keys) }

    /// Types text literally.
    func type(_ text: String) throws { try tmux(["send-keys", "-t", "t", "-l", text]) }

    /// The PID of the pane's process (the shell running the command).
    func panePID() throws -> Int32 {
        guard let pid = Int32(try tmux(["display-message", "-p", "-t", "t", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TmuxError("no pane pid")
        }
        return pid
    }

    /// The PID of the pane's child process named `name` (from /proc), waiting for it to appear.
    func childPID(named name: String, timeout: Double = 30) throws -> Int32 {
        let parent = try panePID()
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                      let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
                let comm = stat[stat.index(after: open)..<close]
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                if comm == name, fields.count > 1, Int32(fields[1]) == parent { return pid }
            }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        throw TmuxError("no process \(name) under the pane's shell")
    }

    /// The command's exit status, once the pane shows the `[exit N]` line its shell prints.
    func exitStatus() -> Int32? {
        let text = screen()
        guard let r = text.range(of: #"\[exit [0-9]+\]"#, options: .regularExpression) else { return nil }
        return Int32(text[r].dropFirst(6).dropLast())
    }

    /// Runs `command` again in the pane (after it exited or was killed).
    func respawn(_ command: String) throws { try tmux(["respawn-pane", "-k", "-t", "t", command]) }

    /// Waits until the screen shows `text` (at most `timeout` seconds); the screen then, or
    /// nil after recording a failure that shows the last screen.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        waitUntil("\"\(text)\"", timeout: timeout, sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// Waits until the screen satisfies `condition` (at most `timeout` seconds); the screen
    /// then, or nil after recording a failure that names `what` and shows the last screen.
    @discardableResult
    func waitUntil(_ what: String, timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation, _ condition: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        repeat {
            last = screen()
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        Issue.record("waited \(Int(timeout)) s for \(what); the screen shows:\n\(last)", sourceLocation: sourceLocation)
        return nil
    }

    /// Waits until the pane's command has exited; its status.
    func waitForExit(timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let s = exitStatus() { return s }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        Issue.record("the command did not exit in \(Int(timeout)) s; the screen shows:\n\(screen())", sourceLocation: sourceLocation)
        return nil
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
