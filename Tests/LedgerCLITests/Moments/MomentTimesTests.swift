import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// The record of when each experience of the last view's month happened (`.git/ledger/moment-times`):
/// a view opens only the files the record cannot vouch for, and an edit is seen whatever the record says.
@Suite struct MomentTimesTests {
    /// The ledger of `MomentsViewTests`, its files an hour old, and the record's lines by file.
    static func ledgerWithRecord() throws -> (TestLedger, record: String) {
        let ledger = try MomentsViewTests.ledger()
        RepositoryFiles.age(everythingUnder: ledger.root + "/moments", seconds: 3600)
        let today = ledger.run("moments", "today", "--json")
        #expect(today.status == 0 && today.json["total"] == .number(1), "\(today)")
        return (ledger, ledger.root + "/.git/ledger/moment-times")
    }

    /// The record's text (a cache: `FileSystem.writeCache`).
    static func text(_ record: String) throws -> String {
        String(decoding: try #require(FileSystem.readCache(record, limit: 1 << 20)), as: UTF8.self)
    }

    /// Replaces the recorded time of `file` with `time`, keeping the line's stamp.
    static func forge(_ record: String, _ file: String, to time: String) throws {
        let t = try #require(Timestamp(iso8601: time))
        let lines = try Self.text(record).split(separator: "\n").map { line -> String in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.first == Substring(file) else { return String(line) }
            return [f[0], f[1], "\(t.epochMilliseconds)", "\(t.utcOffsetSeconds)"].joined(separator: "\t")
        }
        try FileSystem.writeCache(record, Array((lines.joined(separator: "\n") + "\n").utf8))
        RepositoryFiles.age(record, seconds: 0)
    }

    @Test func theRecordHoldsEveryFileOfTheMonthWithItsTime() throws {
        let (ledger, record) = try Self.ledgerWithRecord()
        defer { withExtendedLifetime(ledger) {} }
        let lines = try Self.text(record).split(separator: "\n")
        #expect(lines.first == "ledger-moment-times\t1")
        // The five November experiences, as their files say (e2 in New York's offset).
        let e2 = try #require(lines.first { $0.hasPrefix("moments/experiences/2026/11/e2.json\t") })
        let t = try #require(Timestamp(iso8601: "2026-11-18T15:55:00-05:00"))
        #expect(e2.hasSuffix("\t\(t.epochMilliseconds)\t-18000"), "\(e2)")
        #expect(lines.count == 6, "\(lines)")
    }

    /// The record is believed for a file whose stamp it holds: a time forged in it moves the
    /// experience out of today (it is not opened), and an edit in place — even one that keeps
    /// the size and sets the old mtime back, as `touch -r` would — is read again.
    @Test func aFileIsOpenedOnlyWhenTheRecordCannotVouchForIt() throws {
        let (ledger, record) = try Self.ledgerWithRecord()
        let e3 = "moments/experiences/2026/11/e3.json"
        try Self.forge(record, e3, to: "2026-11-16T09:00:00+01:00")
        let hidden = ledger.run("moments", "today", "--json")
        #expect(hidden.status == 0 && hidden.json["total"] == .number(0), "\(hidden)")

        let path = ledger.root + "/" + e3
        let old = try #require(FileSystem.stamp(path))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "https://example.com/3", with: "https://example.com/4").write(toFile: path, atomically: false, encoding: .utf8)
        let mtime = timespec(tv_sec: Int(old.modifiedNanoseconds / 1_000_000_000), tv_nsec: Int(old.modifiedNanoseconds % 1_000_000_000))
        var times = [mtime, mtime]
        _ = utimensat(AT_FDCWD, path, &times, 0)
        let now = try #require(FileSystem.stamp(path))
        #expect(now.size == old.size && now.modifiedNanoseconds == old.modifiedNanoseconds && now.inode == old.inode)
        let seen = ledger.run("moments", "today", "--json")
        #expect(seen.status == 0 && seen.json["total"] == .number(1), "\(seen)")
    }

    /// A file changed within two seconds of the record's writing could change again in the
    /// same clock tick without its stamp changing: it is opened, whatever the record says,
    /// until a record written later vouches for it.
    @Test func aRacilyCleanFileIsOpenedAgain() throws {
        let (ledger, record) = try Self.ledgerWithRecord()
        let e3 = "moments/experiences/2026/11/e3.json"
        RepositoryFiles.age(ledger.root + "/" + e3, seconds: 1)
        #expect(ledger.run("moments", "today", "--json").json["total"] == .number(1))
        try Self.forge(record, e3, to: "2026-11-16T09:00:00+01:00")
        let racy = ledger.run("moments", "today", "--json")
        #expect(racy.json["total"] == .number(1), "\(racy)")
        // That view recorded the file's time afresh; forged again, in a record written
        // seconds after the file's change, it is believed.
        try Self.forge(record, e3, to: "2026-11-16T09:00:00+01:00")
        let later = Date().timeIntervalSince1970 + 2
        var times = [timespec(tv_sec: Int(later), tv_nsec: 0), timespec(tv_sec: Int(later), tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, record, &times, 0)
        #expect(ledger.run("moments", "today", "--json").json["total"] == .number(0))
    }

    /// A view that opens nothing new leaves the record as it is (no write for each `today`),
    /// and a file removed is dropped from it.
    @Test func theRecordIsWrittenOnlyWhenItChanges() throws {
        let (ledger, record) = try Self.ledgerWithRecord()
        RepositoryFiles.age(record, seconds: 60)
        let before = try #require(FileSystem.stamp(record))
        #expect(ledger.run("moments", "today").status == 0)
        #expect(FileSystem.stamp(record) == before)
        try FileManager.default.removeItem(atPath: ledger.root + "/moments/experiences/2026/11/e0.json")
        #expect(ledger.run("moments", "today").status == 0)
        let lines = try Self.text(record).split(separator: "\n")
        #expect(lines.count == 5 && !lines.contains { $0.contains("/e0.json") }, "\(lines)")
    }

    /// `ledger status` views today and this week, and a week can reach into another month:
    /// the record keeps the folders of the views before the last (three in all), so views
    /// taking turns do not read each other's folders again.
    @Test func viewsTakingTurnsKeepEachOthersFolders() throws {
        let (ledger, record) = try Self.ledgerWithRecord()
        #expect(ledger.run("moments", "week", "--date", "2026-12-31").status == 0)  // December and January
        let folders = try Self.text(record).split(separator: "\n").dropFirst()
            .map { String($0.split(separator: "\t")[0].split(separator: "/").dropLast().joined(separator: "/")) }
        #expect(folders.enumerated().filter { $0.offset == 0 || folders[$0.offset - 1] != $0.element }.map(\.element)
                == ["moments/experiences/2026/12", "moments/experiences/2027/01", "moments/experiences/2026/11"], "\(folders)")
        #expect(ledger.run("moments", "today").status == 0)
        let settled = try #require(FileSystem.stamp(record))
        for _ in 0..<2 {
            #expect(ledger.run("moments", "week", "--date", "2026-12-31").status == 0)
            #expect(ledger.run("moments", "today").status == 0)
        }
        #expect(FileSystem.stamp(record) == settled)
    }

    /// A line taken over from the record before is one that record vouched for: a file it saw
    /// changing (racily clean) is left out, not vouched for by the later record's time.
    @Test func aRacilyCleanLineIsNotTakenOver() throws {
        let (ledger, record) = try Self.ledgerWithRecord()
        RepositoryFiles.age(ledger.root + "/moments/experiences/2026/11/e3.json", seconds: 1)
        #expect(ledger.run("moments", "today").status == 0)
        #expect(try Self.text(record).contains("/2026/11/e3.json\t"))
        #expect(ledger.run("moments", "week", "--date", "2026-12-31").status == 0)
        let lines = try Self.text(record).split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("moments/experiences/2026/11/e0.json\t") }, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("moments/experiences/2026/11/e3.json\t") }, "\(lines)")
    }
}
