import Foundation

// MARK: - hydrate/schedule.json

/// `hydrate/schedule.json`: the reminder schedule in force (start, end, interval, follow-up
/// interval). `ledger init` writes the defaults; `ledger hydrate setup` changes them.
///
/// Two machines that change it differently merge field by field, the later change winning
/// per field (the shared rule); a merge whose fields would not make a valid schedule together
/// keeps the later version whole.
public struct HydrationSchedule: SingletonDocument, Equatable {
    public static let kind = DocumentKind("hydrate.schedule", app: .hydrate, .singleton("hydrate/schedule.json"))

    public var reminders = ReminderSchedule()
    public var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var unknownFields = JSONObject()

    public init() {}

    /// A schedule document created at `now`.
    public init(_ reminders: ReminderSchedule, createdAt now: Timestamp) {
        self.reminders = reminders
        createdAt = now
        updatedAt = now
    }

    public static let fields: [Field<HydrationSchedule>] = [
        .required("startTime", \.reminders.startTime),
        .required("endTime", \.reminders.endTime),
        .required("intervalMinutes", \.reminders.intervalMinutes),
        .required("followUpIntervalMinutes", \.reminders.followUpIntervalMinutes),
        .required("createdAt", \.createdAt),
        .required("updatedAt", \.updatedAt),
    ]

    /// The default schedule, used while the file does not exist.
    public static var defaultValue: HydrationSchedule { HydrationSchedule() }

    public func validate() -> [DocumentIssue] { reminders.validate(at: .root) }
}

// MARK: - hydrate/days/<YYYY>/<YYYY-MM-DD>.json

/// One "I Drank": the instant a reminder was confirmed.
public struct Confirmation: JSONModel, Equatable {
    /// When, with the UTC offset where it happened.
    public var confirmedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var unknownFields = JSONObject()

    public init() {}
    public init(at t: Timestamp) { confirmedAt = t }

    public static let fields: [Field<Confirmation>] = [.required("confirmedAt", \.confirmedAt)]
}

/// `hydrate/days/<YYYY>/<YYYY-MM-DD>.json`: one day's confirmations, with the schedule and time
/// zone the day was planned with, so that changing the schedule later never rewrites the
/// totals of past days. Its id is the date. Written the first time a reminder of the day is
/// confirmed; a day without a document had no confirmation.
///
/// `completed` and `total` are derived ("3 out of 8"), stored for readers and recomputed on
/// every write. Two machines' versions merge by uniting their confirmations (a confirmation
/// removed on one side and untouched on the other stays removed) and merging the schedule
/// field by field.
public struct HydrationDay: CollectionDocument, Equatable {
    public static let kind = DocumentKind("hydrate.day", app: .hydrate, .collection("hydrate/days", .year))

    /// The date, `YYYY-MM-DD`: the day the reminder window starts.
    public var id = ""
    /// The schedule the day is planned with.
    public var schedule = ReminderSchedule()
    /// The IANA zone the day is planned in (`Europe/Paris`), so every reader sees the same plan.
    public var timeZone = "UTC"
    /// Every confirmation, in time order.
    public var confirmations: [Confirmation] = []
    /// Derived: reminders confirmed.
    public var completed = 0
    /// Derived: reminders in the day.
    public var total = 0
    public var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var unknownFields = JSONObject()

    public init() {}

    /// A new, empty day planned with `schedule` in `timeZone`.
    public init(date: LocalDate, schedule: ReminderSchedule, timeZone: TimeZone, createdAt now: Timestamp) {
        id = date.description
        self.schedule = schedule
        self.timeZone = timeZone.identifier
        createdAt = now
        updatedAt = now
        recomputeDerived()
    }

    public static let fields: [Field<HydrationDay>] = [
        .required("id", \.id),
        .required("schedule", \.schedule),
        .required("timeZone", \.timeZone),
        .defaulted("confirmations", \.confirmations, []),
        .defaulted("completed", \.completed, 0),
        .defaulted("total", \.total, 0),
        .required("createdAt", \.createdAt),
        .required("updatedAt", \.updatedAt),
    ]

