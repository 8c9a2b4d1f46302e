import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The device-local record of the last `ledger check` (`.git/ledger/check-cache`): each
/// directory's entries and the files that were clean, so a revalidation after one hand edit
/// reads one file and lists no directory.
///
/// A file is skipped only when its size, mtime, ctime and inode all match the record and it
/// was not modified within two seconds before the check that wrote the record began (the
/// "racily clean" rule git uses: an edit in the same clock tick as the check could otherwise
/// go unseen). The record's mtime is set to that beginning.
/// A directory's entries are taken from the record under the same rule applied to the
/// directory itself, whose mtime changes whenever an entry is added, removed or renamed
/// (git's untracked cache relies on the same). The record is text, grouped by directory in
/// the order `check` walks, and is read and written as a stream in lockstep with the walk,
/// so its memory cost does not grow with the ledger.
///
///     ledger-check-cache	<revision>	<kinds>
///     D	brew/logs/2016	<size>	<mtime ns>	<ctime ns>	<inode>     (no stamp: list it again)
///     F	beer.json	<size>	<mtime ns>	<ctime ns>	<inode>	<tags>	<references>
///     E	notes.txt	<f, d, l or o>     (any other entry: a file with problems, a subdirectory)
enum CheckCache {
    /// Bump when validation rules change in a way that could turn a clean file invalid.
    static let revision = "6"

    static func header(_ schema: DocumentSchema) -> String {
        "ledger-check-cache\t\(revision)\t\(schema.documentTypes.map(\.kind.name).joined(separator: ","))"
    }

    /// What is remembered of one clean file.
    struct Entry: Sendable {
        var stamp: FileSystem.Stamp
        var tags: [String]
        var references: [DocumentReference]
    }

    /// One directory's lines of the record, in the order they were written (the order the
    /// directory was listed in then, which is usually the order it is listed in now).
    struct Block: Sendable {
        /// The directory's stamp when its entries were recorded (nil: not to be trusted).
        var directory: FileSystem.Stamp?
        /// The directory's other entries (`E` lines).
        var others: [(name: String, type: FileSystem.EntryType)] = []
        /// The `F` lines.
        var bytes: [UInt8] = []
        /// Where each line starts in `bytes`, then where the last one ends.
        var starts: [Int] = [0]

        /// The directory's entries as recorded, when it has not changed since (and was not
        /// changing while it was recorded).
        func entries(ifUnchanged current: FileSystem.Stamp, racyThreshold: Int64) -> [(String, FileSystem.EntryType)]? {
            guard let d = directory, d.vouches(for: current, racyThreshold: racyThreshold) else { return nil }
            var out: [(String, FileSystem.EntryType)] = []
            out.reserveCapacity(count + others.count)
            for i in 0..<count { out.append((String(decoding: name(i), as: UTF8.self), .file)) }
            for o in others { out.append((o.name, o.type)) }
            return out
        }

        var count: Int { starts.count - 1 }

        /// Line `i`, without its newline (to parse with `CheckCache.parse`).
        subscript(i: Int) -> ArraySlice<UInt8> { bytes[starts[i]..<(starts[i + 1] - 1)] }

        mutating func append(_ line: ArraySlice<UInt8>) {
            bytes.append(contentsOf: line)
            bytes.append(0x0A)
            starts.append(bytes.count)
        }

        /// Whether line `i` is the one of the file named `name`: it starts with "F\t<name>\t".
        func line(_ i: Int, isFor name: UnsafeBufferPointer<UInt8>) -> Bool {
            let start = starts[i] + 2, end = start + name.count
            guard end < starts[i + 1], bytes[end] == 0x09 else { return false }
            return bytes.withUnsafeBufferPointer { b in
                memcmp(b.baseAddress! + start, name.baseAddress!, name.count) == 0
            }
        }

        /// The name of line `i`'s file.
        func name(_ i: Int) -> ArraySlice<UInt8> {
            let from = starts[i] + 2
            let to = bytes[from..<(starts[i + 1] - 1)].firstIndex(of: 0x09) ?? starts[i + 1] - 1
            return bytes[from..<to]
        }
    }

