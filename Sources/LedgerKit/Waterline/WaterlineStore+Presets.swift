import Foundation

extension WaterlineStore {
    // MARK: - Presets

    /// Every preset, lightest first (then by name): the order they are offered in.
    public func presetList() throws -> [DrinkPreset] {
        try readablePresets().get()
    }

    /// The valid presets, sorted as `presetList`, and the refusals of those a hand edit made
    /// invalid — for `presets list`, which shows what it can and names the rest.
    public func readablePresets() throws -> Readable<DrinkPreset> {
        var read = try presets.allReadable()
        read.documents.sort { a, b in
            a.standardDrinkEstimate != b.standardDrinkEstimate ? a.standardDrinkEstimate < b.standardDrinkEstimate
                : a.name.lowercased() < b.name.lowercased()
        }
        return read
    }

    /// The preset `reference` names, by one rule wherever a preset is addressed (`drink
    /// --preset`, `presets edit|delete`): an exact id first; else its name, case-insensitively
    /// — or its id in other letter case — when that picks a single preset, and a usage error
    /// listing them when it picks several (`Pivo` with presets "Пиво", id `pivo`, and "Pivo",
    /// id `pivo-2`); else the name's id form ("glass of wine"), or a unique id prefix.
    public func preset(_ reference: String) throws -> DrinkPreset {
        let ref = reference.trimmingWhitespace()
        guard !ref.isEmpty else { throw LedgerError.invalidArgument("the preset reference is empty; give a preset's name or id (\(next: .waterline(.listPresets)))") }
        if DocumentID.isValid(ref), let found = try presets.loadIfPresent(id: ref) { return found }
        let all = try presets.all()
        let folded = ref.lowercased()
        let named = all.filter { $0.name.lowercased() == folded || $0.id == folded }
        if named.count > 1 {
            let listed = named.sorted { $0.id < $1.id }.map { "\"\($0.name)\" (id \($0.id))" }.joined(separator: " and ")
            throw LedgerError.invalidArgument("\"\(reference)\" names \(named.count) presets, \(listed); give the id")
        }
        if let only = named.first { return only }
        // "glass of wine" finds glass-of-wine; a path ("../beer") is never taken for a name.
        if !ref.contains("/"), !ref.contains(".."), let slug = DocumentID.slug(ref),
           let bySlug = all.first(where: { $0.id == slug || DocumentID.slug($0.name) == slug }) {
            return bySlug
        }
        let prefixed = all.filter { $0.id.hasPrefix(folded) }
        if prefixed.count == 1 { return prefixed[0] }
        if prefixed.count > 1 {
            let listed = prefixed.sorted { $0.id < $1.id }.map { "\"\($0.name)\" (id \($0.id))" }.joined(separator: ", ")
            throw LedgerError.invalidArgument("\"\(reference)\" begins the ids of \(prefixed.count) presets, \(listed); give more of the id")
        }
        // What is offered instead must pick one preset: a name that picks several (above) is
        // offered as its id.
        let names = all.map { p in
            let name = p.name.lowercased()
            return all.filter { $0.name.lowercased() == name || $0.id == name }.count > 1 ? p.id : p.name
        }.sorted()
        throw LedgerError.notFound("there is no drink preset \"\(reference)\"\(Suggestion.didYouMean(reference, among: names)); \(next: .waterline(.listPresets))")
    }

    /// A preset as the person describes it (US-015): for `addPreset` every value it has, for
    /// `editPreset` only what changes. Sizes follow the units setting unless they carry a unit.
    public struct PresetOrder: Sendable {
        public var name: Given<String>?
        public var type: Given<DrinkType>?
        public var size: Given<DrinkSize>?
        public var abv: Given<Double>?
        public var standardDrinks: Double?

        public init(name: Given<String>? = nil, type: Given<DrinkType>? = nil, size: Given<DrinkSize>? = nil, abv: Given<Double>? = nil,
                    standardDrinks: Double? = nil) {
            self.name = name
            self.type = type
            self.size = size
            self.abv = abv
            self.standardDrinks = standardDrinks
        }

        var changesDrink: Bool { type != nil || size != nil || abv != nil || standardDrinks != nil }
    }

    /// Adds a preset. Its id is made from its name, in any script (`Kölsch` → `kolsch`,
    /// `Пиво` → `pivo`), or drawn from `ids` when the name gives none; without an estimate
    /// it comes from size × ABV.
    @discardableResult
    public func addPreset(_ order: PresetOrder, now: Timestamp, ids: any IDSource) throws -> (preset: DrinkPreset, estimate: DrinkEstimate) {
        guard let given = order.name else { throw LedgerError.invalidArgument("give the preset a name") }
        let name = try Self.presetName(given)
        return try store.withWriterLock {
            let settings = try settings()
            let estimate = try Self.estimate(base: nil, type: order.type, size: order.size, abv: order.abv,
                                             standardDrinks: order.standardDrinks, units: settings.units)
            // A name taken is said first: no --type would make the preset addable.
            let existing = try presets.all()
            if let same = existing.first(where: { $0.name.lowercased() == name.lowercased() }) {
                throw LedgerError.invalid("a preset named \"\(same.name)\" already exists (\(same.id)); \(next: .waterline(.editPreset(id: same.id)))")
            }
            guard let type = estimate.meta.drinkType else {
                throw LedgerError.invalidArgument("give the drink's \(input: .waterline(.drinkType)) (beer, wine, liquor or cocktail)")
            }
            let taken = Set(existing.map(\.id))
            var id = DocumentID.slug(name) ?? ids.next()
            let stem = id
            var n = 2
            while taken.contains(id) { id = "\(stem)-\(n)"; n += 1 }
            let preset = DrinkPreset(id: id, name: name, drinkType: type, sizeOz: estimate.meta.sizeOz, abv: order.abv?.value,
                                     standardDrinkEstimate: estimate.meta.standardDrinkEstimate, createdAt: now)
            try savePreset(preset)
            return (preset, estimate)
        }
    }

