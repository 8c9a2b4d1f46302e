import ArgumentParser
import LedgerKit

/// `ledger moments template [show | set TEXT | reset]`
struct MomentsTemplateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "template",
        abstract: "The sentence printed after each capture; it must contain [moment] and [experience].",
        subcommands: [Show.self, Set.self, Reset.self],
        defaultSubcommand: Show.self)

    /// The example sentence shown with a template.
    static func example(_ template: String) -> String {
        SentenceTemplate.fill(template, experience: "coffee with Sam", moment: MomentType.now.label)
    }

    static func print(_ settings: MomentsSettings, json: Bool) {
        let example = example(settings.sentenceTemplate)
        if json {
            Output.json(.object(["sentenceTemplate": .string(settings.sentenceTemplate),
                         "isDefault": .bool(settings.sentenceTemplate == SentenceTemplate.defaultText),
                         "example": .string(example)]))
        } else {
            Console.print(settings.sentenceTemplate)
            Console.print(Style.dim("  for example: " + example))
        }
    }

    /// Saves a new template, refusing one without both placeholders.
    static func save(_ text: String, _ global: GlobalOptions) throws -> MomentsSettings {
        let problems = SentenceTemplate.problems(text)
        if !problems.isEmpty {
            throw LedgerError.usage(problems.joined(separator: "; ") + " (found \"\(text)\")")
        }
        let env = try global.environment()
        let repository = env.store.singleton(MomentsSettings.self)
        return try env.store.withWriterLock {
            var settings = try repository.load()
            if !repository.exists { settings.createdAt = env.now }
            settings.sentenceTemplate = text
            settings.updatedAt = env.now
            try repository.save(settings)
            return settings
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the template.")
        @Flag(help: "Print the template as JSON.")
        var json = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            MomentsTemplateCommand.print(try env.store.singleton(MomentsSettings.self).load(), json: json)
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Choose the template, e.g. \"Grateful for [experience], [moment]\".")
        @Argument(help: ArgumentHelp("The sentence, with [experience] and [moment].", valueName: "text"))
        var text: String
        @Flag(help: "Print the saved template as JSON.")
        var json = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            MomentsTemplateCommand.print(try MomentsTemplateCommand.save(text, global), json: json)
        }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset", abstract: "Go back to \"\(SentenceTemplate.defaultText)\".")
        @Flag(help: "Print the saved template as JSON.")
        var json = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            MomentsTemplateCommand.print(try MomentsTemplateCommand.save(SentenceTemplate.defaultText, global), json: json)
        }
    }
}
