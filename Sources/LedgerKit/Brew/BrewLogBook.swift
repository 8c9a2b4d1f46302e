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
    func yearFolders() throws -> [String] {
        guard case .collection(let dir, _) = BrewLog.kind.location else { return [] }
        let entries = try FileSystem.list(repository.store.absolute(dir)) ?? []
        return entries.filter { $0.type == .directory && !$0.name.hasPrefix(".") }.map(\.name).sorted(by: >).map { dir + "/" + $0 }
    }

    /// The log files of one year folder (relative paths).
    func files(in folder: String) throws -> [String] {
        let entries = try FileSystem.list(repository.store.absolute(folder)) ?? []
        return entries.compactMap { e in
            guard e.type == .file, e.name.hasSuffix(".json"), DocumentID.isValid(e.name.dropLast(5)) else { return nil }
            return folder + "/" + e.name
        }
    }

    /// The files of the `n` most recent logs among `paths` (by timestamp, then id), chosen
    /// from the bytes of each file without decoding it (see `quickTimestamp`); files whose
    /// timestamp cannot be found that way are all kept, to be decoded.
    func newest(_ n: Int, of paths: [String]) throws -> [String] {
        guard paths.count > n else { return paths }
        let store = repository.store
        let stamps = try concurrently(paths) { path in try store.read(path).flatMap(Self.quickTimestamp) }
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
        return try concurrently(paths) { try store.load(BrewLog.self, at: $0) }.compactMap { $0 }
    }

    /// `body` applied to every element, on every core for long lists; rethrows the first
    /// error in element order.
    func concurrently<T, R>(_ items: [T], _ body: @escaping @Sendable (T) throws -> R) throws -> [R] where T: Sendable {
        let slots = Slots<Result<R, Error>>(count: items.count)
        let workers = items.count >= 32 ? ProcessInfo.processInfo.activeProcessorCount : 1
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var i = worker
            while i < items.count {
                slots.set(i, Result { try body(items[i]) })
                i += workers
            }
        }
        return try slots.values.map { try $0!.get() }
    }

    /// The most recent log.
    public func latest() throws -> BrewLog? { try logs(limit: 1).last }

    /// How many logs there are (from the file names alone).
    public func count() throws -> Int { try yearFolders().reduce(0) { try $0 + files(in: $1).count } }
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
