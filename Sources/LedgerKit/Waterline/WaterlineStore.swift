import Foundation

/// A ledger's Waterline documents, and the only public way to change them: one method per
/// intent of the person (start a session, log a drink, log water, edit or delete an entry,
/// end or delete a session, add or change a preset, change a setting).
///
/// Every intent takes the ledger's writer lock for its whole read-modify-write, so concurrent
/// processes never lose each other's entries (do not call one inside another, or inside
/// `withWriterLock`); takes `now` and, when it creates documents, an id source; validates
/// (nothing is written when anything is wrong) and returns what happened. Reads take no lock
/// and work on a read-only ledger.
public struct WaterlineStore: Sendable {
    /// The ledger.
    let store: LedgerStore

    /// The Waterline documents of `store`.
    public init(_ store: LedgerStore) {
        self.store = store
    }

    var sessions: DocumentRepository<Session> { store.repository(Session.self) }
    var presets: DocumentRepository<DrinkPreset> { store.repository(DrinkPreset.self) }

    /// The settings (the seeds' defaults while the file does not exist).
    public func settings() throws -> WaterlineSettings {
        try store.singleton(WaterlineSettings.self).load()
    }

    // MARK: - Now

    /// What holds now: the active session, the settings, and the session's state judged by
    /// the current settings (a threshold changed by hand counts at once).
    public struct Current: Sendable {
        /// The active session, if any.
        public var session: Session?
        public var settings: WaterlineSettings
        /// Notes about anything repaired on the way (see `activeSession()`).
        public var notes: [String]

        /// The active session's state now (an empty state without one).
        public var state: WaterlineState {
            WaterlineEngine.state(from: session?.entries ?? [], warningThreshold: settings.warningThreshold)
        }
        /// Drinks left before water is due (0: due now); nil without a session.
        public var drinksUntilWaterDue: Int? {
            session.map { _ in WaterlineEngine.drinksUntilWaterDue(state, waterEveryNDrinks: settings.waterEveryNDrinks) }
        }
    }

    /// The active session and the settings.
    public func current() throws -> Current {
        let (active, notes) = try activeSession()
        return Current(session: active?.session, settings: try settings(), notes: notes)
    }

    /// Which Waterline notifications are due at `now` and when that can next change (see
    /// `WaterlineDue`; times on the clock of `timeZone`): for a resident reminder process,
    /// which asks again at `nextChange` or when a document changes.
    public func due(now: Timestamp, timeZone: TimeZone) throws -> WaterlineDue {
        let current = try current()
        return WaterlineDue.at(now, session: current.session, settings: current.settings, timeZone: timeZone)
    }

    // MARK: - Writing a session

    /// Saves a session under the lock and keeps the hint right; `wasActive` is the active
    /// session before the change. While the session is active (and when it ends) it records
    /// the rules in force, `settings`'. A `new` session is written where no file is (the
    /// other years are not searched for it). Returns the session as written.
    @discardableResult
    func save(_ session: Session, wasActive: Active?, settings: WaterlineSettings, new: Bool = false) throws -> Session {
        var session = session
        if session.isActive || wasActive?.session.id == session.id { session.applyFromNowOn(settings.rules) }
        session.recomputeDerived()
        let written = try sessions.save(session, new: new)
        if session.isActive {
            recordHint(Active(session: session, path: session.path), written: written)
        } else if wasActive?.session.id == session.id {
            recordHint(nil, written: written)
        } else {
            recordHint(wasActive, written: written)
        }
        return session
    }

    /// The active session, or the refusal every logging command gives without one.
    func requireActive() throws -> (Active, [String]) {
        let (active, notes) = try activeSessionLocked()
        guard let active else {
            throw LedgerError.invalid("no session is active; \(next: .waterline(.startSession))")
        }
        return (active, notes)
    }

    // MARK: - Sessions

