import Foundation

/// What forgetting apps removes and writes back.
public struct ForgetPlan: Sendable, Equatable {
    /// The apps forgotten, in the order they are shown.
    public var apps: [AppID]
    /// Every file in the apps' folders, relative to the root, sorted: documents, photos,
    /// conflict files, files of the user's own, hidden files.
    public var removed: [String]
    /// The documents written back as a new ledger has them (each app's settings, Waterline's
    /// drink presets), relative to the root.
    public var restored: [String]
}

extension LedgerStore {
    /// What `forget(_:now:)` would do now: nothing is written.
    public func forgetPlan(_ apps: [AppID]) throws -> ForgetPlan {
        let apps = Forgetting.apps.filter(apps.contains)
        var removed: [String] = []
        for app in apps { removed += try everyFile(under: app.rawValue) }
        let restored = apps.flatMap { app in Self.initialDocuments(of: app, now: Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)).map(\.path) }
        return ForgetPlan(apps: apps, removed: removed.sorted(), restored: restored.sorted())
    }

    /// Forgets `apps` at `now` (US-024, FR-11 of the Waterline PRD: account deletion removes all
    /// user data): every file in their folders is deleted, each app's initial documents are
    /// written back dated `now` (settings at their defaults, Waterline's five presets), and
    /// `ledger.json` records the instant (`forgotten`), which the merge honours for what other
    /// devices recorded offline (`Forgetting`). Holds the writer lock.
    ///
    /// Interrupted (a crash), it is finished by `finishInterruptedForget`, which every command
    /// of the command line runs first: the forget is noted in the device-local state before the
    /// first file goes, and the note removed after `ledger.json` is written.
    @discardableResult
    public func forget(_ apps: [AppID], now: Timestamp) throws -> ForgetPlan {
        try withWriterLock {
            let plan = try forgetPlan(apps)
            guard !plan.apps.isEmpty else { return plan }
            let note = ForgetNote(apps: plan.apps, instant: now)
            try FileSystem.makeDirectories(localStateDirectory)
            try FileSystem.writeAtomically(localState(ForgetNote.fileName), CanonicalJSON.encode(note.json))
            try apply(note, removing: plan.removed)
            return plan
        }
    }

    /// Finishes a forget a crash interrupted (see `forget`); the apps it finished, or none.
    /// Waits for no one: when another process holds the writer lock, it is left to the next
    /// command.
    @discardableResult
    public func finishInterruptedForget() -> [AppID] {
        let path = localState(ForgetNote.fileName)
        guard FileSystem.exists(path), let lock = try? FileLock.attempt(path: localState("lock"), holder: lockHolder) else { return [] }
        defer { lock.release() }
        guard let bytes = try? FileSystem.read(path), let json = try? JSONParser.parse(bytes), let note = ForgetNote(json) else { return [] }
        guard let plan = try? forgetPlan(note.apps), (try? apply(note, removing: plan.removed)) != nil else { return [] }
        return note.apps
    }

    /// Deletes `removed`, writes the initial documents, records the instant, removes the note.
    private func apply(_ note: ForgetNote, removing removed: [String]) throws {
        for path in removed { try FileSystem.remove(path, under: root, keep: 1) }
        for app in note.apps {
            try removeEmptyFolders(under: app.rawValue)
            for (path, document) in Self.initialDocuments(of: app, now: note.instant) { try write(path, document) }
        }
        var manifest = try load(LedgerManifest.self, at: LedgerManifest.kind.path()) ?? LedgerManifest(createdAt: note.instant)
        var forgotten = manifest.forgotten ?? ForgottenApps()
        for app in note.apps { forgotten[app] = note.instant }
        manifest.forgotten = forgotten
        manifest.updatedAt = max(manifest.updatedAt, note.instant)
        try write(LedgerManifest.kind.path(), manifest.json)
        _ = try FileSystem.remove(localState(ForgetNote.fileName))
    }

    /// The documents a new ledger starts with for `app`.
    static func initialDocuments(of app: AppID, now: Timestamp) -> [(path: String, document: JSONValue)] {
        LedgerSchema.apps.first { $0.app == app }?.initialDocuments(now: now) ?? []
    }

    /// Every file (and symbolic link: never followed) under the folder `relative`, hidden ones
    /// included, relative to the root.
    func everyFile(under relative: String) throws -> [String] {
        guard let entries = try FileSystem.list(relative, under: root) else { return [] }
        var out: [String] = []
        for e in entries {
            let path = relative + "/" + e.name
            if e.type == .directory { out += try everyFile(under: path) } else { out.append(path) }
        }
        return out
    }

    /// Removes the folders under `relative` that hold nothing (deepest first), and `relative`
    /// itself when it is empty.
    func removeEmptyFolders(under relative: String) throws {
        guard let entries = try FileSystem.list(relative, under: root) else { return }
        for e in entries where e.type == .directory { try removeEmptyFolders(under: relative + "/" + e.name) }
        let (parent, name) = FileSystem.split(relative)
        _ = try FileSystem.openDirectory(parent, under: root)?.removeDirectoryIfEmpty(name)
    }
}

/// The device-local note of a forget in progress: `.git/ledger/forget.json`.
struct ForgetNote {
    static let fileName = "forget.json"
    var apps: [AppID]
    var instant: Timestamp

    init(apps: [AppID], instant: Timestamp) {
        self.apps = apps
        self.instant = instant
    }

    init?(_ json: JSONValue) {
        guard let names = json["apps"]?.arrayValue, let t = json["instant"]?.stringValue.flatMap(Timestamp.init(iso8601:)) else { return nil }
        apps = names.compactMap { $0.stringValue.flatMap(AppID.init(rawValue:)) }
        instant = t
    }

    var json: JSONValue { .object(["apps": .array(apps.map { .string($0.rawValue) }), "instant": instant.json]) }
}