    /// Changes a preset; entries already logged with it keep their values.
    @discardableResult
    public func editPreset(_ reference: String, _ order: PresetOrder, now: Timestamp) throws -> (preset: DrinkPreset, estimate: DrinkEstimate?) {
        guard order.name != nil || order.changesDrink else {
            throw LedgerError.invalidArgument("say what to change: " + LedgerError.list([.name, .drinkType, .size, .abv, .standardDrinks].map { .waterline($0) }, "or"))
        }
        let name = try order.name.map(Self.presetName)
        return try store.withWriterLock {
            let settings = try settings()
            var p = try preset(reference)
            if let name {
                if let other = try presets.all().first(where: { $0.id != p.id && $0.name.lowercased() == name.lowercased() }) {
                    throw LedgerError.invalid("another preset is already named \"\(other.name)\" (\(other.id))")
                }
                p.name = name
            }
            var estimate: DrinkEstimate?
            if order.changesDrink {
                let base = AlcoholMeta(drinkType: p.drinkType, sizeOz: p.sizeOz, abv: p.abv, standardDrinkEstimate: p.standardDrinkEstimate, presetId: p.id)
                let e = try Self.estimate(base: .drink(base), type: order.type, size: order.size, abv: order.abv,
                                          standardDrinks: order.standardDrinks, units: settings.units)
                p.drinkType = e.meta.drinkType ?? p.drinkType
                p.sizeOz = e.meta.sizeOz
                p.abv = e.meta.abv
                p.standardDrinkEstimate = e.meta.standardDrinkEstimate
                estimate = e
            }
            p.updatedAt = now
            try savePreset(p)
            return (p, estimate)
        }
    }

    /// Deletes a preset (no confirmation: it is one line of settings, and entries logged with
    /// it keep their own copy of its values). A sync carries the deletion to other machines.
    @discardableResult
    public func deletePreset(_ reference: String) throws -> DrinkPreset {
        try store.withWriterLock {
            let p = try preset(reference)
            try presets.delete(id: p.id)
            return p
        }
    }

    /// A preset's name as given, trimmed; refuses an empty one, one over 80 characters and
    /// one with no letter or digit in any script.
    static func presetName(_ given: Given<String>) throws -> String {
        let name = given.value.trimmingWhitespace()
        if let problem = DrinkPreset.nameProblem(name) { throw LedgerError.invalidArgument("\(input: given.input) \(problem)") }
        guard name.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) else {
            throw LedgerError.invalidArgument("the name \"\(name)\" needs at least one letter or digit")
        }
        return name
    }

    /// Saves a preset after checking it, naming its field in errors.
    private func savePreset(_ preset: DrinkPreset) throws {
        let errors = preset.validate().filter { $0.severity == .error }
        if let e = errors.first { throw LedgerError.invalid("the preset's \(e.pointer.description.dropFirst()) \(e.message)") }
        try presets.save(preset)
    }

    // MARK: - Settings

    /// What a change of settings did.
    public struct SettingsChange: Sendable {
        public var before: WaterlineSettings
        public var after: WaterlineSettings
        /// The active session, which records the new N and threshold and judges its state by
        /// them from now on (its past entries keep the rules they were logged under).
        public var session: Session?
    }

    /// Changes the settings (US-024) and, when a session is active, the rules it records.
    /// Refuses settings `check` would reject.
    @discardableResult
    public func changeSettings(now: Timestamp, _ change: (inout WaterlineSettings) throws -> Void) throws -> SettingsChange {
        try store.withWriterLock {
            let before = try settings()
            var settings = before
            try change(&settings)
            let (active, _) = try activeSessionLocked()
            guard settings != before else { return SettingsChange(before: before, after: settings, session: active?.session) }
            settings.updatedAt = now
            if !store.singleton(WaterlineSettings.self).exists { settings.createdAt = now }
            try store.singleton(WaterlineSettings.self).save(settings)
            guard var session = active?.session, session.rules != settings.rules else {
                return SettingsChange(before: before, after: settings, session: active?.session)
            }
            session.updatedAt = now
            return SettingsChange(before: before, after: settings, session: try save(session, wasActive: active, settings: settings))
        }
    }

    /// Sets the setting `key` (its name in the file, any case) to the value read from `text`
    /// (`ledger waterline settings set KEY VALUE`).
    @discardableResult
    public func setSetting(_ key: String, to text: String, now: Timestamp) throws -> (key: WaterlineSettings.Key, change: SettingsChange) {
        let k = try WaterlineSettings.key(key)
        return (k, try changeSettings(now: now) { try k.apply(&$0, text) })
    }
}
