/// A unit of liquid volume, as the user chose it in the settings.
public enum VolumeUnit: String, JSONEnum, Sendable {
    case oz, ml

    /// Millilitres in one US fluid ounce.
    public static let millilitresPerOunce = 29.5735

    /// The default amount of one water entry in this unit (the seeds' 8 oz / 250 ml).
    public var defaultWaterAmount: Double { self == .oz ? 8 : 250 }

    /// `amount` of `unit` expressed in this unit.
    public func convert(_ amount: Double, from unit: VolumeUnit) -> Double {
        switch (unit, self) {
        case (.oz, .ml): amount * Self.millilitresPerOunce
        case (.ml, .oz): amount / Self.millilitresPerOunce
        default: amount
        }
    }

    /// `amount` of `unit` as kept in this unit: whole millilitres, hundredths of an ounce — a
    /// hundredth of an ounce is less than half a millilitre, so millilitres converted to ounces
    /// and back are the millilitres they were (250 ml → 8.45 oz → 250 ml), and ounces shown
    /// to a tenth read the same after a round trip.
    public func kept(_ amount: Double, from unit: VolumeUnit) -> Double {
        let v = convert(amount, from: unit)
        return self == .ml ? v.rounded() : (v * 100).rounded() / 100
    }

    /// An amount in this unit, rounded for people: whole millilitres, tenths of an ounce.
    public func rounded(_ amount: Double) -> Double {
        self == .ml ? amount.rounded() : (amount * 10).rounded() / 10
    }

    /// An amount of `unit` shown in this unit, rounded for people: "16 oz", "473 ml". An
    /// amount too small for a tenth of an ounce (a millilitre is 0.03 oz) is shown to the
    /// hundredth rather than as 0 oz.
    public func describe(_ amount: Double, from unit: VolumeUnit) -> String {
        let v = convert(amount, from: unit)
        return CanonicalJSON.formatNumber(rounded(v) == 0 && v > 0 ? (v * 100).rounded() / 100 : rounded(v)) + " " + rawValue
    }

    /// A size in ounces shown in this unit.
    public func describe(ounces: Double) -> String { describe(ounces, from: .oz) }
}

/// `waterline/settings.json`: the user's pacing preferences (seeds: UserSettings).
///
/// Every field has the seeds' default, so a missing field is reported by `check` and
/// restored by `--fix` rather than being an error. `defaultWaterAmount` is in `units`; when it
/// is absent the unit's default applies (8 oz or 250 ml).
public struct WaterlineSettings: SingletonDocument, Equatable {
    package static let kind = DocumentKind("waterline.settings", app: .waterline, .singleton("waterline/settings.json"))

    /// Per-drink reminders: water is due after this many alcoholic drinks (N ≥ 1; default 1).
    public var waterEveryNDrinks = 1
    /// Whether time-based reminders fire during a session.
    public var timeRemindersEnabled = true
    /// Minutes between time-based reminders, counted from the session start.
    public var timeReminderIntervalMinutes = 20
    /// The Waterline value at and above which the warning state shows (≥ 1; default 2).
    public var warningThreshold = 2
    /// The amount of one water entry, in `units`; nil means the unit's default.
    public var defaultWaterAmount: Double?
    /// The unit volumes are shown and entered in.
    public var units = VolumeUnit.oz
    /// Whether notification previews hide counts and any mention of alcohol (US-036).
    public var discreetNotifications = true
    /// Hours after its start at which an active session is flagged as abandoned.
    public var abandonedAfterHours = 12
    public var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    package var unknownFields = JSONObject()

    public init() {}

    /// The seeds' defaults, created at `now`.
    public init(createdAt now: Timestamp) {
        createdAt = now
        updatedAt = now
        defaultWaterAmount = units.defaultWaterAmount
    }

