import ArgumentParser
import LedgerKit

extension WaterlineCommand {
    /// `ledger waterline settings [show|set KEY VALUE]`
    struct Settings: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "settings",
            abstract: "Pacing settings: show (the default), set KEY VALUE.",
            subcommands: [Show.self, SetValue.self],
            defaultSubcommand: Show.self)
    }
}

extension WaterlineCommand.Settings {
    /// `ledger waterline settings [show] [--json]`
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the settings.")

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: output.json)
            let settings = try run.current().settings
            if output.json {
                var o = settings.json.objectValue!
                o["defaultWaterAmount"] = .number(settings.waterAmount)
                Output.json(.object(o))
                return
            }
            for key in WaterlineSettings.keys {
                Console.print("  " + key.name.padding(toLength: 29, withPad: " ", startingAt: 0)
                    + key.show(settings).padding(toLength: 10, withPad: " ", startingAt: 0) + Style.dim(key.help))
            }
            Console.print(Style.dim("  (change with `ledger waterline settings set KEY VALUE`)"))
        }
    }

    /// `ledger waterline settings set KEY VALUE`
    struct SetValue: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change a setting; N and the warning threshold apply to the active session from now on (its entries so far keep theirs).",
            usage: "ledger waterline settings set <key> <value> [--repo <path>]")

        @Argument(help: ArgumentHelp("The setting's name, as in the file (waterEveryNDrinks, warningThreshold, …).", valueName: "key"))
        var key: String

        // Everything after the key that is not one of ledger's own options, so that a value
        // starting with a dash (-1) reaches the key's check instead of being taken for a flag.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The new value.", valueName: "value"))
        var value: [String] = []

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: false)
            let k = try WaterlineSettings.key(key)
            guard value.count == 1, let value = value.first else {
                let found = value.isEmpty ? "" : " (found \(value.map { "\"\($0)\"" }.joined(separator: " ")))"
                throw LedgerError.usage("give \(k.name) one value: `ledger waterline settings set \(k.name) VALUE`\(found)")
            }
            _ = try run.current()
            let (_, change) = try run.waterline.setSetting(k.name, to: value, now: run.now)
            let (old, new) = (k.show(change.before), k.show(change.after))
            Console.print(old != new ? "\(k.name): \(old) → \(new)" : "\(k.name) is already \(new).")
            if old != new, let session = change.session, ["waterEveryNDrinks", "warningThreshold"].contains(k.name) {
                Console.print("The active session \(session.id) uses it from now on; its entries so far keep the \(k.name) they were logged with.")
            }
        }
    }
}
