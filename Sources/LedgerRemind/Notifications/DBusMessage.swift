import CDBus
import Foundation

// The thin layer over libdbus's message API: building a call's arguments and reading a
// reply's or a signal's, with the iterator functions (libdbus's variadic `append_args` and
// `get_args` cannot be called from Swift). Strings cross only inside each call: libdbus
// copies what is appended, and what is read is copied into Swift strings at once.

/// D-Bus type codes (libdbus defines them as `((int) 's')`, which Swift does not import).
enum DBusType {
    static let byte = Int32(UInt8(ascii: "y"))
    static let boolean = Int32(UInt8(ascii: "b"))
    static let int32 = Int32(UInt8(ascii: "i"))
    static let uint32 = Int32(UInt8(ascii: "u"))
    static let string = Int32(UInt8(ascii: "s"))
    static let array = Int32(UInt8(ascii: "a"))
    static let variant = Int32(UInt8(ascii: "v"))
    static let dictEntry = Int32(UInt8(ascii: "e"))
}

/// A value inside an `a{sv}` dictionary (the notification hints).
enum DBusVariant {
    case byte(UInt8)
    case boolean(Bool)
    case string(String)
}

/// Appends arguments to a message being built.
struct DBusMessageWriter {
    private var iter = DBusMessageIter()

    /// Starts appending after the message's existing arguments.
    init(_ message: OpaquePointer) {
        dbus_message_iter_init_append(message, &iter)
    }

    private init(container: DBusMessageIter) { iter = container }

    mutating func append(_ value: String) {
        value.withCString { text in
            var p: UnsafePointer<CChar>? = text
            appendBasic(DBusType.string, &p)
        }
    }

    mutating func append(_ value: UInt32) {
        var v = value
        appendBasic(DBusType.uint32, &v)
    }

    mutating func append(_ value: Int32) {
        var v = value
        appendBasic(DBusType.int32, &v)
    }

    /// An array of strings (`as`).
    mutating func append(_ values: [String]) {
        container(DBusType.array, signature: "s") { array in
            for v in values { array.append(v) }
        }
    }

    /// A dictionary of variants (`a{sv}`), in the given order.
    mutating func append(_ entries: [(String, DBusVariant)]) {
        container(DBusType.array, signature: "{sv}") { dict in
            for (key, value) in entries {
                dict.container(DBusType.dictEntry, signature: nil) { entry in
                    entry.append(key)
                    entry.appendVariant(value)
                }
            }
        }
    }

    private mutating func appendVariant(_ value: DBusVariant) {
        switch value {
        case .byte(let b):
            container(DBusType.variant, signature: "y") { v in
                var b = b
                v.appendBasic(DBusType.byte, &b)
            }
        case .boolean(let flag):
            container(DBusType.variant, signature: "b") { v in
                var b: dbus_bool_t = flag ? 1 : 0
                v.appendBasic(DBusType.boolean, &b)
            }
        case .string(let s):
            container(DBusType.variant, signature: "s") { $0.append(s) }
        }
    }

    private mutating func container(_ type: Int32, signature: String?, _ body: (inout DBusMessageWriter) -> Void) {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t = if let signature {
            signature.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub) }
        } else {
            dbus_message_iter_open_container(&iter, type, nil, &sub)
        }
        checkMemory(opened)
        var writer = DBusMessageWriter(container: sub)
        body(&writer)
        sub = writer.iter
        checkMemory(dbus_message_iter_close_container(&iter, &sub))
    }

    private mutating func appendBasic(_ type: Int32, _ value: UnsafeRawPointer) {
        checkMemory(dbus_message_iter_append_basic(&iter, type, value))
    }

    /// libdbus fails an append only when memory runs out; there is nothing sensible to do then.
    private func checkMemory(_ ok: dbus_bool_t) {
        precondition(ok != 0, "libdbus ran out of memory building a message")
    }
}

/// Reads a message's arguments in order; each read returns nil when the next argument is
/// missing or of another type (a server that does not follow the specification).
struct DBusMessageReader {
    private var iter = DBusMessageIter()
    private var atEnd: Bool

    init(_ message: OpaquePointer) {
        atEnd = dbus_message_iter_init(message, &iter) == 0
    }

    private init(container: DBusMessageIter) {
        iter = container
        atEnd = dbus_message_iter_get_arg_type(&iter) == 0
    }

    mutating func string() -> String? {
        guard !atEnd, dbus_message_iter_get_arg_type(&iter) == DBusType.string else { return nil }
        var p: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iter, &p)
        advance()
        return p.map { String(cString: $0) }
    }

    mutating func uint32() -> UInt32? {
        guard !atEnd, dbus_message_iter_get_arg_type(&iter) == DBusType.uint32 else { return nil }
        var v: UInt32 = 0
        dbus_message_iter_get_basic(&iter, &v)
        advance()
        return v
    }

    /// An array of strings (`as`).
    mutating func strings() -> [String]? {
        guard !atEnd, dbus_message_iter_get_arg_type(&iter) == DBusType.array,
              dbus_message_iter_get_element_type(&iter) == DBusType.string else { return nil }
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        var reader = DBusMessageReader(container: sub)
        var out: [String] = []
        while let s = reader.string() { out.append(s) }
        advance()
        return out
    }

    private mutating func advance() {
        atEnd = dbus_message_iter_next(&iter) == 0
    }
}

/// A D-Bus error: its name (`org.freedesktop.DBus.Error.ServiceUnknown`, …) and message.
struct DBusFailure: Error {
    var name: String
    var message: String
}

/// Runs a libdbus call that reports failure through a `DBusError` out-parameter,
/// initialised and freed around the call: its result, or the error that was set.
func dbusCall<T>(_ body: (UnsafeMutablePointer<DBusError>) -> T) -> Result<T, DBusFailure> {
    var error = DBusError()
    dbus_error_init(&error)
    defer { dbus_error_free(&error) }
    let result = body(&error)
    guard dbus_error_is_set(&error) != 0 else { return .success(result) }
    return .failure(DBusFailure(name: error.name.map { String(cString: $0) } ?? "",
                                message: error.message.map { String(cString: $0) } ?? ""))
}
