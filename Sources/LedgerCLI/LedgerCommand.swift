import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// `ledger`: the root command.
public struct LedgerCommand: ParsableCommand {
    /// The version printed by `ledger --version`.
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "ledger",
        abstract: "Personal data for Waterline, BrewGuide, Water Reminder and DotLife Moments, kept as JSON in git.",
        discussion: """
            Every command works offline; `ledger sync` is the only one that needs the network. \
            The ledger is chosen by --repo, else $LEDGER_REPO, else the ledger containing the \
            current directory, else $XDG_DATA_HOME/ledger.
            """,
        version: version,
        subcommands: [
            InitCommand.self, CloneCommand.self, CheckCommand.self, SchemaCommand.self, DoctorCommand.self, StatusCommand.self, SyncCommand.self, LogCommand.self, UndoCommand.self,
            ConflictsCommand.self, ResolveCommand.self, ForgetCommand.self, PurgeCommand.self, GcCommand.self, MergeDriverCommand.self,
            WaterlineCommand.self, BrewCommand.self, HydrateCommand.self, MomentsCommand.self, RemindCommand.self, AutosyncCommand.self,
        ]
    )

    public init() {}
}

/// The same command tree, parsed without argument-parser's search for
/// `--generate-completion-script`: for each command line it parses the words twice more, as
/// two pseudo-commands, which is a third of a quick command's parse. argument-parser skips
/// that search under a root marked as another program's subcommand (`_superCommandName`, which
/// otherwise only changes help text, never printed from here): a command line that does not
/// ask for a completion script and parses is the same command under either root; anything
/// else (an error, help, `--version`, the completion script) is parsed again under
/// `LedgerCommand`, so what is printed is argument-parser's own.
struct QuickParse: ParsableCommand {
    static let configuration: CommandConfiguration = {
        var configuration = LedgerCommand.configuration
        configuration._superCommandName = "ledger"
        return configuration
    }()

    /// The command `arguments` name, or nil when only `LedgerCommand` may parse them (a
    /// request for help parses as argument-parser's own help command, which would print this
    /// root's usage).
    static func command(_ arguments: [String]) -> (any ParsableCommand)? {
        guard !arguments.contains(where: { $0.hasPrefix("--generate-completion-script") }),
              let command = try? parseAsRoot(arguments), isLeaf(type(of: command), under: LedgerCommand.self) else { return nil }
        return command
    }

    /// Whether `type` is a command of the tree under `root` without subcommands of its own.
    static func isLeaf(_ type: any ParsableCommand.Type, under root: any ParsableCommand.Type) -> Bool {
        let subcommands = root.configuration.subcommands
        return subcommands.isEmpty ? ObjectIdentifier(type) == ObjectIdentifier(root) : subcommands.contains { isLeaf(type, under: $0) }
    }
}