    /// Finds files' lines in a block, for names asked in about the order they were recorded:
    /// each is looked for at the line after the last one found, then near it, and only then
    /// through an index of every name in the block (built once, when the order has changed).
    struct Lookup {
        let block: Block
        private var next: Int
        private var index: [UInt64: Int]?

        init(_ block: Block, from position: Int = 0) {
            self.block = block
            next = min(position, block.count)
        }

        /// The index of the line recorded for the file `name`.
        mutating func line(for name: String) -> Int? {
            guard block.count > 0 else { return nil }
            var n = name
            return n.withUTF8 { nb -> Int? in
                for i in [next, next + 1, next - 1, next + 2, next - 2] where i >= 0 && i < block.count {
                    if block.line(i, isFor: nb) {
                        next = i + 1
                        return i
                    }
                }
                if index == nil {
                    var byName: [UInt64: Int] = [:]
                    byName.reserveCapacity(block.count)
                    for i in 0..<block.count { byName[FNV1a.hash(block.name(i))] = i }
                    index = byName
                }
                guard let i = index?[FNV1a.hash(nb)], block.line(i, isFor: nb) else { return nil }
                next = i + 1
                return i
            }
        }
    }

    /// Whether `s` can be written in a field of the record (no tab, newline or return).
    static func recordable(_ s: String) -> Bool {
        !s.utf8.contains { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// A `D` line: the directory, and its stamp when its entries may be trusted.
    static func directory(_ line: ArraySlice<UInt8>?) -> (path: String, stamp: FileSystem.Stamp?)? {
        guard let line, line.count >= 2, line.first == UInt8(ascii: "D"), line[line.startIndex + 1] == 0x09 else { return nil }
        let fields = line.dropFirst(2).split(separator: 0x09, omittingEmptySubsequences: false)
        let path = String(decoding: fields[0], as: UTF8.self)
        let numbers = fields.dropFirst().compactMap { number($0) }
        guard fields.count == 5, numbers.count == 4 else { return (path, nil) }
        return (path, FileSystem.Stamp(size: Int64(numbers[0]), modifiedNanoseconds: Int64(bitPattern: numbers[1]),
                                       changedNanoseconds: Int64(bitPattern: numbers[2]), inode: numbers[3], type: .directory))
    }

    /// A decimal field.
    static func number(_ digits: some Collection<UInt8>) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 20 else { return nil }
        var v: UInt64 = 0
        for b in digits {
            let d = b &- 0x30
            guard d < 10 else { return nil }
            v = v &* 10 &+ UInt64(d)
        }
        return v
    }

    /// How an `E` line writes an entry's type.
    enum EntryTypeCode {
        static func code(_ t: FileSystem.EntryType) -> UInt8 {
            switch t {
            case .file: UInt8(ascii: "f")
            case .directory: UInt8(ascii: "d")
            case .symlink: UInt8(ascii: "l")
            case .other: UInt8(ascii: "o")
            }
        }

        static func type(_ c: UInt8) -> FileSystem.EntryType? {
            switch c {
            case UInt8(ascii: "f"): .file
            case UInt8(ascii: "d"): .directory
            case UInt8(ascii: "l"): .symlink
            case UInt8(ascii: "o"): .other
            default: nil
            }
        }
    }

    /// Reads the record one directory block at a time.
    final class Reader {
        private var lines: LineReader
        private var pending: (path: String, stamp: FileSystem.Stamp?)?  // the next block's directory, already read
        /// Files changed after this instant (ns) are never trusted.
        let racyThreshold: Int64
        /// About as many entries as the record holds (its size over the length of a short file line).
        let expectedEntries: Int
        /// Entries read so far, and whether blocks were skipped (directories gone).
        private(set) var entriesRead = 0
        private(set) var skippedBlocks = false

        init?(path: String, schema: DocumentSchema) {
            guard let stamp = FileSystem.stamp(path), let lines = LineReader(path: path) else { return nil }
            self.lines = lines
            racyThreshold = stamp.modifiedNanoseconds - 2_000_000_000
            expectedEntries = Int(stamp.size / 60)
            guard let first = lines.next(), String(decoding: first, as: UTF8.self) == CheckCache.header(schema) else { return nil }
            pending = CheckCache.directory(lines.next())
        }

        /// Whether every line has been read.
        var atEnd: Bool { pending == nil && lines.atEnd }


        /// The lines recorded for `dir`, which the walk visits now, by file name (parse them
        /// with `CheckCache.parse`); blocks of directories the walk has passed without visiting
        /// are skipped.
        func block(for dir: String) -> Block {
            while let d = pending, CheckCache.walkOrderPrecedes(d.path, dir) { skipBlock() }
            guard let d = pending, d.path == dir else { return Block() }
            var block = Block(directory: d.stamp)
            pending = nil
            while let line = lines.next() {
                if let d = CheckCache.directory(line) { pending = d; break }
                guard line.count > 2, line[line.startIndex + 1] == 0x09 else { continue }
                switch line.first {
                case UInt8(ascii: "F"):  // "F\t<name>\t<size>\t<mtime>\t<ctime>\t<inode>\t<tags>\t<refs>"
                    // A damaged line (say, cut short) does not name its file reliably: the
                    // directory is listed again rather than trusted.
                    let tabs = line.withUnsafeBufferPointer { b in b.reduce(0) { $0 + ($1 == 0x09 ? 1 : 0) } }
                    if tabs != 7 { block.directory = nil }
                    block.append(line)
                case UInt8(ascii: "E"):  // "E\t<name>\t<type>"
                    guard let tab = line.dropFirst(2).lastIndex(of: 0x09), tab + 2 == line.endIndex,
                          let type = EntryTypeCode.type(line[tab + 1]) else { block.directory = nil; continue }
                    block.others.append((String(decoding: line[(line.startIndex + 2)..<tab], as: UTF8.self), type))
                default:
                    continue
                }
                entriesRead += 1
            }
            return block
        }

        private func skipBlock() {
            pending = nil
            skippedBlocks = true
            while let line = lines.next() {
                if let d = CheckCache.directory(line) { pending = d; return }
            }
        }
    }

    /// Writes a new record beside the old one and renames it into place on `commit()`.
    final class Writer {
        private let path: String
        private let tmp: String
        private let fd: Int32
        private var buffer: [UInt8] = []
        /// Whether the current directory's lines are written (its path fits on a line).
        private var recording = false
        private var failed = false
        /// When the check writing this record began, by the file system's clock (the mtime
        /// of the new record as it was created).
        private var started = timespec()
        /// Entries written, and whether any of them was not taken unchanged from the old record.
        private(set) var entriesWritten = 0
        private(set) var changed = false

        init?(path: String, schema: DocumentSchema) {
            self.path = path
            tmp = path + ".tmp-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
            try? FileSystem.makeDirectories((path as NSString).deletingLastPathComponent)
            fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard fd >= 0 else { return nil }
            var st = stat()
            guard fstat(fd, &st) == 0 else {
                close(fd)
                unlink(tmp)
                return nil
            }
            #if canImport(Darwin)
            started = st.st_mtimespec
            #else
            started = st.st_mtim
            #endif
            buffer.reserveCapacity(1 << 16)
            append(CheckCache.header(schema) + "\n")
        }

        /// Starts the block of the directory `dir`, whose entries follow; `stamp` is the
        /// directory's when its entries may be trusted next time.
        func enter(_ dir: String, stamp: FileSystem.Stamp?) {
            recording = CheckCache.recordable(dir)
            guard recording else { return }
            append("D\t")
            append(dir)
            if let s = stamp { appendStamp(s) }
            buffer.append(0x0A)
        }

        /// Notes that the record differs from the old one (it has to be rewritten).
        func noteChange() { changed = true }

        /// Records a clean file's line from the old record, unchanged.
        func add(line: ArraySlice<UInt8>) {
            guard recording else { return }
            entriesWritten += 1
            buffer.append(contentsOf: line)
            buffer.append(0x0A)
            if buffer.count >= 1 << 16 { flush() }
        }

        /// Records a file newly found clean.
        func add(name: String, entry: Entry) {
            guard recording, CheckCache.recordable(name) else { return }
            let tags = entry.tags.joined(separator: "\u{1F}")
            let references = entry.references.map { "\($0.kind)\u{1F}\($0.id)\u{1F}\($0.pointer)" }.joined(separator: "\u{1E}")
            changed = true
            guard CheckCache.recordable(tags), CheckCache.recordable(references) else {
                return addOther(name: name, type: .file)  // listed, but checked every time
            }
            entriesWritten += 1
            buffer.append(UInt8(ascii: "F")); buffer.append(0x09)
            buffer.append(contentsOf: name.utf8)
            appendStamp(entry.stamp)
            buffer.append(0x09)
            buffer.append(contentsOf: tags.utf8)
            buffer.append(0x09)
            buffer.append(contentsOf: references.utf8)
            buffer.append(0x0A)
            if buffer.count >= 1 << 16 { flush() }
        }

        /// Records any other entry of the directory: a file with problems, a subdirectory.
        func addOther(name: String, type: FileSystem.EntryType) {
            // A name that does not fit on a line is left out (its directory's D line then has
            // no stamp, so the directory is listed every time).
            guard recording, CheckCache.recordable(name) else { return }
            entriesWritten += 1
            buffer.append(UInt8(ascii: "E")); buffer.append(0x09)
            buffer.append(contentsOf: name.utf8); buffer.append(0x09)
            buffer.append(EntryTypeCode.code(type))
            buffer.append(0x0A)
            if buffer.count >= 1 << 16 { flush() }
        }

        /// "\t<size>\t<mtime ns>\t<ctime ns>\t<inode>"
        private func appendStamp(_ s: FileSystem.Stamp) {
            buffer.append(0x09); appendNumber(UInt64(s.size))
            buffer.append(0x09); appendNumber(UInt64(bitPattern: s.modifiedNanoseconds))
            buffer.append(0x09); appendNumber(UInt64(bitPattern: s.changedNanoseconds))
            buffer.append(0x09); appendNumber(s.inode)
        }

        private func appendNumber(_ n: UInt64) {
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                          UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var count = 0
            var v = n
            withUnsafeMutableBytes(of: &digits) { d in
                repeat {
                    d[count] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
                    v /= 10
                    count += 1
                } while v > 0
                for i in stride(from: count - 1, through: 0, by: -1) { buffer.append(d[i]) }
            }
        }

        private func append(_ s: String) {
            buffer.append(contentsOf: s.utf8)
            if buffer.count >= 1 << 16 { flush() }
        }

        private func flush() {
            var done = 0
            while done < buffer.count {
                let n = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + done, buffer.count - done) }
                if n <= 0 { failed = true; break }
                done += n
            }
            buffer.removeAll(keepingCapacity: true)
        }

