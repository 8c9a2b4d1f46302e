import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

@Suite struct MomentsSampleDataTests {
    @Test func theSampleDataIsCleanAndHasEveryKind() throws {
        let ledger = try MomentsFixture.sampleLedger()
        let check = ledger.run("check", "moments", "--json")
        #expect(check.status == 0, "\(check)")
        #expect(check.json["problems"] == .array([]), "\(check)")
        let docs = MomentsFixture.experiences(ledger)
        #expect(docs.count >= 40)
        for type in ["note", "photo", "link", "dot"] {
            #expect(docs.contains { $0["experienceType"] == .string(type) }, "a \(type)")
        }
        for moment in ["now", "today", "thisWeek"] {
            #expect(docs.contains { $0["momentType"] == .string(moment) }, "a \(moment)")
        }
        let photos = ledger.files(under: "moments/photos")
        #expect((2...3).contains(photos.count))
        for p in photos {
            let bytes = try #require(try FileSystem.read(ledger.root + "/" + p))
            #expect(ImageFormat.detect(bytes) != nil)
        }
        let latest = docs.compactMap { $0["timestamp"]?.stringValue.flatMap { Timestamp(iso8601: $0) } }.max()
        #expect(latest.map { $0 <= Timestamp(iso8601: "2026-11-21T23:30:00+01:00")! } == true)
    }

    @Test func theSampleWeekInTheTerminal() throws {
        let ledger = try MomentsFixture.sampleLedger()
        let r = ledger.run("moments", "week")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasPrefix("Week 47 of 2026 · 16–22 November 2026"))
        let show = ledger.run("moments", "show", "2026-11-20")
        #expect(show.stdout.contains("photo  " + ledger.root + "/moments/photos/"), "\(show)")
    }
}
