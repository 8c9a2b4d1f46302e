import Foundation
import LedgerKit
import LedgerRemind
import LedgerTestSupport
import Testing

extension EventLoopSuites {
    /// inotify on a ledger's directories, written by LedgerKit's own atomic writer (a temporary
    /// file renamed into place) from another thread while the loop waits.
    @Suite struct LedgerWatchTests {
        let root = TemporaryDirectory("ledger-watch")

        /// Writes `relative` the way ledger writes every document, a moment from now.
        func writeSoon(_ relative: String, after seconds: Double = 0.2) {
            let path = root.url(relative)
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                try? FileSystem.writeAtomically(path, Array("{}\n".utf8))
            }
        }

        func changed(_ loop: EventLoop) throws -> [LoopEvent] {
            try loop.events(until: \.isLedgerChanged)
        }

        @Test func anAtomicRenameIntoAWatchedDirectoryWakesTheLoop() throws {
            try FileSystem.makeDirectories(root.url("hydrate/days/2026"))
            let loop = try EventLoop(clock: .system(timeZone: paris), watching: [.directory(root.url("hydrate/days/2026"))])
            writeSoon("hydrate/days/2026/2026-11-21.json")
            #expect(try changed(loop) == [.ledgerChanged([root.url("hydrate/days/2026/2026-11-21.json")])])
        }

        @Test func aWatchedFileIsSeenWhenReplacedAndItsNeighboursAreNot() throws {
            try FileSystem.writeAtomically(root.url("hydrate/schedule.json"), Array("{}\n".utf8))
            let loop = try EventLoop(clock: .system(timeZone: paris), watching: [.file(root.url("hydrate/schedule.json"))])
            writeSoon("hydrate/other.json", after: 0.1)
            writeSoon("hydrate/schedule.json", after: 0.4)
            #expect(try changed(loop) == [.ledgerChanged([root.url("hydrate/schedule.json")])])
            // The same file replaced again: the watch followed the rename.
            writeSoon("hydrate/schedule.json")
            #expect(try changed(loop) == [.ledgerChanged([root.url("hydrate/schedule.json")])])
        }

        @Test func aDirectoryThatDoesNotExistYetIsWaitedFor() throws {
            try FileSystem.makeDirectories(root.url("hydrate"))
            let year = root.url("hydrate/days/2027")
            let loop = try EventLoop(clock: .system(timeZone: paris), watching: [.directory(year)])
            // The whole path appears at once, the first document with it: the directory is
            // reported (what it holds may be new); it is watched from then on, so a document
            // renamed in afterwards is reported as itself. (The second write waits for that
            // report, not for a time: a loaded machine may take its time to see the first.)
            func reports(_ path: String) -> (LoopEvent) -> Bool {
                { if case .ledgerChanged(let paths) = $0 { paths.contains(path) } else { false } }
            }
            writeSoon("hydrate/days/2027/2027-01-01.json")
            let first = try loop.events(until: reports(year))
            try FileSystem.writeAtomically(root.url("hydrate/days/2027/2027-01-02.json"), Array("{}\n".utf8))
            let second = try loop.events(until: reports(year + "/2027-01-02.json"))
            var reported: Set<String> = []
            for event in first + second {
                if case .ledgerChanged(let paths) = event { reported.formUnion(paths) }
            }
            #expect(reported.contains(year))
            #expect(reported.isSubset(of: [year, year + "/2027-01-01.json", year + "/2027-01-02.json"]), "\(reported)")
        }

        @Test func aWatchedDirectoryRemovedAndMadeAgainIsFollowed() throws {
            let sessions = root.url("waterline/sessions/2026")
            try FileSystem.makeDirectories(sessions)
            let loop = try EventLoop(clock: .system(timeZone: paris), watching: [.directory(sessions)])
            try FileManager.default.removeItem(atPath: root.url("waterline/sessions"))
            #expect(try changed(loop) == [.ledgerChanged([sessions])])
            writeSoon("waterline/sessions/2026/abc.json")
            let again = try changed(loop)
            #expect(again.contains { if case .ledgerChanged(let p) = $0 { p.contains(sessions + "/abc.json") || p == [sessions] } else { false } }, "\(again)")
        }

        @Test func temporaryFilesOfAnAtomicWriteAreNotChanges() throws {
            try FileSystem.makeDirectories(root.url("moments"))
            let loop = try EventLoop(clock: .system(timeZone: paris), watching: [.directory(root.url("moments"))])
            // Written once the loop watches, before it waits: its wake-up is queued, not raced.
            let hidden = root.url("moments/.settings.json.tmp-1")
            _ = FileManager.default.createFile(atPath: hidden, contents: Data("{}".utf8))
            #expect(try loop.events(within: 0.6) == [.due])
            #expect(loop.wakeUps >= 2)  // the hidden file woke it, and gave nothing back
        }
    }
}
