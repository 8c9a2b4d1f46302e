import Foundation

/// A ledger's Waterline documents, with the operations the app performs on them.
///
/// Every operation that changes documents takes the ledger's writer lock for its whole
/// read-modify-write, so concurrent processes never lose each other's entries; do not call
/// them inside `withWriterLock`. `now` is always passed in.
public struct WaterlineStore: Sendable {
    /// The ledger.
    public let store: LedgerStore

    /// The Waterline documents of `store`.
    public init(_ store: LedgerStore) {
        self.store = store
    }

    /// The sessions and the presets, as typed repositories.
    public var sessions: DocumentRepository<Session> { store.repository(Session.self) }
    public var presets: DocumentRepository<DrinkPreset> { store.repository(DrinkPreset.self) }

    /// The settings (the seeds' defaults while the file does not exist).
    public func settings() throws -> WaterlineSettings {
        try store.singleton(WaterlineSettings.self).load()
    }

    // MARK: - The active session

    /// The active session and where it is.
    public struct Active: Sendable {
        /// The session and its path relative to the ledger root.
        public var session: Session
        public var path: String
    }

    /// The active session, if any, with notes about anything repaired on the way (several
    /// active sessions after a sync are resolved by `SessionMerge.resolveActive`).
    ///
    /// Costs the same whatever the history when the device-local hint holds (see
    /// `ActiveSessionHint`); otherwise scans every session once, under the writer lock, and
    /// records a new hint.
    public func activeSession() throws -> (active: Active?, notes: [String]) {
        if let found = try fromHint() { return (found, []) }
        return try store.withWriterLock { try activeSessionLocked() }
    }

    /// `activeSession()` for callers holding the writer lock.
    func activeSessionLocked() throws -> (active: Active?, notes: [String]) {
        if let found = try fromHint() { return (found, []) }
        let stamps = try ActiveSessionHint.currentStamps(store)
        var found = try scanForActive()
        var notes: [String] = []
        if found.count > 1 {
            let resolution = SessionMerge.resolveActive(found.map(\.session))
            for s in resolution.updated { try sessions.save(s) }
            let kept = Set(resolution.updated.map(\.path))
            for f in found where !kept.contains(f.path) { try store.remove(f.path) }
            notes = resolution.notes
            found = resolution.updated.filter(\.isActive).map { Active(session: $0, path: $0.path) }
            recordHint(found.first)
            return (found.first, notes)
        }
        ActiveSessionHint(sessionID: found.first?.session.id, path: found.first?.path, stamps: stamps).write(store)
        return (found.first, notes)
    }

    /// The hint's answer when it holds (`.some(nil)`: no session is active), nil when a scan
    /// is needed.
    private func fromHint() throws -> Active?? {
        guard let hint = ActiveSessionHint.read(store), hint.stampsHold(store) else { return nil }
        guard let id = hint.sessionID, let path = hint.path else { return .some(nil) }
        guard let session = try store.load(Session.self, at: path), session.id == id else { return nil }
        // Ended (by hand) since: with the set of files unchanged, no other session is active.
        return .some(session.isActive ? Active(session: session, path: path) : nil)
    }

    /// Every session whose file says it is active (reading only files that may say so).
    func scanForActive() throws -> [Active] {
        var out: [Active] = []
        for (_, path) in try sessions.index().sorted(by: { $0.path < $1.path }) {
            guard let bytes = try store.read(path), MemberPeek.mayHave("isActive", "true", in: bytes) else { continue }
            let s = try LedgerStore.decode(Session.self, from: bytes, path: path)
            if s.isActive { out.append(Active(session: s, path: path)) }
        }
        return out
    }

    /// Records, after a write made under the lock, which session is now active.
    private func recordHint(_ active: Active?) {
        guard let stamps = try? ActiveSessionHint.currentStamps(store) else { return }
        ActiveSessionHint(sessionID: active?.session.id, path: active?.path, stamps: stamps).write(store)
    }

    /// Saves a session under the lock and keeps the hint right; `wasActive` is the active
    /// session before the change. Returns the session as written (derived values recomputed).
    @discardableResult
    private func save(_ session: Session, wasActive: Active?) throws -> Session {
        try sessions.save(session)
        if session.isActive {
            recordHint(Active(session: session, path: session.path))
        } else if wasActive?.session.id == session.id {
            recordHint(nil)
        } else {
            recordHint(wasActive.map { Active(session: $0.session, path: $0.path) })
        }
        return session.recomputed
    }

    // MARK: - Sessions

