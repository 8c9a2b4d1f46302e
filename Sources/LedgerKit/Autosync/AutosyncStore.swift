import Foundation

/// What autosync last did, for `ledger status` (device-local: `.git/ledger/autosync-state.json`).
public struct AutosyncRecord: Sendable, Equatable {
    /// What the last round came to: `synced`, `up-to-date`, `offline`, `rejected`, `waiting`
    /// (a document fails `check`, a guided brew runs, git is mid-merge) or `failed`.
    public var outcome: String?
    /// When the last round ran.
    public var lastAttempt: Date?
    /// When a round last reached the remote.
    public var lastSync: Date?
    /// When the next round is due (nil: paused, or not running).
    public var nextAttempt: Date?
    /// Why the last round did not sync.
    public var lastError: String?
    /// Since when rounds have failed, in a row.
    public var failingSince: Date?

    public init() {}

    package var json: JSONValue {
        func stamp(_ d: Date?) -> JSONValue { d.map { .string(Self.iso($0)) } ?? .null }
        return .object(["outcome": outcome.map(JSONValue.string) ?? .null, "lastAttempt": stamp(lastAttempt), "lastSync": stamp(lastSync),
                        "nextAttempt": stamp(nextAttempt), "lastError": lastError.map(JSONValue.string) ?? .null,
                        "failingSince": stamp(failingSince)])
    }

    package init(json: JSONValue) {
        func date(_ key: String) -> Date? { json[key]?.stringValue.flatMap { ISO8601DateFormatter().date(from: $0) } }
        outcome = json["outcome"]?.stringValue
        lastAttempt = date("lastAttempt")
        lastSync = date("lastSync")
        nextAttempt = date("nextAttempt")
        lastError = json["lastError"]?.stringValue
        failingSince = date("failingSince")
    }

    /// An instant as ISO 8601 in UTC, to the second.
    package static func iso(_ d: Date) -> String { ISO8601DateFormatter().string(from: d) }
}

/// Autosync's device-local files: its settings, its record, and the lock its process holds.
public struct AutosyncStore: Sendable {
    let store: LedgerStore

    public init(_ store: LedgerStore) { self.store = store }

    public var settingsPath: String { store.localState("autosync-settings.json") }
    public var recordPath: String { store.localState("autosync-state.json") }
    /// The lock file the autosync process holds while it runs.
    public var processLockPath: String { store.localState("autosync.lock") }

    /// The settings (the defaults when there is no file yet).
    public func settings() -> AutosyncSettings {
        guard let bytes = try? FileSystem.read(settingsPath), let json = try? JSONParser.parse(bytes) else { return AutosyncSettings() }
        return AutosyncSettings(json: json)
    }

    /// Changes the settings (a running autosync sees the file change and follows).
    public func update(_ change: (inout AutosyncSettings) throws -> Void) throws {
        var s = settings()
        try change(&s)
        try FileSystem.makeDirectories(store.localStateDirectory)
        try FileSystem.writeAtomically(settingsPath, CanonicalJSON.encode(s.json))
    }

    public func record() -> AutosyncRecord {
        guard let bytes = try? FileSystem.read(recordPath), let json = try? JSONParser.parse(bytes) else { return AutosyncRecord() }
        return AutosyncRecord(json: json)
    }

    public func save(_ record: AutosyncRecord) throws {
        try FileSystem.makeDirectories(store.localStateDirectory)
        try FileSystem.writeAtomically(recordPath, CanonicalJSON.encode(record.json))
    }

    /// Claims the ledger's autosync process for this process (`holder`: "PID COMMAND…").
    package func claimProcess(holder: String) throws -> ProcessClaim {
        try ProcessClaim.claim(processLockPath, holder: holder)
    }

    /// The autosync process running for this ledger on this device, if any.
    public func runningProcess() -> (pid: Int32?, command: String)? {
        ProcessClaim.running(processLockPath)
    }
}

/// A resident process's claim on a ledger (one reminder process, one autosync per ledger and
/// device): a lock file it holds while it runs, recording "PID COMMAND…".
package enum ProcessClaim {
    /// This process is the one for as long as it keeps the lock.
    case claimed(FileLock)
    /// Another process is (what it recorded, "PID COMMAND…").
    case heldBy(String)
    /// Another process holds the lock and has not recorded itself yet (or is only looking):
    /// try again in a moment.
    case busy

    package static func claim(_ path: String, holder: String) throws -> ProcessClaim {
        if let lock = try FileLock.attempt(path: path, holder: holder) { return .claimed(lock) }
        guard let record = FileLock.holder(of: path), !record.isEmpty else { return .busy }
        return .heldBy(record)
    }

    /// The process holding the lock at `path`, if any: its pid when it recorded one, and its command.
    package static func running(_ path: String) -> (pid: Int32?, command: String)? {
        guard let record = FileLock.holder(of: path) else { return nil }
        var words = record.split(separator: " ", maxSplits: 1).map(String.init)
        let pid = words.first.flatMap { Int32($0) }
        if pid != nil { words.removeFirst() }
        return (pid, words.first ?? "")
    }
}
