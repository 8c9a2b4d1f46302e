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
    public var unknownFields = JSONObject()

    public init() {}

    /// The details of a drink.
    public init(drinkType: DrinkType?, sizeOz: Double?, abv: Double?, standardDrinkEstimate: Double, presetId: String?) {
        self.drinkType = drinkType
        self.sizeOz = sizeOz
        self.abv = abv
        self.standardDrinkEstimate = standardDrinkEstimate
        self.presetId = presetId
    }

    public static let fields: [Field<AlcoholMeta>] = [
        .optional("drinkType", \.drinkType),
        .optional("sizeOz", \.sizeOz),
        .optional("abv", \.abv),
        .required("standardDrinkEstimate", \.standardDrinkEstimate),
        .optional("presetId", \.presetId),
    ]

    /// The largest standard-drink estimate accepted for one entry (a bottle of wine is about 5).
    public static let maximumEstimate = 20.0
    /// The largest serving accepted, in ounces (a 2-litre pitcher).
    public static let maximumSizeOz = 68.0

    /// Range checks shared by entries and presets.
    static func validate(sizeOz: Double?, abv: Double?, standardDrinkEstimate: Double, at pointer: JSONPointer) -> [DocumentIssue] {
        var issues: [DocumentIssue] = []
        if !(standardDrinkEstimate > 0 && standardDrinkEstimate <= maximumEstimate) {
            issues.append(.error(pointer.appending("standardDrinkEstimate"),
                                 "must be more than 0 and at most \(CanonicalJSON.formatNumber(maximumEstimate)) standard drinks (found \(CanonicalJSON.formatNumber(standardDrinkEstimate)))"))
        }
        if let s = sizeOz, !(s > 0 && s <= maximumSizeOz) {
            issues.append(.error(pointer.appending("sizeOz"),
                                 "must be more than 0 and at most \(CanonicalJSON.formatNumber(maximumSizeOz)) ounces (found \(CanonicalJSON.formatNumber(s)))"))
        }
        if let a = abv, !(a >= 0 && a <= 100) {
            issues.append(.error(pointer.appending("abv"), "must be a percentage between 0 and 100 (found \(CanonicalJSON.formatNumber(a)))"))
        }
        return issues
    }
}

/// The details of a water entry (seeds: waterMeta): an amount in an explicit unit, so that
/// 250 ml stays 250 ml whatever unit another device prefers.
public struct WaterMeta: JSONModel, Equatable {
    /// How much, in `units`.
    public var amount = 0.0
    /// The unit of `amount`, as logged.
    public var units = VolumeUnit.oz
    public var unknownFields = JSONObject()

    public init() {}

    /// `amount` of water in `units`.
    public init(amount: Double, units: VolumeUnit) {
        self.amount = amount
        self.units = units
    }

    public static let fields: [Field<WaterMeta>] = [
        .required("amount", \.amount),
        .required("units", \.units),
    ]

    /// The largest amount accepted for one entry, in millilitres (a 2-litre bottle).
    public static let maximumMillilitres = 2000.0

    /// "2000 ml" or "67.6 oz".
    static func describeMaximum(in unit: VolumeUnit) -> String {
        CanonicalJSON.formatNumber(unit.rounded(unit.convert(maximumMillilitres, from: .ml))) + " " + unit.rawValue
    }

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
    public var unknownFields = JSONObject()

    public init() {}

    /// A new alcoholic entry.
    public static func alcohol(id: String, at time: Timestamp, _ meta: AlcoholMeta, source: EntrySource = .cli, now: Timestamp) -> LogEntry {
        var e = LogEntry()
        e.id = id
        e.timestamp = time
        e.type = .alcohol
        e.alcoholMeta = meta
        e.source = source
        e.updatedAt = now
        return e
    }

    /// A new water entry.
    public static func water(id: String, at time: Timestamp, _ meta: WaterMeta, source: EntrySource = .cli, now: Timestamp) -> LogEntry {
        var e = LogEntry()
        e.id = id
        e.timestamp = time
        e.type = .water
        e.waterMeta = meta
        e.source = source
        e.updatedAt = now
        return e
    }

