import LedgerKit
import LedgerTestSupport
import Testing

@Suite struct LedgerErrorTests {
    func lookUp(_ id: String, in store: LedgerStore) throws -> Session {
        try store.repository(Session.self).load(id: id)
    }

    @Test func anErrorIsCaughtByItsCode() throws {
        let dir = TemporaryDirectory()
        let store = LedgerStore.plain(dir.path)
        var caught = false
        do {
            _ = try lookUp("missing", in: store)
        } catch LedgerError.Code.invalid {
            Issue.record("a missing document is not invalid")
        } catch LedgerError.Code.notFound {
            caught = true
        }
        #expect(caught)
    }

    @Test func aRefusedTimeSaysWhichInstantAndWhy() {
        let t = Timestamp(iso8601: "2026-11-21T22:15:00+01:00")!
        let e = LedgerError.timeRefused(t, "is in the future")
        #expect(e.code == .invalid && e.refusedInstant == t && e.refusalReason == "is in the future")
        #expect(e.message == "2026-11-21T22:15:00+01:00 is in the future")
    }
}
