import Foundation

extension WaterlineStore {
    /// The active session and where it is.
    public struct Active: Sendable {
        /// The session and its path relative to the ledger root.
        public var session: Session
        public var path: String
    }

    /// The active session, if any, with notes about anything repaired on the way (several
    /// active sessions are resolved by `SessionMerge.reconcile` and written — unless the
    /// ledger cannot be written: then the result is used as resolved, and the notes say so).
    ///
    /// Costs the same whatever the history when the device-local hint holds (see
    /// `ActiveSessionHint`); otherwise scans the sessions once — under the writer lock when
    /// the ledger can be written, so that the repair and the new hint are recorded — and
    /// records a new hint. Works on a read-only ledger.
    public func activeSession() throws -> (active: Active?, notes: [String]) {
        if let found = try fromHint() { return (found, []) }
        return try store.withWriterLockIfWritable { locked in try activeSessionLocked(canWrite: locked) }
    }

    /// `activeSession()` for callers holding the writer lock (`canWrite`), or for a ledger
    /// that cannot be written; without `useHint`, it scans whatever the hint says.
    func activeSessionLocked(canWrite: Bool = true, useHint: Bool = true) throws -> (active: Active?, notes: [String]) {
        if useHint, let found = try fromHint() { return (found, []) }
        let stamps = try ActiveSessionHint.currentStamps(store)
        let found = try scanForActive()
        guard found.count > 1 else {
            if canWrite { ActiveSessionHint(sessionID: found.first?.session.id, path: found.first?.path, stamps: stamps).write(store) }
            return (found.first, [])
        }
        let resolution = SessionMerge.reconcile(found.map(\.session))
        let active = resolution.updated.first(where: \.isActive).map { Active(session: $0, path: $0.path) }
        guard canWrite else {
            return (active, resolution.notes.map { $0 + " (for this command only: the ledger cannot be written)" })
        }
        for s in resolution.updated { try sessions.save(s) }
        let kept = Set(resolution.updated.map(\.path))
        for f in found where !kept.contains(f.path) { try store.remove(f.path) }
        recordHint(active)
        return (active, resolution.notes)
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

    /// Every session whose file says it is active (reading only files that may say so). A
    /// file too large to be a document is skipped when its first lines show it has ended,
    /// as one that cannot be parsed but says `"isActive": false` is; `check` reports both.
    func scanForActive() throws -> [Active] {
        var out: [Active] = []
        for (_, path) in try sessions.index().sorted(by: { $0.path < $1.path }) {
            guard let bytes = try readSession(path), MemberPeek.mayHave("isActive", "true", in: bytes) else { continue }
            let s = try LedgerStore.decode(Session.self, from: bytes, path: path)
            if s.isActive { out.append(Active(session: s, path: path)) }
        }
        return out
    }

    /// The bytes of a session file, or nil when there is none — or when it is over the size
    /// limit but has ended (its `endTime`, written before the entries, says so): such a file
    /// cannot be read, only reported by `check`, and must not stop the commands that have no
    /// business with it. An oversize file that may be active is refused.
    func readSession(_ path: String) throws -> [UInt8]? {
        do {
            return try store.read(path)
        } catch let e as LedgerError where e.code == .invalid {
            guard let stamp = FileSystem.stamp(path, under: store.root), stamp.type == .file, stamp.size > Int64(LedgerStore.maximumDocumentBytes),
                  let head = try FileSystem.read(path, under: store.root, prefix: 64 * 1024), Self.endTime(in: head) != nil else { throw e }
            return nil
        }
    }

    /// Records, after a write made under the lock, which session is now active.
    func recordHint(_ active: Active?) {
        guard let stamps = try? ActiveSessionHint.currentStamps(store) else { return }
        ActiveSessionHint(sessionID: active?.session.id, path: active?.path, stamps: stamps).write(store)
    }

    /// Looks again whatever the hint says, and records a new one (after `sessions --all` has
    /// read everything anyway, or when a listing met an active session the hint did not name).
    func refreshActiveSession() throws -> (active: Active?, notes: [String]) {
        try store.withWriterLockIfWritable { locked in try activeSessionLocked(canWrite: locked, useHint: false) }
    }

    /// The `endTime` of a session as ledger writes it, or nil (not there, null, or written
    /// another way).
    static func endTime(in bytes: [UInt8]) -> Timestamp? {
        MemberPeek.topLevelString("endTime", in: bytes).flatMap(Timestamp.init(iso8601:))
    }
}

/// A device-local note of which session is active, so that `drink`, `water` and `status`
/// cost the same whatever the history: without it, finding the active session means reading
/// every session file.
///
/// The hint lives in the store's local state directory (`waterline-active.json`, never
/// synced) and is never trusted blindly. It records the stamps (size, mtime, ctime, inode) of
/// `waterline/sessions`, of each of its year directories and of the store's bulk-change
/// witnesses (a git repository's index), taken before the conclusion it holds was drawn.
/// Creating, deleting or renaming a session file — by ledger, by a sync's checkout or
/// `git pull`, by hand — changes its directory's stamp; any git operation rewrites the index.
/// A changed stamp sends the reader back to a scan. The active session's own file is read on
/// every use, so edits to it (ending it by hand) are always seen. The one change the stamps
/// cannot see is an in-place edit that re-opens an old session while the hint says another
/// (or none) is active: the checker's record is a witness too, so the next `ledger check`
/// (which reports two active sessions) makes the next command look again and merge them, as
/// do the next git operation, `ledger waterline sessions --all` and a listing that meets an
/// active session the hint does not name.
struct ActiveSessionHint: Equatable {
    /// The active session's id and path, or nil when none is active.
    var sessionID: String?
    var path: String?
    /// Stamps by path: relative to the ledger root for the sessions' directories, absolute
    /// for the witnesses ("-" for a missing path).
    var stamps: [String: String]

