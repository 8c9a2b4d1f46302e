/// How Waterline sessions changed on two machines come back together (SPEC §6). Pure: three
/// versions in, one out; no git, no files.
public enum SessionMerge {
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
    public static func merge(base: Session?, ours: Session, theirs: Session) -> Merged<Session> {
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
        for p in conflicts where !["createdAt", "updatedAt"].contains(p.tokens.first ?? "") {
            notes.append("\(p) changed on both machines; kept the later change")
        }

        let (entries, entryNotes) = mergeEntries(base: base?.entries, ours: ours.entries, theirs: theirs.entries)
        merged.entries = entries
        notes += entryNotes.map { "session \(merged.id): \($0)" }
        notes += makeConsistent(&merged)
        merged.recomputeDerived()
        return Merged(merged, notes: notes)
    }

    /// Three-way merge of entry lists by id; the result is in replay order.
    public static func mergeEntries(base: [LogEntry]?, ours: [LogEntry], theirs: [LogEntry]) -> ([LogEntry], [String]) {
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

    // MARK: - More than one active session

    /// Sessions started separately within this many hours of each other's last log are taken
    /// to be the same night out logged on two devices.
    public static let sameNightHours = 12

    /// What to do when several sessions are active at once (two devices each started one
    /// offline, or a hand edit): the plan keeps every entry and leaves exactly one active.
    public struct ActiveResolution: Sendable, Equatable {
        /// Sessions to write (the one left active, and any that were ended or absorbed into it).
        public var updated: [Session]
        /// Ids of sessions whose entries moved into another one and whose files go away.
        public var removed: [String]
        /// What was done, one sentence each.
        public var notes: [String]
    }

    /// Resolves several active sessions deterministically (the result depends on the sessions
    /// only, so two machines resolving the same conflict write identical files).
    ///
    /// Sessions are taken in order of start (then id). Each following session that started
    /// less than `sameNightHours` after the last log of the one kept so far is the same night
    /// out: its entries (merged by id as in `mergeEntries`) move into the kept session, which
    /// keeps its id and start, and its file is removed. A session that started later than that
    /// is a new night: the kept one ends at its last log (its start when it has none) and the
    /// newer one becomes the kept one. Exactly one session is left active.
    public static func resolveActive(_ sessions: [Session]) -> ActiveResolution {
        let active = sessions.filter(\.isActive).sorted { a, b in
            a.startTime.epochMilliseconds != b.startTime.epochMilliseconds
                ? a.startTime.epochMilliseconds < b.startTime.epochMilliseconds
                : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
        guard var kept = active.first, active.count > 1 else { return ActiveResolution(updated: [], removed: [], notes: []) }
        var changed: [String: Session] = [:]
        var removed: [String] = []
        var notes: [String] = []
        for next in active.dropFirst() {
            let gap = next.startTime.seconds(since: kept.lastActivity)
            if gap < Double(sameNightHours * 3600) {
                let (entries, _) = mergeEntries(base: nil, ours: kept.entries, theirs: next.entries)
                kept.entries = entries
                kept.updatedAt = max(kept.updatedAt, next.updatedAt)
                kept.createdAt = min(kept.createdAt, next.createdAt)
                for m in next.unknownFields where kept.unknownFields[m.key] == nil { kept.unknownFields[m.key] = m.value }
                if next.id != kept.id { removed.append(next.id) }
                notes.append("sessions \(kept.id) and \(next.id) were both active (started on two devices); merged \(next.id)'s \(next.entries.count) \(next.entries.count == 1 ? "entry" : "entries") into \(kept.id)")
            } else {
                var ended = kept
                ended.endTime = kept.lastActivity
                ended.isActive = false
                ended.updatedAt = max(kept.updatedAt, next.updatedAt)
                ended.recomputeDerived()
                changed[ended.id] = ended
                notes.append("sessions \(kept.id) and \(next.id) were both active; ended \(kept.id) at its last log (\(ended.endTime!.iso8601)) and kept the newer one")
                kept = next
            }
        }
        _ = makeConsistent(&kept)
        kept.recomputeDerived()
        changed[kept.id] = kept
        let updated = changed.values.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        return ActiveResolution(updated: updated, removed: removed.filter { changed[$0] == nil }, notes: notes)
    }
}
