/// The error of the LedgerKit layer: a sentence for the user and the class of failure that
/// chooses the exit status (SPEC §2).
public struct LedgerError: Error, Sendable, CustomStringConvertible {
    /// The class of failure.
    public enum Code: Sendable, Hashable {
        /// The data or the request is invalid, or a domain rule refused the action (exit 1).
        case invalid
        /// Something named does not exist (exit 1).
        case notFound
        /// The command line is wrong (exit 2).
        case usage
        /// The remote could not be reached; local work is safe (exit 3).
        case unreachable
        /// Anything else: I/O, git, the environment (exit 4).
        case failure
    }

    public var code: Code
    /// One sentence naming the file, field or argument at fault.
    public var message: String
    /// The problems behind an `.invalid` error about documents, listed after the message.
    public var problems: [Problem]

    public init(_ code: Code, _ message: String, problems: [Problem] = []) {
        self.code = code
        self.message = message
        self.problems = problems
    }

    public static func invalid(_ message: String, problems: [Problem] = []) -> LedgerError { .init(.invalid, message, problems: problems) }
    public static func notFound(_ message: String) -> LedgerError { .init(.notFound, message) }
    public static func usage(_ message: String) -> LedgerError { .init(.usage, message) }
    public static func failure(_ message: String) -> LedgerError { .init(.failure, message) }

    public var description: String {
        ([message] + problems.map { "  " + $0.description }).joined(separator: "\n")
    }

    /// The exit status SPEC §2 assigns to this error.
    public var exitStatus: Int32 {
        switch code {
        case .invalid, .notFound: 1
        case .usage: 2
        case .unreachable: 3
        case .failure: 4
        }
    }
}
