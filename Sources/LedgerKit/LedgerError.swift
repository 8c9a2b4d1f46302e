/// The error of the LedgerKit layer: a sentence for the user and the class of failure that
/// chooses the exit status (SPEC §2).
/// The error of the LedgerKit layer: what went wrong, as data a front end words in its own
/// terms, and the class of failure.
///
/// The sentence (`sentence`) keeps the inputs it names (`Input`) and the step it suggests
/// (`NextStep`) as values: `message` words them for a person using an app ("the size 60",
/// "start a session"), and the command line words the same error with its flags and
/// commands ("--size 60", "`ledger waterline start`"), in one place per app. Nothing here
/// names a command or a flag.
public struct LedgerError: Error, Sendable, CustomStringConvertible {
    /// The class of failure. A struct of constants, like swift-system's `Errno`, so that
    /// `catch LedgerError.Code.notFound { … }` matches through `~=`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        public let description: String
        private init(_ name: String) { description = name }

        /// The data is invalid, or a domain rule refused the action.
        public static let invalid = Code("invalid")
        /// Something named does not exist.
        public static let notFound = Code("notFound")
        /// A value the caller passed cannot be taken as given: missing, out of its range,
        /// ambiguous (a reference matching several documents), or not for this document (a
        /// drink's size on a water entry). A person asked for it again gives another.
        public static let invalidArgument = Code("invalidArgument")
        /// The remote could not be reached; local work is safe.
        public static let unreachable = Code("unreachable")
        /// Anything else: I/O, git, the environment.
        public static let failure = Code("failure")
    }

    public var code: Code
    /// What went wrong, with the inputs it names and the next step it suggests as values.
    public var sentence: Sentence
    /// The problems behind an `.invalid` error about documents, listed after the message.
    public var problems: [Problem]
    /// The instant a rule about time refused (an entry before its session started, an end in
    /// the future), so that a caller who read it from a shorter form ("22:15") can say how
    /// it was read.
    public var refusedInstant: Timestamp?
    /// What is wrong with `refusedInstant`, when the message is that instant followed by it
    /// ("is before session … started (…)").
    public var refusalReason: String?

    public init(_ code: Code, _ sentence: Sentence, problems: [Problem] = []) {
        self.code = code
        self.sentence = sentence
        self.problems = problems
    }

    public init(_ code: Code, _ message: String, problems: [Problem] = []) {
        self.init(code, Sentence(message), problems: problems)
    }

    public static func invalid(_ message: Sentence, problems: [Problem] = []) -> LedgerError { .init(.invalid, message, problems: problems) }
    public static func invalid(_ message: String, problems: [Problem] = []) -> LedgerError { .init(.invalid, message, problems: problems) }
    public static func notFound(_ message: Sentence) -> LedgerError { .init(.notFound, message) }
    public static func notFound(_ message: String) -> LedgerError { .init(.notFound, message) }
    public static func invalidArgument(_ message: Sentence) -> LedgerError { .init(.invalidArgument, message) }
    public static func invalidArgument(_ message: String) -> LedgerError { .init(.invalidArgument, message) }
    public static func failure(_ message: Sentence) -> LedgerError { .init(.failure, message) }
    public static func failure(_ message: String) -> LedgerError { .init(.failure, message) }

    /// A refusal of the instant `time`: "<time> <reason>".
    public static func timeRefused(_ time: Timestamp, _ reason: String) -> LedgerError {
        var e = LedgerError(.invalid, time.iso8601 + " " + reason)
        e.refusedInstant = time
        e.refusalReason = reason
        return e
    }

    /// The sentence in an app's words.
    public var message: String { sentence.description }

    /// The message, then one line per problem.
    public var description: String {
        ([message] + problems.map { "  " + $0.description }).joined(separator: "\n")
    }
}

extension LedgerError.Code {
    /// Matches an error that is a `LedgerError` with this code, so that callers can write
    /// `catch LedgerError.Code.notFound { … }`.
    public static func ~= (code: LedgerError.Code, error: any Error) -> Bool {
        (error as? LedgerError)?.code == code
    }
}

// MARK: - The sentence and its parts

