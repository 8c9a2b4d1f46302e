import CDBus
import Foundation

/// A connection to the session bus that posts desktop notifications to the server owning
/// `org.freedesktop.Notifications` and receives what the user does with them.
///
/// It owns a private libdbus connection, closed in `deinit` (the notifications it posted stay
/// on screen: withdrawing them is the caller's decision). Not `Sendable`: one thread owns it,
/// the one running the `EventLoop` that reads its socket.
///
/// `ActionInvoked` and `NotificationClosed` reach the caller as `LoopEvent.action` and
/// `LoopEvent.closed` through `EventLoop.next(wakingAt:)`, only for notifications this client
/// posted and only from the server that showed them (another client cannot fake a button).
public final class NotificationClient {
    /// The well-known name, object path and interface of the Desktop Notifications Specification.
    public static let busName = "org.freedesktop.Notifications"
    static let objectPath = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    /// How long a call waits for the server's answer (a server started on demand included).
    static let callTimeoutMilliseconds: Int32 = 10_000

    /// The address of the session bus it talks to.
    public let busAddress: String
    /// The server that answered when the client connected.
    public let server: NotificationServerInformation

    private let connection: OpaquePointer
    /// This connection's unique bus name (`:1.41`).
    var uniqueName: String { dbus_bus_get_unique_name(connection).map { String(cString: $0) } ?? "" }
    /// The server's unique bus name (`:1.42`), from its latest answer: signals from any other
    /// sender are ignored.
    private var serverUniqueName: String
    /// Ids this client posted that are not known to be closed.
    private var posted: Set<UInt32> = []
    /// `ActionInvoked` / `NotificationClosed` received and not taken yet.
    private var received: [LoopEvent] = []
    /// libdbus's watches on the connection's socket, as its watch functions report them.
    private var watches: [OpaquePointer] = []
    /// Set when the bus says the server gave up `busName` (it exited, or another took it):
    /// the notifications it showed are gone with it.
    private var serverLeft = false

