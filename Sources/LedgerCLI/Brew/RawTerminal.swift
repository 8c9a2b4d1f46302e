import Dispatch
import Foundation
import LedgerKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A key as read from a terminal in raw mode.
enum Key: Equatable {
    case char(Character)
    case enter
    case backspace
    case escape
    /// Ctrl-C (raw mode delivers it as a byte, not a signal).
    case interrupt
    /// Arrow keys and other sequences nothing here uses.
    case other
}

/// Decodes the bytes a terminal sends into keys: UTF-8 characters, control keys and escape
/// sequences (which are consumed whole so that an arrow key is not read as Escape, `[`, `A`).
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// The keys in `bytes` (plus any incomplete UTF-8 left from before).
    mutating func keys(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var out: [Key] = []
        var i = 0
        let b = pending
        while i < b.count {
            let c = b[i]
            switch c {
            case 0x0D, 0x0A: out.append(.enter); i += 1
            case 0x7F, 0x08: out.append(.backspace); i += 1
            case 0x03, 0x04: out.append(.interrupt); i += 1
            case 0x1B:
                if i + 1 < b.count, b[i + 1] == UInt8(ascii: "[") || b[i + 1] == UInt8(ascii: "O") {
                    var j = i + 2
                    if b[i + 1] == UInt8(ascii: "[") {
                        while j < b.count, !(0x40...0x7E).contains(b[j]) { j += 1 }
                    }
                    i = min(j + 1, b.count)
                    out.append(.other)
                } else {
                    out.append(.escape)
                    i += 1
                }
            case 0x00..<0x20: out.append(.other); i += 1
            default:
                let length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1
                if i + length > b.count {
                    pending = Array(b[i...])
                    return out
                }
                let s = String(decoding: b[i..<(i + length)], as: UTF8.self)
                out.append(s.first.map(Key.char) ?? .other)
                i += length
            }
        }
        pending = []
        return out
    }
}

/// The controlling terminal (`/dev/tty`) in raw mode, on the alternate screen.
///
/// Raw mode turns off echo, line editing and the signal keys, so every key arrives at once
/// and Ctrl-C is a key the brew can ask about. `restore()` (also run by `deinit`) puts the
/// terminal back as it was. SIGTERM, SIGHUP, SIGINT and SIGQUIT are turned into a wake-up of
/// `poll`, so the caller can restore the terminal and exit cleanly; SIGWINCH wakes it to
/// redraw.
final class RawTerminal {
    let fd: Int32
    private var original = termios()
    private var restored = false
    private let wake: (read: Int32, write: Int32)
    private var sources: [DispatchSourceSignal] = []
    private var decoder = KeyDecoder()
    /// Set when a terminating signal arrived.
    private(set) var signalled = false

    /// What one `poll` saw.
    struct Input {
        var keys: [Key] = []
        /// A terminating signal arrived, or the terminal went away.
        var hangUp = false
    }

    init() throws {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw LedgerError.usage("there is no terminal to brew on (/dev/tty: \(String(cString: strerror(errno)))); log a brew with `ledger brew save --rating N` instead") }
        self.fd = fd
        guard tcgetattr(fd, &original) == 0 else {
            close(fd)
            throw LedgerError.usage("/dev/tty is not a terminal; log a brew with `ledger brew save --rating N` instead")
        }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else {
            close(fd)
            throw LedgerError.failure("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        wake = (pipeFDs[0], pipeFDs[1])
        _ = fcntl(wake.read, F_SETFL, O_NONBLOCK)
        _ = fcntl(wake.write, F_SETFL, O_NONBLOCK)
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        tcsetattr(fd, TCSAFLUSH, &raw)
        let writeFD = wake.write
        for sig in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGWINCH] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                var byte = UInt8(truncatingIfNeeded: sig)
                _ = systemWrite(writeFD, &byte, 1)
            }
            source.resume()
            sources.append(source)
        }
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    deinit { restore() }

    /// Leaves the alternate screen, shows the cursor and restores the terminal's modes.
    func restore() {
        guard !restored else { return }
        restored = true
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(fd, TCSAFLUSH, &original)
        for s in sources { s.cancel() }
        for sig in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGWINCH] { signal(sig, SIG_DFL) }
        close(fd)
        close(wake.read)
        close(wake.write)
    }

    /// The terminal's size (rows, columns); 24 × 80 when it cannot tell.
    var size: (rows: Int, columns: Int) {
        var w = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &w) == 0, w.ws_row > 0, w.ws_col > 0 else { return (24, 80) }
        return (Int(w.ws_row), Int(w.ws_col))
    }

    /// Writes text to the terminal.
    func write(_ s: String) {
        var bytes = Array(s.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { systemWrite(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 { if errno == EINTR || errno == EAGAIN { continue }; return }
            done += n
        }
    }

    /// Waits up to `timeout` seconds for keys or a signal.
    func poll(timeout: Double) -> Input {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        let n = systemPoll(&fds, 2, Int32(timeout * 1000))
        var input = Input()
        guard n > 0 else { return input }
        if fds[1].revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 16)
            let got = read(wake.read, &buffer, buffer.count)
            if got > 0, buffer[0..<got].contains(where: { Int32($0) != SIGWINCH }) {
                signalled = true
                input.hangUp = true
            }
        }
        if fds[0].revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 256)
            let got = read(fd, &buffer, buffer.count)
            if got > 0 {
                input.keys = decoder.keys(Array(buffer[0..<got]))
            } else if got == 0 || (errno != EINTR && errno != EAGAIN) {
                input.hangUp = true
            }
        }
        if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0, input.keys.isEmpty { input.hangUp = true }
        return input
    }
}

/// "Now" for a brew on screen: the command's clock (`$LEDGER_NOW` when set) moved on by the
/// monotonic time since the command started, so that timers run even under a fixed clock
/// and never jump when the wall clock is set.
struct BrewClock {
    let origin: Timestamp
    private let start = DispatchTime.now().uptimeNanoseconds

    init(origin: Timestamp) { self.origin = origin }

    var now: Timestamp {
        origin.adding(seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func systemPoll(_ fds: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: Int32) -> Int32 { poll(fds, nfds_t(count), timeout) }
