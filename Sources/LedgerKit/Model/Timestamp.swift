import Foundation

/// An instant together with the UTC offset of the place it was recorded, written as
/// ISO-8601 (`2026-11-21T23:41:07+01:00`).
///
/// Keeping the offset makes wall-clock questions ("which day, which hour?") answerable from
/// the document alone, identical for every reader whatever their time zone. Precision is one
/// millisecond. Ordering is by instant (ties broken by offset, so it agrees with `==`).
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let epochMilliseconds: Int64
    /// Seconds east of UTC at the moment of recording (`+01:00` is 3600).
    public let utcOffsetSeconds: Int

    public init(epochMilliseconds: Int64, utcOffsetSeconds: Int) {
        self.epochMilliseconds = epochMilliseconds
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The instant `date`, recorded with the offset `timeZone` has at that instant.
    public init(_ date: Date, in timeZone: TimeZone) {
        self.init(epochMilliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded()),
                  utcOffsetSeconds: timeZone.secondsFromGMT(for: date))
    }

    /// The wall-clock time `local` at the fixed offset `utcOffsetSeconds`.
    public init(local: LocalDateTime, utcOffsetSeconds: Int) {
        let days = Int64(local.date.daysSinceEpoch)
        let seconds = days * 86_400 + Int64(local.hour * 3600 + local.minute * 60 + local.second)
        self.init(epochMilliseconds: (seconds - Int64(utcOffsetSeconds)) * 1000 + Int64(local.millisecond),
                  utcOffsetSeconds: utcOffsetSeconds)
    }

    /// The instant as a Foundation `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(epochMilliseconds) / 1000) }

    /// The wall-clock date and time where it was recorded.
    public var local: LocalDateTime {
        let localMs = epochMilliseconds + Int64(utcOffsetSeconds) * 1000
        let (days, msOfDay) = localMs.floorDivided(by: 86_400_000)
        let s = Int(msOfDay / 1000)
        return LocalDateTime(date: LocalDate(daysSinceEpoch: Int(days)),
                             hour: s / 3600, minute: s % 3600 / 60, second: s % 60,
                             millisecond: Int(msOfDay % 1000))
    }

    /// This instant moved by `seconds` (the offset is kept).
    public func adding(seconds: Double) -> Timestamp {
        Timestamp(epochMilliseconds: epochMilliseconds + Int64((seconds * 1000).rounded()), utcOffsetSeconds: utcOffsetSeconds)
    }

    /// This instant moved by `minutes` (the offset is kept).
    public func adding(minutes: Double) -> Timestamp { adding(seconds: minutes * 60) }

    /// Seconds from `other` to this instant (positive when this is later).
    public func seconds(since other: Timestamp) -> Double {
        Double(epochMilliseconds - other.epochMilliseconds) / 1000
    }

    /// The same instant as seen from another offset.
    public func withOffset(_ seconds: Int) -> Timestamp {
        Timestamp(epochMilliseconds: epochMilliseconds, utcOffsetSeconds: seconds)
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool {
        (a.epochMilliseconds, a.utcOffsetSeconds) < (b.epochMilliseconds, b.utcOffsetSeconds)
    }

    // MARK: - ISO-8601

    /// `2026-11-21T23:41:07+01:00`, with `.123` milliseconds only when they are not zero.
    public var iso8601: String {
        let l = local
        var b: [UInt8] = []
        b.reserveCapacity(29)
        appendDigits(l.date.year, 4, &b); b.append(0x2D)
        appendDigits(l.date.month, 2, &b); b.append(0x2D)
        appendDigits(l.date.day, 2, &b); b.append(0x54)
        appendDigits(l.hour, 2, &b); b.append(0x3A)
        appendDigits(l.minute, 2, &b); b.append(0x3A)
        appendDigits(l.second, 2, &b)
        if l.millisecond != 0 { b.append(0x2E); appendDigits(l.millisecond, 3, &b) }
        b.append(utcOffsetSeconds < 0 ? 0x2D : 0x2B)
        let m = abs(utcOffsetSeconds) / 60
        appendDigits(m / 60, 2, &b); b.append(0x3A)
        appendDigits(m % 60, 2, &b)
        return String(decoding: b, as: UTF8.self)
    }

    public var description: String { iso8601 }

    /// `+01:00`, `-05:30`, `+00:00`.
    public static func formatOffset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let m = abs(seconds) / 60
        return sign + pad(m / 60) + ":" + pad(m % 60)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; nil for anything else, including
    /// impossible dates (February 30th) and timestamps without an offset.
    public init?(iso8601 text: String) {
        let parsed = text.utf8.withContiguousStorageIfAvailable { Timestamp.parse($0) } ?? Timestamp.parse(Array(text.utf8)[...])
        guard let parsed else { return nil }
        self = parsed
    }

    private static func parse<C: Collection<UInt8>>(_ t: C) -> Timestamp? where C.Index == Int {
        var i = t.startIndex
        let end = t.endIndex
        func number(_ n: Int) -> Int? {
            guard end - i >= n else { return nil }
            var v = 0
            for _ in 0..<n {
                let b = t[i]
                guard b >= 0x30, b <= 0x39 else { return nil }
                v = v * 10 + Int(b - 0x30)
                i += 1
            }
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < end, t[i] == c else { return false }
            i += 1
            return true
        }
        guard let y = number(4), expect(0x2D), let mo = number(2), expect(0x2D), let d = number(2),
              let date = LocalDate(year: y, month: mo, day: d),
              expect(0x54), let h = number(2), expect(0x3A), let mi = number(2), expect(0x3A), let s = number(2),
              h < 24, mi < 60, s < 60
        else { return nil }
        var ms = 0
        if expect(0x2E) {
            var digits = 0
            while i < end, t[i] >= 0x30, t[i] <= 0x39 {
                if digits < 3 { ms = ms * 10 + Int(t[i] - 0x30) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 { for _ in digits..<3 { ms *= 10 } }
        }
        var offset = 0
        if !expect(0x5A) {
            guard i < end, t[i] == 0x2B || t[i] == 0x2D else { return nil }
            let negative = t[i] == 0x2D
            i += 1
            guard let oh = number(2), expect(0x3A), let om = number(2), oh <= 18, om < 60 else { return nil }
            offset = (oh * 3600 + om * 60) * (negative ? -1 : 1)
        }
        guard i == end else { return nil }
        return Timestamp(local: LocalDateTime(date: date, hour: h, minute: mi, second: s, millisecond: ms), utcOffsetSeconds: offset)
    }
}

@inline(__always)
private func appendDigits(_ n: Int, _ width: Int, _ out: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<width { divisor *= 10 }
    while divisor > 0 {
        out.append(UInt8(truncatingIfNeeded: 0x30 + (n / divisor) % 10))
        divisor /= 10
    }
}

/// A calendar date without a time zone (`2026-11-21`), in the proleptic Gregorian calendar.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid date, or nil (month 13, February 30th…).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...LocalDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year; self.month = month; self.day = day
    }

    /// The date `days` after 1970-01-01.
    public init(daysSinceEpoch days: Int) {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Parses `YYYY-MM-DD`.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Days since 1970-01-01 (negative before).
    public var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `n` days later (earlier when negative).
    public func adding(days n: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + n) }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        let w = (daysSinceEpoch + 3).floorModulo(7)  // 1970-01-01 was a Thursday
        return w + 1
    }

    /// `2026-11-21`.
    public var description: String { pad(year, 4) + "-" + pad(month) + "-" + pad(day) }

    public static func < (a: LocalDate, b: LocalDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    /// The number of days in a month.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// A wall-clock date and time without an offset.
public struct LocalDateTime: Sendable, Hashable, Comparable {
    public var date: LocalDate
    public var hour: Int
    public var minute: Int
    public var second: Int
    public var millisecond: Int

    public init(date: LocalDate, hour: Int, minute: Int, second: Int = 0, millisecond: Int = 0) {
        self.date = date; self.hour = hour; self.minute = minute; self.second = second; self.millisecond = millisecond
    }

    /// Minutes since the start of the day.
    public var minuteOfDay: Int { hour * 60 + minute }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        (a.date.daysSinceEpoch, a.hour, a.minute, a.second, a.millisecond)
            < (b.date.daysSinceEpoch, b.hour, b.minute, b.second, b.millisecond)
    }
}

func pad(_ n: Int, _ width: Int = 2) -> String {
    let s = String(n)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

extension BinaryInteger {
    /// Quotient and remainder rounded toward negative infinity (the remainder is never negative).
    func floorDivided(by d: Self) -> (Self, Self) {
        let q = self / d, r = self % d
        return r < 0 ? (q - 1, r + d) : (q, r)
    }

    /// The remainder of a division rounded toward negative infinity.
    func floorModulo(_ d: Self) -> Self { floorDivided(by: d).1 }
}
