import Foundation
import LedgerKit

/// A purge this device has committed to but not finished, in `.git/ledger/purge.json` — the
/// line between "nothing happened" and "it will be finished": written (and flushed) once the
/// rewritten history exists as objects, before anything outside them changes; removed once the
/// old objects are gone. The new history is kept alive meanwhile by the reference
/// `refs/ledger/purge`.
///
/// - `published` false (this device purges; its push has not been confirmed): the remote still
///   has, or may have, the old history. The next `ledger sync` looks: the new history there —
///   published after all; the old one — it pushes the new one (only if the remote has not
///   moved); anything else — the purge is given up (the journal and the reference go) and
///   said so: nothing of it had reached this repository's branch.
/// - `published` true (the remote has the new history, or there is none, or this device
///   honours another's purge): the next ledger command of any kind finishes here — rewrites
///   the branch and every reference, removes the old objects (`PurgeApply`).
struct PurgeJournal: Equatable {
    static let fileName = "purge.json"
    /// The reference that keeps the new history alive while the purge is not finished.
    static let reference = "refs/ledger/purge"

    /// The purge record's id (`purges/<id>.json`).
    var record: String
    /// The commit of the new history (holding the record).
    var newHead: ObjectID
    /// What the remote's branch held before (the purge's push replaces it only if it still
    /// does); nil when it had none.
    var previousHead: ObjectID?
    /// The remote the purge replaces the branch of (nil: none).
    var remote: String?
    /// Whether the new history is where every device will find it (see above).
    var published: Bool

    static func path(_ store: LedgerStore) -> String { store.localState(fileName) }

    static func read(_ store: LedgerStore) -> PurgeJournal? {
        guard let bytes = try? FileSystem.read(path(store)), let json = try? JSONParser.parse(bytes),
              let record = json["record"]?.stringValue, let head = json["newHead"]?.stringValue.flatMap(ObjectID.init(hex:)) else { return nil }
        return PurgeJournal(record: record, newHead: head, previousHead: json["previousHead"]?.stringValue.flatMap(ObjectID.init(hex:)),
                            remote: json["remote"]?.stringValue, published: json["published"] == .bool(true))
    }

    /// Writes the reference keeping the new history, durably, then the journal (atomically,
    /// flushed): after a power cut the journal never names a history that is gone.
    func write(_ store: LedgerStore, _ repo: Repository) throws {
        let started = Durability.now()
        try repo.setReference(Self.reference, to: newHead, message: "ledger: purge \(record)")
        Durability.flush(gitDirectory: repo.gitDirectory, since: started)
        var o: JSONObject = ["record": .string(record), "newHead": .string(newHead.description), "published": .bool(published)]
        if let previousHead { o["previousHead"] = .string(previousHead.description) }
        if let remote { o["remote"] = .string(remote) }
        try FileSystem.makeDirectories(store.localStateDirectory)
        try FileSystem.writeAtomically(Self.path(store), CanonicalJSON.encode(.object(o)))
    }

    /// Removes the reference a purge killed before it wrote its journal left behind (that purge
    /// never happened). The caller holds the writer lock.
    static func removeAbandonedReference(_ store: LedgerStore, _ repo: Repository) throws {
        guard repo.resolve(reference) != nil, read(store) == nil else { return }
        try remove(store, repo)
    }

    /// Removes the journal and its reference, durably: the purge is finished, or given up.
    static func remove(_ store: LedgerStore, _ repo: Repository) throws {
        let started = Durability.now()
        try repo.deleteReference(reference)
        Durability.flush(gitDirectory: repo.gitDirectory, since: started)
        _ = try FileSystem.remove(path(store))
    }
}
