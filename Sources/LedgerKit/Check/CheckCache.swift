import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The device-local record of files that were clean at the last `ledger check`
/// (`.git/ledger/check-cache`), so a revalidation after one hand edit reads one file.
///
/// A file is skipped only when its size, mtime, ctime and inode all match the record and it
/// was not modified within two seconds before the record was written (the "racily clean"
/// rule git uses: an edit in the same clock tick as the check could otherwise go unseen).
/// The record is text, grouped by directory in the order `check` walks, and is read and
/// written as a stream in lockstep with the walk, so its memory cost does not grow with the
/// ledger.
///
///     ledger-check-cache	<revision>
///     D	waterline/presets
///     F	beer.json	<size>	<mtime ns>	<ctime ns>	<inode>	<tags>	<references>
enum CheckCache {
    /// Bump when validation rules change in a way that could turn a clean file invalid.
    static let revision = "1"

    static func header(_ schema: Schema) -> String {
        "ledger-check-cache\t\(revision)\t\(schema.documentTypes.map(\.kind.name).joined(separator: ","))"
    }

    /// What is remembered of one clean file.
    struct Entry: Sendable {
        var stamp: FileSystem.Stamp
        var tags: [String]
        var references: [DocumentReference]
    }

    /// One directory's lines of the record: the bytes, and each file's line in them.
    struct Block: Sendable {
        var bytes: [UInt8] = []
        /// Each file's line, by `CheckCache.nameHash` of its name.
        var lines: [UInt64: Range<Int>] = [:]

        /// The line recorded for the file `name` (to parse with `CheckCache.parse`).
        func line(for name: String) -> ArraySlice<UInt8>? {
            guard !lines.isEmpty else { return nil }
            var n = name
            return n.withUTF8 { nb -> ArraySlice<UInt8>? in
                guard let r = lines[CheckCache.nameHash(nb)] else { return nil }
                // "F\t<name>\t": make sure it is this name, not a hash collision.
                let nameStart = r.lowerBound + 2, nameEnd = nameStart + nb.count
                guard nameEnd < r.upperBound, bytes[nameEnd] == 0x09,
                      Bytes.equal(bytes[nameStart..<nameEnd], nb) else { return nil }
                return bytes[r]
            }
        }
    }

    /// FNV-1a of a file name's bytes.
    static func nameHash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    /// Reads the record one directory block at a time.
    final class Reader {
        private var lines: LineReader
        private var pending: String?  // the next block's directory, already read
        /// Files changed after this instant (ns) are never trusted.
        let racyThreshold: Int64
        /// Entries read so far, and whether blocks were skipped (directories gone).
        private(set) var entriesRead = 0
        private(set) var skippedBlocks = false

        init?(path: String, schema: Schema) {
            guard let stamp = FileSystem.stamp(path), let lines = LineReader(path: path) else { return nil }
            self.lines = lines
            racyThreshold = stamp.modifiedNanoseconds - 2_000_000_000
            guard let first = lines.next(), String(decoding: first, as: UTF8.self) == CheckCache.header(schema) else { return nil }
            pending = Self.directory(lines.next())
        }

        /// Whether every line has been read.
        var atEnd: Bool { pending == nil && lines.atEnd }

        private static func directory(_ line: ArraySlice<UInt8>?) -> String? {
            guard let line, line.count >= 2, line.first == UInt8(ascii: "D"), line[line.startIndex + 1] == 0x09 else { return nil }
            return String(decoding: line.dropFirst(2), as: UTF8.self)
        }

        /// The lines recorded for `dir`, which the walk visits now, by file name (parse them
        /// with `CheckCache.parse`); blocks of directories the walk has passed without visiting
        /// are skipped.
        func block(for dir: String) -> Block {
            while let d = pending, CheckCache.walkOrderPrecedes(d, dir) { skipBlock() }
            guard pending == dir else { return Block() }
            var block = Block()
            pending = nil
            while let line = lines.next() {
                if let d = Self.directory(line) { pending = d; break }
                // "F\t<name>\t…": the name is between the first two tabs.
                guard line.count > 2, line.first == UInt8(ascii: "F"), let tab = line.dropFirst(2).firstIndex(of: 0x09) else { continue }
                let start = block.bytes.count
                block.bytes.append(contentsOf: line)
                block.lines[CheckCache.nameHash(line[(line.startIndex + 2)..<tab])] = start..<block.bytes.count
                entriesRead += 1
            }
            return block
        }

