import Foundation

/// A failure of the reminder machinery: a sentence for the user and the class of failure.
///
/// Callers that fall back to something else (printing reminders in the terminal when the
/// desktop cannot show them) match on the code, never the text:
/// `catch let error as RemindError where error.code == .noSessionBus`.
public struct RemindError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of failure.
    public enum Code: Sendable, Hashable {
        /// No session bus: `DBUS_SESSION_BUS_ADDRESS` is unset (and there is no
        /// `$XDG_RUNTIME_DIR/bus`), or the bus it names cannot be reached, or it went away.
        case noSessionBus
        /// Nothing on the session bus owns (or can be started for) `org.freedesktop.Notifications`.
        case noNotificationServer
        /// A D-Bus call was refused or failed (the server's error is in the message).
        case dbus
        /// An environment variable that drives the clock is malformed.
        case invalidClock
        /// A system call failed (timerfd, inotify, poll, a signal handler).
        case system
    }

    public var code: Code
    /// One sentence naming what failed and what to do.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// A failed system call, with `errno`'s text.
    static func system(_ call: String, _ err: Int32 = errno) -> RemindError {
        RemindError(.system, "\(call) failed: \(String(cString: strerror(err)))")
    }
}
