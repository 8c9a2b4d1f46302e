import Foundation

/// Reading brew logs in order: all of them, one recipe's, or only the most recent (which
/// reads only the newest years' folders).
public struct BrewLogBook: Sendable {
    public let repository: DocumentRepository<BrewLog>

    public init(store: LedgerStore) { repository = store.repository(BrewLog.self) }

    /// Logs in chronological order (by timestamp, then id); those of `recipeID` only when
    /// given; with `limit`, the `limit` most recent. Throws on the first invalid log read.
    public func logs(recipeID: String? = nil, limit: Int? = nil) throws -> [BrewLog] {
        // Year folders newest first, each listed only when it is needed.
        var found: [BrewLog] = []
        for year in try yearFolders() {
            let paths = try files(in: year)
            if let limit, recipeID == nil {
                found += try load(newest(limit - found.count, of: paths))
            } else {
                found += try load(paths).filter { recipeID == nil || $0.recipeId == recipeID }
            }
            if let limit, found.count >= limit { break }
        }
        found.sort { ($0.timestamp, $0.id) < ($1.timestamp, $1.id) }
        if let limit, found.count > limit { found.removeFirst(found.count - limit) }
        return found
    }

    /// The year folders of `brew/logs` (relative paths), newest first.
    func yearFolders() throws -> [String] { try repository.files.shards() }

    /// The log files of one year folder (relative paths).
    func files(in folder: String) throws -> [String] { try repository.files.files(in: folder).map(\.path) }

    /// The files of the `n` most recent logs among `paths` (by timestamp, then id), chosen
    /// from the bytes of each file without decoding it (`MemberPeek`); files whose timestamp
    /// cannot be found that way are all kept, to be decoded.
    func newest(_ n: Int, of paths: [String]) throws -> [String] {
        guard paths.count > n else { return paths }
        let store = repository.store
        let stamps = try Parallel.map(paths, threads: store.workerThreads) { path in
            Result { try store.read(path).flatMap(Self.quickTimestamp) }
        }.map { try $0.get() }
        var dated: [(timestamp: Timestamp, id: String, path: String)] = []
        var undated: [String] = []
        for (path, stamp) in zip(paths, stamps) {
            if let stamp {
                dated.append((stamp, ((path as NSString).lastPathComponent as NSString).deletingPathExtension, path))
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

    /// The logs at `paths`, read and validated on the store's worker threads; throws the
    /// first problem (in path order) when one is invalid.
    func load(_ paths: [String]) throws -> [BrewLog] { try repository.load(paths) }

    /// The most recent log.
    public func latest() throws -> BrewLog? { try logs(limit: 1).last }

    /// How many logs there are (from the file names alone).
    public func count() throws -> Int { try yearFolders().reduce(0) { try $0 + files(in: $1).count } }
}