        private func skipBlock() {
            pending = nil
            skippedBlocks = true
            while let line = lines.next() {
                if let d = Self.directory(line) { pending = d; return }
            }
        }
    }

    /// Writes a new record beside the old one and renames it into place on `commit()`.
    final class Writer {
        private let path: String
        private let tmp: String
        private let fd: Int32
        private var buffer: [UInt8] = []
        private var currentDir: String?
        private var failed = false
        /// Entries written, and whether any of them was not taken unchanged from the old record.
        private(set) var entriesWritten = 0
        private(set) var changed = false

        init?(path: String, schema: Schema) {
            self.path = path
            tmp = path + ".tmp-\(getpid())"
            try? FileSystem.makeDirectories((path as NSString).deletingLastPathComponent)
            fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return nil }
            buffer.reserveCapacity(1 << 16)
            append(CheckCache.header(schema) + "\n")
        }

        /// Records a file's line from the old record, unchanged.
        func add(dir: String, line: ArraySlice<UInt8>) {
            enter(dir)
            entriesWritten += 1
            buffer.append(contentsOf: line)
            buffer.append(0x0A)
            if buffer.count >= 1 << 16 { flush() }
        }

        private func enter(_ dir: String) {
            if currentDir != dir {
                append("D\t\(dir)\n")
                currentDir = dir
            }
        }

        /// Records a file newly found clean.
        func add(dir: String, name: String, entry: Entry) {
            enter(dir)
            entriesWritten += 1
            changed = true
            let s = entry.stamp
            buffer.append(UInt8(ascii: "F")); buffer.append(0x09)
            buffer.append(contentsOf: name.utf8); buffer.append(0x09)
            appendNumber(UInt64(s.size)); buffer.append(0x09)
            appendNumber(UInt64(bitPattern: s.modifiedNanoseconds)); buffer.append(0x09)
            appendNumber(UInt64(bitPattern: s.changedNanoseconds)); buffer.append(0x09)
            appendNumber(s.inode); buffer.append(0x09)
            if !entry.tags.isEmpty { buffer.append(contentsOf: entry.tags.joined(separator: "\u{1F}").utf8) }
            buffer.append(0x09)
            if !entry.references.isEmpty {
                buffer.append(contentsOf: entry.references.map { "\($0.kind)\u{1F}\($0.id)\u{1F}\($0.pointer)" }.joined(separator: "\u{1E}").utf8)
            }
            buffer.append(0x0A)
            if buffer.count >= 1 << 16 { flush() }
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
            func number(_ from: Int, _ to: Int) -> UInt64? {
                guard to > from, to - from <= 20 else { return nil }
                var v: UInt64 = 0
                var i = from
                while i < to {
                    let d = b[i] &- 0x30
                    guard d < 10 else { return nil }
                    v = v &* 10 &+ UInt64(d)
                    i += 1
                }
                return v
            }
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
    /// is not in `except` (for a scoped check's rules across documents).
    static func taggedFacts(path: String, schema: Schema, store: LedgerStore, except: Set<String>) -> [DocumentFacts] {
        guard let lines = LineReader(path: path), let first = lines.next(),
              String(decoding: first, as: UTF8.self) == header(schema) else { return [] }
        var dir = ""
        var out: [DocumentFacts] = []
        while let line = lines.next() {
            if line.first == UInt8(ascii: "D"), line.count >= 2 {
                dir = String(decoding: line.dropFirst(2), as: UTF8.self)
                continue
            }
            // Cheap test first: most lines have neither tags nor references.
            guard line.count > 2, line.last != 0x09 || line.dropLast().last != 0x09,
                  let entry = parse(line), !entry.tags.isEmpty,
                  let tab = line.dropFirst(2).firstIndex(of: 0x09) else { continue }
            let name = String(decoding: line[(line.startIndex + 2)..<tab], as: UTF8.self)
            let file = dir.isEmpty ? name : dir + "/" + name
            guard !except.contains(file), let stamp = FileSystem.stamp(store.absolute(file)), stamp.size == entry.stamp.size,
                  stamp.modifiedNanoseconds == entry.stamp.modifiedNanoseconds, stamp.inode == entry.stamp.inode,
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
            if let nl = buffer[start..<end].firstIndex(of: 0x0A) {
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
