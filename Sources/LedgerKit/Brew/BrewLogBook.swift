import Dispatch
import Foundation

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
            found += try load(byYear[year]!).filter { recipeID == nil || $0.recipeId == recipeID }
            if let limit, found.count >= limit { break }
        }
        found.sort { ($0.timestamp, $0.id) < ($1.timestamp, $1.id) }
        if let limit, found.count > limit { found.removeFirst(found.count - limit) }
        return found
    }

    /// The logs at `paths`, read and validated on every core; throws the first problem (in
    /// path order) when one is invalid.
    func load(_ paths: [String]) throws -> [BrewLog] {
        let store = repository.store
        let slots = Slots<Result<BrewLog?, Error>>(count: paths.count)
        let workers = paths.count >= 32 ? ProcessInfo.processInfo.activeProcessorCount : 1
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var i = worker
            while i < paths.count {
                slots.set(i, Result { try store.load(BrewLog.self, at: paths[i]) })
                i += workers
            }
        }
        return try slots.values.compactMap { try $0!.get() }
    }

    /// The most recent log.
    public func latest() throws -> BrewLog? { try logs(limit: 1).last }

    /// How many logs there are (from the file names alone).
    public func count() throws -> Int { try repository.index().count }
}

/// Results written by worker threads, each to its own index, and read once they are done.
private final class Slots<T>: @unchecked Sendable {
    // @unchecked: each index is written by exactly one worker, and read only after
    // `concurrentPerform` returned, which orders the writes before the reads. The storage is
    // a raw buffer, so concurrent writes to distinct indices never touch shared state.
    private let storage: UnsafeMutableBufferPointer<T?>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    func set(_ i: Int, _ value: T) { storage[i] = value }

    var values: [T?] { Array(storage) }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }
}