/// Running `ledger` in this process: used by the executable and by the tests.
public enum LedgerCLI {
    /// Runs `ledger` with `arguments` (without the program name) in `context`; returns the
    /// exit status (SPEC §2: 0 success, 1 invalid data or request, 2 usage, 3 remote
    /// unreachable, 4 other failures).
    public static func run(_ arguments: [String], context: CLIContext) -> Int32 {
        var context = context
        context.commandLine = ["ledger"] + arguments
        var args = arguments
        // `ledger --repo PATH waterline status`, `ledger waterline --repo PATH status`: the
        // global option before the subcommand, among the command's words.
        var command: any ParsableCommand.Type = LedgerCommand.self
        var repoWords: [String] = []
        var i = 0
        while i < args.count {
            let word = args[i]
            if word == "--repo", i + 1 < args.count {
                context.repoOverride = args[i + 1]
                repoWords = Array(args[i...(i + 1)])
                args.removeSubrange(i...(i + 1))
            } else if word.hasPrefix("--repo=") {
                context.repoOverride = String(word.dropFirst(7))
                repoWords = [word]
                args.remove(at: i)
            } else if let sub = command.configuration.subcommands.first(where: { $0._commandName == word }) {
                command = sub
                i += 1
            } else {
                break
            }
        }
        let status = CLIContext.$current.withValue(context) { () -> Int32 in
            do {
                if let quick = QuickLine.command(args) {
                    try quick.run()
                } else {
                    var command = try QuickParse.command(args) ?? LedgerCommand.parseAsRoot(args)
                    try command.run()
                }
                return 0
            } catch let e as LedgerError {
                Console.error(e)
                return e.exitStatus
            } catch let e as GitError {
                Console.error("ledger: " + e.description)
                return 4
            } catch let e as ExitCode {
                return e.rawValue
            } catch {
                let code = LedgerCommand.exitCode(for: error)
                // A value an option's type refused (`OptionValue`): the command's own sentence.
                // (Help and `--version` are not looked into: reflecting an error costs.)
                if code != .success, let refusal = ArgumentRefusal.message(in: error) {
                    Console.error("ledger: " + refusal)
                    return 2
                }
                // A word like `-ah` or `-high five`, which argument-parser reads as short
                // options with -h among them, printed the help (exit 0) instead of refusing an
                // option it does not know: a typo in a script, or a moment, did nothing silently.
                if code == .success, let word = DashedText.helpTaken(from: args) {
                    let letters = word.dropFirst().allSatisfy { $0.isASCII && $0.isLetter }
                    Console.error("ledger: unknown option '\(word)'"
                                  + (letters ? ": the only short option is -h (help); the others are written --name" : ""))
                    if let line = DashedText.suggestion(args, repoWords: repoWords) { Console.error(line) }
                    return 2
                }
                let message = LedgerCommand.fullMessage(for: error)
                // The parser's own text (help, usage) has lines of its own; each is made safe.
                let lines = message.isEmpty ? [] : message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if code == .success {
                    for line in lines { Console.print(line) }
                    return 0
                }
                for line in lines { Console.error(line) }
                if let line = misspelledRequiredOption(args, refusedIn: message) { Console.error(line) }
                if let line = DashedText.suggestion(args, repoWords: repoWords) { Console.error(line) }
                return code == .validationFailure ? 2 : code.rawValue
            }
        }
        context.stdout.flush()
        // Output that could not be written is a failure (a script must not take a cut-off
        // `--json` for the whole answer); a reader that went away (`| head`) is not worth a word.
        if let error = context.stdout.writeError {
            if error != EPIPE { context.stderr.write("ledger: cannot write the output: \(String(cString: strerror(error)))\n") }
            context.stderr.flush()
            return error == EPIPE ? 141 : 4
        }
        context.stderr.flush()
        return status
    }

    /// "ledger: unknown option '--ratin' (did you mean '--rating'?)" when the parser's
    /// `message` says a required option is missing and the line holds a word close to its
    /// name: argument-parser names the option it lacks, not the misspelled one meant for it.
    static func misspelledRequiredOption(_ arguments: [String], refusedIn message: String) -> String? {
        guard let r = message.range(of: "Missing expected argument '--") else { return nil }
        let name = "--" + message[r.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
        let given = arguments.prefix { $0 != "--" }.filter { $0.hasPrefix("--") }.map { String($0.prefix { $0 != "=" }) }
        guard let typo = given.first(where: { $0 != name && Suggestion.closest(to: $0, among: [name]) != nil }) else { return nil }
        return "ledger: unknown option '\(typo)' (did you mean '\(name)'?)"
    }

    /// The `ledger` executable's entry point.
    public static func main() -> Never {
        let status = run(Array(CommandLine.arguments.dropFirst()), context: .process())
        exit(status)
    }
}

/// The refusal an option's value type threw (`OptionValue.parse`), which argument-parser
/// keeps inside its own error together with the option's name and the value — found by
/// walking that error's stored values, since argument-parser's error types are not public.
enum ArgumentRefusal {
    /// "--size must be …" (a `LedgerError` naming its flag), or "--date " + an
    /// `OptionProblem`; nil when `error` holds neither.
    static func message(in error: any Error) -> String? {
        var refusal: LedgerError?
        var problem: OptionProblem?
        var option: String?
        func search(_ value: Any, label: String?, depth: Int) {
            if let e = value as? LedgerError { refusal = refusal ?? e; return }
            if let p = value as? OptionProblem { problem = problem ?? p; return }
            // argument-parser's option name: `Name.long("date")`.
            if label == "long", let name = value as? String { option = option ?? "--" + name }
            guard depth > 0 else { return }
            for child in Mirror(reflecting: value).children { search(child.value, label: child.label, depth: depth - 1) }
        }
        search(error, label: nil, depth: 8)
        if let refusal { return refusal.commandLineMessage }
        if let problem, let option { return option + problem.joiner + problem.text }
        return nil
    }
}
