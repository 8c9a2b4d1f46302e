/// A ledger's BrewGuide documents — recipes, brew logs, the preferences — and this device's
/// brew in progress, with everything the app does to them.
///
/// The only public way to change them. Each changing method is one intent: it takes the
/// writer lock for its whole read-modify-write (never call one inside another, or inside
/// `withWriterLock`: the lock is not re-entrant), takes `now` (and `ids` when it creates a
/// document), validates, writes atomically and returns what it did. Reads take no lock. The
/// topics are in `BrewStore+Recipes`, `BrewStore+Logs` and `BrewStore+Brewing`.
public struct BrewStore: Sendable {
    /// The ledger.
    let store: LedgerStore

    /// The BrewGuide documents of `store`.
    public init(_ store: LedgerStore) {
        self.store = store
    }

    var recipeRepository: DocumentRepository<Recipe> { store.repository(Recipe.self) }
    var logRepository: DocumentRepository<BrewLog> { store.repository(BrewLog.self) }
    var preferencesFile: SingletonRepository<BrewPreferences> { store.singleton(BrewPreferences.self) }

    /// The preferences (the defaults while the file does not exist).
    public func preferences() throws -> BrewPreferences {
        try preferencesFile.load()
    }

    /// A fresh id no document of `repository` has (in the shard of `date`, for a document
    /// dated `date`: `DocumentRepository.contains(id:inShardOf:)`).
    func newID<D: CollectionDocument>(in repository: DocumentRepository<D>, _ ids: any IDSource, date: LocalDate? = nil) throws -> String {
        var id = ids.next()
        while try repository.contains(id: id, inShardOf: date) { id = ids.next() }
        return id
    }

    // MARK: - Status

    /// What `ledger status` says about BrewGuide.
    public struct Status: Sendable {
        /// How many brew logs there are.
        public var logCount: Int
        /// The most recent log (nil when there is none); `status()` throws `.invalid` when a hand
        /// edit broke it.
        public var latest: BrewLog?
        /// The brew in progress on this device.
        public var brewInProgress: BrewProgress?
    }

    /// BrewGuide's status, reading only the newest logs' year folder.
    public func status() throws -> Status {
        Status(logCount: try logCount(), latest: try latestLog(), brewInProgress: try? brewInProgress().progress)
    }
}
