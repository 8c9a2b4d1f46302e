import Foundation

extension WaterlineStore {
    // MARK: - Logging

    /// A drink as the person describes it: a preset, and values that describe the drink or
    /// adjust the preset. Sizes follow the units setting unless they carry a unit.
    public struct DrinkOrder: Sendable {
        /// A preset's name (any case) or id.
        public var preset: String?
        public var type: Given<DrinkType>?
        public var size: Given<DrinkSize>?
        /// Alcohol by volume, in percent.
        public var abv: Given<Double>?
        /// The standard drinks it counts for, when the person says so.
        public var standardDrinks: Double?
        /// When it was drunk; nil for now.
        public var time: Timestamp?
        public var source: EntrySource

        public init(preset: String? = nil, type: Given<DrinkType>? = nil, size: Given<DrinkSize>? = nil, abv: Given<Double>? = nil,
                    standardDrinks: Double? = nil, time: Timestamp? = nil, source: EntrySource = .cli) {
            self.preset = preset
            self.type = type
            self.size = size
            self.abv = abv
            self.standardDrinks = standardDrinks
            self.time = time
            self.source = source
        }
    }

    /// What logging an entry did.
    public struct Logged: Sendable {
        /// The session after the entry, with the entry as written.
        public var session: Session
        public var entry: LogEntry
        /// The entry at its place in the timeline.
        public var step: WaterlineStep
        /// The session's state now, after the entry (current settings).
        public var state: WaterlineState
        public var settings: WaterlineSettings
        /// The notifications the entry brings, judged by the state after it, now (US-019,
        /// US-020): what a phone would show.
        public var nudges: [WaterlineNotification.Kind]
        /// For a drink: its estimate and how it was reached.
        public var estimate: DrinkEstimate?
        /// For a drink logged from a preset: the preset, as it was then.
        public var preset: DrinkPreset?
        /// Notes about repairs made on the way.
        public var notes: [String]

        /// What holds now, after the entry.
        public var current: Current { Current(session: session, settings: settings, notes: notes) }

        /// The nudges as notifications, discreet or detailed as the settings say.
        public var notifications: [WaterlineNotification] {
            nudges.map { WaterlineNotification($0, discreet: settings.discreetNotifications) }
        }
    }

    /// Logs a drink in the active session (US-012). Values that cannot be right are usage
    /// errors naming the words they were given in.
    @discardableResult
    public func logDrink(_ order: DrinkOrder, now: Timestamp, ids: any IDSource) throws -> Logged {
        try store.withWriterLock {
            let settings = try settings()
            let preset = try order.preset.map(preset)
            let estimate = try Self.estimate(base: preset.map { .preset($0) }, type: order.type, size: order.size, abv: order.abv,
                                             standardDrinks: order.standardDrinks, units: settings.units)
            let entry = LogEntry.alcohol(id: ids.next(), at: order.time ?? now, estimate.meta, source: order.source, now: now,
                                         rules: settings.rules)
            var logged = try log(entry, settings: settings, now: now)
            logged.estimate = estimate
            logged.preset = preset
            return logged
        }
    }

    /// Logs water in the active session (US-013): `amount` (in the user's units unless it
    /// carries one) or the settings' default amount. With no arguments but `now`, it is what
    /// a notification's "Log Water" does (US-018: water with the default amount, now).
    @discardableResult
    public func logWater(_ amount: Given<Volume>? = nil, at time: Timestamp? = nil, source: EntrySource = .cli,
                         now: Timestamp, ids: any IDSource) throws -> Logged {
        try store.withWriterLock {
            let settings = try settings()
            let meta = try amount.map { try Self.water($0, units: settings.units) } ?? WaterMeta(amount: settings.waterAmount, units: settings.units)
            let entry = LogEntry.water(id: ids.next(), at: time ?? now, meta, source: source, now: now, rules: settings.rules)
            return try log(entry, settings: settings, now: now)
        }
    }

