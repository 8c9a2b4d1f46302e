#if os(Linux)
import Foundation
import Glibc
import LedgerKit
import LedgerRemind

/// Reminders printed in the terminal `ledger remind --terminal` runs in, each with a bell, and
/// answered by keys: `d` (I Drank: the reminder showing, else the current one), `w` (Log Water:
/// the notice showing, else water in the active session), `q` or Ctrl-D to quit; Ctrl-C stops
/// it too. Inside the app the full text is shown, as the seeds say.
///
/// On a terminal, standard input is put in non-canonical mode without echo (keys arrive at
/// once, unseen) and restored when the process stops, also on SIGTERM or SIGINT (the event
/// loop turns them into a clean stop). Piped input is read as keys too.
final class TerminalFrontEnd: ReminderFrontEnd {
    private var saved: termios?

    init(ledger: String) {
        var mode = termios()
        if isatty(0) != 0, tcgetattr(0, &mode) == 0 {
            saved = mode
            mode.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &mode.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            tcsetattr(0, TCSANOW, &mode)
        }
        Console.print("Reminders for \(ledger), in this terminal: d = I Drank, w = Log Water, q = quit.")
        Console.flush()
    }

    deinit { restore() }

    /// Puts the terminal back as it was.
    func restore() {
        guard var mode = saved else { return }
        tcsetattr(0, TCSANOW, &mode)
        saved = nil
    }

    var notifications: NotificationClient? { nil }
    var input: Int32? { 0 }

    func carryOut(_ effects: [ReminderFlow.Effect], at now: Timestamp) {
        for effect in effects {
            switch effect {
            case .show(let notice):
                let keys = notice.actions.compactMap { action -> String? in
                    switch action {
                    case .drank: "[d] " + action.label
                    case .logWater: "[w] " + action.label
                    case .dismiss: nil
                    }
                }
                RemindFormat.say("\(notice.app.title): \(notice.detail)  " + keys.joined(separator: " "), at: now, bell: true)
            case .withdraw: break  // answered, or no longer due: the next line says what is
            }
        }
    }

    func finish(_ effects: [ReminderFlow.Effect]) { restore() }

    func answers(to events: [LoopEvent], flow: ReminderFlow) -> [ReminderAnswer] {
        guard events.contains(.input) else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(0, &buffer, buffer.count)
        if n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN) { return [.inputEnded] }
        return buffer.prefix(max(n, 0)).compactMap { byte in
            switch byte {
            case UInt8(ascii: "d"), UInt8(ascii: "D"):
                flow.showing(.hydrate).map { .pressed(key: $0.key, action: $0.actions[0].id) } ?? .drankNow
            case UInt8(ascii: "w"), UInt8(ascii: "W"):
                flow.showing(.waterline).map { .pressed(key: $0.key, action: $0.actions[0].id) } ?? .act(.logWater)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x04: .quit
            default: nil
            }
        }
    }
}
#endif
