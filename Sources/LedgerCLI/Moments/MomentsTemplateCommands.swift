import ArgumentParser
import LedgerKit

extension MomentsCommand {
    /// `ledger moments template [show | set TEXT | reset]`
    struct Template: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "template",
            abstract: "The sentence printed after each capture; it must contain [moment] and [experience].",
            discussion: "`set` and `reset` also repair a template that a hand edit of moments/settings.json made invalid.",
            subcommands: [Show.self, Set.self, Reset.self],
            defaultSubcommand: Show.self)

        /// The template, and the sentence it makes of an example.
        static func print(_ settings: MomentsSettings, json: Bool) {
            let example = SentenceTemplate.fill(settings.sentenceTemplate, experience: "coffee with Sam", moment: MomentType.now.label)
            if json {
                Output.json(.object(["sentenceTemplate": .string(settings.sentenceTemplate),
                                     "isDefault": .bool(settings.sentenceTemplate == SentenceTemplate.defaultText),
                                     "example": .string(example)]))
            } else {
                Console.print(settings.sentenceTemplate)
                Console.print(Style.dim("  for example: " + example))
            }
        }

        /// Saves `text` as the template, refusing one that breaks a rule (a usage error naming it).
        static func change(to text: String, _ global: GlobalOptions) throws -> MomentsSettings {
            let problems = SentenceTemplate.problems(text)
            if !problems.isEmpty {
                // A template over the limit is not echoed: its length is said already.
                let found = text.count > SentenceTemplate.maximumLength ? "" : " (found \"\(text)\")"
                throw LedgerError.usage(problems.joined(separator: "; ") + found)
            }
            let env = try global.environment()
            return try MomentsStore(env.store).setTemplate(text, at: env.now)
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the template.")
            @OptionGroup var output: JSONOption
            @OptionGroup var global: GlobalOptions

            func run() throws {
                let env = try global.environment()
                Template.print(try MomentsStore(env.store).settings(), json: output.json)
            }
        }

        struct Set: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "set", abstract: "Choose the template, e.g. \"Grateful for [experience], [moment]\".")
            @Argument(help: ArgumentHelp("The sentence, with [experience] and [moment].", valueName: "text"))
            var text: String
            @OptionGroup var output: JSONOption
            @OptionGroup var global: GlobalOptions

            func run() throws {
                Template.print(try Template.change(to: text, global), json: output.json)
            }
        }

        struct Reset: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "reset", abstract: "Go back to \"\(SentenceTemplate.defaultText)\".")
            @OptionGroup var output: JSONOption
            @OptionGroup var global: GlobalOptions

            func run() throws {
                Template.print(try Template.change(to: SentenceTemplate.defaultText, global), json: output.json)
            }
        }
    }
}
