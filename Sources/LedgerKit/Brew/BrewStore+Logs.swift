import Foundation

/// Brew logs (BrewGuide §3.8): logging a brew, reading them in order — all, one recipe's, or
/// only the most recent (which reads only the newest years' folders) — and deleting one.
extension BrewStore {
    // MARK: - Logging a brew

    /// A brew logged after it was made without the guided flow (`brew save`): the recipe and
    /// inputs as for a plan, and how it turned out.
    public struct BrewRecord: Sendable {
        /// The recipe (an id, a name or a unique id prefix); nil: the last selected one.
        public var recipe: String?
        /// Inputs laid over the remembered ones. Both a dose and a yield: a brew made at its
        /// own ratio, logged as measured.
        public var inputs = BrewInputs()
        /// Forget the remembered inputs and start from the recipe's defaults.
        public var resetInputs = false
        public var rating = 0
        public var tasteTag: TasteTag?
        public var note: String?
        /// When it was brewed; nil: now.
        public var brewedAt: Timestamp?

        public init(rating: Int) { self.rating = rating }
    }

    /// What logging a brew did: the log, the warnings of its inputs and anything to know
    /// about the selection.
    public struct LoggedBrew: Sendable {
        public var log: BrewLog
        /// Inputs outside the recommended V60 ranges (never clamped).
        public var warnings: [String]
        /// The remembered recipe no longer exists, so the starter was used.
        public var notice: String?
    }

    /// Logs `record` as a new brew log and remembers its recipe as the selection (BrewGuide
    /// US-017). A rating outside 1–5 or a note over the limit is refused.
    public func logBrew(_ record: BrewRecord, now: Timestamp, ids: any IDSource) throws -> LoggedBrew {
        try store.withWriterLock {
            let s = try selection(record.recipe, changes: record.inputs, reset: record.resetInputs)
            var plan = try RecipeScaler.plan(s.recipe, inputs: s.inputs)
            if let d = record.inputs.dose, let y = record.inputs.targetYield { plan = plan.measured(dose: d, targetYield: y) }
            let at = record.brewedAt ?? now
            var log = BrewLog(id: try newID(in: logRepository, ids, date: at.local.date), plan: plan, rating: record.rating, tasteTag: record.tasteTag,
                              note: record.note?.trimmingWhitespace(newlines: true), at: at)
            log.createdAt = now
            log.updatedAt = now
            try logRepository.save(log, new: true)
            // `--reset` forgets the remembered inputs; otherwise they stay as they were (a save
            // logs a brew, it confirms no inputs as `plan` does).
            try remember(s.recipe.id, inputs: record.resetInputs ? BrewInputs(recipeId: s.recipe.id) : nil, at: now)
            return LoggedBrew(log: log, warnings: plan.warnings, notice: s.notice)
        }
    }

    /// Saves the log of a finished guided brew (`BrewFlow`'s `.saveLog`) and, when its recipe
    /// still exists, remembers it as the selection.
    public func saveBrew(_ log: BrewLog, now: Timestamp) throws {
        try store.withWriterLock {
            try logRepository.save(log)
            if try log.recipeId == Recipe.starterID || recipeRepository.contains(id: log.recipeId) {
                try remember(log.recipeId, inputs: nil, at: now)
            }
        }
    }

    // MARK: - Reading logs

    /// Logs in chronological order (by timestamp, then id): with `recipe`, only that recipe's
    /// (an id, a name or a unique id prefix; a deleted recipe's id or name is accepted, its
    /// logs remain, and a reference to neither is not found); with `limit`, the `limit` most
    /// recent. Throws on the first invalid log read.
    public func logs(recipe reference: String? = nil, limit: Int? = nil) throws -> [BrewLog] {
        guard let reference else { return try logs(matching: nil, limit: limit) }
        do {
            let id = try recipe(reference).id
            return try logs(matching: { $0.recipeId == id }, limit: limit)
        } catch LedgerError.Code.notFound {
            // A recipe deleted since: its logs keep its id and the name it was brewed under.
            let key = reference.lowercased()
            let found = try logs(matching: { $0.recipeId == key || $0.recipeName.lowercased() == key }, limit: limit)
            guard !found.isEmpty else {
                throw LedgerError.notFound("there is no recipe \"\(reference)\", and no brew log of a recipe with that id or name; `ledger brew recipes` lists the recipes")
            }
            return found
        }
    }

