import Foundation
@testable import LedgerKit
import LedgerTestSupport
import Testing

/// Paths made plain by their text alone, as Foundation's `URL.standardizedFileURL` makes them
/// (the commands use this instead: Foundation's way costs a quick command a tenth of its work).
@Suite struct FileSystemPathTests {
    @Test(arguments: [
        "/", "/a", "/a/", "/a//b", "/a/./b", "/a/b/..", "/a/b/../c", "/a/../../b", "/..", "/./.",
        "/home/me/ledger/.", "/home/me/./ledger/../ledger/", "/a/.../b", "/a/..b/c", "/a/b./../c",
        "/tmp/x/y/z/../../w", "//a///b//",
    ])
    func standardizedAsFoundationDoes(path: String) {
        #expect(FileSystem.standardized(path) == URL(fileURLWithPath: path).standardizedFileURL.path)
    }
}

/// Device-local caches written in place (`FileSystem.writeCache`): a reader gets what was
/// written whole, or nothing — never a mixture of two writes, nor a cut one.
@Suite struct FileSystemCacheTests {
    let dir = TemporaryDirectory("cache")
    var path: String { dir.path + "/state/cache" }

    @Test func aCacheIsRewrittenInPlaceAndReadBack() throws {
        let long = Array(String(repeating: "a long first version\n", count: 50).utf8)
        try FileSystem.writeCache(path, long)
        #expect(FileSystem.readCache(path, limit: 1 << 20) == long)
        let inode = try #require(FileSystem.stamp(path)).inode
        try FileSystem.writeCache(path, Array("short".utf8))
        #expect(FileSystem.readCache(path, limit: 1 << 20) == Array("short".utf8))
        #expect(FileSystem.stamp(path)?.inode == inode, "no new file: the same inode")
        #expect(FileSystem.readCache(dir.path + "/none", limit: 1 << 20) == nil)
    }

    @Test func aCutOrMixedCacheIsNone() throws {
        let body = Array("{\"session\": \"abc\", \"stamps\": {}}".utf8)
        try FileSystem.writeCache(path, body)
        let whole = try #require(try FileSystem.read(path))
        for n in 0..<whole.count {
            try Data(whole.prefix(n)).write(to: URL(fileURLWithPath: path))
            #expect(FileSystem.readCache(path, limit: 1 << 20) == nil, "cut after \(n) bytes")
        }
        // A longer old one under it, before the new one's length is set: the new one.
        try Data(whole + Array("old tail".utf8)).write(to: URL(fileURLWithPath: path))
        #expect(FileSystem.readCache(path, limit: 1 << 20) == body)
        // A byte of another write in it: none.
        var mixed = whole
        mixed[mixed.count - 3] = UInt8(ascii: "X")
        try Data(mixed).write(to: URL(fileURLWithPath: path))
        #expect(FileSystem.readCache(path, limit: 1 << 20) == nil)
        // A file written another way (an older version's hint): none.
        try Data(body).write(to: URL(fileURLWithPath: path))
        #expect(FileSystem.readCache(path, limit: 1 << 20) == nil)
    }
}

/// A document rewritten by a command keeps who may read and write it, as an editor keeps it:
/// a log made private with `chmod 600` is not made world-readable by the next drink.
@Suite struct FileSystemPermissionTests {
    let dir = TemporaryDirectory("modes")

    func mode(_ name: String) -> mode_t {
        var st = stat()
        _ = lstat(dir.url(name), &st)
        return st.st_mode & 0o7777
    }

    @Test func aRewriteKeepsTheFilesPermissions() throws {
        for (before, after) in [(0o600, 0o600), (0o444, 0o444), (0o640, 0o640), (0o755, 0o644)] as [(mode_t, mode_t)] {
            try FileSystem.writeAtomically("doc.json", under: dir.path, Array("{}\n".utf8))
            chmod(dir.url("doc.json"), before)
            try FileSystem.writeAtomically("doc.json", under: dir.path, Array("{\"a\": 1}\n".utf8))
            #expect(mode("doc.json") == after, "a file of mode \(String(before, radix: 8))")
            #expect(try FileSystem.read(dir.url("doc.json")) == Array("{\"a\": 1}\n".utf8))
        }
    }

    @Test func anExecutableCheckoutIsExecutableWhereReadable() throws {
        try FileSystem.writeAtomically("run.sh", under: dir.path, Array("true\n".utf8))
        chmod(dir.url("run.sh"), 0o600)
        try FileSystem.writeAtomically("run.sh", under: dir.path, Array("true\n".utf8), mode: 0o755)
        #expect(mode("run.sh") == 0o700)
    }
}
