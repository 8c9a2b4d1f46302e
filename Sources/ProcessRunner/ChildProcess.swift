import CSpawn
import Foundation
import Synchronization

/// A program ledger runs — the user's ssh and `git credential` for a transfer, `git gc`, the
/// editor, `systemctl` — and the tests' servers and tools: the one way to start a process.
///
/// By default its standard input and output are pipes to us and its standard error is kept
/// in an unlinked temporary file (read after it exits; nothing can block on it, not even an
/// ssh ControlPersist master that keeps it open); each stream can instead be the null
/// device, ours (a terminal for the editor), or a file. It starts with default signal
/// handling, no blocked signal and none of our other descriptors (`ledger_spawn`, in C:
/// between fork and exec only async-signal-safe calls may run). Ended by its PID; unless told
/// otherwise it also dies with the thread that started it, so no child outlives ledger — and
/// in a watched process group (`Group.watched`), neither does anything the child starts.
package final class ChildProcess {
    package let handle: Handle
    /// The watcher of the child's process group, for `Group.watched`.
    private var watcher: GroupWatcher?
    /// Our end of the child's standard input (-1 once closed).
    private var input: Int32
    /// Our end of the child's standard output.
    private let output: Int32
    private let errors: Int32

    /// Where the child's standard input comes from.
    package enum Input: Sendable { case pipe, null, inherited }
    /// Where the child's standard output goes; `appending` opens (or creates) the file.
    package enum Output: Sendable { case pipe, null, inherited, appending(String) }
    /// Where the child's standard error goes: kept for `errorText`, or like its output.
    package enum Errors: Sendable { case kept, null, inherited, likeOutput }
    /// The process group the child runs in.
    package enum Group: Sendable {
        /// Ours: the terminal's signals (Ctrl-C) reach it with us.
        case ours
        /// One of its own, which it leads (`killpg(pid, …)` then reaches what it starts).
        case own
        /// One of its own, led by a `GroupWatcher`: when we die (`kill -9` included) or give
        /// the child up (`terminate`), the watcher ends the whole group — the programs the child
        /// started too, which the parent-death signal does not reach. The child then has no
        /// parent-death signal of its own (the watcher asks it to stop first, with SIGTERM).
        /// Not for a child that may ask on the terminal: a group other than the terminal's
        /// foreground one is stopped when it reads it.
        case watched
    }

    /// The PID and, once reaped, the exit status; shared with the stall watchdog's thread.
    package final class Handle: Sendable {
        package let pid: pid_t
        private let status = Mutex<Int32?>(nil)
        private let signal = Mutex<Int32?>(nil)

        /// The signal that ended the child, once reaped (nil when it exited).
        package var terminatingSignal: Int32? { signal.withLock { $0 } }

        init(_ pid: pid_t) { self.pid = pid }

        /// Sends `signal` to the child and its descendants (the ssh a shell started for
        /// `GIT_SSH_COMMAND`), unless the child was already reaped (its PID may belong to another).
        package func send(_ signal: Int32) {
            status.withLock {
                guard $0 == nil else { return }
                for p in Self.descendants(of: pid) { kill(p, signal) }
                kill(pid, signal)
            }
        }

        /// Whether the child or a program it started has a terminal open — ssh asking on
        /// /dev/tty for a passphrase or to accept a host key (its standard streams are never a
        /// terminal): a person is answering, the remote is not silent.
        package var isAskingOnTerminal: Bool {
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
        package func reap(blocking: Bool) -> Int32? {
            if let s = status.withLock({ $0 }) { return s }
            var raw: Int32 = 0
            var r: pid_t
            repeat { r = waitpid(pid, &raw, blocking ? 0 : WNOHANG) } while r < 0 && errno == EINTR
            guard r == pid else { return r < 0 ? 128 + SIGKILL : nil }
            let n = raw & 0x7f
            let s = n == 0 ? (raw >> 8) & 0xff : 128 + n
            if n != 0 { signal.withLock { $0 = n } }
            status.withLock { $0 = s }
            return s
        }
    }

    /// Starts `executable` (a path) with `arguments` and exactly `environment`, in `directory`
    /// when given. `diesWithThread`: SIGKILL when the thread that started it ends (false for a
    /// server a test keeps across threads). `keepsSignals`: the child keeps the calling
    /// thread's signal mask and ignored signals instead of the defaults. `group`: the process
    /// group it runs in.
    package init(_ executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
                 input: Input = .pipe, output: Output = .pipe, errors: Errors = .kept, diesWithThread: Bool = true,
                 keepsSignals: Bool = false, group: Group = .ours) throws(ProcessError) {
        var opened: [Int32] = []
        func fail(_ what: String) -> ProcessError {
            let e = ProcessError("\(what): \(String(cString: strerror(errno)))")
            for fd in opened { close(fd) }
            return e
        }
        let watcher: GroupWatcher?
        if case .watched = group {
            do { watcher = try GroupWatcher() } catch { throw ProcessError("cannot start the watcher of a process group: \(error)") }
        } else {
            watcher = nil
        }
        let processGroup: pid_t = switch group {
        case .ours: -1
        case .own: 0
        case .watched: watcher!.pid
        }
        /// `path` opened close-on-exec for the child (its descriptor, closed here once it runs).
        func openForChild(_ path: String, _ flags: Int32) throws(ProcessError) -> Int32 {
            let fd = open(path, flags | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw fail("cannot open \(path)") }
            opened.append(fd)
            return fd
        }
        /// A pipe, both ends close-on-exec; `childEnd` is the index of the child's.
        func pipeForChild(_ fds: inout [Int32], childEnd: Int) throws(ProcessError) -> Int32 {
            guard Self.pipe(&fds) else { throw fail("cannot create a pipe") }
            opened += fds
            return fds[childEnd]
        }
        // Our ends and the child's (the child gets its ends as 0, 1 and 2).
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        let childIn: Int32 = switch input {
        case .pipe: try pipeForChild(&toChild, childEnd: 0)
        case .null: try openForChild("/dev/null", O_RDONLY)
        case .inherited: 0
        }
        let childOut: Int32 = switch output {
        case .pipe: try pipeForChild(&fromChild, childEnd: 1)
        case .null: try openForChild("/dev/null", O_WRONLY)
        case .inherited: 1
        case .appending(let path): try openForChild(path, O_WRONLY | O_CREAT | O_APPEND)
        }
        var errorFile: Int32 = -1
        let childErr: Int32
        switch errors {
        case .kept:
            var template = Array((NSTemporaryDirectory() + "/ledger-stderr-XXXXXX").utf8CString)
            errorFile = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if errorFile >= 0 {
                _ = fcntl(errorFile, F_SETFD, FD_CLOEXEC)
                template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
                childErr = errorFile
            } else {
                childErr = try openForChild("/dev/null", O_WRONLY)
            }
        case .null:
            childErr = try openForChild("/dev/null", O_WRONLY)
        case .inherited:
            childErr = 2
        case .likeOutput:
            childErr = childOut
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        let pid = argv.withUnsafeBufferPointer { a in
            envp.withUnsafeBufferPointer { e in
                ledger_spawn(executable, a.baseAddress, e.baseAddress, directory, childIn, childOut, childErr,
                             diesWithThread && watcher == nil ? 1 : 0, keepsSignals ? 1 : 0, processGroup)
            }
        }
        // The child's ends are the child's now.
        for fd in opened where fd != toChild[1] && fd != fromChild[0] { close(fd) }
        guard pid > 0 else {
            if toChild[1] >= 0 { close(toChild[1]) }
            if fromChild[0] >= 0 { close(fromChild[0]) }
            if errorFile >= 0 { close(errorFile) }
            watcher?.release()
            throw ProcessError("cannot start \(executable): \(String(cString: strerror(-pid)))")
        }
        handle = Handle(pid)
        self.input = toChild[1]
        self.output = fromChild[0]
        self.errors = errorFile
        self.watcher = watcher
    }

    deinit {
        terminate()
        if input >= 0 { close(input) }
        if output >= 0 { close(output) }
        if errors >= 0 { close(errors) }
    }

    /// Writes all of `bytes` to the child's standard input; false when it stopped reading.
    package func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
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
    package func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        while true {
            let n = Glibc.read(output, buffer, count)
            if n < 0, errno == EINTR { continue }
            return n
        }
    }

    /// Closes the child's standard input (it sees the end of its input).
    package func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// Waits for the child to exit; its exit status (128 + N for signal N).
    @discardableResult
    package func wait() -> Int32 {
        let status = handle.reap(blocking: true) ?? 128 + SIGKILL
        watcher?.release()
        watcher = nil
        return status
    }

    /// Ends the child unless it has exited: its input closed, SIGTERM, SIGKILL after two
    /// seconds; then reaps it. In a watched group the watcher does it, to the whole group.
    package func terminate() {
        guard handle.reap(blocking: false) == nil else {
            wait()
            return
        }
        closeInput()
        if let watcher {
            watcher.abandon()
            self.watcher = nil
            wait()
            return
        }
        handle.send(SIGTERM)
        for _ in 0..<100 {
            if handle.reap(blocking: false) != nil { return }
            usleep(20_000)
        }
        handle.send(SIGKILL)
        wait()
    }

    /// The end of what the child wrote to its standard error (at most 64 KiB), trimmed.
    package var errorText: String {
        String(decoding: errorBytes(limit: 1 << 16), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The last `limit` bytes the child wrote to its standard error (when it is `.kept`).
    package func errorBytes(limit: Int) -> [UInt8] {
        guard errors >= 0 else { return [] }
        var st = stat()
        guard fstat(errors, &st) == 0, st.st_size > 0 else { return [] }
        let count = Int(min(Int64(st.st_size), Int64(limit)))
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { pread(errors, $0.baseAddress, count, off_t(st.st_size) - off_t(count)) }
        return Array(bytes.prefix(max(n, 0)))
    }

    /// Everything the child writes to its standard output, until it closes it.
    package func readOutput() -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(into: $0.baseAddress!, count: $0.count) }
            if n <= 0 { break }
            out += chunk.prefix(n)
        }
        return out
    }

    /// Runs a program to its end, feeding it `input`; its status, standard output and error.
    /// The input is written before the output is read: for programs that read all their input
    /// before answering (git's credential helpers), or input that fits in a pipe (64 KiB).
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
                            input: String = "") throws(ProcessError) -> (status: Int32, output: String, error: String) {
        let child = try ChildProcess(executable, arguments, environment: environment, directory: directory)
        _ = Array(input.utf8).withUnsafeBytes { child.write($0) }
        child.closeInput()
        let out = child.readOutput()
        let status = child.wait()
        return (status, String(decoding: out, as: UTF8.self), child.errorText)
    }

    /// A pipe, both ends close-on-exec.
    static func pipe(_ fds: inout [Int32]) -> Bool {
        guard Glibc.pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }
}
