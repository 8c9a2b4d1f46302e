import ArgumentParser

/// A command read from its command line without argument-parser: the quick commands, which a
/// person types many times a night (`waterline drink/water/status`, `hydrate drank/status`,
/// `moments add/today`, `brew save`).
///
/// argument-parser learns a command's options by reflecting on it, and the Swift runtime meets
/// each property wrapper's type for the first time there: resolving them scans every protocol
/// conformance record of the binary, which was most of a quick command's work (18 of the 30 M
/// instructions of `waterline drink --preset beer`). Even building the command's value does
/// some of it (each `@OptionGroup` checks its group's conformance: 1.7 M instructions for
/// `drink`'s four, 0.26 ms). So a quick command names its long options here and reads them
/// into its `Line` — its values without argument-parser's wrappers, and what it does with
/// them — with the same value parsers its declarations name (`OptionValue.parse`,
/// `init(argument:)`); argument-parser's reading of the command runs the same `Line`.
/// Whatever it does not read plainly is left to argument-parser — a short option, `--`, a value
/// starting with a dash, an option or flag given twice, `--flag=value`, `--option=` with
/// nothing after it, an unknown word, a value its parser refuses, a required option left out
/// — so that help, errors and their wording stay argument-parser's own. QuickLineTests hold
/// each command's `Line` read here and by argument-parser from the same words to be the same.
protocol QuickCommand: ParsableCommand {
    /// What the command does, with its values.
    associatedtype Line: QuickRun
    /// Its words after `ledger`.
    static var path: [String] { get }
    /// The long options it takes a value for (without `--`), beside `--repo`.
    static var valueOptions: [String] { get }
    /// Its flags (without `--`), beside `--json`.
    static var flags: [String] { get }
    /// How many positional words it takes at most.
    static var positionals: Int { get }
    /// The command those words give; throws when a value is refused.
    static func read(_ words: QuickLine.Words) throws -> Line
    /// The same, from argument-parser's reading.
    var line: Line { get }
}

/// A quick command's values, and what it does with them.
protocol QuickRun {
    func run() throws
}

extension QuickCommand {
    static var valueOptions: [String] { [] }
    static var flags: [String] { [] }
    static var positionals: Int { 0 }
}

enum QuickLine {
    /// The quick commands.
    static let commands: [any QuickCommand.Type] = [
        WaterlineCommand.Drink.self, WaterlineCommand.Water.self, WaterlineCommand.Status.self,
        HydrateCommand.Drank.self, HydrateCommand.Status.self,
        MomentsCommand.Add.self, MomentsCommand.Today.self, BrewCommand.Save.self,
    ]

    /// A quick command's words: each long option's value, the flags given, the positional words.
    struct Words {
        private(set) var values: [String: String] = [:]
        private(set) var flags: Set<String> = []
        private(set) var positionals: [String] = []

        /// The value given for `--name`.
        subscript(_ name: String) -> String? { values[name] }

        /// The value given for `--name`, as its option reads it.
        func value<T: OptionValue>(_ name: String) throws -> T? { try value(name, as: T.parse) }

        /// The value given for `--name`, read by the option's own `transform`.
        func value<T>(_ name: String, as parse: (String) throws -> T) throws -> T? { try values[name].map(parse) }

        /// Whether `--name` was given.
        func flag(_ name: String) -> Bool { flags.contains(name) }

        /// The words after the command's path, split as `command` reads them; nil for
        /// anything it leaves to argument-parser.
        init?(_ words: ArraySlice<String>, for command: any QuickCommand.Type) {
            let valueOptions = Set(command.valueOptions + ["repo"]), flagNames = Set(command.flags + ["json"])
            var rest = words[...]
            while let word = rest.popFirst() {
                guard word.hasPrefix("-") else {
                    guard positionals.count < command.positionals else { return nil }
                    positionals.append(word)
                    continue
                }
                guard word.hasPrefix("--"), word.count > 2 else { return nil }
                let option = word.dropFirst(2)
                if let equals = option.firstIndex(of: "=") {
                    let name = String(option[..<equals]), value = String(option[option.index(after: equals)...])
                    guard valueOptions.contains(name), values[name] == nil, !value.isEmpty else { return nil }
                    values[name] = value
                } else if valueOptions.contains(String(option)) {
                    guard values[String(option)] == nil, let value = rest.popFirst(), !value.hasPrefix("-") else { return nil }
                    values[String(option)] = value
                } else {
                    guard flagNames.contains(String(option)), flags.insert(String(option)).inserted else { return nil }
                }
            }
        }
    }

    /// The quick command `arguments` give, or nil when argument-parser is to read them.
    static func command(_ arguments: [String]) -> (any QuickRun)? {
        guard let type = commands.first(where: { arguments.starts(with: $0.path) }),
              let words = Words(arguments.dropFirst(type.path.count), for: type) else { return nil }
        return try? type.read(words)
    }
}

extension LedgerChoice {
    static func read(_ words: QuickLine.Words) -> Self { LedgerChoice(repo: words["repo"]) }
}

extension TimeGiven {
    static func read(_ words: QuickLine.Words) throws -> Self { TimeGiven(text: try words.value("time")) }
}
