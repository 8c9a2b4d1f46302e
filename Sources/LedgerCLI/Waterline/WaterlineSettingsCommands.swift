import ArgumentParser
import Foundation
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
    /// One settable key: its description, how to read a value, and how to show it.
    struct Key: Sendable {
        var name: String
        var help: String
        var apply: @Sendable (inout WaterlineSettings, String) throws -> Void
        var show: @Sendable (WaterlineSettings) -> String
    }

    static func integer(_ text: String, _ key: String, _ range: ClosedRange<Int>, _ what: String) throws -> Int {
        guard let n = Int(text), range.contains(n) else {
            throw LedgerError.usage("\(key) must be \(what) from \(range.lowerBound) to \(range.upperBound) (found \"\(text)\")")
        }
        return n
    }

    static func boolean(_ text: String, _ key: String) throws -> Bool {
        switch text.lowercased() {
        case "true", "on", "yes", "1": return true
        case "false", "off", "no", "0": return false
        default: throw LedgerError.usage("\(key) must be true or false (found \"\(text)\")")
        }
    }

    /// The keys, with the seeds' names.
    static let keys: [Key] = [
        Key(name: "waterEveryNDrinks", help: "water is due after this many drinks (N ≥ 1)",
            apply: { $0.waterEveryNDrinks = try integer($1, "waterEveryNDrinks", 1...100, "a number of drinks") },
            show: { String($0.waterEveryNDrinks) }),
        Key(name: "timeRemindersEnabled", help: "time-based reminders during a session",
            apply: { $0.timeRemindersEnabled = try boolean($1, "timeRemindersEnabled") },
            show: { String($0.timeRemindersEnabled) }),
        Key(name: "timeReminderIntervalMinutes", help: "minutes between time-based reminders, from the session start",
            apply: { $0.timeReminderIntervalMinutes = try integer($1, "timeReminderIntervalMinutes", 1...1440, "a number of minutes") },
            show: { String($0.timeReminderIntervalMinutes) }),
        Key(name: "warningThreshold", help: "the Waterline value at which the warning shows (≥ 1)",
            apply: { $0.warningThreshold = try integer($1, "warningThreshold", 1...100, "a Waterline value") },
            show: { String($0.warningThreshold) }),
        Key(name: "defaultWaterAmount", help: "the amount `water` logs, in your units (or 250ml, 8oz)",
            apply: { s, text in
                let (v, u) = try WaterlineText.parseVolume(text, option: "defaultWaterAmount", unit: s.units)
                let amount = s.units.rounded(s.units.convert(v, from: u))
                guard s.units.convert(amount, from: s.units) > 0, VolumeUnit.ml.convert(amount, from: s.units) <= WaterMeta.maximumMillilitres else {
                    throw LedgerError.usage("defaultWaterAmount must be more than 0 and at most 2000 ml (found \"\(text)\")")
                }
                s.defaultWaterAmount = amount
            },
            show: { "\(WaterlineText.amount($0.waterAmount)) \($0.units.rawValue)" }),
        Key(name: "units", help: "oz or ml, for water amounts and totals",
            apply: { s, text in
                guard let u = VolumeUnit(rawValue: text.lowercased()) else { throw LedgerError.usage("units must be oz or ml (found \"\(text)\")") }
                guard u != s.units else { return }
                // Keep the default amount meaningful: the other unit's default, or the same volume.
                let amount = s.waterAmount
                s.defaultWaterAmount = amount == s.units.defaultWaterAmount ? u.defaultWaterAmount : u.rounded(u.convert(amount, from: s.units))
                s.units = u
            },
            show: { $0.units.rawValue }),
        Key(name: "discreetNotifications", help: "notification previews without counts or mention of alcohol",
            apply: { $0.discreetNotifications = try boolean($1, "discreetNotifications") },
            show: { String($0.discreetNotifications) }),
        Key(name: "abandonedAfterHours", help: "hours after which an active session is flagged as abandoned",
            apply: { $0.abandonedAfterHours = try integer($1, "abandonedAfterHours", 1...720, "a number of hours") },
            show: { String($0.abandonedAfterHours) }),
    ]

    /// `ledger waterline settings [show] [--json]`
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the settings.")

        @Flag(help: "Print the settings document as JSON.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let run = try WaterlineRun(global, json: json)
            let (_, settings) = try run.active()
            if json {
                var o = settings.json.objectValue!
                o["defaultWaterAmount"] = .number(settings.waterAmount)
                Output.json(.object(o))
                return
            }
            for key in WaterlineCommand.Settings.keys {
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
            abstract: "Change a setting; N and the warning threshold also apply to the active session from now on.",
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
            let keys = WaterlineCommand.Settings.keys
            guard let k = keys.first(where: { $0.name == key }) ?? keys.first(where: { $0.name.lowercased() == key.lowercased() }) else {
                throw LedgerError.usage("there is no setting \"\(key)\"\(Suggestion.didYouMean(key, among: keys.map(\.name))); the settings are \(keys.map(\.name).joined(separator: ", "))")
            }
            guard value.count == 1, let value = value.first else {
                let found = value.isEmpty ? "" : " (found \(value.map { "\"\($0)\"" }.joined(separator: " ")))"
                throw LedgerError.usage("give \(k.name) one value: `ledger waterline settings set \(k.name) VALUE`\(found)")
            }
            let (_, old) = try run.active()
            let (settings, session) = try run.waterline.updateSettings(now: run.now) { try k.apply(&$0, value) }
            let changed = k.show(old) != k.show(settings)
            Console.print(changed ? "\(k.name): \(k.show(old)) → \(k.show(settings))" : "\(k.name) is already \(k.show(settings)).")
            if changed, let session, ["waterEveryNDrinks", "warningThreshold"].contains(k.name) {
                Console.print("The active session \(session.id) uses it from now on (its Waterline state is recomputed).")
            }
        }
    }
}
