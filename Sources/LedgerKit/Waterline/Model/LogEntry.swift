/// What a log entry records: an alcoholic drink or water.
public enum EntryType: String, JSONEnum, Sendable {
    case alcohol, water
}

/// Where an entry was logged (the seeds' surfaces, plus `cli` for this tool).
public enum EntrySource: String, JSONEnum, Sendable {
    case phone, watch, widget, liveActivity, cli
}

/// The details of an alcoholic entry (seeds: alcoholMeta).
public struct AlcoholMeta: JSONModel, Equatable {
    /// The kind of drink, when known (a plain "+ Drink" has none).
    public var drinkType: DrinkType?
    /// Serving size in US fluid ounces, when known.
    public var sizeOz: Double?
    /// Alcohol by volume in percent, when known.
    public var abv: Double?
    /// How far this drink moves the Waterline (FR-4); a double is 2.0.
    public var standardDrinkEstimate = 1.0
    /// The preset it was logged from, for the record (the preset may since have changed or gone).
    public var presetId: String?
    /// The preset's name when it was logged ("Hazy IPA"), which the timeline shows.
    public var presetName: String?
    package var unknownFields = JSONObject()

    public init() {}

    /// The details of a drink.
    public init(drinkType: DrinkType?, sizeOz: Double?, abv: Double?, standardDrinkEstimate: Double, presetId: String?,
                presetName: String? = nil) {
        self.drinkType = drinkType
        self.sizeOz = sizeOz
        self.abv = abv
        self.standardDrinkEstimate = standardDrinkEstimate
        self.presetId = presetId
        self.presetName = presetName
    }

    package static let fields: [Field<AlcoholMeta>] = [
        .optional("drinkType", { $0.drinkType }, { $0.drinkType = $1 }),
        .optional("sizeOz", { $0.sizeOz }, { $0.sizeOz = $1 }, sizeRule),
        .optional("abv", { $0.abv }, { $0.abv = $1 }, abvRule),
        .required("standardDrinkEstimate", { $0.standardDrinkEstimate }, { $0.standardDrinkEstimate = $1 }, estimateRule),
        .optional("presetId", { $0.presetId }, { $0.presetId = $1 }),
        .optional("presetName", { $0.presetName }, { $0.presetName = $1 }),
    ]

    /// The largest standard-drink estimate accepted for one entry (a bottle of wine is about 5).
    public static let maximumEstimate = 20.0
    /// The rules of a drink's values, shared by entries and presets.
    static let estimateRule = ValueRule<Double>.above(0, atMost: maximumEstimate) {
        "must be more than 0 and at most \(CanonicalJSON.formatNumber(maximumEstimate)) standard drinks (found \(CanonicalJSON.formatNumber($0)))"
    }
    static let sizeRule = ValueRule<Double>(
        schema: { ["minimum": .number(0.5 / VolumeUnit.millilitresPerOunce),
                   "exclusiveMaximum": .number((WaterMeta.maximumMillilitres + 0.5) / VolumeUnit.millilitresPerOunce)] },
        problem: { WaterMeta.withinLimit($0, .oz) ? nil : "must be \(WaterMeta.limit) (found \(CanonicalJSON.formatNumber($0)) oz)" })
    static let abvRule = ValueRule<Double>.within(0...100) {
        "must be a percentage between 0 and 100 (found \(CanonicalJSON.formatNumber($0)))"
    }
}

/// The details of a water entry (seeds: waterMeta): an amount in an explicit unit, so that
/// 250 ml stays 250 ml whatever unit another device prefers.
public struct WaterMeta: JSONModel, Equatable {
    /// How much, in `units`.
    public var amount = 0.0
    /// The unit of `amount`, as logged.
    public var units = VolumeUnit.oz
    package var unknownFields = JSONObject()

    public init() {}

    /// `amount` of water in `units`.
    public init(amount: Double, units: VolumeUnit) {
        self.amount = amount
        self.units = units
    }

    package static let fields: [Field<WaterMeta>] = [
        .required("amount", { $0.amount }, { $0.amount = $1 }),
        .required("units", { $0.units }, { $0.units = $1 }),
    ]

    /// The largest amount accepted for one entry, in millilitres (a 2-litre bottle): the one
    /// limit of an amount of water and of a drink's size.
    public static let maximumMillilitres = 2000.0

    /// Whether `amount` in `unit` is at least 1 ml and at most `maximumMillilitres`, to the
    /// millilitre at both ends (so that 2000 ml kept as 67.63 oz, 2000.06 ml, is still 2000 ml,
    /// and an amount that would be shown as 0 ml, such as 0.3 ml, is no amount).
    public static func withinLimit(_ amount: Double, _ unit: VolumeUnit) -> Bool {
        let ml = VolumeUnit.ml.convert(amount, from: unit).rounded()
        return ml >= 1 && ml <= maximumMillilitres
    }

    /// The limit in words, the same in every message.
    public static let limit = "at least 1 ml (0.03 oz) and at most 2000 ml (67.6 oz)"

    /// The amount in `unit`.
    public func amount(in unit: VolumeUnit) -> Double { unit.convert(amount, from: units) }
}

