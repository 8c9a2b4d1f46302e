import CGit2
import Foundation
import LedgerKit
import Synchronization

/// A program ledger runs for a transfer — the user's ssh, `git credential` — with pipes to its
/// standard input and output, and its standard error kept in an unlinked temporary file (read
/// after it exits; nothing can block on it, not even an ssh ControlPersist master that keeps
/// it open). Ended by its PID; the child also dies with the thread that started it.
final class ChildProcess {
    let handle: Handle
    /// Our end of the child's standard input (-1 once closed).
    private var input: Int32
    /// Our end of the child's standard output.
    private let output: Int32
    private let errors: Int32

    /// The PID and, once reaped, the exit status; shared with the stall watchdog's thread.
    final class Handle: Sendable {
        let pid: pid_t
        private let status = Mutex<Int32?>(nil)

        init(_ pid: pid_t) { self.pid = pid }

        /// Sends `signal` to the child and its descendants (the ssh a shell started for
        /// `GIT_SSH_COMMAND`), unless the child was already reaped (its PID may belong to another).
        func send(_ signal: Int32) {
            status.withLock {
                guard $0 == nil else { return }
                for p in Self.descendants(of: pid) { kill(p, signal) }
                kill(pid, signal)
            }
        }

        /// Whether the child or a program it started has a terminal open — ssh asking on
        /// /dev/tty for a passphrase or to accept a host key (its standard streams are never a
        /// terminal): a person is answering, the remote is not silent.
        var isAskingOnTerminal: Bool {
            guard status.withLock({ $0 }) == nil else { return false }
            return ([pid] + Self.descendants(of: pid)).contains { p in
                let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(p)/fd")) ?? []
                return fds.contains { fd in
                    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(p)/fd/\(fd)")) ?? ""
                    return target.hasPrefix("/dev/tty") || target.hasPrefix("/dev/pts/")
                }
            }
        }

        /// The PIDs of every descendant of `pid`, from each process's parent in /proc.
        static func descendants(of pid: pid_t) -> [pid_t] {
            var children: [pid_t: [pid_t]] = [:]
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                // /proc/PID/stat: "PID (comm) STATE PPID …"; comm may hold spaces and parentheses.
                guard let p = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { continue }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                if fields.count > 1, let parent = pid_t(fields[1]) { children[parent, default: []].append(p) }
            }
            var out: [pid_t] = []
            var queue = children[pid] ?? []
            while let p = queue.popLast() {
                out.append(p)
                queue += children[p] ?? []
            }
            return out
        }

        /// Reaps the child, waiting for it when `blocking`; its exit status (128 + N for
        /// signal N), or nil while it is still running.
        func reap(blocking: Bool) -> Int32? {
            if let s = status.withLock({ $0 }) { return s }
            var raw: Int32 = 0
            var r: pid_t
            repeat { r = waitpid(pid, &raw, blocking ? 0 : WNOHANG) } while r < 0 && errno == EINTR
            guard r == pid else { return r < 0 ? 128 + SIGKILL : nil }
            let signal = raw & 0x7f
            let s = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
            status.withLock { $0 = s }
            return s
        }
    }

    /// Starts `executable` (a path) with `arguments` and exactly `environment`.
    init(_ executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil) throws {
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        // Close-on-exec, so no other program ledger starts inherits them (the child gets its
        // ends as 0, 1 and 2).
        guard Self.pipe(&toChild) else { throw LedgerError.failure("cannot create a pipe: \(String(cString: strerror(errno)))") }
        guard Self.pipe(&fromChild) else {
            close(toChild[0]); close(toChild[1])
            throw LedgerError.failure("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        var template = Array((NSTemporaryDirectory() + "/ledger-stderr-XXXXXX").utf8CString)
        let errorFile = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if errorFile >= 0 {
            _ = fcntl(errorFile, F_SETFD, FD_CLOEXEC)
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        let devNull = errorFile >= 0 ? -1 : open("/dev/null", O_WRONLY | O_CLOEXEC)
        let pid = argv.withUnsafeBufferPointer { a in
            envp.withUnsafeBufferPointer { e in
                ledger_spawn(executable, a.baseAddress, e.baseAddress, directory, toChild[0], fromChild[1], errorFile >= 0 ? errorFile : devNull)
            }
        }
        close(toChild[0])
        close(fromChild[1])
        if devNull >= 0 { close(devNull) }
        guard pid > 0 else {
            close(toChild[1]); close(fromChild[0])
            if errorFile >= 0 { close(errorFile) }
            throw LedgerError.failure("cannot start \(executable): \(String(cString: strerror(-pid)))")
        }
        handle = Handle(pid)
        input = toChild[1]
        output = fromChild[0]
        errors = errorFile
    }

    deinit {
        terminate()
        if input >= 0 { close(input) }
        close(output)
        if errors >= 0 { close(errors) }
    }

    /// Writes all of `bytes` to the child's standard input; false when it stopped reading.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(input, bytes.baseAddress! + done, bytes.count - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Reads what the child wrote to its standard output (blocking): the byte count, 0 at the
    /// end, -1 on an error.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        while true {
            let n = Glibc.read(output, buffer, count)
            if n < 0, errno == EINTR { continue }
            return n
        }
    }

    /// Closes the child's standard input (it sees the end of its input).
    func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// Waits for the child to exit; its exit status (128 + N for signal N).
    @discardableResult
    func wait() -> Int32 { handle.reap(blocking: true) ?? 128 + SIGKILL }

    /// Ends the child unless it has exited: its input closed, SIGTERM, SIGKILL after two
    /// seconds; then reaps it.
    func terminate() {
        guard handle.reap(blocking: false) == nil else { return }
        closeInput()
        handle.send(SIGTERM)
        for _ in 0..<100 {
            if handle.reap(blocking: false) != nil { return }
            usleep(20_000)
        }
        handle.send(SIGKILL)
        wait()
    }

    /// The end of what the child wrote to its standard error (at most 64 KiB), trimmed.
    var errorText: String {
        guard errors >= 0 else { return "" }
        var st = stat()
        guard fstat(errors, &st) == 0, st.st_size > 0 else { return "" }
        let count = Int(min(st.st_size, 1 << 16))
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { pread(errors, $0.baseAddress, count, off_t(st.st_size) - off_t(count)) }
        return String(decoding: bytes.prefix(max(n, 0)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a program to its end, feeding it `input`; its status, standard output and error.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String], input: String) throws
        -> (status: Int32, output: String, error: String) {
        let child = try ChildProcess(executable, arguments, environment: environment)
        // The helpers read all their input before answering; small enough for the pipe.
        _ = Array(input.utf8).withUnsafeBytes { child.write($0) }
        child.closeInput()
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { child.read(into: $0.baseAddress!, count: $0.count) }
            if n <= 0 { break }
            out += chunk.prefix(n)
        }
        let status = child.wait()
        return (status, String(decoding: out, as: UTF8.self), child.errorText)
    }

    private static func pipe(_ fds: inout [Int32]) -> Bool {
        guard Glibc.pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// The path of `program` on `PATH` (as a shell finds it), or nil.
    static func find(_ program: String, path: String?) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        for dir in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(program)"
            if access(candidate, X_OK) == 0, FileSystem.stamp(candidate)?.type != .directory { return candidate }
        }
        return nil
    }
}