    public static let fields: [Field<LogEntry>] = [
        .required("id", \.id),
        .required("timestamp", \.timestamp),
        .required("type", \.type),
        .optional("alcoholMeta", \.alcoholMeta),
        .optional("waterMeta", \.waterMeta),
        .required("source", \.source),
        .optional("updatedAt", \.updatedAt),
    ]

    /// How far the entry moves the Waterline: its estimate for alcohol, −1 for water (FR-4).
    public var waterlineChange: Double {
        type == .water ? -1 : (alcoholMeta?.standardDrinkEstimate ?? 0)
    }

    /// The time of the last write, for last-write-wins merges.
    public var lastWritten: Timestamp { updatedAt ?? timestamp }

    /// Problems with the entry itself, at `pointer`.
    func validate(at pointer: JSONPointer) -> [DocumentIssue] {
        var issues: [DocumentIssue] = []
        if !DocumentID.isValid(id) {
            issues.append(.error(pointer.appending("id"), "\"\(id)\" is not a valid entry id: \(DocumentID.rule)"))
        }
        switch type {
        case .alcohol:
            if let m = alcoholMeta {
                issues += AlcoholMeta.validate(sizeOz: m.sizeOz, abv: m.abv, standardDrinkEstimate: m.standardDrinkEstimate,
                                               at: pointer.appending("alcoholMeta"))
            } else {
                issues.append(.error(pointer.appending("alcoholMeta"),
                                     "an alcohol entry needs alcoholMeta with at least a standardDrinkEstimate, like {\"standardDrinkEstimate\": 1}"))
            }
            if waterMeta != nil {
                issues.append(.error(pointer.appending("waterMeta"), "an alcohol entry cannot have waterMeta; remove it, or set type to \"water\""))
            }
        case .water:
            if let m = waterMeta {
                let ml = m.amount(in: .ml)
                if !(ml > 0 && ml <= WaterMeta.maximumMillilitres) {
                    issues.append(.error(pointer.appending("waterMeta").appending("amount"),
                                         "must be more than 0 and at most \(WaterMeta.describeMaximum(in: m.units)) (found \(CanonicalJSON.formatNumber(m.amount)))"))
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

/// `waterline/sessions/<YYYY>/<id>.json`: one night out with its entries (seeds: Session).
///
/// `state` and `computedSummary` are derived: stored for readers, recomputed from the entries
/// on every write, and reported by `check` when they disagree. They depend on this file alone:
/// the session records the N and warning threshold in force (`waterEveryNDrinks`,
/// `warningThreshold`), copied from the settings at its start and updated by
/// `ledger waterline settings set` while it is active. A stored derived value of the wrong
/// shape is not an error, only stale.
public struct Session: CollectionDocument, Equatable {
    public static let kind = DocumentKind("waterline.session", app: .waterline, .collection("waterline/sessions", .year))

    /// The file name.
    public var id = ""
    /// When the session started; its local date chooses the year folder.
    public var startTime = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    /// Nil while the session is active.
    public var endTime: Timestamp?
    /// True exactly when `endTime` is nil (both are kept, as in the seeds).
    public var isActive = true
    /// N for this session's per-drink reminders and adherence.
    public var waterEveryNDrinks = 1
    /// The warning threshold for this session's warning state.
    public var warningThreshold = 2
    /// The entries, in timestamp order as ledger writes them (any order is accepted).
    public var entries: [LogEntry] = []
    /// The stored `WaterlineState` (derived).
    public var storedState = JSONValue.null
    /// The stored summary (derived; null while active).
    public var storedSummary = JSONValue.null
    public var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var unknownFields = JSONObject()

    public init() {}

    /// A new active session starting at `start`, with the rules in force.
    public init(id: String, start: Timestamp, rules: WaterlineRules) {
        self.id = id
        startTime = start
        createdAt = start
        updatedAt = start
        self.rules = rules
        recomputeDerived()
    }

    public static let fields: [Field<Session>] = [
        .required("id", \.id),
        .required("startTime", \.startTime),
        .optional("endTime", \.endTime, writeNull: true),
        .required("isActive", \.isActive),
        .defaulted("waterEveryNDrinks", \.waterEveryNDrinks, 1),
        .defaulted("warningThreshold", \.warningThreshold, 2),
        .defaulted("entries", \.entries, []),
        .defaulted("state", \.storedState, .null),
        .defaulted("computedSummary", \.storedSummary, .null),
        .required("createdAt", \.createdAt),
        .required("updatedAt", \.updatedAt),
    ]

    public var shardDate: LocalDate? { startTime.local.date }

    /// The rules this session is computed with.
    public var rules: WaterlineRules {
        get { WaterlineRules(waterEveryNDrinks: waterEveryNDrinks, warningThreshold: warningThreshold) }
        set {
            waterEveryNDrinks = newValue.waterEveryNDrinks
            warningThreshold = newValue.warningThreshold
        }
    }

    /// The Waterline state after every entry (US-034).
    public var state: WaterlineState { WaterlineEngine.state(from: entries, warningThreshold: warningThreshold) }

    /// The summary of an ended session, or of an active one up to `now`.
    public func summary(now: Timestamp) -> SessionSummary {
        WaterlineEngine.summary(of: self, now: now)
    }

    /// The entry with this id, and its index.
    public func entry(id: String) -> (index: Int, entry: LogEntry)? {
        entries.firstIndex { $0.id == id }.map { ($0, entries[$0]) }
    }

    /// The time of the last log, or the start when there is none.
    public var lastActivity: Timestamp { entries.map(\.timestamp).max().map { max($0, startTime) } ?? startTime }

    public mutating func recomputeDerived() {
        storedState = state.json
        storedSummary = isActive || endTime == nil ? .null : WaterlineEngine.summary(of: self, now: endTime!).json
    }

    public var tags: [String] { isActive ? [WaterlineApp.activeTag] : [] }

    public func validate() -> [DocumentIssue] {
        var issues: [DocumentIssue] = []
        if waterEveryNDrinks < 1 || waterEveryNDrinks > 100 {
            issues.append(.error(.root.appending("waterEveryNDrinks"), "must be a number of drinks between 1 and 100 (found \(waterEveryNDrinks))"))
        }
        if warningThreshold < 1 || warningThreshold > 100 {
            issues.append(.error(.root.appending("warningThreshold"), "must be a Waterline value between 1 and 100 (found \(warningThreshold))"))
        }
        if isActive, endTime != nil {
            issues.append(.error(.root.appending("isActive"), "is true but endTime is set; set isActive to false, or endTime to null to reopen the session"))
        } else if !isActive, endTime == nil {
            issues.append(.error(.root.appending("isActive"), "is false but endTime is null; set endTime to when the session ended, or isActive to true"))
        }
        if let end = endTime, end < startTime {
            issues.append(.error(.root.appending("endTime"), "is before startTime (\(startTime.iso8601)); a session cannot end before it starts"))
        }
        var seen: [String: Int] = [:]
        for (i, e) in entries.enumerated() {
            let p = JSONPointer.root.appending("entries").appending(i)
            issues += e.validate(at: p)
            if let first = seen[e.id] {
                issues.append(.error(p.appending("id"), "duplicate entry id \"\(e.id)\" (also /entries/\(first)); give each entry its own id"))
            } else {
                seen[e.id] = i
            }
            if e.timestamp < startTime {
                issues.append(.error(p.appending("timestamp"),
                                     "\(e.timestamp.iso8601) is before the session started (\(startTime.iso8601)); correct the time, or move startTime earlier"))
            } else if let end = endTime, e.timestamp > end {
                issues.append(.warning(p.appending("timestamp"),
                                       "\(e.timestamp.iso8601) is after the session ended (\(end.iso8601)); correct the time, or move endTime later"))
            }
        }
        return issues
    }

    /// The session's shared merge rule (SPEC §6); see `SessionMerge`.
    public static func merge(base: Session?, ours: Session, theirs: Session, context: MergeContext) -> Merged<Session> {
        SessionMerge.merge(base: base, ours: ours, theirs: theirs)
    }
}
