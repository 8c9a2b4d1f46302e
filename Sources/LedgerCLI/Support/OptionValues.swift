import ArgumentParser
import LedgerKit

/// A value with units or a range that argument-parser reads for an option: `init?(argument:)`
/// for the parser, and `parse`, which says why a text is not one. Options declare
/// `transform: T.parse`, so that a bad value is refused with the command's own sentence
/// naming its flag ("--size must be a positive size like 12, …"), whatever the value looks
/// like — `-1` included, as the README's "Values starting with a dash" promises — with exit
/// status 2 (`LedgerCLI.run` finds the refusal inside the parser's error).
protocol OptionValue: ExpressibleByArgument, Sendable {
    /// The value `text` gives, or a usage error naming the option.
    static func parse(_ text: String) throws -> Self
}

extension OptionValue {
    init?(argument: String) {
        guard let value = try? Self.parse(argument) else { return nil }
        self = value
    }
}

/// `--json`: print one JSON value on stdout instead of text.
struct JSONOption: ParsableArguments {
    @Flag(name: .customLong("json"), help: "Print the result as one JSON value on stdout.")
    var isOn = false
}

/// `--yes`: answer a confirmation for scripts.
struct YesOption: ParsableArguments {
    @Flag(name: .customLong("yes"), help: "Do not ask for confirmation (for scripts).")
    var isOn = false
}

/// `--time`: when something happened, if not now (Waterline's `start`, `end`, `drink`,
/// `water` and `edit`), in the forms `TimeArgument` reads.
struct TimeOption: ParsableArguments {
    @Option(name: .customLong("time"),
            help: ArgumentHelp("When, if not now: 22:15, 2026-11-21T22:15 or a timestamp with its offset.", valueName: "time"),
            transform: ClockText.parse)
    var text: ClockText?

    /// The option's name, in messages.
    static let option = "--time"

    /// The instant given, not later than the clock's now; nil when not given.
    func instant(_ clock: CommandClock) throws -> Timestamp? {
        try text.map { try TimeArgument.parse($0.text, option: Self.option, clock: clock) }
    }

    /// Runs `body`, which acts at `given` (read from this option, or now), explaining a clock
    /// time taken as yesterday's (`TimeArgument.explaining`).
    func explaining<T>(_ given: Timestamp?, clock: CommandClock, _ body: () throws -> T) throws -> T {
        try TimeArgument.explaining(text?.text, given, option: Self.option, clock: clock, body)
    }
}

/// A time as typed for an option taking one of `TimeArgument`'s forms: checked for its form
/// when parsed; which instant it names depends on the clock (`TimeArgument.parse`).
struct ClockText: OptionValue {
    let text: String

    static func parse(_ text: String) throws -> ClockText {
        guard TimeArgument.timestamp(text, now: Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0), timeZone: .gmt) != nil else {
            throw LedgerError.usage("\(TimeOption.option) must be \(TimeArgument.forms) (found \"\(text)\")")
        }
        return ClockText(text: text)
    }
}
