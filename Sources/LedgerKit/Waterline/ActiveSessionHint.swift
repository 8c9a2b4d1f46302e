import Foundation

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
/// (or none) is active; the next git operation, or `ledger waterline sessions --all`,
/// notices it.
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
    /// directories, and the store's bulk-change witnesses.
    static func currentStamps(_ store: LedgerStore) throws -> [String: String] {
        let files = CollectionFiles(Session.kind, in: store)
        var stamps: [String: String] = [files.directory: stamp(store, files.directory)]
        for witness in store.bulkChangeWitnesses { stamps[witness] = stamp(store, witness) }
        for shard in try files.shards() { stamps[shard] = stamp(store, shard) }
        return stamps
    }

    /// Whether every recorded stamp still holds. An unchanged sessions directory means the
    /// set of year directories is unchanged, so only the recorded ones need a look.
    func stampsHold(_ store: LedgerStore) -> Bool {
        guard stamps[CollectionFiles(Session.kind, in: store).directory] != nil,
              store.bulkChangeWitnesses.allSatisfy({ stamps[$0] != nil }) else { return false }
        for (path, recorded) in stamps where Self.stamp(store, path) != recorded { return false }
        return true
    }

    static func stamp(_ store: LedgerStore, _ path: String) -> String {
        FileSystem.stamp(path.hasPrefix("/") ? path : store.absolute(path))?.encoded ?? "-"
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
