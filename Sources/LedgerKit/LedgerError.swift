/// The error of the LedgerKit layer: a sentence for the user and the class of failure that
/// chooses the exit status (SPEC §2).
public struct LedgerError: Error, Sendable, CustomStringConvertible {
    /// The class of failure. A struct of constants, like swift-system's `Errno`, so that
    /// `catch LedgerError.Code.notFound { … }` matches through `~=`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        public let description: String
        private init(_ name: String) { description = name }

        /// The data or the request is invalid, or a domain rule refused the action (exit 1).
        public static let invalid = Code("invalid")
        /// Something named does not exist (exit 1).
        public static let notFound = Code("notFound")
        /// The command line is wrong (exit 2).
        public static let usage = Code("usage")
        /// The remote could not be reached; local work is safe (exit 3).
        public static let unreachable = Code("unreachable")
        /// Anything else: I/O, git, the environment (exit 4).
        public static let failure = Code("failure")
    }

    public var code: Code
    /// One sentence naming the file, field or argument at fault.
    public var message: String
    /// The problems behind an `.invalid` error about documents, listed after the message.
    public var problems: [Problem]
    /// The instant a rule about time refused (an entry before its session started, an end in
    /// the future), so that a caller who read it from a shorter form ("22:15") can say how
    /// it was read.
    public var refusedInstant: Timestamp?
    /// What is wrong with `refusedInstant`, when the message is that instant followed by it
    /// ("is before session … started (…)").
    public var refusalReason: String?

    public init(_ code: Code, _ message: String, problems: [Problem] = []) {
        self.code = code
        self.message = message
        self.problems = problems
    }

    public static func invalid(_ message: String, problems: [Problem] = []) -> LedgerError { .init(.invalid, message, problems: problems) }
    public static func notFound(_ message: String) -> LedgerError { .init(.notFound, message) }
    public static func usage(_ message: String) -> LedgerError { .init(.usage, message) }
    public static func failure(_ message: String) -> LedgerError { .init(.failure, message) }

    /// A refusal of the instant `time`: "<time> <reason>" (exit status 1).
    public static func timeRefused(_ time: Timestamp, _ reason: String) -> LedgerError {
        var e = LedgerError(.invalid, time.iso8601 + " " + reason)
        e.refusedInstant = time
        e.refusalReason = reason
        return e
    }

    public var description: String {
        ([message] + problems.map { "  " + $0.description }).joined(separator: "\n")
    }

    /// The exit status SPEC §2 assigns to this error.
    public var exitStatus: Int32 {
        switch code {
        case .invalid, .notFound: 1
        case .usage: 2
        case .unreachable: 3
        default: 4
        }
    }
}

extension LedgerError.Code {
    /// Matches an error that is a `LedgerError` with this code, so that callers can write
    /// `catch LedgerError.Code.notFound { … }`.
    public static func ~= (code: LedgerError.Code, error: any Error) -> Bool {
        (error as? LedgerError)?.code == code
    }
}
