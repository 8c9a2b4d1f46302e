import Foundation

/// SIGTERM and SIGINT turned into bytes on a pipe the event loop polls (the self-pipe trick).
///
/// Not `signalfd`: it only sees a signal that every thread blocks, and a Swift process has
/// threads it did not start (Dispatch's, Foundation's), any of which may take a process signal
/// and die of it. A handler runs on whichever thread takes it and only writes one byte.
/// The handlers in place before are restored when the value goes away. One at a time per
/// process: the handler finds the pipe through a global.
final class SignalPipe {
    let fd: Int32
    private let writeEnd: Int32
    private var previous: [Int32: sigaction] = [:]
    static let signals = [SIGTERM, SIGINT]

    init() throws(RemindError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw RemindError.system("pipe") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        let claimed = signalPipeLock.withLock {
            guard signalPipeWriteEnd < 0 else { return false }
            signalPipeWriteEnd = ends[1]
            return true
        }
        guard claimed else {
            ends.forEach { close($0) }
            throw RemindError(.system, "another event loop already handles SIGTERM and SIGINT in this process")
        }
        fd = ends[0]
        writeEnd = ends[1]
        for sig in Self.signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = signalPipeHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var old = sigaction()
            sigaction(sig, &action, &old)
            previous[sig] = old
        }
    }

    deinit {
        for (sig, old) in previous {
            var old = old
            sigaction(sig, &old, nil)
        }
        signalPipeLock.withLock { signalPipeWriteEnd = -1 }
        close(fd)
        close(writeEnd)
    }

    /// Empties the pipe; true when a signal came.
    func drain() -> Bool {
        var any = false
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(fd, &buffer, buffer.count) > 0 { any = true }
        return any
    }
}

// Read by the handler: set before the handlers are installed, cleared after they are removed
// (under the lock, which the handler does not take).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1
private let signalPipeLock = NSLock()

/// Async-signal-safe: one `write`, `errno` kept.
private let signalPipeHandler: @convention(c) (Int32) -> Void = { sig in
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: sig)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}
