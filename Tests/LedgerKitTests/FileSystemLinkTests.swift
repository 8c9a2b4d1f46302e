import Dispatch
import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// The one rule for paths inside a ledger: nothing below the root is followed if it is a
/// symbolic link, for reading or for writing, and no file is waited for.
@Suite struct FileSystemLinkTests {
    /// A root with `a/b/` inside and an `outside/` folder beside it.
    static func tree() throws -> (TemporaryDirectory, root: String, outside: String) {
        let dir = TemporaryDirectory()
        let root = dir.url("root"), outside = dir.url("outside")
        try FileManager.default.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        return (dir, root, outside)
    }

    static func code(_ body: () throws -> Void) -> LedgerError.Code? {
        do { try body() } catch let e as LedgerError { return e.code } catch { return .failure }
        return nil
    }

    @Test(arguments: ["a", "a/b", "a/b/c"])
    func noComponentBelowTheRootIsFollowed(_ link: String) throws {
        let (dir, root, outside) = try Self.tree()
        _ = dir
        try "{}\n".write(toFile: outside + "/x.json", atomically: false, encoding: .utf8)
        if FileManager.default.fileExists(atPath: root + "/" + link) { try FileManager.default.removeItem(atPath: root + "/" + link) }
        try FileManager.default.createSymbolicLink(atPath: root + "/" + link, withDestinationPath: outside)
        let target = "a/b/c/x.json"
        // Every operation names the link; nothing outside is read, written or removed.
        for (what, body) in [
            ("write", { try FileSystem.writeAtomically(target, under: root, Array("{}\n".utf8)) }),
            ("write", { try FileSystem.writeAtomically(link + "/x.json", under: root, Array("{}\n".utf8)) }),
            ("read", { _ = try FileSystem.read(link + "/x.json", under: root) }),
            ("read", { _ = try FileSystem.list(link, under: root) }),
            ("delete", { try FileSystem.remove(link + "/x.json", under: root, keep: 0) }),
        ] as [(String, () throws -> Void)] {
            do {
                try body()
                Issue.record("\(what) through \(link) was not refused")
            } catch let e as LedgerError {
                #expect(e.code == .invalid)
                #expect(e.message.contains("\(link) is a symbolic link, and ledger never follows one inside a ledger"), "\(e.message)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["x.json"])
        #expect(FileSystem.stamp(link + "/x.json", under: root) == nil)
        #expect(try FileSystem.openDirectory(link, under: root) == nil)
        #expect(FileSystem.symbolicLink(on: link + "/x.json", under: root) == link)
        // The link itself may be removed: that touches nothing behind it.
        #expect(try FileSystem.remove(link, under: root, keep: 0))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["x.json"])
    }

    /// The walk and the write use one descriptor: a folder swapped for a link after it was
    /// opened is not followed, so there is no window between a check and its use.
    @Test func aFolderSwappedForALinkAfterTheWalkIsNotFollowed() throws {
        let (dir, root, outside) = try Self.tree()
        let folder = try FileSystem.directoryForWriting("a/b", under: root, target: "a/b/x.json")
        try FileManager.default.moveItem(atPath: root + "/a/b", toPath: dir.url("moved"))
        try FileManager.default.createSymbolicLink(atPath: root + "/a/b", withDestinationPath: outside)
        try folder.writeAtomically("x.json", Array("{}\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
        #expect(FileManager.default.fileExists(atPath: dir.url("moved/x.json")))
        // A fresh walk sees the link and refuses it.
        #expect(Self.code { try FileSystem.writeAtomically("a/b/y.json", under: root, []) } == .invalid)
    }

    @Test func aLinkedFileIsReplacedByNeitherAWriteNorARead() throws {
        let (dir, root, outside) = try Self.tree()
        _ = dir
        try "secret\n".write(toFile: outside + "/x.json", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/a/b/x.json", withDestinationPath: outside + "/x.json")
        #expect(Self.code { try FileSystem.writeAtomically("a/b/x.json", under: root, Array("{}\n".utf8)) } == .invalid)
        #expect(Self.code { _ = try FileSystem.read("a/b/x.json", under: root) } == .invalid)
        #expect(try String(contentsOfFile: outside + "/x.json", encoding: .utf8) == "secret\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/a/b/x.json") == outside + "/x.json")
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/a/b") == ["x.json"])
    }

    /// A FIFO (or a device) where a document should be is refused at once, never opened for
    /// a blocking read.
    @Test func aFIFOIsNeverWaitedFor() throws {
        let (dir, root, _) = try Self.tree()
        _ = dir
        let fifo = root + "/a/b/settings.json"
        #expect(mkfifo(fifo, 0o644) == 0)
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        Thread.detachNewThread {
            outcome.relative = Self.code { _ = try FileSystem.read("a/b/settings.json", under: root) }
            outcome.absolute = Self.code { _ = try FileSystem.read(fifo) }
            done.signal()
        }
        if done.wait(timeout: .now() + 10) == .timedOut {
            Issue.record("reading a FIFO blocked")
            // Unblock the reader so the process can end.
            let w = open(fifo, O_WRONLY | O_NONBLOCK)
            if w >= 0 { close(w) }
            return
        }
        #expect(outcome.relative == .invalid)
        #expect(outcome.absolute == .invalid)
    }

    final class Outcome: @unchecked Sendable {
        // @unchecked: written by one thread before it signals, read after the wait.
        var relative: LedgerError.Code?
        var absolute: LedgerError.Code?
    }

    @Test func theStoreNeverWritesADocumentCheckWouldReject() throws {
        let (dir, root, _) = try Self.tree()
        _ = dir
        let store = LedgerStore(root: root, localStateDirectory: root + "/.state")
        // Four MiB of numbers, compact; far larger in canonical form (one per line).
        let big = JSONValue.object(["n": .array(Array(repeating: .number(1), count: 1_000_000))])
        do {
            try store.write("a/big.json", big)
            Issue.record("a document over the size limit was written")
        } catch let e as LedgerError {
            #expect(e.code == .invalid)
            #expect(e.message.hasPrefix("refusing to write a/big.json: it would be "), "\(e.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/a/big.json"))
    }
}