    /// Adds `entry` to the active session, under the lock.
    private func log(_ new: LogEntry, settings: WaterlineSettings, now: Timestamp) throws -> Logged {
        let (active, notes) = try requireActive()
        var session = active.session
        var entry = new
        try Self.checkTime(entry.timestamp, in: session, now: now)
        // Two entries at the same instant (a frozen clock, a script) would replay by id;
        // a millisecond later keeps the order in which they were logged.
        let taken = Set(session.entries.map(\.timestamp.epochMilliseconds))
        while taken.contains(entry.timestamp.epochMilliseconds) { entry.timestamp = entry.timestamp.adding(seconds: 0.001) }
        if session.entries.contains(where: { $0.id == entry.id }) {
            throw LedgerError.invalid("entry id \(entry.id) is already used in session \(session.id)")
        }
        let before = WaterlineEngine.state(from: session.entries, warningThreshold: settings.warningThreshold)
        session.entries = WaterlineEngine.ordered(session.entries + [entry])
        session.updatedAt = now
        session = try save(session, wasActive: active, settings: settings)
        let step = WaterlineEngine.replay(session.entries, rules: session.rules).first { $0.entry.id == entry.id }!
        let after = WaterlineEngine.state(from: session.entries, warningThreshold: settings.warningThreshold)
        let nudges = WaterlineNotification.kinds(logging: entry, before: before, after: after, waterEveryNDrinks: settings.waterEveryNDrinks)
        return Logged(session: session, entry: entry, step: step, state: after, settings: settings, nudges: nudges, estimate: nil, preset: nil, notes: notes)
    }

    /// Refuses entry times outside the session or in the future.
    static func checkTime(_ time: Timestamp, in session: Session, now: Timestamp) throws {
        if time < session.startTime {
            throw LedgerError.timeRefused(time, "is before session \(session.id) started (\(session.startTime.iso8601))")
        }
        if let end = session.endTime, time > end {
            throw LedgerError.timeRefused(time, "is after session \(session.id) ended (\(end.iso8601))")
        }
        if time > now {
            throw LedgerError.timeRefused(time, "is in the future (it is \(now.iso8601))")
        }
    }

    /// What a drink starts from before the given values change it.
    enum DrinkBase {
        case preset(DrinkPreset)
        case drink(AlcoholMeta)
    }

    /// The estimate for a drink (DrinkEstimate), with sizes read in `units` and an estimate
    /// no drink can have refused, naming the values that gave it.
    static func estimate(base: DrinkBase?, type: Given<DrinkType>?, size: Given<DrinkSize>?, abv: Given<Double>?,
                         standardDrinks: Double?, units: VolumeUnit) throws -> DrinkEstimate {
        let baseType: DrinkType? = switch base {
        case .preset(let p): p.drinkType
        case .drink(let m): m.drinkType
        case nil: nil
        }
        let resolved = try size.map { try DrinkSize.resolve($0, type: type?.value ?? baseType, units: units) }
        let drinkType = type?.value ?? (baseType == nil ? resolved?.drinkType : nil)
        let std = standardDrinks ?? resolved?.standardDrinks
        // A cocktail's serving gives its estimate: "a strong cocktail serving", not "as given".
        var given = "as given"
        if standardDrinks == nil, case .serving(let serving)? = size?.value, serving.standardDrinks != nil {
            given = "a \(serving.name) \(serving.drinkType.rawValue) serving"
        }
        let estimate: DrinkEstimate = switch base {
        case .preset(let p):
            DrinkEstimate.resolve(preset: p, type: drinkType, sizeOz: resolved?.sizeOz, abv: abv?.value, standardDrinks: std, units: units, given: given)
        case .drink(let m):
            DrinkEstimate.adjusting(m, type: drinkType, sizeOz: resolved?.sizeOz, abv: abv?.value, standardDrinks: std, units: units, given: given)
        case nil:
            DrinkEstimate.resolve(preset: nil, type: drinkType, sizeOz: resolved?.sizeOz, abv: abv?.value, standardDrinks: std, units: units, given: given)
        }
        try estimate.check(given: [size?.wording, abv?.wording, type?.wording].compactMap { $0 })
        return estimate
    }

    /// Water's details from an amount as given (a bare number in `units`), at most 2 litres.
    static func water(_ given: Given<Volume>, units: VolumeUnit) throws -> WaterMeta {
        let unit = given.value.unit ?? units
        guard WaterMeta.withinLimit(given.value.amount, unit) else { throw given.refused("must be \(WaterMeta.limit)") }
        return WaterMeta(amount: given.value.amount, units: unit)
    }