extension LedgerError {
    /// A message whose inputs and suggested step are values, written as a string literal:
    /// `"\(input: .waterline(.size)) must be at most 2000 ml; \(next: .waterline(.startSession))"`.
    public struct Sentence: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
        public enum Part: Sendable, Hashable {
            case text(String)
            case input(Input)
            case next(NextStep)
        }

        public var parts: [Part]

        public init(_ text: String) { parts = [.text(text)] }
        public init(stringLiteral value: String) { self.init(value) }
        public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }
        public init(parts: [Part]) { self.parts = parts }

        /// The sentence with each input and step worded by the given functions.
        public func rendered(input: (Input) -> String, next: (NextStep) -> String) -> String {
            parts.map { part in
                switch part {
                case .text(let t): t
                case .input(let i): input(i)
                case .next(let n): next(n)
                }
            }.joined()
        }

        /// In an app's words.
        public var description: String { rendered(input: \.description, next: \.description) }

        /// The step suggested, if any.
        public var nextStep: NextStep? {
            parts.lazy.compactMap { if case .next(let n) = $0 { n } else { nil } }.first
        }

        /// The inputs named, in order.
        public var inputs: [Input] { parts.compactMap { if case .input(let i) = $0 { i } else { nil } } }

        /// This sentence followed by `other`.
        public static func + (a: Sentence, b: Sentence) -> Sentence { Sentence(parts: a.parts + b.parts) }

        public struct StringInterpolation: StringInterpolationProtocol {
            var parts: [Part] = []
            public init(literalCapacity: Int, interpolationCount: Int) {}
            public mutating func appendLiteral(_ literal: String) { text(literal) }
            public mutating func appendInterpolation(_ value: some Any) { text(String(describing: value)) }
            public mutating func appendInterpolation(_ value: String) { text(value) }
            public mutating func appendInterpolation(input: Input) { parts.append(.input(input)) }
            public mutating func appendInterpolation(next: NextStep) { parts.append(.next(next)) }
            public mutating func appendInterpolation(_ sentence: Sentence) { parts += sentence.parts }
            private mutating func text(_ s: String) {
                guard !s.isEmpty else { return }
                if case .text(let t)? = parts.last { parts[parts.count - 1] = .text(t + s) } else { parts.append(.text(s)) }
            }
        }
    }

    /// An input of a request, as a front end names it when it refuses one (a flag on the
    /// command line, a field on a form).
    public enum Input: Sendable, Hashable, CustomStringConvertible {
        case waterline(Waterline)
        case brew(Brew)
        /// A setting or document field, named as the document names it (`defaultWaterAmount`).
        case field(String)

        /// The inputs of Waterline's requests (`DrinkOrder`, `EntryChange`, `PresetOrder`).
        public enum Waterline: Sendable, Hashable, CaseIterable {
            /// `name`: a new preset's; `newName`: the one a preset is given.
            case size, abv, standardDrinks, drinkType, amount, time, name, newName
        }

        /// The inputs of a brew's plan.
        public enum Brew: Sendable, Hashable, CaseIterable {
            case dose, targetYield, waterTemperature
        }

        /// In an app's words ("size", "ABV").
        public var description: String {
            switch self {
            case .waterline(let w):
                switch w {
                case .size: "size"
                case .abv: "ABV"
                case .standardDrinks: "standard drinks"
                case .drinkType: "type"
                case .amount: "amount"
                case .time: "time"
                case .name: "name"
                case .newName: "new name"
                }
            case .brew(let b):
                switch b {
                case .dose: "dose"
                case .targetYield: "yield"
                case .waterTemperature: "temperature"
                }
            case .field(let name): name
            }
        }
    }

    /// What the person can do next, as a front end offers it (a command, a button): the
    /// sentence around it reads the same with either wording.
    public enum NextStep: Sendable, Hashable, CustomStringConvertible {
        /// Check the ledger again (after a fix by hand).
        case checkLedger
        /// What the check reports about a file: `problem`.
        case checkReports(problem: String)
        /// The automatic fix leaves the file as it is: it is for a fix by hand.
        case fixByHand
        /// Make a ledger in this folder.
        case createLedger
        case waterline(Waterline)
        case brew(Brew)
        case moments(Moments)
        /// A step about the ledger's history and its remote: a sync, the history, a clone, a purge.
        case sync(Sync)

        public enum Waterline: Sendable, Hashable {
            case startSession, endSession, listEntries, listPresets
            /// Change the preset `id` (instead of adding one with its name).
            case editPreset(id: String)
            /// The next change in Waterline merges the active sessions.
            case mergeActiveSessions
        }

        public enum Brew: Sendable, Hashable {
            case listRecipes
            /// Duplicate the recipe `id` (the built-in starter, read-only) and edit the copy.
            case duplicateRecipe(id: String)
            /// Make a recipe of one's own (duplicating the starter).
            case makeRecipe
            /// Edit the recipe `id`, in an editor.
            case editRecipe(id: String)
            /// Change the steps' water to fit a new yield, or scale them to it.
            case fitSteps
            /// Give another dose or yield, or go back to the recipe's defaults.
            case changeRemembered
        }

        public enum Moments: Sendable, Hashable {
            /// Reset the sentence template, or set a new one.
            case repairTemplate
            /// See the moments of a span with their ids.
            case listMoments
        }

        /// Steps of a ledger kept in git. Most are a noun in the sentence ("a sync publishes
        /// it", "publish them first with a sync"); the others a whole clause, named so.
        public enum Sync: Sendable, Hashable {
            /// A sync: it commits, brings in the remote's changes and publishes.
            case sync
            /// The ledger's history, which lists its commits.
            case history
            /// The check, which lists the invalid documents.
            case check
            /// The clause: add a remote to the ledger in the folder `root`.
            case addRemote(root: String)
            /// The clause: clone the ledger of `url` into a new folder (and use it there).
            case cloneInto(url: String)
            /// The clause: clone the remote again (into a new folder).
            case cloneAgain
            /// A new clone of the remote.
            case newClone
            /// The sentence: purge `target` again (it starts with a capital).
            case purgeAgain(target: String)
            /// The clause: merge the two unrelated histories of the ledger in `root` and the
            /// `branch` of `remote` on purpose, then check the ledger.
            case combineHistories(root: String, remote: String, branch: String)
        }

        /// In an app's words.
        public var description: String {
            switch self {
            case .checkLedger: "check the ledger again"
            case .checkReports(let problem): "the check reports \"\(problem)\""
            case .fixByHand: "the automatic fix leaves it as it is"
            case .createLedger: "create a ledger here"
            case .waterline(let w):
                switch w {
                case .startSession: "start one"
                case .endSession: "end it first"
                case .listEntries: "see the session's entries"
                case .listPresets: "the preset list shows them"
                case .editPreset: "change that preset instead"
                case .mergeActiveSessions: "the next change in Waterline merges them"
                }
            case .brew(let b):
                switch b {
                case .listRecipes: "the recipe list shows them"
                case .duplicateRecipe: "duplicate it and edit the copy"
                case .makeRecipe: "duplicate the starter to make one"
                case .editRecipe: "edit the recipe"
                case .fitSteps: "change the steps' water, or scale the steps to the new yield"
                case .changeRemembered: "give another dose or yield, or go back to the recipe's defaults"
                }
            case .moments(let m):
                switch m {
                case .repairTemplate: "resetting the template (or setting a new one) repairs it"
                case .listMoments: "the moments of a span are listed with their ids"
                }
            case .sync(let s):
                switch s {
                case .sync: "a sync"
                case .history: "the history"
                case .check: "the check"
                case .addRemote: "add one"
                case .cloneInto: "clone it into a new folder"
                case .cloneAgain: "clone the remote again"
                case .newClone: "a new clone"
                case .purgeAgain: "Purge it again"
                case .combineHistories: "merge both histories on purpose and check the ledger after it"
                }
            }
        }
    }

    /// "a, b and c" (or "or"), naming inputs.
    public static func list(_ inputs: [Input], _ conjunction: String) -> Sentence {
        var s = Sentence(parts: [])
        for (i, input) in inputs.enumerated() {
            if i > 0 { s.parts.append(.text(i == inputs.count - 1 ? " \(conjunction) " : ", ")) }
            s.parts.append(.input(input))
        }
        return s
    }
}
