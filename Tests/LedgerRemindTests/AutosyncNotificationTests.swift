import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `ledger autosync`'s notifications, shown by dunst on a private session bus: what matters,
/// once each.
@Suite struct AutosyncNotificationTests {
    @Test func anInvalidHandEditAndAFailingRemoteAreEachSaidOnce() throws {
        let server = try NotificationServer()
        let fixture = try SyncFixture()
        let ledger = try fixture.origin()
        for (key, value) in [("debounce", "200ms"), ("interval", "1s"), ("notify-after", "0s")] {
            #expect(ledger.run("autosync", "settings", "set", key, value).status == 0)
        }
        let good = try #require(ledger.read("waterline/settings.json"))
        var env = ledger.environment.merging(server.bus.environment) { a, _ in a }
        env["DBUS_SESSION_BUS_ADDRESS"] = server.bus.address
        let process = try BackgroundProcess(LedgerBinary.path, ["autosync"], environment: env, directory: ledger.root,
                                            log: ledger.directory.url("autosync.log"))
        defer { process.stop() }
        #expect(eventually { process.output.contains("notifications through dunst") }, "\(process.output)")

        try ledger.write("waterline/settings.json", "{ \"waterEveryNDrinks\": \n")
        // (Bounded generously: the machine may be loaded.)
        #expect(eventually(60) { server.shown().count >= 1 }, "\(process.output)")
        let first = server.shown()
        #expect(first.count == 1 && first.first?.summary == "ledger: not syncing", "\(first)")
        #expect(first.first?.body.contains("waterline/settings.json") == true, "\(first)")
        sleep(3)
        // Several rounds later, still one.
        #expect(server.shown().count == 1, "\(server.shown())\n\(process.output)")

        // Fixed: synced, silently. Then the remote goes away: one notification, however many
        // rounds fail.
        try ledger.write("waterline/settings.json", good)
        #expect(eventually { ledger.run("status", "--json").json["autosync"]?["outcome"] == .string("up-to-date") }, "\(process.output)")
        #expect(rename(fixture.remote, fixture.remote + ".away") == 0)
        try ledger.write("waterline/offline.json", "{}\n")
        #expect(eventually(60) { server.shown().count >= 2 }, "\(process.output)")
        let shown = server.shown()
        #expect(shown.count == 2 && shown.last?.summary.hasPrefix("ledger: not synced since ") == true, "\(shown)\n\(process.output)")
        sleep(3)
        #expect(server.shown().count == 2, "\(server.shown())")
    }
}