    // MARK: - Entries

    /// An entry found by id, unique id prefix or `last`, with its session.
    public struct FoundEntry: Sendable {
        /// The session (as written, after a change) and the entry.
        public var session: Session
        public var entry: LogEntry
    }

    /// The word that names the newest entry (PRD v1 §10.3: "Edit last entry").
    public static let lastEntry = "last"

    /// Finds an entry: `last` — the newest entry of the given session, else of the active
    /// one, else of the most recent; or an id, or a unique prefix of at least four characters
    /// of one, in the given session, else in the active one, else in any session (reading
    /// only session files that mention the id).
    public func findEntry(_ reference: String, inSession sessionRef: String? = nil) throws -> FoundEntry {
        try findEntry(reference, inSession: sessionRef, active: sessionRef == nil ? activeSession().active : nil)
    }

    private func findEntry(_ reference: String, inSession sessionRef: String?, active: Active?) throws -> FoundEntry {
        let ref = reference.lowercased()
        guard !ref.isEmpty else { throw LedgerError.invalidArgument("give an entry id, or `last` (see \(next: .waterline(.listEntries)))") }
        if ref == Self.lastEntry {
            let session = try chosenSession(sessionRef, active: active?.session)
            guard let newest = WaterlineEngine.ordered(session.entries).last else {
                throw LedgerError.notFound("session \(session.id) has no entries yet, so there is no last one")
            }
            return FoundEntry(session: session, entry: newest)
        }
        let prefixes = ref.count >= Self.minimumPrefix
        func matches(in s: Session) -> [LogEntry] {
            if let exact = s.entries.first(where: { $0.id == ref }) { return [exact] }
            return prefixes ? s.entries.filter { $0.id.hasPrefix(ref) } : []
        }
        func pick(_ candidates: [(Session, LogEntry)]) throws -> FoundEntry? {
            switch candidates.count {
            case 0: return nil
            case 1: return FoundEntry(session: candidates[0].0, entry: candidates[0].1)
            default:
                let ids = candidates.map(\.1.id).sorted().prefix(4).joined(separator: ", ")
                throw LedgerError.invalidArgument("\"\(reference)\" matches \(candidates.count) entries (\(ids)…); give more characters")
            }
        }
        // Not an id, and too short to be taken as a prefix: the argument is wrong (exit status
        // 2, as an ambiguous prefix and a session's or a moment's short prefix are).
        let tooShort = LedgerError.invalidArgument("\"\(reference)\" is not an entry id; give the id, `last`, or at least its first \(Self.minimumPrefix) characters (see \(next: .waterline(.listEntries)))")
        if let sessionRef {
            let s = try session(sessionRef)
            if let f = try pick(matches(in: s).map { (s, $0) }) { return f }
            if !prefixes { throw tooShort }
            throw LedgerError.notFound("session \(s.id) has no entry with id \"\(reference)\"")
        }
        if let active, let f = try pick(matches(in: active.session).map { (active.session, $0) }) {
            return f
        }
        var candidates: [(Session, LogEntry)] = []
        let needle = Array(("\"" + ref).utf8)
        for (_, path) in try sessions.index() {
            guard let bytes = try readSession(path), Bytes.firstIndex(of: needle, in: bytes) != nil else { continue }
            let s = try LedgerStore.decode(Session.self, from: bytes, path: path)
            candidates += matches(in: s).map { (s, $0) }
        }
        if let f = try pick(candidates) { return f }
        if !prefixes { throw tooShort }
        throw LedgerError.notFound("there is no entry with id \"\(reference)\" (see \(next: .waterline(.listEntries)))")
    }

    /// A change to an entry: only what is given changes. A new size or ABV without an
    /// estimate re-estimates a drink.
    public struct EntryChange: Sendable {
        public var standardDrinks: Double?
        public var time: Timestamp?
        public var type: Given<DrinkType>?
        public var size: Given<DrinkSize>?
        public var abv: Given<Double>?
        /// Water's amount (a bare number in the entry's own unit).
        public var amount: Given<Volume>?