    /// Starts a session at `start` (US-009). Refuses while another is active, and when the new
    /// session, running from `start` to now, would overlap an ended one.
    public func start(id: String, at start: Timestamp, now: Timestamp) throws -> (session: Session, notes: [String]) {
        try store.withWriterLock {
            let (active, notes) = try activeSessionLocked()
            if let a = active {
                throw LedgerError.invalid("a session is already active: \(a.session.id), started \(a.session.startTime.iso8601); only one may be active — end it first with `ledger waterline end`")
            }
            let overlapped = try endedSessions(after: start, now: now)
            if let first = overlapped.first, let end = first.endTime {
                let latest = overlapped.compactMap(\.endTime).max() ?? end
                var refusal = LedgerError.invalid("a session started at \(start.iso8601) would overlap session \(first.id), "
                    + "which ran from \(first.startTime.iso8601) to \(end.iso8601); sessions cannot overlap — start it at or after \(latest.iso8601)")
                refusal.refusedInstant = start
                throw refusal
            }
            let settings = try settings()
            var session = Session(id: id, start: start, rules: settings.rules)
            session.createdAt = now
            session.updatedAt = now
            return (try save(session, wasActive: nil), notes)
        }
    }

    /// The ended sessions that end after `instant`, earliest start first: those a session
    /// running from `instant` to `now` would overlap. Reads only the year folders from the one
    /// before `instant`'s to the one after `now`'s, so its cost does not grow with the history.
    func endedSessions(after instant: Timestamp, now: Timestamp) throws -> [Session] {
        let first = instant.local.date.year - 1, last = max(now.local.date.year, instant.local.date.year) + 1
        var found: [Session] = []
        for shard in try sessions.files.shards(years: first...last) {
            for file in try sessions.files.files(in: shard) {
                guard let bytes = try store.read(file.path) else { continue }
                // Most sessions ended long before: their `"endTime"` line says so without decoding.
                if let end = Self.endTime(in: bytes), end.epochMilliseconds <= instant.epochMilliseconds { continue }
                let s = try LedgerStore.decode(Session.self, from: bytes, path: file.path)
                guard !s.isActive, let end = s.endTime, end.epochMilliseconds > instant.epochMilliseconds else { continue }
                found.append(s)
            }
        }
        return found.sorted { ($0.startTime.epochMilliseconds, $0.id) < ($1.startTime.epochMilliseconds, $1.id) }
    }

    /// The active session, or the refusal every logging command gives without one.
    private func requireActive() throws -> (Active, [String]) {
        let (active, notes) = try activeSessionLocked()
        guard let active else {
            throw LedgerError.invalid("no session is active; start one with `ledger waterline start`")
        }
        return (active, notes)
    }

    /// What logging an entry did: the session after it and the entry replayed.
    public struct Logged: Sendable {
        /// The session after the entry, the entry replayed, and notes about repairs.
        public var session: Session
        public var step: WaterlineStep
        public var notes: [String]
    }

    /// Adds an entry to the active session (US-012, US-013). `makeEntry` receives the session
    /// and the settings, read under the lock.
    public func log(now: Timestamp, _ makeEntry: (Session, WaterlineSettings) throws -> LogEntry) throws -> Logged {
        try store.withWriterLock {
            let (active, notes) = try requireActive()
            var session = active.session
            var entry = try makeEntry(session, try settings())
            try Self.checkTime(entry.timestamp, in: session, now: now)
            // Two entries at the same instant (a frozen clock, a script) would replay by id;
            // a millisecond later keeps the order in which they were logged.
            let taken = Set(session.entries.map(\.timestamp.epochMilliseconds))
            while taken.contains(entry.timestamp.epochMilliseconds) { entry.timestamp = entry.timestamp.adding(seconds: 0.001) }
            if session.entries.contains(where: { $0.id == entry.id }) {
                throw LedgerError.invalid("entry id \(entry.id) is already used in session \(session.id)")
            }
            session.entries = WaterlineEngine.ordered(session.entries + [entry])
            session.updatedAt = now
            session = try save(session, wasActive: active)
            let step = WaterlineEngine.replay(session.entries, rules: session.rules).first { $0.entry.id == entry.id }!
            return Logged(session: session, step: step, notes: notes)
        }
    }

    /// Refuses entry times outside the session or in the future.
    static func checkTime(_ time: Timestamp, in session: Session, now: Timestamp) throws {
        if time < session.startTime {
            throw LedgerError.timeRefused(time, "is before session \(session.id) started (\(session.startTime.iso8601))")
        }
        if let end = session.endTime, time > end {
            throw LedgerError.timeRefused(time, "is after session \(session.id) ended (\(end.iso8601))")
        }
        if time > now {
            throw LedgerError.timeRefused(time, "is in the future (it is \(now.iso8601))")
        }
    }

