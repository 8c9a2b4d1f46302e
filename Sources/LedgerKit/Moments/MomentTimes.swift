import Foundation

/// The device-local record of when each experience of the last view's month folders happened
/// (`.git/ledger/moment-times`), so that a view reads only the files of its own span: `moments
/// today` listed and stamped its month's files but opened every one of them to peek at its
/// time (four system calls each, two hundred files in a busy month).
///
/// A file's recorded time is used only while the file's stamp (size, mtime, ctime, inode) is
/// the recorded one and it was modified more than two seconds before the record was written —
/// git's "racily clean" rule, as the active session's hint and `check`'s cache apply it. Any
/// other file is read, as before. Like them, the record is a cache: written atomically, not
/// flushed, and a record that cannot be read or written only costs the reads it saves.
///
///     ledger-moment-times	1
///     moments/experiences/2026/11/<id>.json	<size:mtime:ctime:inode>	<epoch ms>	<UTC offset s>
struct MomentTimes {
    static let fileName = "moment-times"
    static let header = "ledger-moment-times\t1"

    struct Entry {
        var stamp: String
        var time: Timestamp
    }

    /// By the file's path in the ledger.
    private(set) var entries: [String: Entry] = [:]
    /// Files modified at or after this (nanoseconds, the file system's clock) are not vouched for.
    private var racyThreshold = Int64.min

    static func location(_ store: LedgerStore) -> String { store.localState(fileName) }

    /// The record on disk; empty when there is none or it cannot be read.
    static func read(_ store: LedgerStore) -> MomentTimes {
        var record = MomentTimes()
        // The record's stamp before its contents: a newer record read meanwhile only makes
        // the racy window wider.
        guard let written = FileSystem.stamp(location(store)),
              let bytes = try? FileSystem.read(location(store), limit: 64 << 20) else { return record }
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        guard let first = lines.first, String(decoding: first, as: UTF8.self) == header else { return record }
        for line in lines.dropFirst() {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 4, let ms = Int64(String(decoding: fields[2], as: UTF8.self)),
                  let offset = Int(String(decoding: fields[3], as: UTF8.self)) else { return MomentTimes() }
            record.entries[String(decoding: fields[0], as: UTF8.self)] =
                Entry(stamp: String(decoding: fields[1], as: UTF8.self), time: Timestamp(epochMilliseconds: ms, utcOffsetSeconds: offset))
        }
        record.racyThreshold = written.modifiedNanoseconds - ActiveSessionHint.racyNanoseconds
        return record
    }

    /// The recorded time of the file at `path`, when the record vouches for the file as it is
    /// stamped now.
    func time(of path: String, stamped current: FileSystem.Stamp) -> Timestamp? {
        guard let e = entries[path], e.stamp == current.encoded, current.modifiedNanoseconds < racyThreshold else { return nil }
        return e.time
    }

    /// Keeps what `old` vouched for of the file at `path`.
    mutating func keep(_ path: String, from old: MomentTimes) {
        entries[path] = old.entries[path]
    }

    /// Records the time of the file at `path`, read when it was stamped `stamp` (unless it is
    /// kept as it was).
    mutating func record(_ path: String, stamped stamp: FileSystem.Stamp, at time: Timestamp) {
        if entries[path]?.stamp == stamp.encoded { return }
        entries[path] = Entry(stamp: stamp.encoded, time: time)
        recorded = true
    }

    /// Whether a time was recorded rather than kept.
    private var recorded = false

    /// Writes the record when it says something else than `old` does: a file read (new,
    /// changed, or racily clean when `old` was written) or gone.
    func write(_ store: LedgerStore, replacing old: MomentTimes) {
        guard recorded || entries.count != old.entries.count else { return }
        var text = Self.header + "\n"
        for (path, e) in entries.sorted(by: { $0.key < $1.key }) {
            text += "\(path)\t\(e.stamp)\t\(e.time.epochMilliseconds)\t\(e.time.utcOffsetSeconds)\n"
        }
        try? FileSystem.writeAtomically(Self.location(store), Array(text.utf8), durable: false)
    }
}

/// The times peeked from files on the store's worker threads, by path.
final class PeekedTimes: @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private let lock = NSLock()
    private var times: [String: Timestamp] = [:]

    subscript(path: String) -> Timestamp? {
        get { lock.withLock { times[path] } }
        set { lock.withLock { times[path] = newValue } }
    }
}