        public init(standardDrinks: Double? = nil, time: Timestamp? = nil, type: Given<DrinkType>? = nil, size: Given<DrinkSize>? = nil,
                    abv: Given<Double>? = nil, amount: Given<Volume>? = nil) {
            self.standardDrinks = standardDrinks
            self.time = time
            self.type = type
            self.size = size
            self.abv = abv
            self.amount = amount
        }

        /// Whether it changes nothing.
        public var isEmpty: Bool {
            standardDrinks == nil && time == nil && type == nil && size == nil && abv == nil && amount == nil
        }

        var changesDrink: Bool { standardDrinks != nil || type != nil || size != nil || abv != nil }
    }

    /// What an edit did: the entry and its session after it, and how a new estimate was reached.
    public struct Edited: Sendable {
        public var session: Session
        public var entry: LogEntry
        /// The entry at its place in the timeline.
        public var step: WaterlineStep
        /// "(16 oz at 5% ABV)" when the estimate changed.
        public var estimate: DrinkEstimate?
    }

    /// Changes an entry and recomputes its session (US-017). The entry keeps the rules it was
    /// logged under.
    @discardableResult
    public func editEntry(_ reference: String, inSession sessionRef: String? = nil, change: EntryChange, now: Timestamp) throws -> Edited {
        guard !change.isEmpty else { throw LedgerError.invalidArgument("say what to change: " + LedgerError.list([.standardDrinks, .time, .drinkType, .size, .abv, .amount].map { .waterline($0) }, "or")) }
        return try store.withWriterLock {
            let settings = try settings()
            let (active, _) = try activeSessionLocked()
            let found = try findEntry(reference, inSession: sessionRef, active: active)
            var session = found.session
            guard let (index, original) = session.entry(id: found.entry.id) else { throw LedgerError.notFound("entry \(reference) vanished") }
            var entry = original
            var estimate: DrinkEstimate?
            if let time = change.time { entry.timestamp = time }
            switch entry.type {
            case .alcohol:
                if let amount = change.amount {
                    throw LedgerError.invalidArgument("\(input: amount.input) is for water entries; \(entry.id) is a drink (use \(input: .waterline(.size)) or \(input: .waterline(.standardDrinks)))")
                }
                if change.changesDrink {
                    let e = try Self.estimate(base: .drink(entry.alcoholMeta ?? AlcoholMeta()), type: change.type, size: change.size, abv: change.abv,
                                              standardDrinks: change.standardDrinks, units: settings.units)
                    entry.alcoholMeta = e.meta
                    estimate = e
                }
            case .water:
                if change.changesDrink {
                    throw LedgerError.invalidArgument(LedgerError.list([.standardDrinks, .drinkType, .size, .abv].map { .waterline($0) }, "and") + " are for drinks; \(entry.id) is water (use \(input: .waterline(.amount)))")
                }
                if let amount = change.amount { entry.waterMeta = try Self.water(amount, units: entry.waterMeta?.units ?? settings.units) }
            }
            if entry.timestamp != original.timestamp {
                try Self.checkTime(entry.timestamp, in: session, now: max(now, session.endTime ?? now))
            }
            if entry != original {
                entry.updatedAt = now
                session.entries[index] = entry
                session.entries = WaterlineEngine.ordered(session.entries)
                session.updatedAt = now
                let errors = session.validate().filter { $0.severity == .error }
                if !errors.isEmpty {
                    throw LedgerError.invalid("that change would make session \(session.id) invalid:", problems: errors.map { Problem(session.path, $0) })
                }
                session = try save(session, wasActive: active, settings: settings)
            }
            let step = WaterlineEngine.replay(session.entries, rules: session.rules).first { $0.entry.id == entry.id }!
            return Edited(session: session, entry: entry, step: step, estimate: estimate)
        }
    }

    /// Deletes an entry and recomputes its session (US-017; no confirmation, SPEC §2).
    @discardableResult
    public func deleteEntry(_ reference: String, inSession sessionRef: String? = nil, now: Timestamp) throws -> FoundEntry {
        try store.withWriterLock {
            let (active, _) = try activeSessionLocked()
            let found = try findEntry(reference, inSession: sessionRef, active: active)
            var session = found.session
            session.entries.removeAll { $0.id == found.entry.id }
            session.updatedAt = now
            return FoundEntry(session: try save(session, wasActive: active, settings: try settings()), entry: found.entry)
        }
    }
}
