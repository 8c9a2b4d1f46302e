/// `waterline/sessions/<YYYY>/<id>.json`: one night out with its entries (seeds: Session).
///
/// `state` and `computedSummary` are derived: stored for readers, recomputed from the entries
/// on every write, and reported by `check` when they disagree. They depend on this file alone:
/// each entry records the N and warning threshold in force when it was logged (its reminder
/// point and warning are judged by them), and the session records the ones in force now —
/// copied from the settings at its start and by every write while it is active — which judge
/// the final state and entries that record none. A stored derived value of the wrong shape is
/// not an error, only stale.
public struct Session: CollectionDocument, Equatable {
    package static let kind = DocumentKind("waterline.session", app: .waterline, .collection("waterline/sessions", .year))

    /// The file name.
    public var id = ""
    /// When the session started; its local date chooses the year folder.
    public var startTime = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    /// Nil while the session is active.
    public var endTime: Timestamp?
    /// True exactly when `endTime` is nil (both are kept, as in the seeds).
    public var isActive = true
    /// N in force for this session now (or when it ended).
    public var waterEveryNDrinks = 1
    /// The warning threshold in force for this session now (or when it ended).
    public var warningThreshold = 2
    /// The entries, in timestamp order as ledger writes them (any order is accepted).
    public var entries: [LogEntry] = []
    /// When the person last chose to keep the session going after being told it had run long
    /// (US-025's "Keep Going"); the question comes back after as long again. Nil until then.
    public var keptGoingAt: Timestamp?
    /// The stored `WaterlineState` (derived).
    package var storedState = JSONValue.null
    /// The stored summary (derived; null while active).
    package var storedSummary = JSONValue.null
    public var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    package var unknownFields = JSONObject()

    public init() {}

    /// A new active session starting at `start`, with the rules in force.
    public init(id: String, start: Timestamp, rules: WaterlineRules) {
        self.id = id
        startTime = start
        createdAt = start
        updatedAt = start
        self.rules = rules
        recomputeDerived()
    }

    package static let fields: [Field<Session>] = [
        .required("id", { $0.id }, { $0.id = $1 }, .documentID(DocumentID.problem)),
        .required("startTime", { $0.startTime }, { $0.startTime = $1 }),
        .optional("endTime", { $0.endTime }, { $0.endTime = $1 }, writeNull: true),
        .required("isActive", { $0.isActive }, { $0.isActive = $1 }),
        .defaulted("waterEveryNDrinks", { $0.waterEveryNDrinks }, { $0.waterEveryNDrinks = $1 }, 1, WaterlineRules.nRule),
        .defaulted("warningThreshold", { $0.warningThreshold }, { $0.warningThreshold = $1 }, 2, WaterlineRules.thresholdRule),
        .defaulted("entries", { $0.entries }, { $0.entries = $1 }, []),
        .optional("keptGoingAt", { $0.keptGoingAt }, { $0.keptGoingAt = $1 }),
        .defaulted("state", { $0.storedState }, { $0.storedState = $1 }, .null),
        .defaulted("computedSummary", { $0.storedSummary }, { $0.storedSummary = $1 }, .null),
        .required("createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        .required("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
    ]

    public var shardDate: LocalDate? { startTime.local.date }

    /// The rules in force for this session now (or when it ended).
    public var rules: WaterlineRules {
        get { WaterlineRules(waterEveryNDrinks: waterEveryNDrinks, warningThreshold: warningThreshold) }
        set {
            waterEveryNDrinks = newValue.waterEveryNDrinks
            warningThreshold = newValue.warningThreshold
        }
    }

    /// Puts new rules in force from now on: entries that record none (written by an older
    /// ledger, or by hand) first record the ones they were judged by, so that nothing logged
    /// so far is judged again.
    public mutating func applyFromNowOn(_ new: WaterlineRules) {
        guard new != rules else { return }
        for i in entries.indices where entries[i].recordedRules == nil { entries[i].recordedRules = entries[i].rules(in: rules) }
        rules = new
    }

    /// The Waterline state after every entry (US-034), its warning judged by the session's
    /// threshold.
    public var state: WaterlineState { WaterlineEngine.state(of: self) }

    /// The summary of an ended session, or of an active one up to `now`.
    public func summary(now: Timestamp) -> SessionSummary {
        WaterlineEngine.summary(of: self, now: now)
    }

    /// The entry with this id, and its index.
    public func entry(id: String) -> (index: Int, entry: LogEntry)? {
        entries.firstIndex { $0.id == id }.map { ($0, entries[$0]) }
    }

    /// The time of the last log, or the start when there is none.
    public var lastActivity: Timestamp { entries.map(\.timestamp).max().map { max($0, startTime) } ?? startTime }

    /// Recomputes `state` and `computedSummary` — unless an entry lacks what its type needs
    /// (a drink without its estimate): then nothing can be derived without guessing, and the
    /// stored values stay as they are until the entry is repaired.
    public mutating func recomputeDerived() {
        guard entries.allSatisfy(\.isComputable) else { return }
        storedState = state.json
        storedSummary = isActive || endTime == nil ? .null : WaterlineEngine.summary(of: self, now: endTime!).json
    }

    /// A night recorded before a forget keeps only the drinks and water whose time is at or
    /// after it (nil when there are none); the night itself — its start, its end — stays, so
    /// that its file stays where it is.
    public func remainder(afterForgetAt instant: Timestamp) -> Session? {
        remainder(afterForgetAt: instant, records: \.entries, time: \.timestamp)
    }

    /// Its span (`span:START/END`, END empty while it runs), and `active` while it runs, for
    /// the rules across sessions (`WaterlineApp`).
    public var tags: [String] {
        guard !isActive, let end = endTime else { return [WaterlineApp.activeTag, Self.spanTag + startTime.iso8601 + "/"] }
        return [Self.spanTag + startTime.iso8601 + "/" + end.iso8601]
    }

    /// The prefix of the tag holding a session's span: `span:START/END`.
    static let spanTag = "span:"

    public func validate() -> [DocumentIssue] {
        var issues = Self.ruleIssues(self, at: .root)
        if isActive, endTime != nil {
            issues.append(.error(.root.appending("isActive"), "is true but endTime is set; set isActive to false, or endTime to null to reopen the session"))
        } else if !isActive, endTime == nil {
            issues.append(.error(.root.appending("isActive"), "is false but endTime is null; set endTime to when the session ended, or isActive to true"))
        }
        if let end = endTime, end < startTime {
            issues.append(.error(.root.appending("endTime"), "is before startTime (\(startTime.iso8601)); a session cannot end before it starts"))
        }
        var seen: [String: Int] = [:]
        let list = JSONPointer.root.appending("entries")
        for (i, e) in entries.enumerated() {
            let p = list.appending(i)
            issues += e.validate(at: p)
            if let first = seen[e.id] {
                issues.append(.error(p.appending("id"), "duplicate entry id \"\(e.id)\" (also /entries/\(first)); give each entry its own id"))
            } else {
                seen[e.id] = i
            }
            if e.timestamp < startTime {
                issues.append(.error(p.appending("timestamp"),
                                     "\(e.timestamp.iso8601) is before the session started (\(startTime.iso8601)); correct the time, or move startTime earlier"))
            } else if let end = endTime, e.timestamp > end {
                issues.append(.warning(p.appending("timestamp"),
                                       "\(e.timestamp.iso8601) is after the session ended (\(end.iso8601)); correct the time, or move endTime later"))
            }
        }
        return issues
    }
}
