import Foundation

// MARK: - hydrate/days/<YYYY>/<YYYY-MM-DD>.json

/// One "I Drank": when it was tapped and, when the tap named one, the reminder it confirms.
public struct HydrationConfirmation: JSONModel, Equatable {
    /// When, with the UTC offset where it happened.
    public var confirmedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    /// The reminder it confirms (that reminder's instant), when the tap named one: a
    /// notification's "I Drank" clicked late, `ledger hydrate drank --slot`. Without it, a
    /// confirmation confirms the reminder whose period holds `confirmedAt`.
    public var slot: Timestamp?
    package var unknownFields = JSONObject()

    public init() {}

    /// A confirmation at `t`, of the reminder at `slot` when given.
    public init(at t: Timestamp, slot: Timestamp? = nil) {
        confirmedAt = t
        self.slot = slot
    }

    package static let fields: [Field<HydrationConfirmation>] = [
        .required("confirmedAt", { $0.confirmedAt }, { $0.confirmedAt = $1 }), .optional("slot", { $0.slot }, { $0.slot = $1 }),
    ]

    /// The instant whose reminder period says which reminder this confirms.
    public var confirmsInstant: Timestamp { slot ?? confirmedAt }

    /// The order confirmations are kept in: by instant, then offset, then slot.
    public static func inTimeOrder(_ a: HydrationConfirmation, _ b: HydrationConfirmation) -> Bool {
        (a.confirmedAt.epochMilliseconds, a.confirmedAt.utcOffsetSeconds, a.slot?.epochMilliseconds ?? .min)
            < (b.confirmedAt.epochMilliseconds, b.confirmedAt.utcOffsetSeconds, b.slot?.epochMilliseconds ?? .min)
    }
}

/// `hydrate/days/<YYYY>/<YYYY-MM-DD>.json`: one day's confirmations, with the schedule and time
/// zone the day was planned with, so that changing the schedule later never rewrites the
/// totals of past days. Its id is the date. Written the first time a reminder of the day is
/// confirmed; a day without a document had no confirmation.
///
/// `completed` and `total` are derived ("3 out of 8"), stored for readers and recomputed on
/// every write; a stored one of the wrong shape is not an error, only stale. Two machines' versions merge by uniting their confirmations (a confirmation
/// removed on one side and untouched on the other stays removed) and merging the schedule
/// field by field.
public struct HydrationDay: CollectionDocument, Equatable {
    package static let kind = DocumentKind("hydrate.day", app: .hydrate, .collection("hydrate/days", .year))

    /// The date, `YYYY-MM-DD`: the day the reminder window starts.
    public var id = ""
    /// The schedule the day is planned with.
    public var schedule = ReminderSchedule()
    /// The IANA zone the day is planned in (`Europe/Paris`), so every reader sees the same plan.
    public var timeZone = "UTC"
    /// Every confirmation, in time order.
    public var confirmations: [HydrationConfirmation] = []
    /// Derived: reminders confirmed (0 while the stored value is not a whole number).
    public var completed: Int {
        get { Self.count(storedCompleted) }
        set { storedCompleted = .number(Double(newValue)) }
    }
    /// Derived: reminders in the day (0 while the stored value is not a whole number).
    public var total: Int {
        get { Self.count(storedTotal) }
        set { storedTotal = .number(Double(newValue)) }
    }
    /// `completed` and `total` as stored: a derived value of the wrong shape (`"8"`) is not
    /// an error, only stale, as Waterline's are — `check --fix` and the next write recompute it.
    package var storedCompleted = JSONValue.number(0)
    package var storedTotal = JSONValue.number(0)
    public var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    package var unknownFields = JSONObject()

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

    package static let fields: [Field<HydrationDay>] = [
        .required("id", { $0.id }, { $0.id = $1 }, ValueRule(schema: { ["pattern": .string("^" + TextPattern.date + TextPattern.end)] }) {
            LocalDate($0) == nil ? "must be the day's date written YYYY-MM-DD, like 2026-11-21 (found \"\($0)\")" : nil
        }),
        .required("schedule", { $0.schedule }, { $0.schedule = $1 }),
        .required("timeZone", { $0.timeZone }, { $0.timeZone = $1 }),
        .defaulted("confirmations", { $0.confirmations }, { $0.confirmations = $1 }, []),
        .defaulted("completed", { $0.storedCompleted }, { $0.storedCompleted = $1 }, .number(0)),
        .defaulted("total", { $0.storedTotal }, { $0.storedTotal = $1 }, .number(0)),
        .required("createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        .required("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
    ]

    /// A stored count, or 0 when it is not a whole number.
    private static func count(_ stored: JSONValue) -> Int {
        guard case .number(let n) = stored, let i = Int(exactly: n) else { return 0 }
        return i
    }

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

    /// Records a confirmation at `t` (of the reminder at `slot`, when given), keeping them in
    /// time order.
    public mutating func confirm(at t: Timestamp, slot: Timestamp? = nil) {
        confirmations.append(HydrationConfirmation(at: t, slot: slot))
        confirmations.sort(by: HydrationConfirmation.inTimeOrder)
    }

    /// A day recorded before a forget keeps only the confirmations made at or after it (nil
    /// when there are none).
    public func remainder(afterForgetAt instant: Timestamp) -> HydrationDay? {
        remainder(afterForgetAt: instant, records: \.confirmations, time: \.confirmedAt)
    }

    public mutating func recomputeDerived() {
        guard let plan else { return }
        completed = plan.confirmedSlotCount(confirmations)
        total = plan.slots.count
    }

    public func validate() -> [DocumentIssue] {
        var issues = Self.ruleIssues(self, at: .root)
        issues += schedule.relationIssues(at: .root.appending("schedule"))
        if zone == nil {
            issues.append(.error(.root.appending("timeZone"),
                                 "must be a time zone name like \"Europe/Paris\" or \"UTC\" that this system knows (found \"\(timeZone)\")"))
        }
        if let date {
            // A day's confirmations happen on its date, or the next morning for a window past midnight.
            for (i, c) in confirmations.enumerated() {
                let at = JSONPointer.root.appending("confirmations").appending(i)
                let d = c.confirmedAt.local.date
                if d != date, d != date.adding(days: 1) {
                    issues.append(.warning(at.appending("confirmedAt"),
                                           "was recorded on \(d), not on this day (\(date)) or the morning after; it confirms no reminder of this day"))
                }
                guard let slot = c.slot else { continue }
                if slot > c.confirmedAt {
                    issues.append(.error(at.appending("slot"),
                                         "is later than confirmedAt (\(c.confirmedAt.iso8601)): a reminder is confirmed after it comes, not before"))
                } else if let plan, plan.slot(containing: slot) == nil {
                    issues.append(.warning(at.appending("slot"),
                                           "\(slot.iso8601) is outside this day's reminder window; it confirms no reminder of this day"))
                }
            }
        }
        return issues
    }
}
