/// `purges/<id>.json`: the record of a purge — files removed from the whole history of the
/// ledger, on every device — which every other device honours at its next sync: it rewrites
/// its own history the same way (the same commits come out, byte for byte), keeps what it
/// recorded since, removes the objects, and never publishes them again.
///
/// The record names what went, so that a device can remove exactly that: the files' paths (and
/// the apps whose whole folder went), and the ids of every version of them (git blob ids:
/// hashes, which tell nothing of the contents) — never the contents.
package struct PurgeRecord: CollectionDocument, Equatable {
    package static let kind = DocumentKind("ledger.purge", app: .ledger, .collection("purges", .none))

    /// The file name.
    package var id = ""
    /// What the person asked to purge, as given (an app, a path, a document's id).
    package var target = ""
    /// Folders that went whole (an app's: `waterline`), relative to the root: every file under them.
    package var folders: [String] = []
    /// The files that went besides, relative to the root.
    package var paths: [String] = []
    /// The git blob id of every version of those files, wherever it lay: what no repository
    /// may hold again.
    package var blobs: [String] = []
    /// The device that purged: its id and name.
    package var deviceId = ""
    package var deviceName = ""
    /// How many commits the purge rewrote, and the commit the remote's branch was at before.
    package var commitsRewritten = 0
    package var previousHead: String?
    /// When the purge was made (also the instant its forget rule measures).
    package var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    package var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    package var unknownFields = JSONObject()

    package init() {}

    package static let fields: [Field<PurgeRecord>] = [
        .required("id", { $0.id }, { $0.id = $1 }),
        .required("target", { $0.target }, { $0.target = $1 }),
        .defaulted("folders", { $0.folders }, { $0.folders = $1 }, []),
        .defaulted("paths", { $0.paths }, { $0.paths = $1 }, []),
        .defaulted("blobs", { $0.blobs }, { $0.blobs = $1 }, []),
        .required("deviceId", { $0.deviceId }, { $0.deviceId = $1 }),
        .required("deviceName", { $0.deviceName }, { $0.deviceName = $1 }),
        .defaulted("commitsRewritten", { $0.commitsRewritten }, { $0.commitsRewritten = $1 }, 0),
        .optional("previousHead", { $0.previousHead }, { $0.previousHead = $1 }),
        .required("createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        .required("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
    ]

    package func validate() -> [DocumentIssue] {
        var issues: [DocumentIssue] = []
        for (member, list) in [("folders", folders), ("paths", paths)] {
            for (i, path) in list.enumerated() {
                let parts = path.split(separator: "/", omittingEmptySubsequences: false)
                if path.isEmpty || path.hasPrefix("/") || parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
                    issues.append(.error(.root.appending(member).appending(i), "must be a path inside the ledger, relative to its root (found \"\(path)\")"))
                }
            }
        }
        for (i, blob) in blobs.enumerated() where !Self.isObjectID(blob) {
            issues.append(.error(.root.appending("blobs").appending(i), "must be a git object id, 40 hexadecimal digits (found \"\(blob)\")"))
        }
        if let head = previousHead, !Self.isObjectID(head) {
            issues.append(.error(.root.appending("previousHead"), "must be a git commit id, 40 hexadecimal digits (found \"\(head)\")"))
        }
        return issues
    }

    static func isObjectID(_ s: String) -> Bool {
        s.utf8.count == 40 && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}

/// How a purge record is told in the history: "purge of 7pvbilrfgu — 2 files (3 versions) removed from the history of every device".
extension PurgeRecord: NarratedDocument {
    package var subject: String { "purge of \(target)" }

    package static var toldFields: Set<String> { ["target", "folders", "paths", "blobs", "deviceId", "deviceName", "commitsRewritten", "previousHead"] }

    package static func events(from old: PurgeRecord?, to new: PurgeRecord) -> [String] {
        guard old == nil else { return [] }
        let what = (new.folders.map { "\($0)/" } + new.paths).joined(separator: ", ")
        return ["\(what) (\(new.blobs.count) \(new.blobs.count == 1 ? "version" : "versions")) removed from the history of every device by \(new.deviceName)"]
    }
}