    /// The day, when the id is a date.
    public var date: LocalDate? { LocalDate(id) }
    public var shardDate: LocalDate? { date }

    /// The zone, when the system knows its name.
    public var zone: TimeZone? { TimeZone(identifier: timeZone) }

    /// The day's plan, when the document is valid enough to have one.
    public var plan: HydrationPlan? {
        guard let date, let zone, schedule.validate(at: .root).isEmpty else { return nil }
        return HydrationPlan(date: date, schedule: schedule, timeZone: zone)
    }

    /// The confirmation instants.
    public var confirmationTimes: [Timestamp] { confirmations.map(\.confirmedAt) }

    /// Records a confirmation at `t`, keeping them in time order.
    public mutating func confirm(at t: Timestamp) {
        confirmations.append(Confirmation(at: t))
        confirmations.sort { $0.confirmedAt.epochMilliseconds < $1.confirmedAt.epochMilliseconds }
    }

    public mutating func recomputeDerived() {
        guard let plan else { return }
        completed = plan.confirmedSlotCount(confirmationTimes)
        total = plan.slots.count
    }

    public func validate() -> [DocumentIssue] {
        var issues: [DocumentIssue] = []
        if date == nil {
            issues.append(.error(.root.appending("id"), "must be the day's date written YYYY-MM-DD, like 2026-11-21 (found \"\(id)\")"))
        }
        issues += schedule.validate(at: .root.appending("schedule"))
        if zone == nil {
            issues.append(.error(.root.appending("timeZone"),
                                 "must be a time zone name like \"Europe/Paris\" or \"UTC\" that this system knows (found \"\(timeZone)\")"))
        }
        if let date {
            // A day's confirmations happen on its date, or the next morning for a window past midnight.
            for (i, c) in confirmations.enumerated() {
                let d = c.confirmedAt.local.date
                if d != date, d != date.adding(days: 1) {
                    issues.append(.warning(.root.appending("confirmations").appending(i).appending("confirmedAt"),
                                           "was recorded on \(d), not on this day (\(date)) or the morning after; it confirms no reminder of this day"))
                }
            }
        }
        return issues
    }

    /// Confirmations are united (one removed on one side and untouched on the other stays
    /// removed; the same instant on both sides is kept once); every other field merges field by
    /// field, the later change winning.
    public static func merge(base: HydrationDay?, ours: HydrationDay, theirs: HydrationDay, context: MergeContext) -> Merged<HydrationDay> {
        let confirmations = mergeConfirmations(base: base?.confirmations, ours: ours.confirmations, theirs: theirs.confirmations)
        // Derived counts are left out too: they are recomputed, not merged.
        func withoutConfirmations(_ d: HydrationDay) -> HydrationDay {
            var d = d
            d.confirmations = []
            d.completed = 0
            d.total = 0
            return d
        }
        var merged = FieldwiseMerge.merge(base: base.map(withoutConfirmations), ours: withoutConfirmations(ours),
                                          theirs: withoutConfirmations(theirs))
        merged.document.confirmations = confirmations
        merged.document.recomputeDerived()
        return merged
    }

    /// The three-way union of confirmations, by instant, in time order.
    public static func mergeConfirmations(base: [Confirmation]?, ours: [Confirmation], theirs: [Confirmation]) -> [Confirmation] {
        func key(_ c: Confirmation) -> Timestamp { c.confirmedAt }
        let baseKeys = Set((base ?? []).map(key))
        let ourKeys = Set(ours.map(key)), theirKeys = Set(theirs.map(key))
        var result: [Timestamp: Confirmation] = [:]
        for c in theirs where ourKeys.contains(key(c)) || !baseKeys.contains(key(c)) { result[key(c)] = c }
        // Ours second, so our copy wins when both sides hold the same instant.
        for c in ours where theirKeys.contains(key(c)) || !baseKeys.contains(key(c)) { result[key(c)] = c }
        return result.values.sorted {
            ($0.confirmedAt.epochMilliseconds, $0.confirmedAt.utcOffsetSeconds) < ($1.confirmedAt.epochMilliseconds, $1.confirmedAt.utcOffsetSeconds)
        }
    }
}
