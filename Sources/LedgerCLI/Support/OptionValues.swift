import ArgumentParser
import LedgerKit

/// A value with units or a range that argument-parser reads for an option: `init?(argument:)`
/// for the parser, and `parse`, which says why a text is not one. Options declare
/// `transform: T.parse`, so that a bad value is refused with the command's own sentence
/// naming its flag ("--size must be a positive size like 12, …"), whatever the value looks
/// like — `-1` included, as the README's "Values starting with a dash" promises — with exit
/// status 2 (`LedgerCLI.run` finds the refusal inside the parser's error: `ArgumentRefusal`).
protocol OptionValue: ExpressibleByArgument, Sendable {
    /// The value `text` gives; else an `OptionProblem` (the parser's error names the
    /// option), or a usage error naming it.
    static func parse(_ text: String) throws -> Self
}

/// Why a text is not a value of an option, said after the option's name: "must be a date
/// written YYYY-MM-DD, like 2026-11-21 (found "21/11")".
struct OptionProblem: Error, CustomStringConvertible {
    let text: String
    /// What stands between the option's name and `text`: a space ("--date is a date …"), or
    /// ": " before a sentence of its own ("--rating: the rating must be 1 to 5").
    var joiner = " "
    var description: String { text }
}

/// A number of grams or degrees (`--dose 18`, `--temp 92.5`): decimal digits only, where
/// argument-parser's own `Double` also takes `0x10`, `1e3`, `nan` and `inf`.
enum DecimalNumber {
    static func parse(_ text: String) throws -> Double {
        guard let v = NumberText.decimal(text) else { throw OptionProblem(text: "must be a number like 18 or 15.5 (found \"\(text)\")") }
        return v
    }
}

/// `--date`: a day, `YYYY-MM-DD`.
struct DateValue: OptionValue {
    let date: LocalDate

    static func parse(_ text: String) throws -> DateValue {
        guard let d = LocalDate(text) else { throw OptionProblem(text: "is a date like 2026-11-18 (found \"\(text)\")") }
        return DateValue(date: d)
    }
}

/// A time of day, `HH:MM` (or `H:MM`): Water Reminder's `--start` and `--end`.
struct DayTimeValue: OptionValue {
    let time: ClockTime

    /// `HH:MM`, or `H:MM`.
    static func clockTime(_ text: String) -> ClockTime? {
        let t = text.trimmingWhitespace()
        return ClockTime(t) ?? ClockTime("0" + t)
    }

    static func parse(_ text: String) throws -> DayTimeValue {
        guard let t = clockTime(text) else { throw OptionProblem(text: "must be a time of day written HH:MM, like 09:00 (found \"\(text)\")") }
        return DayTimeValue(time: t)
    }
}

extension OptionValue {
    init?(argument: String) {
        guard let value = try? Self.parse(argument) else { return nil }
        self = value
    }
}

/// `--json`: print one JSON value on stdout instead of text.
struct JSONOption: ParsableArguments {
    @Flag(help: "Print the result as one JSON value on stdout (the manual in docs/ gives each command's fields).")
    var json = false
}

/// `--yes`: answer a confirmation for scripts.
struct YesOption: ParsableArguments {
    @Flag(help: "Do not ask for confirmation (for scripts).")
    var yes = false
}

/// `--dry-run`, `--yes` and `--json` of a command that shows what it will change and asks
/// first (`undo`, `forget`, `purge`): a dry run shows and changes nothing; `--json` prints no
/// question, so it goes with one of the other two. `--yes` and `--json` are the shared groups.
struct ConfirmedChangeOptions: ParsableArguments {
    @Flag(help: "Show what it would change, and change nothing.")
    var dryRun = false

    @OptionGroup var confirmation: YesOption

    @OptionGroup var output: JSONOption

    var yes: Bool { confirmation.yes }
    var json: Bool { output.json }

    /// Runs `body`, the command; with `--json`, a refusal or a failure still prints one JSON
    /// value on stdout — `{"outcome": "refused"|"offline"|"failed", "error", "problems"}`, as
    /// `sync --json` does — before it exits as it would, the sentence on stderr.
    func reporting(_ body: () throws -> Void) throws {
        do {
            // Here, not in `validate()`: this refusal too is printed as JSON.
            if json, !dryRun, !yes { throw LedgerError.usage("--json prints no question: add --dry-run to see what it would change, or --yes to go ahead") }
            try body()
        } catch where json && !(error is ExitCode) {
            Output.json(SyncCommand.failureJSON(error))
            throw error
        }
    }
}

/// `--time`: when something happened, if not now (Waterline's `start`, `end`, `drink`,
/// `water` and `edit`), in the forms `TimeArgument` reads.
struct TimeOption: ParsableArguments {
    @Option(name: .customLong("time"),
            help: ArgumentHelp("When, if not now: 22:15, 2026-11-21T22:15 or a timestamp with its offset.", valueName: "time"),
            transform: ClockText.parse)
    var text: ClockText?

    /// The time given, for what depends on it.
    var given: TimeGiven { TimeGiven(text: text) }

    var isGiven: Bool { given.isGiven }
    func instant(_ clock: CommandClock) throws -> Timestamp? { try given.instant(clock) }
    var precision: Int64 { given.precision }
    func explaining<T>(_ at: Timestamp?, clock: CommandClock, _ body: () throws -> T) throws -> T { try given.explaining(at, clock: clock, body) }
}

/// `--time` as given (`TimeOption` without argument-parser's wrapper, for the quick commands).
struct TimeGiven {
    var text: ClockText?

    /// The option's name, in messages.
    static let option = "--time"

    /// Whether it was given.
    var isGiven: Bool { text != nil }

    /// The instant given, not later than the clock's now; nil when not given.
    func instant(_ clock: CommandClock) throws -> Timestamp? {
        try text.map { try TimeArgument.parse($0.text, option: Self.option, clock: clock) }
    }

    /// The span the time given names, in milliseconds: a minute for `23:47`, a second for
    /// `23:47:41` (`TimeArgument.precision`); 1 when not given.
    var precision: Int64 { text.map { TimeArgument.precision($0.text) } ?? 1 }

    /// Runs `body`, which acts at `given` (read from this option, or now), explaining a clock
    /// time taken as yesterday's (`TimeArgument.explaining`).
    func explaining<T>(_ given: Timestamp?, clock: CommandClock, _ body: () throws -> T) throws -> T {
        try TimeArgument.explaining(text?.text, given, option: Self.option, clock: clock, body)
    }
}

/// A time as typed for an option taking one of `TimeArgument`'s forms (`--time`, `--at`):
/// checked for its form when parsed; which instant it names depends on the clock
/// (`TimeArgument.parse`).
struct ClockText: OptionValue {
    let text: String

    static func parse(_ text: String) throws -> ClockText {
        guard TimeArgument.timestamp(text, now: Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0), timeZone: .gmt) != nil else {
            throw OptionProblem(text: "must be \(TimeArgument.forms) (found \"\(text)\")")
        }
        return ClockText(text: text)
    }
}
