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
    /// How many month folders the record keeps: the last view's, then those of the views
    /// before it (`ledger status` views today and this week, which may reach into last month).
    static let keptFolders = 3

    struct Entry {
        var stamp: String
        var time: Timestamp
        /// The recorded mtime (nanoseconds), part of `stamp`.
        var modified: Int64 { stamp.split(separator: ":").dropFirst().first.flatMap { Int64($0) } ?? .max }
    }

    /// By month folder, most recently viewed first, then by file name.
    private(set) var folders: [(path: String, files: [String: Entry])] = []
    /// Files modified at or after this (nanoseconds, the file system's clock) are not vouched for.
    private var racyThreshold = Int64.min
    /// Whether a time was recorded rather than kept.
    private var recorded = false

    static func location(_ store: LedgerStore) -> String { store.localState(fileName) }

    /// The record on disk; empty when there is none or it cannot be read.
    static func read(_ store: LedgerStore) -> MomentTimes {
        var record = MomentTimes()
        // The record's stamp before its contents: a newer record read meanwhile only makes
        // the racy window wider.
        guard let written = FileSystem.stamp(location(store)),
              let bytes = FileSystem.readCache(location(store), limit: 64 << 20) else { return record }
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        guard let first = lines.first, String(decoding: first, as: UTF8.self) == header else { return record }
        for line in lines.dropFirst() {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 4, let ms = Int64(String(decoding: fields[2], as: UTF8.self)),
                  let offset = Int(String(decoding: fields[3], as: UTF8.self)) else { return MomentTimes() }
            let (folder, name) = FileSystem.split(String(decoding: fields[0], as: UTF8.self))
            if record.folders.last?.path != folder { record.folders.append((folder, [:])) }
            record.folders[record.folders.count - 1].files[name] =
                Entry(stamp: String(decoding: fields[1], as: UTF8.self), time: Timestamp(epochMilliseconds: ms, utcOffsetSeconds: offset))
        }
        record.racyThreshold = written.modifiedNanoseconds - ActiveSessionHint.racyNanoseconds
        return record
    }

    private func entry(_ folder: String, _ name: String) -> Entry? {
        folders.first { $0.path == folder }?.files[name]
    }

    /// The recorded time of `name` in `folder`, when the record vouches for the file as it is
    /// stamped now.
    func time(of name: String, in folder: String, stamped current: FileSystem.Stamp) -> Timestamp? {
        guard let e = entry(folder, name), e.stamp == current.encoded, current.modifiedNanoseconds < racyThreshold else { return nil }
        return e.time
    }

    /// Starts the lines of month folder `path`, which this view lists.
    mutating func begin(_ path: String) {
        folders.append((path, [:]))
    }

    /// Keeps what `old` vouched for of `name` in the folder begun last.
    mutating func keep(_ name: String, from old: MomentTimes) {
        folders[folders.count - 1].files[name] = old.entry(folders[folders.count - 1].path, name)
    }

    /// Records the time of `name` in `folder`, read when it was stamped `stamp` (unless it is
    /// kept as it was).
    mutating func record(_ name: String, in folder: String, stamped stamp: FileSystem.Stamp, at time: Timestamp) {
        guard let i = folders.firstIndex(where: { $0.path == folder }), folders[i].files[name]?.stamp != stamp.encoded else { return }
        folders[i].files[name] = Entry(stamp: stamp.encoded, time: time)
        recorded = true
    }

    /// Writes the record — this view's folders, then those of `old` it did not list, up to
    /// `keptFolders` — when it says something else than `old` does: a file read (new, changed,
    /// or racily clean when `old` was written) or gone. A line taken over from `old` must be
    /// one `old` vouched for: the new record's later time must not vouch for a file `old`
    /// saw changing.
    func write(_ store: LedgerStore, replacing old: MomentTimes) {
        var out = folders
        for folder in old.folders where out.count < Self.keptFolders && !out.contains(where: { $0.path == folder.path }) {
            out.append((folder.path, folder.files.filter { $0.value.modified < old.racyThreshold }))
        }
        let count = { (f: [(path: String, files: [String: Entry])]) in f.reduce(0) { $0 + $1.files.count } }
        guard recorded || count(out) != count(old.folders) else { return }
        var text = Self.header + "\n"
        for folder in out {
            for (name, e) in folder.files.sorted(by: { $0.key < $1.key }) {
                text += "\(folder.path)/\(name)\t\(e.stamp)\t\(e.time.epochMilliseconds)\t\(e.time.utcOffsetSeconds)\n"
            }
        }
        try? FileSystem.writeCache(Self.location(store), Array(text.utf8))
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