/// One logged drink or water (seeds: LogEntry). Entries live inside their session's file.
public struct LogEntry: JSONModel, Equatable {
    /// Unique within the session; what `edit` and `delete` take.
    public var id = ""
    /// When it was drunk (may be edited).
    public var timestamp = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    /// Alcohol or water; says which of the metas is present.
    public var type = EntryType.alcohol
    /// The drink, for alcohol entries.
    public var alcoholMeta: AlcoholMeta?
    /// The amount, for water entries.
    public var waterMeta: WaterMeta?
    /// Where it was logged.
    public var source = EntrySource.cli
    /// When the entry was last written; decides between two edits of it made on two machines.
    /// Entries added by hand may leave it out (their `timestamp` stands in).
    public var updatedAt: Timestamp?
    /// The pacing rules in force when the entry was logged (N and the warning threshold), so
    /// that its reminder point and warning are judged the same way on every device however
    /// the settings change later. Entries without them (added by hand) follow the session's.
    public var waterEveryNDrinks: Int?
    public var warningThreshold: Int?
    package var unknownFields = JSONObject()

    public init() {}

    /// A new alcoholic entry, logged under `rules` (nil: it follows its session's).
    public static func alcohol(id: String, at time: Timestamp, _ meta: AlcoholMeta, source: EntrySource = .cli, now: Timestamp,
                               rules: WaterlineRules? = nil) -> LogEntry {
        var e = LogEntry(id: id, at: time, .alcohol, source: source, now: now, rules: rules)
        e.alcoholMeta = meta
        return e
    }

    /// A new water entry, logged under `rules` (nil: it follows its session's).
    public static func water(id: String, at time: Timestamp, _ meta: WaterMeta, source: EntrySource = .cli, now: Timestamp,
                             rules: WaterlineRules? = nil) -> LogEntry {
        var e = LogEntry(id: id, at: time, .water, source: source, now: now, rules: rules)
        e.waterMeta = meta
        return e
    }

    private init(id: String, at time: Timestamp, _ type: EntryType, source: EntrySource, now: Timestamp, rules: WaterlineRules?) {
        self.id = id
        timestamp = time
        self.type = type
        self.source = source
        updatedAt = now
        recordedRules = rules
    }

    package static let fields: [Field<LogEntry>] = [
        .required("id", { $0.id }, { $0.id = $1 }, .documentID { "\"\($0)\" is not a valid entry id: \(DocumentID.rule)" }),
        .required("timestamp", { $0.timestamp }, { $0.timestamp = $1 }),
        .required("type", { $0.type }, { $0.type = $1 }),
        .optional("alcoholMeta", { $0.alcoholMeta }, { $0.alcoholMeta = $1 }),
        .optional("waterMeta", { $0.waterMeta }, { $0.waterMeta = $1 }),
        .required("source", { $0.source }, { $0.source = $1 }),
        .optional("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
        .optional("waterEveryNDrinks", { $0.waterEveryNDrinks }, { $0.waterEveryNDrinks = $1 }, WaterlineRules.nRule),
        .optional("warningThreshold", { $0.warningThreshold }, { $0.warningThreshold = $1 }, WaterlineRules.thresholdRule),
    ]

    /// The rules recorded when the entry was logged, when it has both.
    public var recordedRules: WaterlineRules? {
        get {
            guard let n = waterEveryNDrinks, let t = warningThreshold else { return nil }
            return WaterlineRules(waterEveryNDrinks: n, warningThreshold: t)
        }
        set {
            waterEveryNDrinks = newValue?.waterEveryNDrinks
            warningThreshold = newValue?.warningThreshold
        }
    }

    /// The rules this entry is judged by: its own, else (for what it leaves out) the session's.
    public func rules(in session: WaterlineRules) -> WaterlineRules {
        WaterlineRules(waterEveryNDrinks: waterEveryNDrinks ?? session.waterEveryNDrinks,
                       warningThreshold: warningThreshold ?? session.warningThreshold)
    }

    /// Whether the entry has what its type needs to move the Waterline (a drink its
    /// estimate, water its amount): without it no derived value can be computed.
    var isComputable: Bool { type == .alcohol ? alcoholMeta != nil : waterMeta != nil }

    /// How far the entry moves the Waterline: its estimate for alcohol, −1 for water (FR-4).
    public var waterlineChange: Double {
        type == .water ? -1 : (alcoholMeta?.standardDrinkEstimate ?? 0)
    }

    /// The time of the last write, for last-write-wins merges.
    public var lastWritten: Timestamp { updatedAt ?? timestamp }

    /// Problems with the entry itself, at `pointer`.
    func validate(at pointer: JSONPointer) -> [DocumentIssue] {
        var issues: [DocumentIssue] = []
        switch type {
        case .alcohol:
            if alcoholMeta == nil {
                issues.append(.error(pointer.appending("alcoholMeta"),
                                     "an alcohol entry needs alcoholMeta with at least a standardDrinkEstimate, like {\"standardDrinkEstimate\": 1}"))
            }
            if waterMeta != nil {
                issues.append(.error(pointer.appending("waterMeta"), "an alcohol entry cannot have waterMeta; remove it, or set type to \"water\""))
            }
        case .water:
            if let m = waterMeta {
                if !WaterMeta.withinLimit(m.amount, m.units) {
                    issues.append(.error(pointer.appending("waterMeta").appending("amount"),
                                         "must be \(WaterMeta.limit) (found \(CanonicalJSON.formatNumber(m.amount)) \(m.units.rawValue))"))
                }
            } else {
                issues.append(.error(pointer.appending("waterMeta"), "a water entry needs waterMeta, like {\"amount\": 8, \"units\": \"oz\"}"))
            }
            if alcoholMeta != nil {
                issues.append(.error(pointer.appending("alcoholMeta"), "a water entry cannot have alcoholMeta; remove it, or set type to \"alcohol\""))
            }
        }
        return issues
    }
}