    /// Ends the active session at `end` (US-021); works with zero entries. Without `end`, it
    /// ends now, or at its last entry when that is later (entries logged in the same
    /// millisecond are spread a millisecond apart).
    public func end(at requested: Timestamp?, now: Timestamp) throws -> (session: Session, notes: [String]) {
        try store.withWriterLock {
            let (active, notes) = try requireActive()
            var session = active.session
            let end = requested ?? max(now, session.entries.map(\.timestamp).max() ?? now)
            if end < session.startTime {
                throw LedgerError.timeRefused(end, "is before the session started (\(session.startTime.iso8601))")
            }
            if let last = session.entries.map(\.timestamp).max(), end < last {
                throw LedgerError.timeRefused(end, "is before the session's last entry (\(last.iso8601)); end it at or after that")
            }
            if let requested, requested > now { throw LedgerError.timeRefused(requested, "is in the future (it is \(now.iso8601))") }
            session.endTime = end
            session.isActive = false
            session.updatedAt = now
            return (try save(session, wasActive: active), notes)
        }
    }

    // MARK: - Entries

    /// An entry found by id or unique id prefix, with its session.
    public struct FoundEntry: Sendable {
        /// The session (as written, after a change) and the entry.
        public var session: Session
        public var entry: LogEntry
    }

    /// Finds an entry: in the given session, else in the active one, else in any session
    /// (reading only session files that mention the id).
    public func findEntry(_ reference: String, inSession sessionRef: String? = nil) throws -> FoundEntry {
        try findEntry(reference, inSession: sessionRef, active: sessionRef == nil ? activeSession().active : nil)
    }

    private func findEntry(_ reference: String, inSession sessionRef: String?, active: Active?) throws -> FoundEntry {
        let ref = reference.lowercased()
        func matches(in s: Session) -> [LogEntry] {
            if let exact = s.entries.first(where: { $0.id == ref }) { return [exact] }
            return s.entries.filter { $0.id.hasPrefix(ref) }
        }
        func pick(_ candidates: [(Session, LogEntry)]) throws -> FoundEntry? {
            switch candidates.count {
            case 0: return nil
            case 1: return FoundEntry(session: candidates[0].0, entry: candidates[0].1)
            default:
                let ids = candidates.map(\.1.id).sorted().prefix(4).joined(separator: ", ")
                throw LedgerError.usage("\"\(reference)\" matches \(candidates.count) entries (\(ids)…); give more characters")
            }
        }
        guard !ref.isEmpty else { throw LedgerError.usage("give an entry id (see `ledger waterline entries`)") }
        if let sessionRef {
            let s = try sessions.load(id: try sessions.resolve(sessionRef, describe: "session"))
            if let f = try pick(matches(in: s).map { (s, $0) }) { return f }
            throw LedgerError.notFound("session \(s.id) has no entry with id \"\(reference)\"")
        }
        if let active, let f = try pick(matches(in: active.session).map { (active.session, $0) }) {
            return f
        }
        var candidates: [(Session, LogEntry)] = []
        let needle = Array(("\"" + ref).utf8)
        for (_, path) in try sessions.index() {
            guard let bytes = try store.read(path), Bytes.firstIndex(of: needle, in: bytes) != nil else { continue }
            let s = try LedgerStore.decode(Session.self, from: bytes, path: path)
            candidates += matches(in: s).map { (s, $0) }
        }
        if let f = try pick(candidates) { return f }
        throw LedgerError.notFound("there is no entry with id \"\(reference)\" (see `ledger waterline entries`)")
    }

    /// Changes an entry and recomputes its session (US-017).
    public func editEntry(_ reference: String, inSession sessionRef: String? = nil, now: Timestamp,
                          _ change: (inout LogEntry) throws -> Void) throws -> FoundEntry {
        try store.withWriterLock {
            let (active, _) = try activeSessionLocked()
            let found = try findEntry(reference, inSession: sessionRef, active: active)
            var session = found.session
            guard let (index, original) = session.entry(id: found.entry.id) else { throw LedgerError.notFound("entry \(reference) vanished") }
            var entry = original
            try change(&entry)
            entry.id = original.id
            if entry.timestamp != original.timestamp {
                try Self.checkTime(entry.timestamp, in: session, now: max(now, session.endTime ?? now))
            }
            guard entry != original else { return FoundEntry(session: session, entry: entry) }
            entry.updatedAt = now
            session.entries[index] = entry
            session.entries = WaterlineEngine.ordered(session.entries)
            session.updatedAt = now
            let errors = session.validate().filter { $0.severity == .error }
            if !errors.isEmpty {
                throw LedgerError.invalid("that change would make session \(session.id) invalid:", problems: errors.map { Problem(session.path, $0) })
            }
            return FoundEntry(session: try save(session, wasActive: active), entry: entry)
        }
    }