    package static let fields: [Field<WaterlineSettings>] = [
        .defaulted("waterEveryNDrinks", { $0.waterEveryNDrinks }, { $0.waterEveryNDrinks = $1 }, 1, WaterlineRules.nRule),
        .defaulted("timeRemindersEnabled", { $0.timeRemindersEnabled }, { $0.timeRemindersEnabled = $1 }, true),
        .defaulted("timeReminderIntervalMinutes", { $0.timeReminderIntervalMinutes }, { $0.timeReminderIntervalMinutes = $1 }, 20, .within(intervalMinutes) {
            "must be a number of minutes between \(intervalMinutes.lowerBound) and \(intervalMinutes.upperBound) (found \($0))"
        }),
        .defaulted("warningThreshold", { $0.warningThreshold }, { $0.warningThreshold = $1 }, 2, WaterlineRules.thresholdRule),
        .optional("defaultWaterAmount", { $0.defaultWaterAmount }, { $0.defaultWaterAmount = $1 }),
        .defaulted("units", { $0.units }, { $0.units = $1 }, .oz),
        .defaulted("discreetNotifications", { $0.discreetNotifications }, { $0.discreetNotifications = $1 }, true),
        .defaulted("abandonedAfterHours", { $0.abandonedAfterHours }, { $0.abandonedAfterHours = $1 }, 12, .within(abandonedHours) {
            "must be a number of hours between \(abandonedHours.lowerBound) and \(abandonedHours.upperBound) (found \($0))"
        }),
        .required("createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        .required("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
    ]

    public static var defaultValue: WaterlineSettings { WaterlineSettings() }

    /// The amount of one water entry, in `units`.
    public var waterAmount: Double { defaultWaterAmount ?? units.defaultWaterAmount }

    /// The rules a session started now records (see `Session.waterEveryNDrinks`).
    public var rules: WaterlineRules {
        WaterlineRules(waterEveryNDrinks: waterEveryNDrinks, warningThreshold: warningThreshold)
    }

    public func validate() -> [DocumentIssue] {
        var issues = Self.ruleIssues(self, at: .root)
        if let a = defaultWaterAmount, !WaterMeta.withinLimit(a, units) {
            issues.append(.error(.root.appending("defaultWaterAmount"), "must be \(WaterMeta.limit) (found \(CanonicalJSON.formatNumber(a)) \(units.rawValue))"))
        }
        return issues
    }

    /// The accepted time-reminder intervals, in minutes, and abandonment delays, in hours.
    public static let intervalMinutes = 1...1440
    public static let abandonedHours = 1...720
}

/// The pacing rules: N and the warning threshold. Each entry records the rules in force when
/// it was logged, and a session the rules in force now (while it is active: kept equal to the
/// settings by every write) or when it ended, so that a session's derived values depend on
/// its file alone.
public struct WaterlineRules: Sendable, Hashable {
    /// N: water is due after this many alcoholic drinks.
    public var waterEveryNDrinks: Int
    /// The Waterline value at and above which the warning state shows.
    public var warningThreshold: Int

    /// Rules with the seeds' defaults unless given.
    public init(waterEveryNDrinks: Int = 1, warningThreshold: Int = 2) {
        self.waterEveryNDrinks = waterEveryNDrinks
        self.warningThreshold = warningThreshold
    }

    /// The accepted N: any whole number from 1 (the owner: "any number greater than 0"), up
    /// to the largest whole number a document's JSON number holds (`Int` fields stop below
    /// 9e15).
    public static let waterEveryNDrinks = 1...8_999_999_999_999_999
    /// The accepted thresholds.
    public static let warningThresholds = 1...100

    /// The rules of N and of the threshold, wherever a document records them.
    static let nRule = ValueRule<Int>.within(waterEveryNDrinks) {
        "must be a whole number of drinks from 1 to \(waterEveryNDrinks.upperBound) (found \($0))"
    }
    static let thresholdRule = ValueRule<Int>.within(warningThresholds) {
        "must be a Waterline value between \(warningThresholds.lowerBound) and \(warningThresholds.upperBound) (found \($0))"
    }
}

// MARK: - Keys

extension WaterlineSettings {
    /// One setting as `ledger waterline settings set KEY VALUE` names it (the field's name):
    /// what it means, how a typed value is read, and how it is shown.
    public struct Key: Sendable {
        public var name: String
        public var help: String
        /// Sets the value read from `text`; a value that cannot be right is a usage error
        /// naming the key.
        public var apply: @Sendable (inout WaterlineSettings, String) throws -> Void
        /// The value as people read it ("8 oz", "true").
        public var show: @Sendable (WaterlineSettings) -> String
    }

