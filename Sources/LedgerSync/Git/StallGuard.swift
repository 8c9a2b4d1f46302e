import Foundation
import ProcessRunner
import Synchronization

/// Gives up on a remote that stops answering.
///
/// libgit2 1.5 has no network timeout: a server that accepts the connection and then says
/// nothing blocks a fetch or push forever — and with it the ledger's writer lock — and one
/// that never completes the handshake blocks `connect` for the system's SYN retries. While a
/// transfer runs, a watchdog thread watches the signs of life the callbacks report; after
/// `timeout` seconds without one it shuts down this process's TCP sockets to the remote's
/// port and ends the ssh child of an ssh remote, so libgit2's blocked call returns and the
/// transfer fails, reported as a remote that stopped answering (exit 3). While ssh asks on
/// the terminal (a passphrase, a new host key), it waits for the person, as git does.
final class StallGuard: Sendable {
    let timeout: Double
    /// The TCP port of an http or git remote (ssh ones are reached through an ssh child).
    let port: UInt16?
    private struct State { var last: Double; var done = false; var stalled = false; var children: [ChildProcess.Handle] = [] }
    private let state: Mutex<State>

    /// A guard for a network URL, or nil for local remotes (a disk does not stall this way)
    /// or a timeout of zero (wait forever).
    init?(url: String, timeout: Double) {
        guard timeout > 0, Remote.isSSH(url) || Self.port(of: url) != nil else { return nil }
        self.timeout = timeout
        port = Remote.isSSH(url) ? nil : Self.port(of: url)
        state = Mutex(State(last: Self.now()))
    }

    /// A sign of life: bytes arrived or were sent, a credential or message was exchanged.
    func alive() { state.withLock { $0.last = Self.now() } }

    /// Ends `child` (the ssh carrying the transfer) when the remote stops answering.
    func cutting(_ child: ChildProcess.Handle) { state.withLock { $0.children.append(child) } }

    /// Whether the transfer was cut because the remote stopped answering.
    var stalled: Bool { state.withLock { $0.stalled } }

    /// Runs `body` (the blocking libgit2 call) with the watchdog on.
    func watch<T>(_ body: () throws -> T) rethrows -> T {
        alive()
        let watchdog = Thread { [self] in
            // Ends with the transfer; wakes five times a second.
            while true {
                usleep(200_000)
                let step = state.withLock { s -> (done: Bool, overdue: Bool, children: [ChildProcess.Handle]) in
                    (s.done, !s.done && Self.now() - s.last > timeout, s.children)
                }
                if step.done { return }
                guard step.overdue else { continue }
                // ssh waiting for a person to answer its prompt on the terminal is not a silent remote.
                if step.children.contains(where: \.isAskingOnTerminal) {
                    alive()
                    continue
                }
                let cut = state.withLock { s -> Bool in
                    guard !s.done else { return false }
                    s.stalled = true
                    s.last = Self.now()
                    return true
                }
                if cut {
                    if let port { Self.shutDownConnections(toPort: port) }
                    for child in step.children { child.send(SIGKILL) }
                }
            }
        }
        watchdog.start()
        defer { state.withLock { $0.done = true } }
        return try body()
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// The TCP port an http or git URL talks to: explicit, or the scheme's (git 9418, http 80,
    /// https 443); nil for local paths and ssh.
    static func port(of url: String) -> UInt16? {
        guard let r = url.range(of: "://") else { return nil }
        let scheme = url[..<r.lowerBound].lowercased()
        let defaults: [String: UInt16] = ["http": 80, "https": 443, "git": 9418]
        guard let standard = defaults[scheme], let host = Remote.host(of: url) else { return nil }
        // host[:port], or [v6]:port
        let afterBracket = host.lastIndex(of: "]").map { host[host.index(after: $0)...] } ?? Substring(host)
        if let colon = afterBracket.lastIndex(of: ":"), let p = UInt16(afterBracket[afterBracket.index(after: colon)...]) { return p }
        return standard
    }

    /// Shuts down every TCP socket of this process whose peer port is `port`: connected ones,
    /// and ones still connecting to a server that never completes the handshake (whose peer
    /// `getpeername` cannot name but the kernel's table of TCP sockets lists). Shutting down a
    /// connecting socket aborts its `connect`, so libgit2's blocked call returns.
    static func shutDownConnections(toPort port: UInt16) {
        let sockets = socketInodes(toPort: port)
        guard !sockets.isEmpty, let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for name in fds {
            // /proc/self/fd/N -> "socket:[inode]"
            guard let fd = Int32(name), let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
                  target.hasPrefix("socket:["), target.hasSuffix("]"), let inode = UInt64(target.dropFirst(8).dropLast()),
                  sockets.contains(inode) else { continue }
            _ = shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    /// The inodes of the TCP sockets (of any process) whose remote port is `port`, from
    /// /proc/net/tcp and tcp6: `sl local rem st … inode`, addresses as hex `ADDR:PORT`.
    static func socketInodes(toPort port: UInt16) -> Set<UInt64> {
        var out: Set<UInt64> = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, let colon = fields[2].lastIndex(of: ":"),
                      UInt16(fields[2][fields[2].index(after: colon)...], radix: 16) == port,
                      let inode = UInt64(fields[9]), inode != 0 else { continue }
                out.insert(inode)
            }
        }
        return out
    }
}
