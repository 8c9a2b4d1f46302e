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

    /// An amount in this unit, rounded for people: whole millilitres, tenths of an ounce.
    public func rounded(_ amount: Double) -> Double {
        self == .ml ? amount.rounded() : (amount * 10).rounded() / 10
    }
}

/// `waterline/settings.json`: the user's pacing preferences (seeds: UserSettings).
///
/// Every field has the seeds' default, so a missing field is reported by `check` and
/// restored by `--fix` rather than being an error. `defaultWaterAmount` is in `units`; when it
/// is absent the unit's default applies (8 oz or 250 ml).
public struct WaterlineSettings: SingletonDocument, Equatable {
    public static let kind = DocumentKind("waterline.settings", app: .waterline, .singleton("waterline/settings.json"))

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
    public var unknownFields = JSONObject()

    public init() {}

    /// The seeds' defaults, created at `now`.
    public init(createdAt now: Timestamp) {
        createdAt = now
        updatedAt = now
        defaultWaterAmount = units.defaultWaterAmount
    }

    public static let fields: [Field<WaterlineSettings>] = [
        .defaulted("waterEveryNDrinks", \.waterEveryNDrinks, 1),
        .defaulted("timeRemindersEnabled", \.timeRemindersEnabled, true),
        .defaulted("timeReminderIntervalMinutes", \.timeReminderIntervalMinutes, 20),
        .defaulted("warningThreshold", \.warningThreshold, 2),
        .optional("defaultWaterAmount", \.defaultWaterAmount),
        .defaulted("units", \.units, .oz),
        .defaulted("discreetNotifications", \.discreetNotifications, true),
        .defaulted("abandonedAfterHours", \.abandonedAfterHours, 12),
        .required("createdAt", \.createdAt),
        .required("updatedAt", \.updatedAt),
    ]

    public static var defaultValue: WaterlineSettings { WaterlineSettings() }

    /// The amount of one water entry, in `units`.
    public var waterAmount: Double { defaultWaterAmount ?? units.defaultWaterAmount }

    /// The rules a session started now records (see `Session.waterEveryNDrinks`).
    public var rules: WaterlineRules {
        WaterlineRules(waterEveryNDrinks: waterEveryNDrinks, warningThreshold: warningThreshold)
    }

    public func validate() -> [DocumentIssue] {
        var issues: [DocumentIssue] = []
        func atLeast(_ name: String, _ value: Int, _ minimum: Int, _ maximum: Int, _ what: String) {
            if value < minimum || value > maximum {
                issues.append(.error(.root.appending(name), "must be \(what) between \(minimum) and \(maximum) (found \(value))"))
            }
        }
        atLeast("waterEveryNDrinks", waterEveryNDrinks, 1, 100, "a number of drinks")
        atLeast("timeReminderIntervalMinutes", timeReminderIntervalMinutes, 1, 1440, "a number of minutes")
        atLeast("warningThreshold", warningThreshold, 1, 100, "a Waterline value")
        atLeast("abandonedAfterHours", abandonedAfterHours, 1, 720, "a number of hours")
        if let a = defaultWaterAmount {
            let ml = VolumeUnit.ml.convert(a, from: units)
            if !(ml > 0 && ml <= WaterMeta.maximumMillilitres) {
                issues.append(.error(.root.appending("defaultWaterAmount"),
                                     "must be more than 0 and at most \(WaterMeta.describeMaximum(in: units)) (found \(CanonicalJSON.formatNumber(a)))"))
            }
        }
        return issues
    }
}

// MARK: - Merge

extension WaterlineSettings {
    /// The water amount together with the unit it is written in: one value for merges, since
    /// an amount means nothing without its unit (8 oz is not 8 ml).
    struct WaterAmountPair: Equatable {
        var units: VolumeUnit
        var defaultWaterAmount: Double?

        /// Whether two pairs name the same amount (a missing amount is the unit's default).
        func sameAmount(as other: WaterAmountPair) -> Bool {
            units == other.units && (defaultWaterAmount ?? units.defaultWaterAmount) == (other.defaultWaterAmount ?? other.units.defaultWaterAmount)
        }
    }

    var waterAmountPair: WaterAmountPair {
        get { WaterAmountPair(units: units, defaultWaterAmount: defaultWaterAmount) }
        set { (units, defaultWaterAmount) = (newValue.units, newValue.defaultWaterAmount) }
    }

    /// Two machines' settings merged: every field by the shared field-wise rule
    /// (`FieldwiseMerge`), except `units` and `defaultWaterAmount`, which merge as one value —
    /// taken from the side that changed the pair, or from the later write when both did — so
    /// that switching to ml on one machine (8 oz → 250 ml) and setting 12 oz on another never
    /// makes 12 ml.
    public static func merge(base: WaterlineSettings?, ours: WaterlineSettings, theirs: WaterlineSettings,
                             context: MergeContext) -> Merged<WaterlineSettings> {
        let o = ours.waterAmountPair, t = theirs.waterAmountPair
        var pair = o
        var note: String?
        if !o.sameAmount(as: t) {
            let oursChanged = base.map { !o.sameAmount(as: $0.waterAmountPair) } ?? true
            let theirsChanged = base.map { !t.sameAmount(as: $0.waterAmountPair) } ?? true
            if oursChanged, theirsChanged {
                pair = FieldwiseMerge.oursWins(ours, theirs) ? o : t
                let shown = CanonicalJSON.formatNumber(pair.defaultWaterAmount ?? pair.units.defaultWaterAmount) + " " + pair.units.rawValue
                note = "/units and /defaultWaterAmount changed on both machines; kept the later change together (\(shown))"
            } else {
                pair = oursChanged ? o : t
            }
        }
        // With the pair the same on every side, the field-wise rule leaves it as chosen.
        func withPair(_ s: WaterlineSettings) -> WaterlineSettings {
            var s = s
            s.waterAmountPair = pair
            return s
        }
        var merged = FieldwiseMerge.merge(base: base.map(withPair), ours: withPair(ours), theirs: withPair(theirs))
        if let note { merged.notes.append(note) }
        return merged
    }
}

/// The pacing rules a session is computed with: recorded in the session when it starts and
/// updated by `settings set` while it is active, so that a session's derived values depend on
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
}