    /// The logs `include` accepts (all when nil), the `limit` most recent of them.
    func logs(matching include: ((BrewLog) -> Bool)?, limit: Int?) throws -> [BrewLog] {
        // Year folders newest first, each listed only when it is needed.
        var found: [BrewLog] = []
        for year in try logRepository.files.shards() {
            let paths = try logFiles(in: year)
            if let limit, include == nil {
                found += try logRepository.load(newest(limit - found.count, of: paths)).map(Self.derived)
            } else {
                found += try logRepository.load(paths).map(Self.derived).filter { include?($0) ?? true }
            }
            if let limit, found.count >= limit { break }
        }
        found.sort { ($0.timestamp, $0.id) < ($1.timestamp, $1.id) }
        if let limit, found.count > limit { found.removeFirst(found.count - limit) }
        return found
    }

    /// The log files of one year folder (relative paths).
    private func logFiles(in folder: String) throws -> [String] { try logRepository.files.files(in: folder).map(\.path) }

    /// The files of the `n` most recent logs among `paths` (by timestamp, then id), chosen
    /// from the bytes of each file without decoding it (`MemberPeek`); files whose timestamp
    /// cannot be found that way are all kept, to be decoded.
    private func newest(_ n: Int, of paths: [String]) throws -> [String] {
        guard paths.count > n else { return paths }
        let store = store
        let stamps = try Parallel.map(paths, threads: store.readerThreads) { path in
            Result { try store.read(path).flatMap(Self.quickTimestamp) }
        }.map { try $0.get() }
        var dated: [(timestamp: Timestamp, id: String, path: String)] = []
        var undated: [String] = []
        for (path, stamp) in zip(paths, stamps) {
            if let stamp {
                dated.append((stamp, FileSystem.stem(path), path))
            } else {
                undated.append(path)
            }
        }
        dated.sort { ($0.timestamp, $0.id) > ($1.timestamp, $1.id) }
        return dated.prefix(n).map(\.path) + undated
    }

    /// The `timestamp` of a log as ledger writes it, or nil for a file in another form.
    static func quickTimestamp(_ bytes: [UInt8]) -> Timestamp? {
        MemberPeek.topLevelString("timestamp", in: bytes).flatMap(Timestamp.init(iso8601:))
    }

    /// The most recent log.
    public func latestLog() throws -> BrewLog? { try logs(matching: nil, limit: 1).last }

    /// How many logs there are (from the file names alone).
    public func logCount() throws -> Int { try logRepository.files.shards().reduce(0) { try $0 + logFiles(in: $1).count } }

    /// The id of the log `reference` names: an id or a unique prefix of one.
    public func logID(_ reference: String) throws -> String {
        try logRepository.resolve(reference, describe: "brew log")
    }

    /// Log `id`; throws `.notFound` when there is none and `.invalid` when it is invalid.
    public func log(id: String) throws -> BrewLog {
        Self.derived(try logRepository.load(id: id))
    }

    /// `log` as the commands read it: a stale derived value (`recipeType` edited by hand, which
    /// `check` reports and `--fix` repairs) is recomputed, never shown.
    static func derived(_ log: BrewLog) -> BrewLog {
        var log = log
        log.recomputeDerived()
        return log
    }

    // MARK: - Deleting a log

    /// Deletes log `id` (BrewGuide US-023), an invalid one included; the deletion syncs like
    /// any change.
    public func deleteLog(id: String) throws {
        try store.withWriterLock { try logRepository.delete(id: id) }
    }
}