    /// Deletes an entry and recomputes its session (US-017; no confirmation, SPEC §2).
    public func deleteEntry(_ reference: String, inSession sessionRef: String? = nil, now: Timestamp) throws -> FoundEntry {
        try store.withWriterLock {
            let (active, _) = try activeSessionLocked()
            let found = try findEntry(reference, inSession: sessionRef, active: active)
            var session = found.session
            session.entries.removeAll { $0.id == found.entry.id }
            session.updatedAt = now
            return FoundEntry(session: try save(session, wasActive: active), entry: found.entry)
        }
    }

    // MARK: - History

    /// The most recent sessions by start, newest first: reads the newest year folders only.
    public func recentSessions(limit: Int) throws -> [Session] {
        var found: [Session] = []
        var extraYears = 1  // one more folder: offsets can put a session just across New Year
        for shard in try sessions.files.shards() {
            found += try sessions.load(sessions.files.files(in: shard).map(\.path))
            if found.count >= limit {
                if extraYears == 0 { break }
                extraYears -= 1
            }
        }
        return Array(Self.newestFirst(found).prefix(limit))
    }

    /// Every session, newest first.
    public func allSessions() throws -> [Session] {
        Self.newestFirst(try sessions.all())
    }

    static func newestFirst(_ s: [Session]) -> [Session] {
        s.sorted { a, b in
            a.startTime.epochMilliseconds != b.startTime.epochMilliseconds
                ? a.startTime.epochMilliseconds > b.startTime.epochMilliseconds
                : b.id.utf8.lexicographicallyPrecedes(a.id.utf8)
        }
    }

    /// Forgets the hint, so the next look-up scans (after `sessions --all` has read everything
    /// anyway, or in tests).
    public func refreshActiveSession() throws -> (active: Active?, notes: [String]) {
        try store.withWriterLock {
            _ = try? FileSystem.remove(store.localState(ActiveSessionHint.fileName))
            return try activeSessionLocked()
        }
    }

    // MARK: - Settings

    /// Changes the settings and, when a session is active, the rules it records.
    public func updateSettings(now: Timestamp, _ change: (inout WaterlineSettings) throws -> Void) throws -> (settings: WaterlineSettings, session: Session?) {
        try store.withWriterLock {
            var settings = try settings()
            let before = settings
            try change(&settings)
            guard settings != before else { return (settings, nil) }
            settings.updatedAt = now
            if !store.singleton(WaterlineSettings.self).exists { settings.createdAt = now }
            try store.singleton(WaterlineSettings.self).save(settings)
            let (active, _) = try activeSessionLocked()
            guard var session = active?.session, session.rules != settings.rules else { return (settings, active?.session) }
            session.rules = settings.rules
            session.updatedAt = now
            return (settings, try save(session, wasActive: active))
        }
    }

    // MARK: - Presets

    /// The preset named `reference`: an exact id, a name (case-insensitive), or a unique id prefix.
    public func preset(_ reference: String) throws -> DrinkPreset {
        let ref = reference.trimmingCharacters(in: .whitespaces)
        if DocumentID.isValid(ref), try presets.path(of: ref) != nil { return try presets.load(id: ref) }
        let all = try presets.all()
        if let byName = all.first(where: { $0.name.lowercased() == ref.lowercased() }) { return byName }
        // "glass of wine" finds glass-of-wine; a path ("../beer") is never taken for a name.
        if !ref.contains("/"), !ref.contains(".."), let slug = DocumentID.slug(ref),
           let bySlug = all.first(where: { $0.id == slug || DocumentID.slug($0.name) == slug }) {
            return bySlug
        }
        let prefixed = all.filter { $0.id.hasPrefix(ref.lowercased()) }
        if prefixed.count == 1 { return prefixed[0] }
        let names = all.map(\.name).sorted()
        throw LedgerError.notFound("there is no drink preset \"\(reference)\"\(Suggestion.didYouMean(reference, among: names)); `ledger waterline presets` lists them")
    }
}

extension WaterlineStore {
    /// The `endTime` of a session as ledger writes it, or nil (not there, null, or written
    /// another way).
    static func endTime(in bytes: [UInt8]) -> Timestamp? {
        MemberPeek.topLevelString("endTime", in: bytes).flatMap(Timestamp.init(iso8601:))
    }
}
