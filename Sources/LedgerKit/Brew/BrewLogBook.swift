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
            if let limit, recipeID == nil {
                found += try load(newest(limit - found.count, of: byYear[year]!))
            } else {
                found += try load(byYear[year]!).filter { recipeID == nil || $0.recipeId == recipeID }
            }
            if let limit, found.count >= limit { break }
        }
        found.sort { ($0.timestamp, $0.id) < ($1.timestamp, $1.id) }
        if let limit, found.count > limit { found.removeFirst(found.count - limit) }
        return found
    }

    /// The files of the `n` most recent logs among `paths` (by timestamp, then id), chosen
    /// from the bytes of each file without decoding it (see `quickTimestamp`); files whose
    /// timestamp cannot be found that way are all kept, to be decoded.
    func newest(_ n: Int, of paths: [String]) throws -> [String] {
        guard paths.count > n else { return paths }
        var dated: [(timestamp: Timestamp, id: String, path: String)] = []
        var undated: [String] = []
        for path in paths {
            if let bytes = try repository.store.read(path), let t = Self.quickTimestamp(bytes) {
                dated.append((t, ((path as NSString).lastPathComponent as NSString).deletingPathExtension, path))
            } else {
                undated.append(path)
            }
        }
        dated.sort { ($0.timestamp, $0.id) > ($1.timestamp, $1.id) }
        return dated.prefix(n).map(\.path) + undated
    }

    /// The `timestamp` of a log as ledger writes it: canonical JSON puts each top-level member
    /// on its own line after two spaces, and no JSON string holds a raw newline, so the bytes
    /// `\n  "timestamp": "` can only start that member. Nil for a file in another form.
    static func quickTimestamp(_ bytes: [UInt8]) -> Timestamp? {
        let key = Array("\n  \"timestamp\": \"".utf8)
        guard bytes.count > key.count else { return nil }
        var i = 0
        let last = bytes.count - key.count
        while i <= last {
            if bytes[i] == 0x0A, bytes[i..<(i + key.count)].elementsEqual(key) {
                let start = i + key.count
                guard let end = bytes[start...].firstIndex(of: 0x22) else { return nil }
                return Timestamp(iso8601: String(decoding: bytes[start..<end], as: UTF8.self))
            }
            i += 1
        }
        return nil
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
