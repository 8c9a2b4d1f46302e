import Foundation

/// A device-local note of which session is active, so that `drink`, `water` and `status`
/// cost the same whatever the history: without it, finding the active session means reading
/// every session file.
///
/// The hint lives in `.git/ledger/waterline-active.json` (never synced) and is never trusted
/// blindly. It records the stamps (size, mtime, ctime, inode) of `waterline/sessions`, of
/// each of its year directories and of `.git/index`, taken before the conclusion it holds was
/// drawn. Creating, deleting or renaming a session file — by ledger, by a sync's checkout or
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
    /// Stamps by path relative to the ledger root ("-" for a missing path).
    var stamps: [String: String]

    static let fileName = "waterline-active.json"
    static let format = 1

    /// The paths whose stamps vouch for the hint: the sessions directory, its year
    /// directories, and the git index.
    static func currentStamps(_ store: LedgerStore) throws -> [String: String] {
        var stamps: [String: String] = [:]
        let dir = sessionsDirectory
        stamps[dir] = stamp(store, dir)
        stamps[indexPath] = stamp(store, indexPath)
        for e in try FileSystem.list(store.absolute(dir)) ?? [] where e.type == .directory && !e.name.hasPrefix(".") {
            stamps[dir + "/" + e.name] = stamp(store, dir + "/" + e.name)
        }
        return stamps
    }

    /// Whether every recorded stamp still holds. An unchanged sessions directory means the
    /// set of year directories is unchanged, so only the recorded ones need a look.
    func stampsHold(_ store: LedgerStore) -> Bool {
        guard stamps[Self.sessionsDirectory] != nil, stamps[Self.indexPath] != nil else { return false }
        for (path, recorded) in stamps where Self.stamp(store, path) != recorded { return false }
        return true
    }

    static var sessionsDirectory: String {
        guard case .collection(let dir, _) = Session.kind.location else { preconditionFailure("sessions are a collection") }
        return dir
    }

    static let indexPath = ".git/index"

    static func stamp(_ store: LedgerStore, _ relative: String) -> String {
        guard let s = FileSystem.stamp(store.absolute(relative)) else { return "-" }
        return "\(s.size):\(s.modifiedNanoseconds):\(s.changedNanoseconds):\(s.inode)"
    }

    // MARK: - File

    static func location(_ store: LedgerStore) -> String { store.localStateDirectory + "/" + fileName }

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

extension ActiveSessionHint {
    /// Whether a session file's bytes hold `"isActive"`, optional whitespace, `:`, optional
    /// whitespace and `true`: a quick test that skips parsing sessions certainly not active.
    static func mayBeActive(_ bytes: [UInt8]) -> Bool {
        let key = Array("\"isActive\"".utf8)
        let count = bytes.count
        var i = 0
        while i + key.count <= count {
            if bytes[i] == key[0], bytes[i..<(i + key.count)].elementsEqual(key) {
                var j = i + key.count
                func skipSpace() { while j < count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[j]) { j += 1 } }
                skipSpace()
                if j < count, bytes[j] == UInt8(ascii: ":") {
                    j += 1
                    skipSpace()
                    if j + 4 <= count, bytes[j..<(j + 4)].elementsEqual("true".utf8) { return true }
                }
                i = j
            } else {
                i += 1
            }
        }
        return false
    }
}
