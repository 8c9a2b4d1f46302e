/// Reading brew logs in order: all of them, one recipe's, or only the most recent (which
/// reads only the newest years' folders).
public struct BrewLogBook: Sendable {
    public let repository: DocumentRepository<BrewLog>

    public init(store: LedgerStore) { repository = store.repository(BrewLog.self) }

    /// Logs in chronological order (by timestamp, then id); those of `recipeID` only when
    /// given; with `limit`, the `limit` most recent. Throws on the first invalid log read.
    public func logs(recipeID: String? = nil, limit: Int? = nil) throws -> [BrewLog] {
        // Group the files by year folder, newest first, and read folders until enough are in.
        var byYear: [String: [String]] = [:]
        for (_, path) in try repository.index() {
            let parts = path.split(separator: "/")
            byYear[parts.count >= 4 ? String(parts[2]) : "", default: []].append(path)
        }
        var found: [BrewLog] = []
        for year in byYear.keys.sorted(by: >) {
            for path in byYear[year]! {
                if let log = try repository.store.load(BrewLog.self, at: path), recipeID == nil || log.recipeId == recipeID {
                    found.append(log)
                }
            }
            if let limit, found.count >= limit { break }
        }
        found.sort { ($0.timestamp, $0.id) < ($1.timestamp, $1.id) }
        if let limit, found.count > limit { found.removeFirst(found.count - limit) }
        return found
    }

    /// The most recent log.
    public func latest() throws -> BrewLog? { try logs(limit: 1).last }

    /// How many logs there are (from the file names alone).
    public func count() throws -> Int { try repository.index().count }
}
