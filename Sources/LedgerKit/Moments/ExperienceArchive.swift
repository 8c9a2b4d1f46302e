import Dispatch
import Foundation

extension DocumentRepository where D == Experience {
    /// The experiences whose recorded wall-clock time falls in `bucket`, reading only the
    /// month shards (`moments/experiences/<YYYY>/<MM>/`) the bucket overlaps: a day or a
    /// week is one or two directories, a year twelve, whatever the size of the ledger.
    ///
    /// Files are read and validated on `threads` threads. An invalid experience is refused
    /// with the problems `ledger check` reports (all of them, for every invalid file in the
    /// shards read). A file in the wrong shard is not seen here; `ledger check --fix` moves it.
    public func experiences(in bucket: MomentBucket,
                            threads: Int = ProcessInfo.processInfo.activeProcessorCount) throws -> [Experience] {
        var paths: [String] = []
        var month = MomentBucket(containing: bucket.firstDay, scale: .month)
        while month.firstDay <= bucket.lastDay {
            let dir = "\(directory)/\(pad(month.firstDay.year, 4))/\(pad(month.firstDay.month))"
            for e in try FileSystem.list(store.absolute(dir)) ?? [] where e.type == .file && e.name.hasSuffix(".json") {
                if DocumentID.isValid(e.name.dropLast(5)) { paths.append(dir + "/" + e.name) }
            }
            month = month.next
        }
        paths.sort()
        let files = paths
        let slots = ReadSlots(count: paths.count)
        let store = self.store
        let workers = paths.count >= 64 ? max(1, threads) : 1
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var i = worker
            while i < files.count {
                do {
                    if let bytes = try store.read(files[i]) {
                        slots.set(i, .success(try LedgerStore.decode(Experience.self, from: bytes, path: files[i])))
                    }
                } catch {
                    slots.set(i, .failure(error))
                }
                i += workers
            }
        }
        var found: [Experience] = []
        var problems: [Problem] = []
        var invalid: [String] = []
        for result in slots.values {
            switch result {
            case .success(let e)?: if bucket.contains(e.timestamp) { found.append(e) }
            case .failure(let error as LedgerError)? where error.code == .invalid && !error.problems.isEmpty:
                invalid.append(error.problems[0].path)
                problems += error.problems
            case .failure(let error)?: throw error
            case nil: break  // removed while we were reading
            }
        }
        if !problems.isEmpty {
            let what = invalid.count == 1 ? "\(invalid[0]) is invalid; fix it" : "\(invalid.count) experiences of \(bucket.label) are invalid; fix them"
            throw LedgerError.invalid("\(what) by hand and run `ledger check`:", problems: problems)
        }
        return found
    }
}

/// Per-file read results written by worker threads, each to its own index.
private final class ReadSlots: @unchecked Sendable {
    // @unchecked: every index is written by exactly one worker and read only after
    // `concurrentPerform` has returned.
    private let storage: UnsafeMutableBufferPointer<Result<Experience, any Error>?>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    func set(_ i: Int, _ value: Result<Experience, any Error>) { storage[i] = value }

    var values: UnsafeMutableBufferPointer<Result<Experience, any Error>?> { storage }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }
}
