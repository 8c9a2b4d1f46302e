/// The reminder schedule as an iCalendar file (RFC 5545), so that any calendar application can
/// do the notifying: one daily recurring event per reminder, each with a display alarm.
///
/// Times are floating (local wall-clock time without a zone), like the schedule itself: a
/// calendar shows the 09:00 reminder at 09:00 wherever its user is. A calendar repeats each
/// reminder at the same wall-clock time every day, so on the two nights a year the clocks
/// change, a window that spans the change can differ by that hour from `ledger hydrate plan`,
/// which keeps real elapsed spacing. A calendar cannot know about confirmations; with
/// `followUps`, each alarm repeats at the follow-up interval as many times as the slot allows
/// (VALARM REPEAT and DURATION), whether or not one drank.
///
/// The output depends only on the schedule document: the same schedule gives the same bytes
/// and the same UIDs, so re-importing updates events instead of duplicating them.
public enum HydrationCalendar {
    /// The calendar text: CRLF line ends, lines folded at 75 octets.
    public static func ics(_ schedule: HydrationSchedule, followUps: Bool = false) -> String {
        let r = schedule.reminders
        let offsets = r.nominalSlotOffsets
        let firstDay = schedule.updatedAt.local.date
        let stamp = utcStamp(schedule.updatedAt)
        var lines = [
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//ledger//Water Reminder//EN",
            "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH",
            "X-WR-CALNAME:Water Reminder",
            "X-WR-CALDESC:" + escape("Water Reminder: \(offsets.count) reminder\(offsets.count == 1 ? "" : "s") a day, \(r.summary). Exported by ledger."),
        ]
        for (i, offset) in offsets.enumerated() {
            let minute = r.startTime.minuteOfDay + offset
            let day = firstDay.adding(days: minute / 1440)
            let time = ClockTime(hour: minute % 1440 / 60, minute: minute % 60)!
            let length = (i + 1 < offsets.count ? offsets[i + 1] : r.windowMinutes) - offset
            let repeats = (length - 1) / max(1, r.followUpIntervalMinutes)
            lines += [
                "BEGIN:VEVENT",
                "UID:hydrate-\(pad(time.hour))\(pad(time.minute))@ledger",
                "DTSTAMP:" + stamp,
                "DTSTART:" + basicDate(day) + "T" + pad(time.hour) + pad(time.minute) + "00",
                "DURATION:PT5M",
                "RRULE:FREQ=DAILY",
                "SUMMARY:Water",
                "DESCRIPTION:" + escape("Reminder \(i + 1) of \(offsets.count): \(r.summary). "
                    + "Had a glass? Confirm it with: ledger hydrate drank"),
                "TRANSP:TRANSPARENT",
                "BEGIN:VALARM",
                "ACTION:DISPLAY",
                "DESCRIPTION:" + escape("Time for a glass of water."),
                "TRIGGER:PT0S",
            ]
            if followUps, repeats > 0 {
                lines += ["REPEAT:\(repeats)", "DURATION:PT\(r.followUpIntervalMinutes)M"]
            }
            lines += ["END:VALARM", "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        return lines.map { fold($0) + "\r\n" }.joined()
    }

    /// A content line folded to at most 75 octets per line (RFC 5545 §3.1): continuation
    /// lines start with a space; a UTF-8 sequence is never split. Lines are joined with CRLF.
    public static func fold(_ line: String) -> String {
        var out = ""
        var current = ""
        var octets = 0
        var limit = 75
        for scalar in line.unicodeScalars {
            let n = String(scalar).utf8.count
            if octets + n > limit {
                out += current + "\r\n "
                current = ""
                octets = 0
                limit = 74  // after the leading space
            }
            current.unicodeScalars.append(scalar)
            octets += n
        }
        return out + current
    }

    /// A TEXT value escaped (RFC 5545 §3.3.11): backslash, semicolon, comma and newline.
    public static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }

    static func basicDate(_ d: LocalDate) -> String { pad(d.year, 4) + pad(d.month) + pad(d.day) }

    /// `20261121T080000Z`.
    static func utcStamp(_ t: Timestamp) -> String {
        let u = t.withOffset(0).local
        return basicDate(u.date) + "T" + pad(u.hour) + pad(u.minute) + pad(u.second) + "Z"
    }
}