    static let fileName = "waterline-active.json"
    static let format = 2

    /// The paths whose stamps vouch for the hint: the sessions directory, its year
    /// directories, the store's bulk-change witnesses and the checker's record.
    static func currentStamps(_ store: LedgerStore) throws -> [String: String] {
        let files = CollectionFiles(Session.kind, in: store)
        var stamps: [String: String] = [files.directory: stamp(store, files.directory)]
        for witness in witnesses(store) { stamps[witness] = stamp(store, witness) }
        for shard in try files.shards() { stamps[shard] = stamp(store, shard) }
        return stamps
    }

    /// Whether every recorded stamp still holds. An unchanged sessions directory means the
    /// set of year directories is unchanged, so only the recorded ones need a look.
    func stampsHold(_ store: LedgerStore) -> Bool {
        guard stamps[CollectionFiles(Session.kind, in: store).directory] != nil,
              Self.witnesses(store).allSatisfy({ stamps[$0] != nil }) else { return false }
        for (path, recorded) in stamps where Self.stamp(store, path) != recorded { return false }
        return true
    }

    /// Files outside the sessions whose change may mean a session changed unseen: the bulk-
    /// change witnesses, and the record of the last check (rewritten when a check met a
    /// changed file).
    static func witnesses(_ store: LedgerStore) -> [String] {
        store.bulkChangeWitnesses + [Checker(store: store).cachePath]
    }

    static func stamp(_ store: LedgerStore, _ path: String) -> String {
        (path.hasPrefix("/") ? FileSystem.stamp(path) : FileSystem.stamp(path, under: store.root))?.encoded ?? "-"
    }

    // MARK: - File

    static func location(_ store: LedgerStore) -> String { store.localState(fileName) }

    /// The hint on disk, or nil when it is missing or unreadable.
    static func read(_ store: LedgerStore) -> ActiveSessionHint? {
        guard let bytes = try? FileSystem.read(location(store), limit: 1 << 20),
              let json = try? JSONParser.parse(bytes), json["format"] == .number(Double(format)),
              case .object(let stampObject)? = json["stamps"] else { return nil }
        var stamps: [String: String] = [:]
        for m in stampObject {
            guard let s = m.value.stringValue else { return nil }
            stamps[m.key] = s
        }
        let id = json["session"]?.stringValue, path = json["path"]?.stringValue
        guard (id == nil) == (path == nil) else { return nil }
        return ActiveSessionHint(sessionID: id, path: path, stamps: stamps)
    }

    /// Writes the hint. It is a cache, checked on every use: it is written atomically but not
    /// flushed to disk, and failing to write it only costs a scan next time.
    func write(_ store: LedgerStore) {
        var stampObject = JSONObject()
        for (k, v) in stamps { stampObject[k] = .string(v) }
        let json: JSONValue = .object([
            "format": .number(Double(Self.format)),
            "session": sessionID.map(JSONValue.string) ?? .null,
            "path": path.map(JSONValue.string) ?? .null,
            "stamps": .object(stampObject),
        ])
        let url = URL(fileURLWithPath: Self.location(store))
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(CanonicalJSON.encode(json)).write(to: url, options: .atomic)
    }
}
