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
        if let (found, racy) = try fromHint() {
            if let racy, let lock = try? FileLock.attempt(path: store.localState("lock"), holder: store.lockHolder) {
                withExtendedLifetime(lock) { rewrite(racy) }  // only when the lock is free at once: a read never waits
            }
            return (found, [])
        }
        return try store.withWriterLockIfWritable { locked in try activeSessionLocked(canWrite: locked) }
    }

    /// `activeSession()` for callers holding the writer lock (`canWrite`), or for a ledger
    /// that cannot be written; without `useHint`, it scans whatever the hint says.
    func activeSessionLocked(canWrite: Bool = true, useHint: Bool = true) throws -> (active: Active?, notes: [String]) {
        if useHint, let (found, racy) = try fromHint() {
            if let racy, canWrite { rewrite(racy) }
            return (found, [])
        }
        let witness = try ActiveSessionHint.Witness(store)
        let found = try scanForActive()
        guard found.count > 1 else {
            if canWrite { ActiveSessionHint(sessionID: found.first?.session.id, path: found.first?.path, witness: witness).write(store) }
            return (found.first, [])
        }
        let resolution = SessionMerge.reconcile(found.map(\.session))
        let active = resolution.updated.first(where: \.isActive).map { Active(session: $0, path: $0.path) }
        guard canWrite else {
            return (active, resolution.notes.map { $0 + " (for this command only: the ledger cannot be written)" })
        }
        var written: [String] = []
        for s in resolution.updated { written += try sessions.save(s) }
        let kept = Set(resolution.updated.map(\.path))
        for f in found where !kept.contains(f.path) { try store.remove(f.path) }
        recordHint(active, written: written + found.map(\.path))
        return (active, resolution.notes)
    }

    /// The hint's answer when it holds (`active` nil: no session is active), with the hint
    /// when it held only by reading racily clean files; nil when a scan is needed.
    private func fromHint() throws -> (active: Active?, racy: ActiveSessionHint?)? {
        // The hint file's stamp before its contents: a newer hint read meanwhile only makes
        // the racy window wider.
        guard let written = FileSystem.stamp(ActiveSessionHint.location(store)), let hint = ActiveSessionHint.read(store),
              let racy = hint.stampsHold(store, racyThreshold: (hint.stampsTakenAt ?? written.modifiedNanoseconds) - ActiveSessionHint.racyNanoseconds)
        else { return nil }
        guard let id = hint.sessionID, let path = hint.path else { return (nil, racy ? hint : nil) }
        guard let session = try store.load(Session.self, at: path), session.id == id else { return nil }
        // Ended (by hand) since: with the set of files unchanged, no other session is active.
        return (session.isActive ? Active(session: session, path: path) : nil, racy ? hint : nil)
    }

    /// Writes `validated` again, under the writer lock, after it held only by reading racily
    /// clean files (a checkout or a copy just before it was written): its time moves on, so
    /// that files changed more than the racy window before are trusted by their stamps again
    /// instead of being read on every use — as git refreshes its index. Files read just now
    /// were found not active at a later clock tick than their change, which is what their
    /// stamps lacked. Nothing is written when another process wrote a hint meanwhile.
    private func rewrite(_ validated: ActiveSessionHint) {
        guard ActiveSessionHint.read(store) == validated else { return }
        var hint = validated
        hint.stampsTakenAt = nil
        hint.write(store)
    }

    /// Every session whose file says it is active (decoding only files that may say so), and
    /// every ended session that overlaps one of them — what a `git pull` leaves when one
    /// device ended a night and started another while a second device kept logging into the
    /// first: the caller makes them one with `SessionMerge.reconcile`, as a sync does. A file
    /// too large to be a document is skipped when its first lines show it has ended, as one
    /// that cannot be parsed but says `"isActive": false` is; `check` reports both. One that
    /// cannot be read and may be active (a hand edit broke its syntax) in the folder of the
    /// newest year or the year before — where the active session, the newest, is — is refused
    /// with its problems as `check` prints them: passing it by would say no session is active,
    /// and send the user to `start`, which refuses it. A file
    /// that looks like a session but is misnamed (`CollectionFiles.isMisnamed`: `My_Night.json`,
    /// `<id>.JSON`) is refused, naming it and the fix, as a session whose id is not its file
    /// name is: passing it by could leave two sessions active.
    func scanForActive() throws -> [Active] {
        let listing = try sessions.files.listing()
        if let path = listing.misnamed.min(), case .stray(let issue) = FileRole.classify(path, type: .file, in: LedgerSchema.standard) {
            throw LedgerStore.invalidDocument(path, [issue])
        }
        var out: [Active] = []
        var ended: [(path: String, end: Timestamp)] = []
        let paths = listing.files.map(\.path).sorted()
        // The year of a session's folder (its start's); the active session is the newest one.
        let year = { (path: String) in Int(path.split(separator: "/").dropLast().last ?? "") ?? 0 }
        let newestYear = paths.map(year).max() ?? 0
        for path in paths {
            guard let bytes = try readSession(path) else { continue }
            if MemberPeek.mayHave("isActive", "true", in: bytes) {
                let s = try LedgerStore.decode(Session.self, from: bytes, path: path)
                if s.isActive { out.append(Active(session: s, path: path)) } else if let end = s.endTime { ended.append((path, end)) }
            } else if let end = Self.endTime(in: bytes) {
                ended.append((path, end))
            } else {
                // In the folder of the newest year or the year before, passed by unread only
                // when it says it has ended: otherwise it may be the active session, and is
                // refused with its problems, as an oversize one is. Older years are passed by
                // (`check` reports them).
                let session = MemberPeek.mayHave("isActive", "false", in: bytes) || year(path) < newestYear - 1
                    ? try? LedgerStore.decode(Session.self, from: bytes, path: path)
                    : try LedgerStore.decode(Session.self, from: bytes, path: path)
                if let end = session?.endTime { ended.append((path, end)) }
            }
        }
        guard let earliest = out.map(\.session.startTime).min() else { return out }
        for e in ended where e.end > earliest {
            if let s = try? store.load(Session.self, at: e.path) { out.append(Active(session: s, path: e.path)) }
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

    /// Records, after a write made under the lock, which session is now active. When that is
    /// what the hint already says, its watched files are kept, and so are the stamps of the
    /// folders the write did not touch: only the folders of the `written` paths (and written
    /// files it watches) are stamped again (every folder when `written` is nil, or when the
    /// set of year folders changed). The kept stamps describe the files as they were when the
    /// hint was checked, so any change since — by hand, between that check and this write —
    /// still shows; and a write costs neither a walk of the recent folders nor a stamp of
    /// every year folder.
    func recordHint(_ active: Active?, written: [String]? = nil) {
        if let hintWritten = FileSystem.stamp(ActiveSessionHint.location(store)), let old = ActiveSessionHint.read(store),
           old.sessionID == active?.session.id, old.path == active?.path,
           let (stamps, files) = keptStamps(old, written: written) {
            // The racily clean files stay those of when the stamps were taken.
            ActiveSessionHint(sessionID: old.sessionID, path: old.path, stamps: stamps, files: files,
                              stampsTakenAt: old.stampsTakenAt ?? hintWritten.modifiedNanoseconds).write(store)
            return
        }
        guard let witness = try? ActiveSessionHint.Witness(store) else { return }
        ActiveSessionHint(sessionID: active?.session.id, path: active?.path, witness: witness).write(store)
    }

    /// `old`'s stamps after a write of `written` that leaves the same session active: the
    /// written files' folders — and the written files among those watched — stamped again,
    /// the rest kept; every folder stamped again when `written` is nil or the set of year
    /// folders changed.
    private func keptStamps(_ old: ActiveSessionHint, written: [String]?) -> (stamps: [String: String], files: [String: String])? {
        let stamp = ActiveSessionHint.Stamper(store)
        var stamps = old.stamps, files = old.files
        if let written, old.stamps[stamp.directory] == stamp(stamp.directory) {
            // The same year folders: the written ones are stamped again.
            for path in written {
                guard let slash = path.lastIndex(of: "/"), stamps[String(path[..<slash])] != nil else { return nil }
                stamps[String(path[..<slash])] = stamp(String(path[..<slash]))
                if files[path] != nil { files[path] = stamp(path) }
            }
            return (stamps, files)
        }
        guard let (fresh, _) = try? ActiveSessionHint.directoryStamps(store) else { return nil }
        for path in written ?? [] where files[path] != nil { files[path] = stamp(path) }
        return (fresh, files)
    }

    /// After `ledger check`, given the facts of every session it found (`Session.tags`):
    /// drops the hint when the sessions that are active are not the one it names, or when a
    /// session overlaps an active one — a file the hint does not watch edited in place — so
    /// that the next command scans, and merges them as `check` says it will.
    func checked(_ facts: [DocumentFacts]) {
        guard let hint = ActiveSessionHint.read(store) else { return }
        let spans = WaterlineApp.Span.all(in: facts)
        let active = spans.filter { $0.end == nil }
        let overlapping = active.contains { a in spans.contains { $0.end.map { $0 > a.start } ?? false } }
        guard active.map(\.path) != (hint.path.map { [$0] } ?? []) || overlapping else { return }
        try? FileManager.default.removeItem(atPath: ActiveSessionHint.location(store))
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
/// witnesses (a git repository's index), and of the session files changed last (the
/// `watchedFiles` most recently changed ones of the two newest year directories, the active
/// one aside), all taken before the conclusion it holds was drawn. Creating, deleting or
/// renaming a session file — by ledger, by a sync's checkout or `git pull`, by hand — changes
/// its directory's stamp; editing a watched file in place (re-opening last night's session)
/// changes its own; any git operation rewrites the index. A change sends the reader back to a
/// scan, which merges several active sessions. The active session's own file is read on every
/// use, so edits to it (ending it by hand) are always seen. Any other file edited in place is
/// not looked at — that would cost a `stat` per session of the history on every command —
/// and is seen by `ledger check`, which reads every changed file and drops the hint when the
/// active sessions it found are not the one the hint names (`checked(_:store:)`). A file
/// changed within two seconds before the hint was written could change again within the same
/// clock tick without changing its stamp (git's "racily clean" files): such a file is read
/// (its `isActive` member peeked) on each use until it is older.
struct ActiveSessionHint: Equatable {
    /// The active session's id and path, or nil when none is active.
    var sessionID: String?
    var path: String?
    /// Stamps by path: relative to the ledger root for the sessions' directories, as the
    /// store names them for the witnesses ("-" for a missing path).
    var stamps: [String: String]
    /// The stamps of the session files watched one by one (`watchedFiles`), by path relative
    /// to the ledger root.
    var files: [String: String]
    /// When the stamps were taken, nanoseconds on the file clock, when that was before the
    /// hint was written (a hint that kept an earlier hint's stamps): files changed shortly
    /// before then are the racily clean ones. Nil: when the hint file was written.
    var stampsTakenAt: Int64?

    static let fileName = "waterline-active.json"
    /// How long before the hint was written a file counts as racily clean, nanoseconds (as
    /// the checker's record).
    static let racyNanoseconds: Int64 = 2_000_000_000
    static let format = 5
    /// How many of the newest year directories hold the files watched one by one.
    static let watchedYears = 2
    /// How many session files are watched one by one: the most recently changed ones of the
    /// newest year directories, the active session's own file aside (it is read on every use).
    static let watchedFiles = 16

    /// The year directories whose files may be watched: the newest ones.
    static func recent(_ shards: [String]) -> [String] { Array(shards.sorted(by: >).prefix(watchedYears)) }

    /// What vouches for a conclusion about the sessions, taken before it is drawn: the stamps
    /// of the sessions directory, its year directories and the store's bulk-change witnesses,
    /// and the stamp of each entry of the newest year directories.
    struct Witness {
        var stamps: [String: String]
        /// The stamp of each entry of the newest year directories, by path.
        var files: [String: FileSystem.Stamp]

        init(_ store: LedgerStore) throws {
            let shards: [String]
            (stamps, shards) = try ActiveSessionHint.directoryStamps(store)
            var files: [String: FileSystem.Stamp] = [:]
            for shard in ActiveSessionHint.recent(shards) {
                _ = FileSystem.forEachStampedEntry(store.absolute(shard)) { name, stamp in
                    files[shard + "/" + String(decoding: name, as: UTF8.self)] = stamp
                }
            }
            self.files = files
        }

        /// The files to watch one by one while the session at `active` (if any) is the active
        /// one: the `watchedFiles` others changed last, by their stamps as taken.
        func watched(besides active: String?) -> [String: String] {
            let newest = files.filter { $0.key != active }.sorted {
                ($0.value.modifiedNanoseconds, $0.value.changedNanoseconds, $0.key) > ($1.value.modifiedNanoseconds, $1.value.changedNanoseconds, $1.key)
            }
            return Dictionary(uniqueKeysWithValues: newest.prefix(ActiveSessionHint.watchedFiles).map { ($0.key, $0.value.encoded) })
        }
    }

    init(sessionID: String?, path: String?, stamps: [String: String], files: [String: String], stampsTakenAt: Int64? = nil) {
        self.sessionID = sessionID
        self.path = path
        self.stamps = stamps
        self.files = files
        self.stampsTakenAt = stampsTakenAt
    }

    /// The hint that `sessionID` at `path` (or none) is active, vouched for by `witness`.
    init(sessionID: String?, path: String?, witness: Witness) {
        self.init(sessionID: sessionID, path: path, stamps: witness.stamps, files: witness.watched(besides: path))
    }

    /// Whether every recorded stamp still holds: nil when one does not, else whether racily
    /// clean files had to be read. An unchanged sessions directory means the set of year
    /// directories is unchanged, so only the recorded ones need a look. `racyThreshold`
    /// (nanoseconds): watched files changed at or after it (their ctime, which no program can
    /// set back) are read, not trusted.
    func stampsHold(_ store: LedgerStore, racyThreshold: Int64) -> Bool? {
        guard stamps[CollectionFiles(Session.kind, in: store).directory] != nil,
              Self.witnesses(store).allSatisfy({ stamps[$0] != nil }) else { return nil }
        let stamp = Stamper(store)
        for (key, recorded) in stamps where stamp(key) != recorded { return nil }
        var anyRacy = false
        for (path, recorded) in files {
            let now = stamp.stamp(path)
            guard (now?.encoded ?? "-") == recorded else { return nil }
            // Racily clean: only its contents can say whether it may be active.
            guard let now, now.changedNanoseconds >= racyThreshold else { continue }
            guard let bytes = try? store.read(path), !MemberPeek.mayHave("isActive", "true", in: bytes) else { return nil }
            anyRacy = true
        }
        return anyRacy
    }

    /// The stamps of the sessions directory, its year directories and the bulk-change
    /// witnesses, and the year directories.
    static func directoryStamps(_ store: LedgerStore) throws -> (stamps: [String: String], shards: [String]) {
        let stamp = Stamper(store)
        var stamps = [stamp.directory: stamp(stamp.directory)]
        for witness in witnesses(store) { stamps[witness] = stamp(witness) }
        let shards = try CollectionFiles(Session.kind, in: store).shards()
        for shard in shards { stamps[shard] = stamp(shard) }
        return (stamps, shards)
    }

    /// Files outside the sessions whose change may mean a session changed unseen: the bulk-
    /// change witnesses (a git operation may rewrite files in place).
    static func witnesses(_ store: LedgerStore) -> [String] {
        store.bulkChangeWitnesses
    }

    /// The stamps the hint records, encoded ("-" for a missing path): of a witness, and of
    /// the sessions directory and everything below it through one descriptor of it (a
    /// `fstatat` each, not a walk from the root for each).
    struct Stamper {
        let store: LedgerStore
        /// The sessions directory, relative to the root.
        let directory: String
        let opened: FileSystem.Directory?

        init(_ store: LedgerStore) {
            self.store = store
            directory = CollectionFiles(Session.kind, in: store).directory
            opened = try? FileSystem.walk(directory, under: store.root, create: false)
        }

        func callAsFunction(_ path: String) -> String { stamp(path)?.encoded ?? "-" }

        /// The stamp of `path`; nil when there is nothing there.
        func stamp(_ path: String) -> FileSystem.Stamp? {
            if path.hasPrefix("/") { return FileSystem.stamp(path) }
            // Git's own files, through a `.git` that may be a symbolic link.
            if store.bulkChangeWitnesses.contains(path) { return FileSystem.stamp(store.absolute(path)) }
            if path == directory { return opened?.stamp }
            if path.hasPrefix(directory + "/") { return opened?.stamp(String(path.dropFirst(directory.count + 1))) }
            return FileSystem.stamp(path, under: store.root)
        }
    }

    // MARK: - File

    static func location(_ store: LedgerStore) -> String { store.localState(fileName) }

    /// The hint on disk, or nil when it is missing or unreadable.
    static func read(_ store: LedgerStore) -> ActiveSessionHint? {
        guard let bytes = FileSystem.readCache(location(store), limit: 1 << 20),
              let json = try? JSONParser.parse(bytes), json["format"] == .number(Double(format)),
              case .object(let stampObject)? = json["stamps"] else { return nil }
        var stamps: [String: String] = [:]
        for m in stampObject {
            guard let s = m.value.stringValue else { return nil }
            stamps[m.key] = s
        }
        var files: [String: String] = [:]
        if case .object(let fileObject)? = json["files"] {
            for m in fileObject {
                guard let s = m.value.stringValue else { return nil }
                files[m.key] = s
            }
        }
        let id = json["session"]?.stringValue, path = json["path"]?.stringValue
        guard (id == nil) == (path == nil) else { return nil }
        let taken = json["stampsTakenAt"]?.stringValue.flatMap { Int64($0) }
        return ActiveSessionHint(sessionID: id, path: path, stamps: stamps, files: files, stampsTakenAt: taken)
    }

    /// Writes the hint. It is a cache, checked on every use (`FileSystem.writeCache`: in
    /// place, checksummed, not flushed); a hint half written or not written only costs a scan.
    func write(_ store: LedgerStore) {
        var stampObject = JSONObject(), fileObject = JSONObject()
        for (k, v) in stamps { stampObject[k] = .string(v) }
        for (k, v) in files { fileObject[k] = .string(v) }
        let json: JSONValue = .object([
            "format": .number(Double(Self.format)),
            "session": sessionID.map(JSONValue.string) ?? .null,
            "path": path.map(JSONValue.string) ?? .null,
            "stamps": .object(stampObject),
            "files": .object(fileObject),
            "stampsTakenAt": stampsTakenAt.map { .string(String($0)) } ?? .null,
        ])
        try? FileSystem.writeCache(Self.location(store), CanonicalJSON.encode(json))
    }
}
