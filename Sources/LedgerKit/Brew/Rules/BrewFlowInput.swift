/// A press-and-hold gesture: complete once the key has been held for `duration` seconds.
///
/// A terminal cannot see a key go up; it sees the key's auto-repeat. Each repeat is a
/// `press`, and a pause longer than `maximumGap` between two presses means the key was
/// released, which starts the hold over.
public struct HoldGesture: Sendable, Equatable {
    /// How long the key must be held, seconds.
    public static let duration = 1.5
    /// The longest pause between two repeats of a held key, seconds (a terminal's first
    /// auto-repeat comes 250–660 ms after the press).
    public static let maximumGap = 0.75

    /// When the current hold began.
    public private(set) var startedAt: Timestamp?
    /// The latest press or repeat.
    public private(set) var lastPressAt: Timestamp?

    public init() {}

    /// One press or auto-repeat of the key at `now`.
    public mutating func press(at now: Timestamp) {
        if let last = lastPressAt, now.seconds(since: last) <= Self.maximumGap, now >= last {
            lastPressAt = now
        } else {
            startedAt = now
            lastPressAt = now
        }
    }

    /// Whether the key is still down at `now` (its last repeat is recent enough).
    public func isHeld(at now: Timestamp) -> Bool {
        guard let last = lastPressAt else { return false }
        return now.seconds(since: last) <= Self.maximumGap
    }

    /// How much of the hold is done, 0…1 (0 once the key was released).
    public func progress(at now: Timestamp) -> Double {
        guard let s = startedAt, let l = lastPressAt, isHeld(at: now) else { return 0 }
        return min(1, max(0, l.seconds(since: s)) / Self.duration)
    }

    /// Whether the key has been held long enough.
    public var isComplete: Bool {
        guard let s = startedAt, let l = lastPressAt else { return false }
        return l.seconds(since: s) >= Self.duration
    }
}

/// A line of text being typed, with an optional limit in characters.
public struct TypedText: Sendable, Equatable {
    public private(set) var text: String
    /// The most characters it takes.
    public let limit: Int

    public init(_ text: String = "", limit: Int) {
        self.text = String(text.prefix(limit))
        self.limit = limit
    }

    /// Adds a character; false (and nothing changes) when the field is full.
    @discardableResult
    public mutating func type(_ c: Character) -> Bool {
        guard text.count < limit else { return false }
        text.append(c)
        return true
    }

    /// Removes the last character.
    public mutating func deleteBackward() {
        if !text.isEmpty { text.removeLast() }
    }

    /// Characters left before the limit.
    public var remaining: Int { limit - text.count }
}
