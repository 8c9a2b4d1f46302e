import Foundation
import LedgerKit

/// A time given on the command line (Waterline's `--time`, Moments' and BrewGuide's `--at`),
/// read the same way by every command:
///
/// - `HH:MM` or `HH:MM:SS` (`7:40` too): the last time the clock showed it — today when that
///   time has come, else yesterday (`23:50` typed at 00:30 is last night, the usual case on a
///   night out); in the hour the clocks go back over, the later pass that has come
///   (`ZonedClock.lastShowing`);
/// - `YYYY-MM-DDTHH:MM[:SS]` (or with a space instead of `T`): that wall-clock time in the
///   clock's zone, with the offset the zone has then;
/// - an ISO-8601 timestamp with its offset or `Z` (`2026-11-21T22:15:00+01:00`; the seconds
///   may be left out): that instant, recorded — like everything logged now — with the offset
///   the clock's zone has then (`15:30-05:00` typed in Berlin is stored as `21:30+01:00`), so
///   that a session's times are all on the person's own clock.
///
/// A time later than now is refused: these commands record what has happened.
enum TimeArgument {
    /// The forms, for messages.
    static let forms = "a time like 22:15 (the last time the clock showed it), 2026-11-21T22:15 on this clock, "
        + "or a timestamp with its offset like 2026-11-21T22:15:00+01:00"

    /// The instant `text` names for `option`, not later than the clock's now; a usage error
    /// (exit status 2) naming the option otherwise.
    static func parse(_ text: String, option: String, clock: CommandClock) throws -> Timestamp {
        guard let t = timestamp(text, now: clock.now, timeZone: clock.timeZone) else {
            throw LedgerError.usage("\(option) must be \(forms) (found \"\(text)\")")
        }
        if t.epochMilliseconds > clock.now.epochMilliseconds {
            throw LedgerError.usage("\(option) \(text) is later than now (\(clock.now.iso8601)); give a time that has passed")
        }
        return t
    }

    /// The instant `text` names at `now` in `timeZone` (see the type), or nil when it is none
    /// of the forms. It may be later than `now`; `parse` refuses that.
    static func timestamp(_ text: String, now: Timestamp, timeZone: TimeZone) -> Timestamp? {
        let text = text.trimmingWhitespace()
        return instant(text, now: now, timeZone: timeZone).map { ZonedClock.timestamp($0.epochMilliseconds, in: timeZone) }
    }

    /// The instant `text` names, with the offset it was written with, if any.
    private static func instant(_ text: String, now: Timestamp, timeZone: TimeZone) -> Timestamp? {
        if let t = Timestamp(iso8601: text) { return t }
        let parts = text.split(separator: text.contains("T") ? "T" : " ", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard let (h, m, s) = clockTime(parts[0], singleDigitHour: true) else { return nil }
            // At the precision given: `23:30` is today from 23:30:00 on.
            return ZonedClock.lastShowing(hour: h, minute: m, second: s ?? 0, notAfter: now, in: timeZone)
        case 2:
            guard let date = LocalDate(String(parts[0])) else { return nil }
            if let (h, m, s) = clockTime(parts[1], singleDigitHour: false) {
                return ZonedClock.instant(LocalDateTime(date: date, hour: h, minute: m, second: s ?? 0), in: timeZone)
            }
            // `2026-11-21T22:15+01:00`: a timestamp without its seconds.
            let time = parts[1]
            guard time.count > 5, let zone = time.dropFirst(5).first, "+-Z".contains(zone) else { return nil }
            return Timestamp(iso8601: "\(parts[0])T\(time.prefix(5)):00\(time.dropFirst(5))")
        default:
            return nil
        }
    }

    /// How long a span `text` names, in milliseconds, counted from the instant it is read as:
    /// a minute when it gives no seconds (`23:47`, `2026-11-21T23:47+01:00` — the minute the
    /// commands show), a second when it gives no fraction of one, else a millisecond.
    static func precision(_ text: String) -> Int64 {
        let t = text.trimmingWhitespace()
        if t.contains(".") { return 1 }
        let time = t.split(whereSeparator: { $0 == "T" || $0 == " " }).last ?? Substring(t)
        return time.prefix { $0.isNumber || $0 == ":" }.filter { $0 == ":" }.count >= 2 ? 1000 : 60_000
    }

    /// Runs `body`, which acts at `given`, read from `text` for `option`, and says when `text`
    /// was a clock time taken as yesterday's because it is still ahead today (`start --time
    /// 20:30` at 20:00): in a note on stderr ("ledger: note: --time
    /// 20:30 is taken as yesterday, 2026-11-20 20:30 (the last time the clock showed it)"),
    /// or, when a rule about the data refuses that instant (exit status 1), in the refusal:
    /// "--time 22:15 is taken as yesterday, …, which is before session … started (…)". Any
    /// refusal of the instant given names the option and what was typed: "--time 20:00
    /// (2026-11-21T20:00:00+01:00) is before the session started (…)".
    static func explaining<T>(_ text: String?, _ given: Timestamp?, option: String, clock: CommandClock, _ body: () throws -> T) throws -> T {
        let note = yesterdayNote(text, given, option: option, clock: clock)
        do {
            let result = try body()
            if let note { Console.error("ledger: note: " + note) }
            return result
        } catch let e as LedgerError {
            guard let text, let given, e.refusedInstant == given else { throw e }
            if let note {
                let rest = e.refusalReason.map { ", which " + $0 } ?? "; " + e.commandLineMessage
                throw LedgerError(e.code, note + rest, problems: e.problems)
            }
            let typed = option + " " + text.trimmingWhitespace()
            let named = text.trimmingWhitespace() == given.iso8601 ? typed : typed + " (\(given.iso8601))"
            throw LedgerError(e.code, named + (e.refusalReason.map { " " + $0 } ?? ": " + e.commandLineMessage), problems: e.problems)
        }
    }

    /// "--time 22:15 is taken as yesterday, 2026-11-20 22:15 (the last time the clock showed
    /// it)" when `text` is a clock time that `given` (what it was read as) puts on an earlier
    /// day than now; nil otherwise.
    static func yesterdayNote(_ text: String?, _ given: Timestamp?, option: String, clock: CommandClock) -> String? {
        guard let text, let given, clockTime(Substring(text.trimmingWhitespace()), singleDigitHour: true) != nil else { return nil }
        let day = ZonedClock.timestamp(given.epochMilliseconds, in: clock.timeZone).local
        guard day.date < ZonedClock.timestamp(clock.now.epochMilliseconds, in: clock.timeZone).local.date else { return nil }
        let time = NumberText.padded(day.hour) + ":" + NumberText.padded(day.minute) + (day.second == 0 ? "" : ":" + NumberText.padded(day.second))
        return "\(option) \(text) is taken as yesterday, \(day.date) \(time) (the last time the clock showed it)"
    }

    /// `HH:MM` or `HH:MM:SS` (and `H:MM` when `singleDigitHour`): hour, minute and the seconds
    /// when given.
    private static func clockTime(_ text: Substring, singleDigitHour: Bool) -> (Int, Int, Int?)? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count),
              fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              fields[0].count == 2 || (singleDigitHour && fields[0].count == 1),
              fields.dropFirst().allSatisfy({ $0.count == 2 }),
              let h = Int(fields[0]), let m = Int(fields[1]), h < 24, m < 60 else { return nil }
        guard fields.count == 3 else { return (h, m, nil) }
        guard let s = Int(fields[2]), s < 60 else { return nil }
        return (h, m, s)
    }
}
