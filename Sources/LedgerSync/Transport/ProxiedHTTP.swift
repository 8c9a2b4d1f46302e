import CGit2
import Foundation
import Synchronization

/// http:// remotes through a proxy, as git reaches them.
///
/// libgit2 1.5 tunnels https:// through a proxy (CONNECT), but an http:// request — though
/// already written in the form a proxy takes, `GET http://host:port/path` — it sends to the
/// server itself, past the proxy git would use. So while such a transfer runs, libgit2's plain
/// sockets are made here (`git_stream_register`), and those opened by the thread running the
/// transfer connect to the proxy; other threads' connect where libgit2 asks.
///
/// A proxy may close a connection after any answer without saying so (tinyproxy does), which
/// git's curl notices and reconnects; so does a request written here after an answer on a
/// connection the proxy has closed.
enum ProxiedHTTP {
    private struct Route: Sendable { var host: String; var port: String }
    /// The proxy of each thread running a proxied http:// transfer.
    private static let routes = Mutex<[UInt: Route]>([:])

    /// Runs the transfer `body` with this thread's plain sockets connected to `proxy`
    /// (`http://host:port`), if any.
    static func through<T>(_ proxy: String?, _ body: () throws -> T) rethrows -> T {
        guard let u = proxy.flatMap(URLComponents.init(string:)), let host = u.host, !host.isEmpty, let port = u.port else { return try body() }
        let thread = UInt(pthread_self())
        routes.withLock { routes in
            if routes.isEmpty {
                var registration = git_stream_registration(version: 1, init: { out, host, port in
                    ProxiedHTTP.open(out, host, port)
                }, wrap: nil)
                _ = git_stream_register(GIT_STREAM_STANDARD, &registration)
            }
            routes[thread] = Route(host: host, port: String(port))
        }
        defer {
            routes.withLock { routes in
                routes[thread] = nil
                if routes.isEmpty { _ = git_stream_register(GIT_STREAM_STANDARD, nil) }
            }
        }
        return try body()
    }

    /// A new plain stream to `host`:`port` — or to this thread's proxy.
    private static func open(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_stream>?>?,
                             _ host: UnsafePointer<CChar>?, _ port: UnsafePointer<CChar>?) -> Int32 {
        let route = routes.withLock { $0[UInt(pthread_self())] }
        let s = UnsafeMutablePointer<ledger_stream>.allocate(capacity: 1)
        s.initialize(to: ledger_stream())
        s.pointee.parent.version = GIT_STREAM_VERSION
        s.pointee.fd = -1
        s.pointee.host = strdup(route?.host ?? host.map { String(cString: $0) } ?? "")
        s.pointee.port = strdup(route?.port ?? port.map { String(cString: $0) } ?? "")
        s.pointee.parent.connect = { ProxiedHTTP.connect(ProxiedHTTP.stream($0)) }
        s.pointee.parent.read = { stream, buffer, size in
            let fd = ProxiedHTTP.stream(stream).pointee.fd
            var n: Int
            repeat { n = recv(fd, buffer, size, 0) } while n < 0 && errno == EINTR
            if n < 0 { ProxiedHTTP.fail("could not read from socket") }
            if n > 0 { ProxiedHTTP.stream(stream).pointee.answered = 1 }
            return n
        }
        s.pointee.parent.write = { stream, data, length, _ in
            let s = ProxiedHTTP.stream(stream)
            if s.pointee.answered != 0, ProxiedHTTP.closedByPeer(s.pointee.fd) {
                // A new request on a connection closed after the last answer: on a new one.
                Glibc.close(s.pointee.fd)
                s.pointee.fd = -1
                guard ProxiedHTTP.connect(s) == 0 else { return -1 }
            }
            s.pointee.answered = 0
            var n: Int
            repeat { n = send(s.pointee.fd, data, length, Int32(MSG_NOSIGNAL)) } while n < 0 && errno == EINTR
            if n < 0 { ProxiedHTTP.fail("could not write to socket") }
            return n
        }
        s.pointee.parent.close = { stream in
            let s = ProxiedHTTP.stream(stream)
            if s.pointee.fd >= 0 { Glibc.close(s.pointee.fd) }
            s.pointee.fd = -1
            return 0
        }
        s.pointee.parent.free = { stream in
            guard stream != nil else { return }
            let s = ProxiedHTTP.stream(stream)
            if s.pointee.fd >= 0 { Glibc.close(s.pointee.fd) }
            free(s.pointee.host)
            free(s.pointee.port)
            s.deallocate()
        }
        out?.pointee = UnsafeMutableRawPointer(s).assumingMemoryBound(to: git_stream.self)
        return 0
    }

    private static func stream(_ stream: UnsafeMutablePointer<git_stream>?) -> UnsafeMutablePointer<ledger_stream> {
        UnsafeMutableRawPointer(stream!).assumingMemoryBound(to: ledger_stream.self)
    }

    /// Connects to the first of the host's addresses that answers.
    private static func connect(_ s: UnsafeMutablePointer<ledger_stream>) -> Int32 {
        let host = String(cString: s.pointee.host), port = String(cString: s.pointee.port)
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, port, &hints, &list)
        guard rc == 0 else {
            git_error_set_str(Int32(GIT_ERROR_NET.rawValue), "failed to resolve address for \(host): \(String(cString: gai_strerror(rc)))")
            return -1
        }
        defer { freeaddrinfo(list) }
        var error: Int32 = 0
        var next = list
        while let a = next {
            next = a.pointee.ai_next
            let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), a.pointee.ai_protocol)
            guard fd >= 0 else { error = errno; continue }
            if Glibc.connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 {
                s.pointee.fd = fd
                return 0
            }
            error = errno
            Glibc.close(fd)
        }
        git_error_set_str(Int32(GIT_ERROR_NET.rawValue), "failed to connect to \(host) port \(port): \(String(cString: strerror(error)))")
        return -1
    }

    /// Whether the other end has closed the connection (and sent nothing more).
    private static func closedByPeer(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    private static func fail(_ what: String) {
        git_error_set_str(Int32(GIT_ERROR_NET.rawValue), "\(what): \(String(cString: strerror(errno)))")
    }
}