        /// Puts the new record in place (a failure just leaves the old one or none).
        func commit() {
            flush()
            // The record's mtime says when the check began: anything stat'ed by it and changed
            // within two seconds of that is racy (a run can take seconds, and a directory or
            // file changed twice in one clock tick keeps its stamp).
            var times = [started, started]
            _ = futimens(fd, &times)
            close(fd)
            if failed || rename(tmp, path) != 0 { unlink(tmp) }
        }

        func abandon() {
            close(fd)
            unlink(tmp)
        }
    }

    /// One `F` line: name, four numbers, tags and references, separated by tabs.
    static func parse(_ line: ArraySlice<UInt8>) -> Entry? {
        line.withUnsafeBufferPointer { b -> Entry? in
            // Field boundaries: exactly seven tabs.
            var tabs: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
            var count = 0
            withUnsafeMutableBytes(of: &tabs) { t in
                let ints = t.bindMemory(to: Int.self)
                var i = 0
                while i < b.count {
                    if b[i] == 0x09 {
                        if count < 7 { ints[count] = i }
                        count += 1
                    }
                    i += 1
                }
            }
            guard count == 7, b.count > 2, b[0] == UInt8(ascii: "F"), tabs.0 == 1, tabs.1 > 2 else { return nil }
            func number(_ from: Int, _ to: Int) -> UInt64? { CheckCache.number(UnsafeBufferPointer(rebasing: b[from..<to])) }
            guard let size = number(tabs.1 + 1, tabs.2), let m = number(tabs.2 + 1, tabs.3),
                  let c = number(tabs.3 + 1, tabs.4), let ino = number(tabs.4 + 1, tabs.5) else { return nil }
            let stamp = FileSystem.Stamp(size: Int64(size), modifiedNanoseconds: Int64(bitPattern: m),
                                         changedNanoseconds: Int64(bitPattern: c), inode: ino, type: .file)
            guard tabs.6 > tabs.5 + 1 || tabs.6 + 1 < b.count else { return Entry(stamp: stamp, tags: [], references: []) }
            let tagBytes = b[(tabs.5 + 1)..<tabs.6], refBytes = b[(tabs.6 + 1)...]
            let tags = tagBytes.isEmpty ? [] : tagBytes.split(separator: 0x1F).map { String(decoding: $0, as: UTF8.self) }
            let refs: [DocumentReference] = refBytes.isEmpty ? [] : refBytes.split(separator: 0x1E).compactMap { r in
                let p = r.split(separator: 0x1F, omittingEmptySubsequences: false)
                guard p.count == 3 else { return nil }
                return DocumentReference(pointer: JSONPointer(stringLiteral: String(decoding: p[2], as: UTF8.self)),
                                         kindName: String(decoding: p[0], as: UTF8.self), id: String(decoding: p[1], as: UTF8.self))
            }
            return Entry(stamp: stamp, tags: tags, references: refs)
        }
    }

    /// The facts of every file the record lists with tags, whose stamp still matches and that
    /// `include` accepts (for a scoped check's rules across documents).
    static func taggedFacts(path: String, schema: DocumentSchema, store: LedgerStore, include: (String) -> Bool) -> [DocumentFacts] {
        guard let lines = LineReader(path: path), let first = lines.next(),
              String(decoding: first, as: UTF8.self) == header(schema) else { return [] }
        var dir = ""
        var out: [DocumentFacts] = []
        while let line = lines.next() {
            if let d = directory(line) {
                dir = d.path
                continue
            }
            // Cheap test first: most lines have neither tags nor references.
            guard line.count > 2, line.last != 0x09 || line.dropLast().last != 0x09,
                  let entry = parse(line), !entry.tags.isEmpty,
                  let tab = line.dropFirst(2).firstIndex(of: 0x09) else { continue }
            let name = String(decoding: line[(line.startIndex + 2)..<tab], as: UTF8.self)
            let file = dir.isEmpty ? name : dir + "/" + name
            guard include(file), let stamp = FileSystem.stamp(file, under: store.root), entry.stamp.vouches(for: stamp),
                  case .document(let t, let id) = FileRole.classify(file, type: .file, in: schema) else { continue }
            out.append(DocumentFacts(path: file, kind: t.kind.name, id: id, references: entry.references, tags: entry.tags))
        }
        return out
    }

    /// The order `check` visits directories in: depth first, names compared byte by byte.
    static func walkOrderPrecedes(_ a: String, _ b: String) -> Bool {
        let x = a.split(separator: "/", omittingEmptySubsequences: false)
        let y = b.split(separator: "/", omittingEmptySubsequences: false)
        for (p, q) in zip(x, y) where p != q {
            return p.utf8.lexicographicallyPrecedes(q.utf8)
        }
        return x.count < y.count
    }
}

/// Lines of a file through a fixed-size buffer.
final class LineReader {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var eof = false

    init?(path: String) {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return nil }
    }

    deinit { close(fd) }

    /// Whether the whole file has been returned.
    var atEnd: Bool { eof && start >= end }

    /// The next line without its newline, or nil at the end. The slice is valid until the
    /// next call.
    func next() -> ArraySlice<UInt8>? {
        while true {
            let newline = buffer.withUnsafeBufferPointer { b -> Int? in
                guard end > start, let p = memchr(b.baseAddress! + start, 0x0A, end - start) else { return nil }
                return UnsafeRawPointer(b.baseAddress!).distance(to: UnsafeRawPointer(p))
            }
            if let nl = newline {
                let line = buffer[start..<nl]
                start = nl + 1
                return line
            }
            if eof {
                guard start < end else { return nil }
                let line = buffer[start..<end]
                start = end
                return line
            }
            if start > 0 {
                buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
                end -= start
                start = 0
            }
            if end == buffer.count { buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count)) }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + end, $0.count - end) }
            if n <= 0 { eof = true } else { end += n }
        }
    }
}
