import LedgerKit

/// The command line's words for what LedgerKit says as values: the flags that give a
/// request's inputs and the commands that take the next step. LedgerKit's sentences name
/// inputs and steps as values (`LedgerError.Sentence`); each app words its own in its
/// `<App>Format.swift` (`WaterlineText.flag`, `WaterlineText.command`, …), and this is
/// where the sentence is put together and where the ledger-wide steps are worded.
enum Words {
    /// A sentence in the command line's words.
    static func text(_ sentence: LedgerError.Sentence) -> String {
        sentence.rendered(input: flag, next: command)
    }

    /// The flag (or argument) that gives `input`.
    static func flag(_ input: LedgerError.Input) -> String {
        switch input {
        case .waterline(let w): WaterlineText.flag(w)
        case .brew(let b): BrewText.flag(b)
        case .field(let name): name
        }
    }

    /// The command that takes `step`, in the sentence's place.
    static func command(_ step: LedgerError.NextStep) -> String {
        switch step {
        case .checkLedger: "run `ledger check`"
        case .checkReports(let problem): "`ledger check` reports \"\(problem)\""
        case .fixByHand: "`ledger check --fix` leaves it as it is"
        case .createLedger: "run `ledger init`"
        case .waterline(let w): WaterlineText.command(w)
        case .brew(let b): BrewText.command(b)
        case .moments(let m): MomentsFormat.command(m)
        case .sync(let s): command(s)
        }
    }

    /// The commands of the steps about the ledger's history and its remote.
    static func command(_ step: LedgerError.NextStep.Sync) -> String {
        switch step {
        case .sync: "`ledger sync`"
        case .history: "`ledger log`"
        case .check: "`ledger check`"
        case .addRemote(let root): "add one with `ledger init --remote URL` (or `git -C \(root) remote add origin URL`)"
        case .cloneInto(let url): "clone it into a new directory (`ledger clone \(url) DIR`)"
        case .cloneAgain: "clone the remote again (`ledger clone URL DIR`)"
        case .newClone: "a new `ledger clone`"
        case .purgeAgain(let target): "Purge it again with `ledger purge \(target)`"
        case .combineHistories(let root, let remote, let branch):
            "run `git -C \(root) pull --no-rebase --allow-unrelated-histories \(remote) \(branch)` (documents go through ledger's merge driver) and then `ledger check`"
        }
    }
}

extension LedgerError {
    /// The usage error of the command line (exit status 2): an argument it cannot take. In
    /// LedgerKit's terms, an invalid argument.
    static func usage(_ message: String) -> LedgerError { .init(.invalidArgument, message) }
    static func usage(_ message: LedgerError.Sentence) -> LedgerError { .init(.invalidArgument, message) }

    /// The message in the command line's words.
    var commandLineMessage: String { Words.text(sentence) }

    /// The exit status SPEC §2 assigns to this error: 1 invalid data or request (and not
    /// found), 2 usage, 3 remote unreachable, 4 anything else.
    var exitStatus: Int32 {
        switch code {
        case .invalid, .notFound: 1
        case .invalidArgument: 2
        case .unreachable: 3
        default: 4
        }
    }
}

extension Problem {
    /// "PATH: POINTER: severity: message [line L, column C]" in the command line's words:
    /// the form of the spec, with the place of the value appended when the problem has one
    /// (a syntax error's place is its location already).
    var commandLineDescription: String {
        let text = rendered(Words.text)
        guard let line, issue.line == nil else { return text }
        return text + " [line \(line), column \(column ?? 1)]"
    }

    /// "FILE:LINE:COLUMN: severity: message", the GNU form editors read (`check --format
    /// gnu`), with the file named by `file`; "FILE: severity: message" when it has no place.
    func gnuDescription(file: String) -> String {
        let place = line.map { ":\($0):\(column ?? 1)" } ?? ""
        return "\(file)\(place): \(severity.rawValue): \(Words.text(issue.sentence))"
    }
}