    /// Starts a session at `start` (now when nil; US-009). Refuses while another is active,
    /// and when the new session, running from `start` to now, would overlap an ended one.
    @discardableResult
    public func start(at start: Timestamp? = nil, now: Timestamp, ids: any IDSource) throws -> (session: Session, notes: [String]) {
        let start = start ?? now
        return try store.withWriterLock {
            let (active, notes) = try activeSessionLocked()
            if let a = active {
                throw LedgerError.invalid("a session is already active: \(a.session.id), started \(a.session.startTime.iso8601); only one may be active — \(next: .waterline(.endSession))")
            }
            if start > now { throw LedgerError.timeRefused(start, "is in the future (it is \(now.iso8601))") }
            let overlapped = try endedSessions(after: start, now: now)
            if let first = overlapped.first, let end = first.endTime {
                let latest = overlapped.compactMap(\.endTime).max() ?? end
                var refusal = LedgerError.invalid("a session started at \(start.iso8601) would overlap session \(first.id), "
                    + "which ran from \(first.startTime.iso8601) to \(end.iso8601); sessions cannot overlap — start it at or after \(latest.iso8601)")
                refusal.refusedInstant = start
                throw refusal
            }
            let settings = try settings()
            var session = Session(id: ids.next(), start: start, rules: settings.rules)
            session.createdAt = now
            session.updatedAt = now
            return (try save(session, wasActive: nil, settings: settings, new: true), notes)
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
                guard let bytes = try readSession(file.path) else { continue }
                // Most sessions ended long before: their `"endTime"` line says so without decoding.
                if let end = Self.endTime(in: bytes), end.epochMilliseconds <= instant.epochMilliseconds { continue }
                let s = try LedgerStore.decode(Session.self, from: bytes, path: file.path)
                guard !s.isActive, let end = s.endTime, end.epochMilliseconds > instant.epochMilliseconds else { continue }
                found.append(s)
            }
        }
        return found.sorted { ($0.startTime.epochMilliseconds, $0.id) < ($1.startTime.epochMilliseconds, $1.id) }
    }

    /// Ends the active session at `end` (US-021); works with zero entries. Without `end`, it
    /// ends now, or at its last entry when that is later (entries logged in the same
    /// millisecond are spread a millisecond apart). A `requested` time given to the minute (or
    /// the second) names that whole minute (`precision` milliseconds from it): the one the
    /// person was shown for the last entry ("23:47" for 23:47:41) ends the session at that
    /// entry's instant — the earliest of the minute that is not before the session's start
    /// nor its last entry, so every entry stays inside the session and the end is not later
    /// than now.
    @discardableResult
    public func end(at requested: Timestamp? = nil, precision: Int64 = 1, now: Timestamp) throws -> (session: Session, notes: [String]) {
        try store.withWriterLock {
            let (active, notes) = try requireActive()
            var session = active.session
            if let problem = Self.entryAheadProblem(session, path: active.path, now: now) {
                throw LedgerError.invalid(problem + ", then end the session")
            }
            var end = requested ?? max(now, session.entries.map(\.timestamp).max() ?? now)
            if let requested, let earliest = (session.entries.map(\.timestamp) + [session.startTime]).max(), earliest > requested,
               earliest.epochMilliseconds < requested.epochMilliseconds + precision, earliest <= now {
                end = earliest
            }
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
            return (try save(session, wasActive: active, settings: try settings()), notes)
        }
    }

    /// What is wrong when `session` holds an entry stamped well after `now`
    /// (`WaterlineEngine.entryAhead`), naming its file (when known), the entry and the fix;
    /// nil when none is.
    public static func entryAheadProblem(_ session: Session, path: String?, now: Timestamp) -> String? {
        guard let (i, e) = WaterlineEngine.entryAhead(of: session, now: now) else { return nil }
        let place = path.map { "\($0): /entries/\(i)/timestamp: entry \(e.id)" } ?? "entry \(e.id) of session \(session.id)"
        return "\(place) is stamped \(e.timestamp.iso8601), more than \(WaterlineEngine.clockAheadToleranceMinutes) minutes after now "
            + "(\(now.iso8601)) — a typo in the time? Correct it with `ledger waterline edit \(e.id) --time …` (or delete it)"
    }

    /// "Keep Going" (US-025): the person answers the question a session that has run long
    /// brings by keeping it active; it is recorded in the session (`keptGoingAt`, so every
    /// device stops asking) and asked again once it has run as long again.
    @discardableResult
    public func keepGoing(now: Timestamp) throws -> Session {
        try store.withWriterLock {
            let (active, _) = try requireActive()
            var session = active.session
            session.keptGoingAt = now
            session.updatedAt = now
            return try save(session, wasActive: active, settings: try settings())
        }
    }

    /// A session to delete: its id, and the session when it is valid, else the problems that
    /// make it invalid (a hand edit): deleting it is one way to fix those.
    public struct DeletableSession: Sendable {
        public var id: String
        public var session: Session?
        public var problems: [Problem]
    }

    /// The session `reference` names (see `session(_:)`), read for a deletion: an invalid one
    /// is named by its file and its problems instead of refused.
    public func deletableSession(_ reference: String) throws -> DeletableSession {
        let id = try resolve(reference, in: sessions, describe: "session")
        do {
            return DeletableSession(id: id, session: try sessions.load(id: id), problems: [])
        } catch let e as LedgerError where e.code == .invalid {
            return DeletableSession(id: id, session: nil, problems: e.problems)
        }
    }

    /// Deletes a whole session, its entries with it (US-035 of the later PRD: a way to delete
    /// synced data), an invalid one included. A sync carries the deletion to other machines;
    /// what stays in the git history is the README's business. Returns the session as it was.
    @discardableResult
    public func deleteSession(_ reference: String) throws -> DeletableSession {
        try store.withWriterLock {
            let target = try deletableSession(reference)
            // An invalid session may be the one that stops the active one being found: then
            // the next command looks afresh (the deletion changed the directory's stamp).
            let active = Result { try activeSessionLocked().active }
            try sessions.delete(id: target.id)
            if case .success(let active) = active { recordHint(active?.session.id == target.id ? nil : active) }
            return target
        }
    }

    /// The session named by `reference`: its id, or a unique prefix of at least four
    /// characters (a shorter one would pick a session nearly at random).
    public func session(_ reference: String) throws -> Session {
        try sessions.load(id: try resolve(reference, in: sessions, describe: "session"))
    }

    /// The session named by `reference`, else the active one, else the most recent.
    public func chosenSession(_ reference: String?, active: Session?) throws -> Session {
        if let reference { return try session(reference) }
        if let active { return active }
        guard let last = try recentSessions(limit: 1).first else {
            throw LedgerError.notFound("there are no sessions yet; \(next: .waterline(.startSession))")
        }
        return last
    }

    /// The id `reference` names in `repository`: exact, or a unique prefix of 4+ characters.
    func resolve<D: CollectionDocument>(_ reference: String, in repository: DocumentRepository<D>, describe: String) throws -> String {
        let ref = reference.lowercased()
        if DocumentID.isValid(ref), try repository.path(of: ref) != nil { return ref }
        guard ref.count >= Self.minimumPrefix else {
            throw LedgerError.invalidArgument("\"\(reference)\" is not a \(describe) id; give the id, or at least its first \(Self.minimumPrefix) characters")
        }
        return try repository.resolve(ref, describe: describe)
    }

    /// The shortest id prefix taken for an id.
    public static let minimumPrefix = 4

    /// The most recent sessions by start, newest first: reads the newest year folders only.
    public func recentSessions(limit: Int) throws -> [Session] {
        try readRecentSessions(limit: limit).get()
    }

    /// The most recent valid sessions, newest first, and the refusals of the files in the
    /// year folders read that a hand edit made invalid.
    func readRecentSessions(limit: Int) throws -> Readable<Session> {
        var found = Readable<Session>(documents: [], invalid: [])
        var extraYears = 1  // one more folder: offsets can put a session just across New Year
        for shard in try sessions.files.shards() {
            let read = try sessions.readable(sessions.files.files(in: shard).map(\.path))
            found.documents += read.documents
            found.invalid += read.invalid
            if found.documents.count >= limit {
                if extraYears == 0 { break }
                extraYears -= 1
            }
        }
        found.documents = Array(Self.newestFirst(found.documents).prefix(limit))
        return found
    }

    /// Every session, newest first.
    public func allSessions() throws -> [Session] {
        Self.newestFirst(try sessions.all())
    }

    /// The sessions a listing shows, newest first — the `limit` most recent, or all — with
    /// notes about a repair made on the way. Listing all, or meeting an active session that
    /// the device-local hint does not name (one re-opened by an edit in place), makes the
    /// active sessions be looked for afresh, and merged when there are several (as `check`
    /// announces), before the list is read.
    /// Sessions a hand edit made invalid are not listed: their refusals come in `invalid`, so
    /// that one broken file names itself rather than hide every night.
    public func listSessions(limit: Int?) throws -> (sessions: Readable<Session>, notes: [String]) {
        func read() throws -> Readable<Session> {
            guard let limit else {
                var all = try sessions.allReadable()
                all.documents = Self.newestFirst(all.documents)
                return all
            }
            return try readRecentSessions(limit: limit)
        }
        guard limit != nil else {
            let (_, notes) = try refreshActiveSession()
            return (try read(), notes)
        }
        let (known, notes) = try activeSession()
        let listed = try read()
        let actives = listed.documents.filter(\.isActive).map(\.id)
        guard actives.count > 1 || actives.contains(where: { $0 != known?.session.id }) else { return (listed, notes) }
        let (_, repaired) = try refreshActiveSession()
        return (repaired.isEmpty ? listed : try read(), notes + repaired)
    }

    static func newestFirst(_ s: [Session]) -> [Session] {
        s.sorted { a, b in
            a.startTime.epochMilliseconds != b.startTime.epochMilliseconds
                ? a.startTime.epochMilliseconds > b.startTime.epochMilliseconds
                : b.id.utf8.lexicographicallyPrecedes(a.id.utf8)
        }
    }
}
