/// How Waterline's documents changed on two machines come back together (SPEC §6): sessions
/// entry by entry, sessions that cannot both stand reconciled, the settings field by field
/// (units and amount together), presets by the shared field-wise rule. Pure: versions in, one
/// out; no git, no files.
package enum SessionMerge {
    /// Merges two versions of one session that both changed since `base` (nil when both
    /// machines created it independently).
    ///
    /// - Entries are merged one by one, by id: a change on one side only is taken; an entry
    ///   deleted on one side and unchanged on the other stays deleted; edited on one side and
    ///   deleted on the other, the edit stays; added or edited on both sides, the later
    ///   `updatedAt` wins, ties going to the version whose canonical text sorts last.
    /// - The session's own fields (start, end, rules, unknown fields) merge field by field, a
    ///   field changed on both sides taking the value of the side with the later `updatedAt`
    ///   (the shared `FieldwiseMerge` rule).
    /// - The result is made consistent: `isActive` follows `endTime`; the start moves back to
    ///   the earliest entry and an end forward to the latest one, so that no entry falls
    ///   outside its session. Derived values are then recomputed.
    package static func merge(base: Session?, ours: Session, theirs: Session) -> Merged<Session> {
        var notes: [String] = []
        let preferOurs = FieldwiseMerge.oursWins(ours, theirs)

        // The session's own fields, without the entries and the derived values.
        func fields(_ s: Session) -> JSONObject {
            var o = s.json.objectValue ?? JSONObject()
            for key in ["entries", "state", "computedSummary"] { o[key] = nil }
            return o
        }
        var conflicts: [JSONPointer] = []
        var object = FieldwiseMerge.merge(base: base.map(fields), ours: fields(ours), theirs: fields(theirs),
                                          preferOurs: preferOurs, at: .root, conflicts: &conflicts)
        object["createdAt"] = min(ours.createdAt, theirs.createdAt).json
        object["updatedAt"] = max(ours.updatedAt, theirs.updatedAt).json
        var ignored: [DocumentIssue] = []
        var merged = Session.decode(.object(object), at: .root, issues: &ignored) ?? (preferOurs ? ours : theirs)
        let later = preferOurs ? ours : theirs, earlier = preferOurs ? theirs : ours
        for p in conflicts where !["createdAt", "updatedAt"].contains(p.tokens.first ?? "") {
            notes.append("\(p) changed on both machines; kept the value of the version saved later, \(FieldwiseMerge.shown(p, in: later)) (not \(FieldwiseMerge.shown(p, in: earlier)))")
        }

        let (entries, entryNotes) = mergeEntries(base: base?.entries, ours: ours.entries, theirs: theirs.entries)
        merged.entries = entries
        notes += entryNotes.map { "session \(merged.id): \($0)" }
        notes += makeConsistent(&merged)
        merged.recomputeDerived()
        return Merged(merged, notes: notes)
    }

    /// Three-way merge of entry lists by id; the result is in replay order.
    package static func mergeEntries(base: [LogEntry]?, ours: [LogEntry], theirs: [LogEntry]) -> ([LogEntry], [String]) {
        let b = Dictionary(base?.map { ($0.id, $0) } ?? [], uniquingKeysWith: { a, _ in a })
        let o = Dictionary(ours.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let t = Dictionary(theirs.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let ids = Set(o.keys).union(t.keys).union(b.keys)
        var out: [LogEntry] = []
        var notes: [String] = []
        for id in ids.sorted() {
            let (be, oe, te) = (b[id], o[id], t[id])
            let chosen: LogEntry?
            if oe == te {
                chosen = oe
            } else if oe == be {
                chosen = te
            } else if te == be {
                chosen = oe
            } else if let oe, let te {
                chosen = laterEntry(oe, te)
                notes.append("entry \(id) changed on both machines; kept the later version")
            } else {
                chosen = oe ?? te
                notes.append("entry \(id) was deleted on one machine and edited on the other; kept the edit")
            }
            if let chosen { out.append(chosen) }
        }
        return (WaterlineEngine.ordered(out), notes)
    }

    /// The later of two versions of an entry: by `updatedAt`, then by canonical text.
    static func laterEntry(_ a: LogEntry, _ b: LogEntry) -> LogEntry {
        if a.lastWritten.epochMilliseconds != b.lastWritten.epochMilliseconds {
            return a.lastWritten.epochMilliseconds > b.lastWritten.epochMilliseconds ? a : b
        }
        return CanonicalJSON.encode(a.json).lexicographicallyPrecedes(CanonicalJSON.encode(b.json)) ? b : a
    }

    /// Restores the invariants a merge can break; returns what it changed.
    static func makeConsistent(_ s: inout Session) -> [String] {
        var notes: [String] = []
        s.isActive = s.endTime == nil
        if let first = s.entries.map(\.timestamp).min(), first < s.startTime {
            s.startTime = first
            notes.append("session \(s.id): the start moved back to its earliest entry (\(first.iso8601))")
        }
        if let end = s.endTime, let last = s.entries.map(\.timestamp).max(), last > end {
            s.endTime = last
            notes.append("session \(s.id): an entry was logged after the session ended on the other machine; its end moved to \(last.iso8601)")
        }
        return notes
    }

    // MARK: - Sessions that cannot both stand

    /// Sessions started separately within this many hours of each other's last log are taken
    /// to be the same night out logged on two devices.
    package static let sameNightHours = 12

    /// What to do with sessions that cannot both stand — several active at once (each device
    /// started one offline, or a hand edit), or overlapping in time (a session ended on one
    /// device while another started one, or kept logging into it): the plan keeps every entry,
    /// leaves at most one session active and none overlapping.
    package struct Resolution: Sendable, Equatable {
        /// Sessions to write (those kept, ended or absorbing others).
        package var updated: [Session]
        /// Ids of sessions whose entries moved into another one and whose files go away.
        package var removed: [String]
        /// What was done, one sentence each.
        package var notes: [String]
    }

    /// Resolves the sessions deterministically (the result depends on the sessions only, so
    /// two machines resolving the same conflict write identical files).
    ///
    /// Sessions are taken in order of start (then id), each against the one kept so far:
    /// - the kept one is active: a session starting less than `sameNightHours` after its last
    ///   log is the same night out — its entries (merged by id as in `mergeEntries`) move into
    ///   the kept one, which keeps its id and start, and its file is removed; a session
    ///   starting later is a new night: the kept one ends at its last log (its start when it
    ///   has none) and the newer one is kept;
    /// - the kept one has ended: a session starting before that end overlaps it and is
    ///   merged into it the same way (the result ends at the later end, or stays active when
    ///   either was); one starting at or after it is kept.
    package static func reconcile(_ sessions: [Session]) -> Resolution {
        let ordered = sessions.sorted { a, b in
            a.startTime.epochMilliseconds != b.startTime.epochMilliseconds
                ? a.startTime.epochMilliseconds < b.startTime.epochMilliseconds
                : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
        guard var kept = ordered.first else { return Resolution(updated: [], removed: [], notes: []) }
        var changed: [String: Session] = [:]
        var keptChanged = false
        var removed: [String] = []
        var notes: [String] = []
        for next in ordered.dropFirst() {
            let sameNight = kept.endTime.map { next.startTime < $0 }
                ?? (next.startTime.seconds(since: kept.lastActivity) < Double(sameNightHours * 3600))
            if sameNight {
                let entries = next.entries.count == 1 ? "entry" : "entries"
                notes.append(kept.isActive && next.isActive
                    ? "sessions \(kept.id) and \(next.id) were both active (started on two devices); merged \(next.id)'s \(next.entries.count) \(entries) into \(kept.id)"
                    : "sessions \(kept.id) and \(next.id) overlapped (kept on two devices); merged \(next.id)'s \(next.entries.count) \(entries) into \(kept.id)")
                absorb(next, into: &kept)
                keptChanged = true
                if next.id != kept.id { removed.append(next.id) }
                continue
            }
            if kept.isActive {
                let lastLog = kept.lastActivity
                kept.endTime = lastLog
                kept.isActive = false
                kept.updatedAt = max(kept.updatedAt, next.updatedAt)
                keptChanged = true
                notes.append("sessions \(kept.id) and \(next.id) were both active; ended \(kept.id) at its last log (\(lastLog.iso8601)) and kept the newer one")
            }
            if keptChanged { changed[kept.id] = finished(kept) }
            kept = next
            keptChanged = false
        }
        // The session left standing is written whenever anything was resolved.
        if keptChanged || !notes.isEmpty { changed[kept.id] = finished(kept) }
        let updated = changed.values.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        return Resolution(updated: updated, removed: removed.filter { changed[$0] == nil }, notes: notes)
    }

    /// Moves `other`'s entries into `kept`: one session spanning both, active when either was.
    static func absorb(_ other: Session, into kept: inout Session) {
        let (entries, _) = mergeEntries(base: nil, ours: kept.entries, theirs: other.entries)
        kept.entries = entries
        if let a = kept.endTime, let b = other.endTime {
            kept.endTime = max(a, b)
        } else {
            kept.endTime = nil
        }
        kept.isActive = kept.endTime == nil
        kept.updatedAt = max(kept.updatedAt, other.updatedAt)
        kept.createdAt = min(kept.createdAt, other.createdAt)
        for m in other.unknownFields where kept.unknownFields[m.key] == nil { kept.unknownFields[m.key] = m.value }
    }

    /// A session as it is written after a repair: consistent, derived values recomputed.
    static func finished(_ s: Session) -> Session {
        var s = s
        _ = makeConsistent(&s)
        s.recomputeDerived()
        return s
    }

    /// `reconcile` as a sync runs it over the sessions either side changed (`WaterlineApp`):
    /// the files to write and remove, by path.
    static let reconciliation = MergeReconciliation(kind: Session.kind) { documents in
        var sessions: [Session] = []
        var paths: [String: String] = [:]
        for (path, json) in documents {
            var issues: [DocumentIssue] = []
            guard let s = Session.decode(json, at: .root, issues: &issues) else { continue }
            sessions.append(s)
            paths[s.id] = path
        }
        let resolution = reconcile(sessions)
        var changes: [(path: String, document: JSONValue?)] = []
        for s in resolution.updated {
            if let old = paths[s.id], old != s.path { changes.append((old, nil)) }
            changes.append((s.path, s.json))
        }
        for id in resolution.removed { if let p = paths[id] { changes.append((p, nil)) } }
        return MergeReconciliation.Repair(changes: changes, notes: resolution.notes)
    }
}

// MARK: - Merge

extension Session {
    /// The session's merge rule (SPEC §6); see `SessionMerge`.
    package static func merge(base: Session?, ours: Session, theirs: Session, context: MergeContext) -> Merged<Session> {
        SessionMerge.merge(base: base, ours: ours, theirs: theirs)
    }
}

extension WaterlineSettings {
    /// The water amount together with the unit it is written in: one value for merges, since
    /// an amount means nothing without its unit (8 oz is not 8 ml).
    struct WaterAmountPair: Equatable {
        var units: VolumeUnit
        var defaultWaterAmount: Double?

        /// Whether two pairs name the same amount (a missing amount is the unit's default).
        func sameAmount(as other: WaterAmountPair) -> Bool {
            units == other.units && (defaultWaterAmount ?? units.defaultWaterAmount) == (other.defaultWaterAmount ?? other.units.defaultWaterAmount)
        }
    }

    var waterAmountPair: WaterAmountPair {
        get { WaterAmountPair(units: units, defaultWaterAmount: defaultWaterAmount) }
        set { (units, defaultWaterAmount) = (newValue.units, newValue.defaultWaterAmount) }
    }

    /// Two machines' settings merged: every field by the shared field-wise rule
    /// (`FieldwiseMerge`), except `units` and `defaultWaterAmount`, which merge as one value —
    /// taken from the side that changed the pair, or from the later write when both did — so
    /// that switching to ml on one machine (8 oz → 250 ml) and setting 12 oz on another never
    /// makes 12 ml.
    package static func merge(base: WaterlineSettings?, ours: WaterlineSettings, theirs: WaterlineSettings,
                             context: MergeContext) -> Merged<WaterlineSettings> {
        let o = ours.waterAmountPair, t = theirs.waterAmountPair
        var pair = o
        var note: String?
        if !o.sameAmount(as: t) {
            let oursChanged = base.map { !o.sameAmount(as: $0.waterAmountPair) } ?? true
            let theirsChanged = base.map { !t.sameAmount(as: $0.waterAmountPair) } ?? true
            if oursChanged, theirsChanged {
                pair = FieldwiseMerge.oursWins(ours, theirs) ? o : t
                let shown = CanonicalJSON.formatNumber(pair.defaultWaterAmount ?? pair.units.defaultWaterAmount) + " " + pair.units.rawValue
                note = "/units and /defaultWaterAmount changed on both machines; kept those of the version saved later, together (\(shown))"
            } else {
                pair = oursChanged ? o : t
            }
        }
        // With the pair the same on every side, the field-wise rule leaves it as chosen.
        func withPair(_ s: WaterlineSettings) -> WaterlineSettings {
            var s = s
            s.waterAmountPair = pair
            return s
        }
        var merged = FieldwiseMerge.merge(base: base.map(withPair), ours: withPair(ours), theirs: withPair(theirs))
        if let note { merged.notes.append(note) }
        return merged
    }
}

