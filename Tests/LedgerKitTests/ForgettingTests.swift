import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// The forget rule, kind by kind: what a device that had not seen a forget recorded keeps only
/// what was recorded at or after the forget's instant (docs/deleting.md).
@Suite struct ForgettingTests {
    /// The session of the fixture: started 21:00, entries every ten minutes from 21:05.
    let night = WaterlineFixture.session("DDWD")  // 21:05 drink, 21:15 drink, 21:25 water, 21:35 drink

    @Test(arguments: [
        (forgetMinute: 0, kept: ["e0", "e1", "e2", "e3"]),  // a forget at the start: what was logged from then on stays
        (forgetMinute: 15, kept: ["e1", "e2", "e3"]),       // an entry at the instant itself stays
        (forgetMinute: 20, kept: ["e2", "e3"]),
        (forgetMinute: 40, kept: []),                        // nothing logged after: the night goes
    ])
    func aNightKeepsTheEntriesLoggedAtOrAfterTheForget(forgetMinute: Int, kept: [String]) throws {
        var session = night
        session.createdAt = WaterlineFixture.at(-1)
        let instant = WaterlineFixture.at(forgetMinute)
        let remainder = session.remainder(afterForgetAt: instant)
        #expect(remainder?.entries.map(\.id) ?? [] == kept)
        if let remainder {
            #expect(remainder.storedState == remainder.state.json, "derived values recomputed")
            #expect(remainder.startTime == session.startTime, "the night stays where its file is")
            #expect(remainder.remainder(afterForgetAt: instant) == remainder, "applied twice, the rule changes nothing more")
            #expect(!remainder.validate().hasErrors)
        }
    }

    @Test func aNightStartedAfterTheForgetStaysWhole() {
        var session = night
        session.createdAt = WaterlineFixture.at(0)
        #expect(session.remainder(afterForgetAt: WaterlineFixture.at(-30)) == session)
    }

    @Test func aDayKeepsTheConfirmationsMadeAtOrAfterTheForget() throws {
        let zone = TimeZone(identifier: "Europe/Paris")!
        let t = { (h: Int) in Timestamp(iso8601: "2026-11-21T\(h < 10 ? "0" : "")\(h):00:00+01:00")! }
        var day = HydrationDay(date: LocalDate("2026-11-21")!, schedule: ReminderSchedule(), timeZone: zone, createdAt: t(8))
        day.confirmations = [9, 11, 13].map { HydrationConfirmation(at: t($0)) }
        day.recomputeDerived()
        let kept = try #require(day.remainder(afterForgetAt: t(11)))
        #expect(kept.confirmations.map(\.confirmedAt) == [t(11), t(13)])
        #expect(kept.completed == kept.recomputed.completed)
        #expect(day.remainder(afterForgetAt: t(14)) == nil)
    }

    /// Documents of many kinds go when created before the forget, also when edited after;
    /// singletons stay when changed after.
    @Test func documentsByTheirCreationSettingsByTheirLastChange() {
        let before = WaterlineFixture.at(0), forget = WaterlineFixture.at(30), after = WaterlineFixture.at(60)
        var preset = DrinkPreset(id: "stout", name: "Stout", drinkType: .beer, sizeOz: 16, standardDrinkEstimate: 1.5, createdAt: before)
        preset.updatedAt = after
        #expect(preset.remainder(afterForgetAt: forget) == nil, "created before, edited after: gone")
        preset.createdAt = after
        #expect(preset.remainder(afterForgetAt: forget) == preset)
        var settings = WaterlineSettings(createdAt: before)
        #expect(settings.remainder(afterForgetAt: forget) == nil)
        settings.updatedAt = after
        #expect(settings.remainder(afterForgetAt: forget) == settings)
    }

    @Test func filesByRole() throws {
        let forget = WaterlineFixture.at(30)
        var session = night
        session.createdAt = WaterlineFixture.at(-1)
        let bytes = CanonicalJSON.encode(session.json)
        let path = session.path
        guard case .part(let cut) = Forgetting.remainder(path: path, bytes: bytes, afterForgetAt: forget) else {
            Issue.record("a night with an entry after the forget is kept in part")
            return
        }
        var ignored: [DocumentIssue] = []
        #expect(try Session.decode(JSONParser.parse(cut), at: .root, issues: &ignored)?.entries.map(\.id) == ["e3"])
        #expect(Forgetting.remainder(path: path.replacingOccurrences(of: ".json", with: ".conflict-1a2b3c4d.json"), bytes: bytes, afterForgetAt: forget) == .part(cut),
                "a conflict file is read as its document")
        #expect(Forgetting.remainder(path: path, bytes: bytes, afterForgetAt: WaterlineFixture.at(50)) == .nothing)
        #expect(Forgetting.remainder(path: "moments/photos/\(String(repeating: "a", count: 64)).png", bytes: [1, 2], afterForgetAt: forget) == .ifShown)
        #expect(Forgetting.remainder(path: "waterline/notes.txt", bytes: Array("mine".utf8), afterForgetAt: forget) == .whole, "what cannot be dated stays")
        #expect(Forgetting.remainder(path: path, bytes: Array("{not json".utf8), afterForgetAt: forget) == .whole)
    }

    @Test func theForgetsOfTwoDevicesAreMergedAppByApp() {
        let t1 = WaterlineFixture.at(0), t2 = WaterlineFixture.at(10)
        let base = ForgottenApps()
        let ours = ForgottenApps([.waterline: t1]), theirs = ForgottenApps([.moments: t2])
        #expect(ForgottenApps.merged(base: base, ours: ours, theirs: theirs) == ForgottenApps([.waterline: t1, .moments: t2]))
        #expect(ForgottenApps.merged(base: base, ours: ForgottenApps([.waterline: t2]), theirs: ours) == ForgottenApps([.waterline: t2]), "the later")
        #expect(ForgottenApps.merged(base: ours, ours: ours, theirs: base) == base, "taken back on one side (an undo)")
        #expect(ours.unseen(in: ForgottenApps([.waterline: t2, .brew: t1])) == [.waterline: t2, .brew: t1])
        #expect(ForgottenApps([.waterline: t2]).unseen(in: ForgottenApps([.waterline: t2])).isEmpty)
    }
}