    /// Connects to the session bus named by `environment` and asks the notification server who
    /// it is (which starts it when the bus can start one on demand).
    ///
    /// The bus is `DBUS_SESSION_BUS_ADDRESS`, else the systemd user bus `$XDG_RUNTIME_DIR/bus`;
    /// there is no X11 autolaunch. Throws `.noSessionBus` when neither is there or the bus cannot
    /// be reached, `.noNotificationServer` when nothing owns the name or answers.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(RemindError) {
        let address = try Self.sessionBusAddress(environment)
        let conn = try Self.open(address)
        let answer: (NotificationServerInformation, String)
        do {
            answer = try Self.call(conn, "GetServerInformation") { reply, args in
                guard let name = args.string(), let vendor = args.string(), let version = args.string(),
                      let spec = args.string() else { return nil }
                let info = NotificationServerInformation(name: name, vendor: vendor, version: version, specificationVersion: spec)
                return (info, dbus_message_get_sender(reply).map { String(cString: $0) } ?? "")
            }
        } catch {
            Self.closeConnection(conn)
            throw error
        }
        connection = conn
        busAddress = address
        (server, serverUniqueName) = answer

        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(connection, addWatch, removeWatch, nil, me, nil)
        dbus_connection_add_filter(connection, filterMessage, me, nil)
        var rules = ["ActionInvoked", "NotificationClosed"].map {
            ($0, "type='signal',sender='\(Self.busName)',path='\(Self.objectPath)',interface='\(Self.interface)',member='\($0)'")
        }
        // The bus itself says when the server's name changes hands: watched, so that a server
        // that goes away is noticed at once, not at the next notification.
        rules.append(("NameOwnerChanged", "type='signal',sender='\(Self.bus)',path='/org/freedesktop/DBus',interface='\(Self.bus)',"
            + "member='NameOwnerChanged',arg0='\(Self.busName)'"))
        for (member, rule) in rules {
            if case .failure(let f) = dbusCall({ dbus_bus_add_match(connection, rule, $0) }) {
                throw RemindError(.dbus, "the session bus refused to deliver \(member) signals: \(f.message)")
            }
        }
    }

    /// The bus's own name, the sender of its signals.
    static let bus = "org.freedesktop.DBus"

    deinit {
        dbus_connection_remove_filter(connection, filterMessage, Unmanaged.passUnretained(self).toOpaque())
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        Self.closeConnection(connection)
    }

    // MARK: - The specification's methods

    /// What the server supports (`actions`, `body`, `body-markup`, `persistence`, …); a server
    /// without `actions` shows no buttons.
    public func capabilities() throws(RemindError) -> Set<String> {
        try call("GetCapabilities") { _, args in args.strings().map(Set.init) }
    }

    /// Posts `notification`, or replaces the one with id `replacing` (0 for a new one), and
    /// returns its id. The server may return a new id when the replaced one is gone.
    @discardableResult
    public func notify(_ notification: DesktopNotification, replacing: UInt32 = 0) throws(RemindError) -> UInt32 {
        let id: UInt32 = try call("Notify", arguments: { w in
            w.append(notification.appName)
            w.append(replacing)
            w.append(notification.icon)
            w.append(notification.summary)
            w.append(notification.body)
            w.append(notification.actions.flatMap { [$0.key, $0.label] })
            w.append(Self.hints(notification))
            w.append(notification.expiration.wireValue)
        }) { _, args in args.uint32() }
        if replacing != 0, id != replacing { posted.remove(replacing) }
        posted.insert(id)
        return id
    }

    /// Withdraws notification `id`; the server then sends `NotificationClosed` with
    /// `.closedByCall` (nothing when it was already closed).
    public func close(_ id: UInt32) throws(RemindError) {
        let _: Void = try call("CloseNotification", arguments: { $0.append(id) }) { _, _ in () }
    }

    /// The hints the specification defines for what `notification` asks for, `urgency` first.
    static func hints(_ notification: DesktopNotification) -> [(String, DBusVariant)] {
        var hints: [(String, DBusVariant)] = [("urgency", .byte(notification.urgency.rawValue))]
        if let category = notification.category { hints.append(("category", .string(category))) }
        if let entry = notification.desktopEntry { hints.append(("desktop-entry", .string(entry))) }
        if notification.resident { hints.append(("resident", .boolean(true))) }
        if notification.transient { hints.append(("transient", .boolean(true))) }
        return hints
    }

    // MARK: - The event loop's side

    /// The signals received since the last call, oldest first.
    func takeEvents() -> [LoopEvent] {
        defer { received.removeAll() }
        return received
    }

    /// The enabled watches as `poll` entries.
    func pollEntries() -> [(watch: OpaquePointer, entry: pollfd)] {
        watches.compactMap { watch in
            guard dbus_watch_get_enabled(watch) != 0 else { return nil }
            let flags = dbus_watch_get_flags(watch)
            var events: Int16 = 0
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
            return (watch, pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
        }
    }

    /// Lets libdbus read or write what `poll` reported for `watch`.
    func handle(_ watch: OpaquePointer, revents: Int16) {
        guard watches.contains(watch) else { return }  // removed by an earlier handle
        var flags: UInt32 = 0
        if revents & Int16(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
        if revents & Int16(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if revents & Int16(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
        if revents & Int16(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
        _ = dbus_watch_handle(watch, flags)
    }

    /// Dispatches every message read so far (the filter queues the signals); throws
    /// `.noSessionBus` once the bus has closed the connection, `.noNotificationServer` once
    /// the server has left the bus.
    func dispatch() throws(RemindError) {
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
        guard dbus_connection_get_is_connected(connection) != 0 else {
            throw RemindError(.noSessionBus, "the session bus at \(busAddress) closed the connection")
        }
        if serverLeft {
            throw RemindError(.noNotificationServer, "the notification server (\(server.name)) left the session bus: "
                + "\(Self.busName) is no longer its, and what it showed went with it")
        }
    }

    /// Called by libdbus's dispatch for every incoming message.
    fileprivate func receive(_ message: OpaquePointer) {
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL else { return }
        let sender = dbus_message_get_sender(message).map { String(cString: $0) }
        if sender == Self.bus, dbus_message_is_signal(message, Self.bus, "NameOwnerChanged") != 0 {
            var args = DBusMessageReader(message)
            if args.string() == Self.busName, args.string() == serverUniqueName, args.string() != serverUniqueName { serverLeft = true }
            return
        }
        guard sender == serverUniqueName else { return }
        var args = DBusMessageReader(message)
        if dbus_message_is_signal(message, Self.interface, "ActionInvoked") != 0 {
            guard let id = args.uint32(), let key = args.string(), posted.contains(id) else { return }
            received.append(.action(id: id, key: key))
        } else if dbus_message_is_signal(message, Self.interface, "NotificationClosed") != 0 {
            guard let id = args.uint32(), let reason = args.uint32(), posted.remove(id) != nil else { return }
            received.append(.closed(id: id, reason: NotificationCloseReason(wireValue: reason)))
        }
    }

    fileprivate func watchAdded(_ watch: OpaquePointer) { watches.append(watch) }
    fileprivate func watchRemoved(_ watch: OpaquePointer) { watches.removeAll { $0 == watch } }

    // MARK: - Calls

    private func call<T>(_ member: String, arguments: (inout DBusMessageWriter) -> Void = { _ in },
                         read: (OpaquePointer, inout DBusMessageReader) -> T?) throws(RemindError) -> T {
        try Self.call(connection, member, arguments: arguments) { reply, args in
            if let sender = dbus_message_get_sender(reply) { serverUniqueName = String(cString: sender) }
            return read(reply, &args)
        }
    }

    /// Calls `member` on the notification server and waits (at most the call timeout) for the
    /// reply, whose arguments `read` turns into a value (nil: not what the specification says).
    private static func call<T>(_ connection: OpaquePointer, _ member: String,
                                arguments: (inout DBusMessageWriter) -> Void = { _ in },
                                read: (OpaquePointer, inout DBusMessageReader) -> T?) throws(RemindError) -> T {
        guard let message = dbus_message_new_method_call(busName, objectPath, interface, member) else {
            preconditionFailure("libdbus ran out of memory building a message")
        }
        defer { dbus_message_unref(message) }
        var writer = DBusMessageWriter(message)
        arguments(&writer)
        let sent = dbusCall { dbus_connection_send_with_reply_and_block(connection, message, callTimeoutMilliseconds, $0) }
        switch sent {
        case .failure(let failure):
            throw error(failure, calling: member)
        case .success(nil):
            throw RemindError(.dbus, "the notification server sent no reply to \(member)")
        case .success(let reply?):
            defer { dbus_message_unref(reply) }
            var reader = DBusMessageReader(reply)
            guard let value = read(reply, &reader) else {
                throw RemindError(.dbus, "the notification server answered \(member) with arguments the specification does not define")
            }
            return value
        }
    }

    /// The error to report for a failed call to `member`.
    static func error(_ failure: DBusFailure, calling member: String) -> RemindError {
        switch failure.name {
        case DBUS_ERROR_SERVICE_UNKNOWN, DBUS_ERROR_NAME_HAS_NO_OWNER:
            RemindError(.noNotificationServer, "no notification server is running on the session bus (nothing owns \(busName)); start one, such as your desktop's own, dunst or mako")
        case let name where name.hasPrefix("org.freedesktop.DBus.Error.Spawn."):
            RemindError(.noNotificationServer, "the session bus could not start a notification server for \(busName): \(failure.message)")
        case DBUS_ERROR_NO_REPLY, DBUS_ERROR_TIMEOUT, DBUS_ERROR_TIMED_OUT:
            RemindError(.noNotificationServer, "the notification server did not answer \(member) within \(callTimeoutMilliseconds / 1000) seconds")
        case DBUS_ERROR_DISCONNECTED:
            RemindError(.noSessionBus, "the session bus closed the connection")
        default:
            RemindError(.dbus, "the notification server refused \(member): \(failure.message) (\(failure.name))")
        }
    }

    // MARK: - The connection

    /// `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` when that socket exists.
    static func sessionBusAddress(_ environment: [String: String]) throws(RemindError) -> String {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            var st = stat()
            let path = runtime + "/bus"
            if stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFSOCK, let escaped = dbus_address_escape_value(path) {
                defer { dbus_free(escaped) }
                return "unix:path=" + String(cString: escaped)
            }
        }
        throw RemindError(.noSessionBus, "there is no session bus: DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus; run it inside your desktop session (or under dbus-run-session)")
    }

    /// A private connection to the bus at `address`, registered (it has its unique name).
    private static func open(_ address: String) throws(RemindError) -> OpaquePointer {
        let opened = dbusCall { dbus_connection_open_private(address, $0) }
        guard case .success(let conn?) = opened else {
            let why = if case .failure(let f) = opened { f.message } else { "no connection" }
            throw RemindError(.noSessionBus, "cannot reach the session bus at \(address): \(why)")
        }
        dbus_connection_set_exit_on_disconnect(conn, 0)
        if case .failure(let f) = dbusCall({ dbus_bus_register(conn, $0) }) {
            closeConnection(conn)
            throw RemindError(.noSessionBus, "the session bus at \(address) did not accept the connection: \(f.message)")
        }
        return conn
    }

    private static func closeConnection(_ connection: OpaquePointer) {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }
}

// libdbus's callbacks: plain C function pointers, the client passed as their user data. The
// client removes them in `deinit`, so the pointer never outlives it.

private let filterMessage: DBusHandleMessageFunction = { _, message, data in
    if let message, let data {
        Unmanaged<NotificationClient>.fromOpaque(data).takeUnretainedValue().receive(message)
    }
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}

private let addWatch: DBusAddWatchFunction = { watch, data in
    if let watch, let data { Unmanaged<NotificationClient>.fromOpaque(data).takeUnretainedValue().watchAdded(watch) }
    return 1
}

private let removeWatch: DBusRemoveWatchFunction = { watch, data in
    if let watch, let data { Unmanaged<NotificationClient>.fromOpaque(data).takeUnretainedValue().watchRemoved(watch) }
}
