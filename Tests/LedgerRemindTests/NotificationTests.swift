import Foundation
@testable import LedgerRemind
import LedgerTestSupport
import Testing

/// The client against a real notification server (dunst) on a private session bus, read
/// back by dunst's own means.
extension EventLoopSuites {
    @Suite struct NotificationTests {
        let reminder = DesktopNotification(
            appName: "ledger", summary: "Water Reminder", body: "Time for a glass of water (09:00)",
            actions: [.init(key: "drank", label: "I Drank"), .init(key: "later", label: "Later")],
            urgency: .low, category: "x-ledger.reminder", desktopEntry: "ledger", resident: true,
            expiration: .never)

        /// dunst on its own bus, a client of it, and a loop receiving the client's signals.
        func desktop() throws -> (server: NotificationServer, client: NotificationClient, loop: EventLoop) {
            let server = try NotificationServer()
            let client = try NotificationClient(environment: server.bus.environment)
            return (server, client, try EventLoop(clock: .system(timeZone: paris), notifications: client))
        }

        @Test func serverAnswersWhoItIsAndThatItShowsButtons() throws {
            let server = try NotificationServer()
            let client = try NotificationClient(environment: server.bus.environment)
            #expect(client.server.name == "dunst")
            #expect(client.server.specificationVersion == "1.2")
            #expect(client.busAddress == server.bus.address)
            #expect(try client.capabilities().contains("actions"))
        }

        @Test func aPostedNotificationIsShownWithItsTextHintsAndBothButtons() throws {
            let (server, client, loop) = try desktop()
            let id = try client.notify(reminder)

            let shown = try #require(server.waitUntilShown(1).first)
            #expect(shown == .init(id: id, appName: "ledger", summary: "Water Reminder", body: "Time for a glass of water (09:00)",
                                   urgency: "LOW", category: "x-ledger.reminder", desktopEntry: "ledger", timeout: "0"))
            #expect(try server.displayedCount() == 1)

            // Both buttons, as dunst offers them in its menu.
            try server.pick(action: "later")
            _ = try loop.events(until: \.isAction)
            #expect(Set(server.offeredMenu()) == ["#I Drank (Water Reminder) [\(id),drank]", "#Later (Water Reminder) [\(id),later]"])
        }

        @Test func theTransientHintReachesTheServer() throws {
            let server = try NotificationServer()
            let client = try NotificationClient(environment: server.bus.environment)
            var passing = reminder
            passing.transient = true
            passing.body = "A transient one"  // dunst stacks identical notifications into one
            let kept = try client.notify(reminder)
            let transient = try client.notify(passing)
            _ = server.waitUntilShown(2)
            #expect(server.transientIDs() == [transient])
            #expect(kept != transient)
        }

        @Test func pressingAButtonArrivesAsAnActionEvent() throws {
            let (server, client, loop) = try desktop()
            let id = try client.notify(reminder)
            _ = server.waitUntilShown(1)

            try server.pick(action: "drank")
            let events = try loop.events(until: \.isAction)
            #expect(events.contains(.action(id: id, key: "drank")))
            #expect(!events.contains(.due))
        }

        @Test func closingItRemovesItFromTheScreenIntoTheHistory() throws {
            let (server, client, loop) = try desktop()
            let id = try client.notify(reminder)
            _ = server.waitUntilShown(1)
            #expect(try server.displayedCount() == 1)

            try client.close(id)
            let events = try loop.events(until: \.isClosed)
            #expect(events.contains(.closed(id: id, reason: .closedByCall)))
            #expect(try server.displayedCount() == 0)
            #expect(try server.historyIDs().contains(id))
            // Closing it again is answered without an error, and without a second signal.
            try client.close(id)
            #expect(try loop.events(within: 0.5) == [.due])
        }

        @Test func anExpiredNotificationArrivesAsClosed() throws {
            let (server, client, loop) = try desktop()
            var brief = reminder
            brief.expiration = .milliseconds(300)
            let id = try client.notify(brief)

            let events = try loop.events(until: \.isClosed)
            #expect(events.contains(.closed(id: id, reason: .expired)))
            #expect(server.shown().first?.timeout == "300")  // dunst says milliseconds
        }

        @Test func replacingKeepsTheIdAndShowsTheNewText() throws {
            let server = try NotificationServer()
            let client = try NotificationClient(environment: server.bus.environment)
            let id = try client.notify(reminder)
            _ = server.waitUntilShown(1)

            var followUp = reminder
            followUp.body = "Still time for a glass of water (09:00, reminded at 09:15)"
            #expect(try client.notify(followUp, replacing: id) == id)
            let shown = server.waitUntilShown(2)
            #expect(shown.map(\.id) == [id, id])
            #expect(shown.last?.body == followUp.body)
            #expect(try server.displayedCount() == 1)
        }

        @Test func aButtonPressForgedByAnotherClientIsIgnored() throws {
            let (server, client, loop) = try desktop()
            let id = try client.notify(reminder)
            _ = server.waitUntilShown(1)

            // Sent straight to this client, as dunst sends its own, but not by the server.
            let send = try Processes.require("dbus-send", package: "dbus-bin")
            let forged = try Processes.run(send, ["--session", "--type=signal", "--dest=" + client.uniqueName, "/org/freedesktop/Notifications",
                                                  "org.freedesktop.Notifications.ActionInvoked", "uint32:\(id)", "string:drank"],
                                           environment: server.bus.environment)
            #expect(forged.status == 0, "\(forged)")
            #expect(try loop.events(within: 1) == [.due])

            try server.pick(action: "drank")
            #expect(try loop.events(until: \.isAction) == [.action(id: id, key: "drank")])
        }

        @Test func theBusGoingAwayEndsTheWaitWithAnError() throws {
            let (server, _, loop) = try desktop()
            let bus = server.bus
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { bus.stop() }
            let error = #expect(throws: RemindError.self) { try loop.events() }
            // The daemon may drop dunst's connection (and announce it) before ours: either way
            // the wait ends with what went away.
            let closed = RemindError(.noSessionBus, "the session bus at \(server.bus.address) closed the connection")
            let serverLeft = RemindError(.noNotificationServer, "the notification server (dunst) left the session bus: "
                + "org.freedesktop.Notifications is no longer its, and what it showed went with it")
            #expect(error == closed || error == serverLeft, "\(String(describing: error))")
        }

        @Test func withoutASessionBusTheErrorSaysSo() throws {
            #expect(throws: RemindError(.noSessionBus, "there is no session bus: DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus; run it inside your desktop session (or under dbus-run-session)")) {
                try NotificationClient(environment: ["HOME": "/nonexistent", "XDG_RUNTIME_DIR": "/nonexistent"])
            }
            let dir = TemporaryDirectory("ledger-nobus")
            let address = "unix:path=" + dir.url("bus")
            let error = #expect(throws: RemindError.self) {
                try NotificationClient(environment: ["DBUS_SESSION_BUS_ADDRESS": address])
            }
            #expect(error?.code == .noSessionBus)
            #expect(error?.message.hasPrefix("cannot reach the session bus at \(address): ") == true)
        }

        @Test func aBusWithoutANotificationServerIsNamedAsSuch() throws {
            let bus = try PrivateSessionBus()
            let error = #expect(throws: RemindError.self) { try NotificationClient(environment: bus.environment) }
            #expect(error?.code == .noNotificationServer)
            #expect(error?.message == "no notification server is running on the session bus (nothing owns org.freedesktop.Notifications); start one, such as your desktop's own, dunst or mako")
        }
    }
}
