import Dispatch
import Foundation

/// Running the same work over many items on several threads, with results in item order:
/// the one way LedgerKit reads many documents at once.
enum Parallel {
    /// The processors online, counted once (`sysconf`). Foundation's `activeProcessorCount`
    /// also reads the cgroup's quota, through `URL` and `Data`: 0.45 million instructions on
    /// first use, a tenth of `moments today`. Where fewer may run the process, the work is
    /// split in more parts than run at once, which costs nothing but the split.
    static let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    /// `body` applied to every item, on up to `threads` threads once there are at least
    /// `threshold` items (thread start-up costs more than a few small reads).
    static func map<T: Sendable, R>(_ items: [T], threads: Int, threshold: Int = 32,
                                    _ body: @escaping @Sendable (T) -> R) -> [R] {
        let workers = items.count >= threshold ? max(1, min(threads, items.count)) : 1
        if workers == 1 { return items.map(body) }
        let slots = Slots<R>(count: items.count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var i = worker
            while i < items.count {
                slots.set(i, body(items[i]))
                i += workers
            }
        }
        return slots.values
    }
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

    var values: [T] { storage.map { $0! } }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }
}
