import Foundation
import Synchronization

/// Gives up on a remote that stops answering.
///
/// libgit2 1.5 has no network timeout: a server that accepts the connection and then says
/// nothing blocks a fetch or push forever — and with it the ledger's writer lock. While a
/// transfer runs, a watchdog thread watches the signs of life the callbacks report; after
/// `timeout` seconds without one it shuts down this process's TCP connections to the
/// remote's port, so libgit2's blocked read returns and the transfer fails, reported as a
/// remote that stopped answering (exit 3).
final class StallGuard: Sendable {
    let timeout: Double
    let port: UInt16
    private struct State { var last: Double; var done = false; var stalled = false }
    private let state: Mutex<State>

    /// A guard for a network URL, or nil for local remotes (a disk does not stall this way)
    /// or a timeout of zero (wait forever).
    init?(url: String, timeout: Double) {
        guard timeout > 0, let port = Self.port(of: url) else { return nil }
        self.timeout = timeout
        self.port = port
        state = Mutex(State(last: Self.now()))
    }

    /// A sign of life: bytes arrived or were sent, a credential or message was exchanged.
    func alive() { state.withLock { $0.last = Self.now() } }

    /// Whether the transfer was cut because the remote stopped answering.
    var stalled: Bool { state.withLock { $0.stalled } }

    /// Runs `body` (the blocking libgit2 call) with the watchdog on.
    func watch<T>(_ body: () throws -> T) rethrows -> T {
        alive()
        let watchdog = Thread { [self] in
            // Ends with the transfer; wakes five times a second.
            while true {
                usleep(200_000)
                let step = state.withLock { s -> (done: Bool, cut: Bool) in
                    guard !s.done else { return (true, false) }
                    guard Self.now() - s.last > timeout else { return (false, false) }
                    s.stalled = true
                    s.last = Self.now()
                    return (false, true)
                }
                if step.done { return }
                if step.cut { Self.shutDownConnections(toPort: port) }
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

    /// The TCP port a network URL talks to: explicit, or the scheme's (ssh 22, git 9418,
    /// http 80, https 443); nil for local paths.
    static func port(of url: String) -> UInt16? {
        let scheme: String
        if let r = url.range(of: "://") {
            scheme = url[..<r.lowerBound].lowercased()
        } else if Remote.isSSH(url) {
            return 22  // scp-like user@host:path has no port
        } else {
            return nil
        }
        let defaults: [String: UInt16] = ["http": 80, "https": 443, "git": 9418, "ssh": 22, "ssh+git": 22, "git+ssh": 22]
        guard let standard = defaults[scheme], let host = Remote.host(of: url) else { return nil }
        // host[:port], or [v6]:port
        let afterBracket = host.lastIndex(of: "]").map { host[host.index(after: $0)...] } ?? Substring(host)
        if let colon = afterBracket.lastIndex(of: ":"), let p = UInt16(afterBracket[afterBracket.index(after: colon)...]) { return p }
        return standard
    }

    /// Shuts down every TCP connection of this process whose peer port is `port`.
    static func shutDownConnections(toPort port: UInt16) {
        guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for name in fds {
            guard let fd = Int32(name) else { continue }
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let peer = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
            }
            guard peer == 0 else { continue }
            let peerPort: UInt16
            switch Int32(address.ss_family) {
            case AF_INET: peerPort = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port } }
            case AF_INET6: peerPort = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port } }
            default: continue
            }
            if UInt16(bigEndian: peerPort) == port { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }
}
