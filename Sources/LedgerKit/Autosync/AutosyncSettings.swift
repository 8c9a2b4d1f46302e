import Foundation

/// This device's autosync settings: kept in the ledger's local state
/// (`.git/ledger/autosync-settings.json`), never synced — each device decides for itself.
public struct AutosyncSettings: Sendable, Equatable {
    /// Seconds the ledger must stay quiet after a change before it is synced.
    public var debounce: Double = 5
    /// Seconds between two syncs that bring in the other devices' changes.
    public var interval: Double = 15 * 60
    /// No sync in these hours of the day (a change waits for their end).
    public var quietHours: QuietHours?
    /// Seconds of failing syncs (the remote cannot be reached) before a notification says so.
    public var notifyAfter: Double = 60 * 60
    /// Paused by `ledger autosync pause`: no sync until `resume`.
    public var paused = false

    public init() {}

    /// The keys `ledger autosync settings set` takes, with what they mean.
    public static let keys: [(key: String, help: String)] = [
        ("debounce", "quiet time after a change before it is synced (like 5s)"),
        ("interval", "time between syncs that bring in the other devices' changes (like 15m)"),
        ("quiet-hours", "hours with no sync, like 23:00-07:00, or off"),
        ("notify-after", "how long syncs may fail before a notification says so (like 1h)"),
    ]

    /// Sets `key` from its text; a clear refusal naming the key and what it takes.
    public mutating func set(_ key: String, _ text: String) throws(LedgerError) {
        switch key {
        case "debounce": debounce = try Self.duration(text, key: key, minimum: 0)
        case "interval": interval = try Self.duration(text, key: key, minimum: 1)
        case "notify-after": notifyAfter = try Self.duration(text, key: key, minimum: 0)
        case "quiet-hours":
            if text == "off" || text.isEmpty {
                quietHours = nil
            } else {
                guard let q = QuietHours(text) else {
                    throw LedgerError.invalidArgument("quiet-hours must be two times of day like 23:00-07:00, or off (found \"\(text)\")")
                }
                quietHours = q
            }
        default:
            throw LedgerError.invalidArgument("there is no autosync setting \"\(key)\"; the settings are " + Self.keys.map(\.key).joined(separator: ", "))
        }
    }

    /// The value of `key` as `set` takes it.
    public func text(_ key: String) -> String {
        switch key {
        case "debounce": Self.durationText(debounce)
        case "interval": Self.durationText(interval)
        case "notify-after": Self.durationText(notifyAfter)
        case "quiet-hours": quietHours?.description ?? "off"
        default: ""
        }
    }

    /// "300ms", "5s", "15m", "2h" (a bare number is seconds).
    public static func duration(_ text: String, key: String, minimum: Double) throws(LedgerError) -> Double {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        let (number, scale) = units.first { text.hasSuffix($0.0) }.map { (String(text.dropLast($0.0.count)), $0.1) } ?? (text, 1)
        guard let n = NumberText.decimal(number), n.isFinite, n * scale >= minimum, n * scale <= 7 * 24 * 3600 else {
            throw LedgerError.invalidArgument("\(key) must be a duration like 300ms, 5s, 15m or 2h, at least \(durationText(minimum)) and at most a week (found \"\(text)\")")
        }
        return n * scale
    }

    /// The shortest of "300ms", "5s", "15m", "2h" that says `seconds` exactly.
    public static func durationText(_ seconds: Double) -> String {
        func clean(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
        if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 { return clean(seconds / 3600) + "h" }
        if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return clean(seconds / 60) + "m" }
        // Milliseconds to the microsecond: 1.5ms is shown as it was set, not as 2ms.
        if seconds < 1, seconds > 0 { return clean((seconds * 1_000_000).rounded() / 1000) + "ms" }
        return clean(seconds) + "s"
    }

    package var json: JSONValue {
        var o: JSONObject = ["debounce": .number(debounce), "interval": .number(interval), "notifyAfter": .number(notifyAfter),
                             "paused": .bool(paused)]
        o["quietHours"] = quietHours.map { .string($0.description) } ?? .null
        return .object(o)
    }

    /// Settings from their file; unknown or unreadable values keep their defaults.
    package init(json: JSONValue) {
        if case .number(let n)? = json["debounce"], n >= 0 { debounce = n }
        if case .number(let n)? = json["interval"], n >= 1 { interval = n }
        if case .number(let n)? = json["notifyAfter"], n >= 0 { notifyAfter = n }
        if case .bool(let b)? = json["paused"] { paused = b }
        quietHours = json["quietHours"]?.stringValue.flatMap(QuietHours.init)
    }
}

/// Hours of the day, like 23:00-07:00 (across midnight) or 12:00-14:00, in the device's zone.
public struct QuietHours: Sendable, Equatable, CustomStringConvertible {
    /// Minutes since midnight.
    public var start: Int
    public var end: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "-").map { $0.trimmingWhitespace() }
        guard parts.count == 2, let s = Self.minutes(parts[0]), let e = Self.minutes(parts[1]), s != e else { return nil }
        (start, end) = (s, e)
    }

    private static func minutes(_ text: String) -> Int? {
        let hm = text.split(separator: ":")
        guard hm.count == 2, hm[1].count == 2, let h = Int(hm[0]), let m = Int(hm[1]), (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        return h * 60 + m
    }

    public var description: String {
        func hm(_ m: Int) -> String { NumberText.padded(m / 60) + ":" + NumberText.padded(m % 60) }
        return hm(start) + "-" + hm(end)
    }

    /// When the quiet hours holding `instant` end, or nil when `instant` is not in them.
    public func end(containing instant: Date, calendar: Calendar) -> Date? {
        let c = calendar.dateComponents([.hour, .minute], from: instant)
        let minute = (c.hour ?? 0) * 60 + (c.minute ?? 0)
        let inside = start < end ? (minute >= start && minute < end) : (minute >= start || minute < end)
        guard inside else { return nil }
        return calendar.nextDate(after: instant, matching: DateComponents(hour: end / 60, minute: end % 60, second: 0), matchingPolicy: .nextTime)
    }
}
