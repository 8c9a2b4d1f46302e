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
        /// The record's line, copied unchanged into the next record.
        var line: [UInt8] = []
    }

    /// One directory's lines of the record: the bytes, and each file's line in them.
    struct Block: Sendable {
        var bytes: [UInt8] = []
        var lines: [String: Range<Int>] = [:]

        /// The entry recorded for `name`, parsed.
        func entry(_ name: String) -> Entry? {
            guard let r = lines[name] else { return nil }
            return CheckCache.parse(bytes[r])
        }
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
                let name = String(decoding: line[(line.startIndex + 2)..<tab], as: UTF8.self)
                block.lines[name] = start..<block.bytes.count
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

        func add(dir: String, name: String, entry: Entry, unchanged: Bool) {
            if currentDir != dir {
                append("D\t\(dir)\n")
                currentDir = dir
            }
            entriesWritten += 1
            if unchanged, !entry.line.isEmpty {
                buffer.append(contentsOf: entry.line)
                buffer.append(0x0A)
                if buffer.count >= 1 << 16 { flush() }
                return
            }
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
        var fields: [Range<Int>] = []
        fields.reserveCapacity(8)
        var start = line.startIndex
        for i in line.indices where line[i] == 0x09 {
            fields.append(start..<i)
            start = i + 1
        }
        fields.append(start..<line.endIndex)
        guard fields.count == 8 else { return nil }
        func number(_ r: Range<Int>) -> UInt64? {
            guard !r.isEmpty, r.count <= 20 else { return nil }
            var v: UInt64 = 0
            for b in line[r] {
                guard b >= 0x30, b <= 0x39 else { return nil }
                v = v &* 10 &+ UInt64(b - 0x30)
            }
            return v
        }
        guard let size = number(fields[2]), let m = number(fields[3]), let c = number(fields[4]), let ino = number(fields[5])
        else { return nil }
        let tags = fields[6].isEmpty ? [] : String(decoding: line[fields[6]], as: UTF8.self).split(separator: "\u{1F}").map(String.init)
        let refs: [DocumentReference] = fields[7].isEmpty ? [] :
            String(decoding: line[fields[7]], as: UTF8.self).split(separator: "\u{1E}").compactMap { r in
                let p = r.split(separator: "\u{1F}", omittingEmptySubsequences: false)
                guard p.count == 3 else { return nil }
                return DocumentReference(pointer: JSONPointer(stringLiteral: String(p[2])), kindName: String(p[0]), id: String(p[1]))
            }
        let stamp = FileSystem.Stamp(size: Int64(size), modifiedNanoseconds: Int64(bitPattern: m),
                                     changedNanoseconds: Int64(bitPattern: c), inode: ino, type: .file)
        return Entry(stamp: stamp, tags: tags, references: refs, line: Array(line))
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
