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

    /// Reads the record one directory block at a time.
    final class Reader {
        private var lines: LineReader
        private var pending: String?  // the next block's directory, already read
        /// Files changed after this instant (ns) are never trusted.
        let racyThreshold: Int64

        init?(path: String, schema: Schema) {
            guard let stamp = FileSystem.stamp(path), let lines = LineReader(path: path) else { return nil }
            self.lines = lines
            racyThreshold = stamp.modifiedNanoseconds - 2_000_000_000
            guard let first = lines.next(), first == CheckCache.header(schema) else { return nil }
            pending = lines.next().flatMap { $0.hasPrefix("D\t") ? String($0.dropFirst(2)) : nil }
        }

        /// The entries recorded for `dir`, which the walk visits now; blocks of directories
        /// the walk has passed without visiting are skipped.
        func entries(in dir: String) -> [String: Entry] {
            while let d = pending, CheckCache.walkOrderPrecedes(d, dir) { skipBlock() }
            guard pending == dir else { return [:] }
            var result: [String: Entry] = [:]
            pending = nil
            while let line = lines.next() {
                if line.hasPrefix("D\t") { pending = String(line.dropFirst(2)); break }
                if let (name, entry) = CheckCache.parse(line) { result[name] = entry }
            }
            return result
        }

        private func skipBlock() {
            pending = nil
            while let line = lines.next() {
                if line.hasPrefix("D\t") { pending = String(line.dropFirst(2)); return }
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

        init?(path: String, schema: Schema) {
            self.path = path
            tmp = path + ".tmp-\(getpid())"
            try? FileSystem.makeDirectories((path as NSString).deletingLastPathComponent)
            fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return nil }
            buffer.reserveCapacity(1 << 16)
            append(CheckCache.header(schema) + "\n")
        }

        func add(dir: String, name: String, entry: Entry) {
            if currentDir != dir {
                append("D\t\(dir)\n")
                currentDir = dir
            }
            let s = entry.stamp
            var line = "F\t\(name)\t\(s.size)\t\(s.modifiedNanoseconds)\t\(s.changedNanoseconds)\t\(s.inode)\t"
            line += entry.tags.joined(separator: "\u{1F}") + "\t"
            line += entry.references.map { "\($0.kind)\u{1F}\($0.id)\u{1F}\($0.pointer)" }.joined(separator: "\u{1E}")
            append(line + "\n")
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

    static func parse(_ line: Substring) -> (String, Entry)? {
        let f = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard f.count == 8, f[0] == "F", let size = Int64(f[2]), let m = Int64(f[3]), let c = Int64(f[4]), let ino = UInt64(f[5])
        else { return nil }
        let tags = f[6].isEmpty ? [] : f[6].split(separator: "\u{1F}").map(String.init)
        let refs: [DocumentReference] = f[7].isEmpty ? [] : f[7].split(separator: "\u{1E}").compactMap { r in
            let p = r.split(separator: "\u{1F}", omittingEmptySubsequences: false)
            guard p.count == 3 else { return nil }
            return DocumentReference(pointer: JSONPointer(stringLiteral: String(p[2])), kindName: String(p[0]), id: String(p[1]))
        }
        let stamp = FileSystem.Stamp(size: size, modifiedNanoseconds: m, changedNanoseconds: c, inode: ino, type: .file)
        return (String(f[1]), Entry(stamp: stamp, tags: tags, references: refs))
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

    /// The next line without its newline, or nil at the end.
    func next() -> Substring? {
        while true {
            if let nl = buffer[start..<end].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[start..<nl], as: UTF8.self)
                start = nl + 1
                return line[...]
            }
            if eof {
                guard start < end else { return nil }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = end
                return line[...]
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