    /// The settable keys, with the seeds' names.
    public static let keys: [Key] = [
        Key(name: "waterEveryNDrinks", help: "water is due after this many drinks (any whole number from 1)",
            apply: { $0.waterEveryNDrinks = try integer($1, "waterEveryNDrinks", WaterlineRules.waterEveryNDrinks, "a whole number of drinks") },
            show: { String($0.waterEveryNDrinks) }),
        Key(name: "timeRemindersEnabled", help: "time-based reminders during a session",
            apply: { $0.timeRemindersEnabled = try boolean($1, "timeRemindersEnabled") },
            show: { String($0.timeRemindersEnabled) }),
        Key(name: "timeReminderIntervalMinutes", help: "minutes between time-based reminders, from the session start",
            apply: { $0.timeReminderIntervalMinutes = try integer($1, "timeReminderIntervalMinutes", intervalMinutes, "a number of minutes") },
            show: { String($0.timeReminderIntervalMinutes) }),
        Key(name: "warningThreshold", help: "the Waterline value at which the warning shows (1–100)",
            apply: { $0.warningThreshold = try integer($1, "warningThreshold", WaterlineRules.warningThresholds, "a Waterline value") },
            show: { String($0.warningThreshold) }),
        Key(name: "defaultWaterAmount", help: "the amount `water` logs, in your units (or 250ml, 8oz)",
            apply: { s, text in
                guard let volume = Volume(parsing: text) else {
                    // A number out of range gets the range; anything else, the form.
                    throw LedgerError.invalidArgument("defaultWaterAmount must be " + (NumberText.decimal(text) != nil ? WaterMeta.limit : "an amount like 250, 250ml or 8oz, in decimals")
                                                      + " (found \"\(text)\")")
                }
                let amount = s.units.kept(volume.amount, from: volume.unit ?? s.units)
                guard WaterMeta.withinLimit(amount, s.units) else {
                    throw LedgerError.invalidArgument("defaultWaterAmount must be \(WaterMeta.limit) (found \"\(text)\")")
                }
                s.defaultWaterAmount = amount
            },
            show: { $0.units.describe($0.waterAmount, from: $0.units) }),
        Key(name: "units", help: "oz or ml, for sizes, water amounts and totals",
            apply: { s, text in
                guard let u = VolumeUnit(rawValue: text.lowercased()) else { throw LedgerError.invalidArgument("units must be oz or ml (found \"\(text)\")") }
                guard u != s.units else { return }
                // Keep the default amount meaningful: the other unit's default, or the same volume.
                let amount = s.waterAmount
                s.defaultWaterAmount = amount == s.units.defaultWaterAmount ? u.defaultWaterAmount : u.kept(amount, from: s.units)
                s.units = u
            },
            show: { $0.units.rawValue }),
        Key(name: "discreetNotifications", help: "notification previews without counts or mention of alcohol",
            apply: { $0.discreetNotifications = try boolean($1, "discreetNotifications") },
            show: { String($0.discreetNotifications) }),
        Key(name: "abandonedAfterHours", help: "hours after which an active session is flagged as abandoned",
            apply: { $0.abandonedAfterHours = try integer($1, "abandonedAfterHours", abandonedHours, "a number of hours") },
            show: { String($0.abandonedAfterHours) }),
    ]

    /// The key called `name` (exactly, else in any case).
    public static func key(_ name: String) throws -> Key {
        if let k = keys.first(where: { $0.name == name }) ?? keys.first(where: { $0.name.lowercased() == name.lowercased() }) { return k }
        throw LedgerError.invalidArgument("there is no setting \"\(name)\"\(Suggestion.didYouMean(name, among: keys.map(\.name))); the settings are \(keys.map(\.name).joined(separator: ", "))")
    }

    static func integer(_ text: String, _ key: String, _ range: ClosedRange<Int>, _ what: String) throws -> Int {
        guard let n = Int(text.trimmingWhitespace()), range.contains(n) else {
            throw LedgerError.invalidArgument("\(key) must be \(what) from \(range.lowerBound) to \(range.upperBound) (found \"\(text)\")")
        }
        return n
    }

    static func boolean(_ text: String, _ key: String) throws -> Bool {
        switch text.lowercased() {
        case "true", "on", "yes", "1": return true
        case "false", "off", "no", "0": return false
        default: throw LedgerError.invalidArgument("\(key) must be true or false (found \"\(text)\")")
        }
    }
}
