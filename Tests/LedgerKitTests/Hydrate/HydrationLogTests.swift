import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

@Suite struct HydrationLogTests {
    let paris = TimeZone(identifier: "Europe/Paris")!

    func at(_ time: String) -> Timestamp { Timestamp(iso8601: "2026-11-21T\(time):00+01:00")! }

    @Test func aConfirmationStampedAfterNowStillCountsForItsSlot() throws {
        // Two processes (or devices) whose clocks differ: the one at 14:02 takes the writer
        // lock first; the one at 14:01 must see the 14:00 reminder as confirmed.
        let dir = TemporaryDirectory()
        let log = HydrationLog(store: LedgerStore(root: dir.path))
        guard case .confirmed = try log.confirm(at: at("14:02"), timeZone: paris) else {
            Issue.record("the first tap should confirm")
            return
        }
        guard case .alreadyConfirmed(_, let earlier, let day) = try log.confirm(at: at("14:01"), timeZone: paris) else {
            Issue.record("the second tap should find the slot confirmed")
            return
        }
        #expect(earlier == at("14:02"))
        #expect(day.document?.confirmations.count == 1)
    }
}
