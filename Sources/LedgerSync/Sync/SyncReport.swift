import Foundation
import LedgerKit

/// One changed file as the sync report shows it: which app and kind it belongs to.
public struct DocumentChange: Sendable, Hashable {
    /// Relative to the ledger root.
    public var path: String
    package var change: FileChange
    /// The app owning it, nil for files outside the apps (a README of yours).
    public var app: AppID?
    /// The document kind name (`waterline.session`), `attachment` for photos, nil otherwise.
    public var kind: String?

    package init(_ change: PathChange) {
        path = change.path
        self.change = change.change
        switch PathRole(path: change.path) {
        case .document(let t):
            app = t.kind.app
            kind = t.kind.name
        case .attachment:
            app = change.path.split(separator: "/").first.flatMap { AppID(rawValue: String($0)) }
            kind = "attachment"
        case .conflictCopy(let original):
            app = DocumentChange(PathChange(original, change.change)).app
            kind = "conflict"
        case .other:
            app = change.path.contains("/") ? change.path.split(separator: "/").first.flatMap { AppID(rawValue: String($0)) } : nil
            kind = nil
        }
    }

    /// The document's id: its file name without the extension.
    public var name: String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.hasSuffix(".json") ? String(file.dropLast(5)) : file
    }

    /// "session", "recipe", "photo", "file".
    var noun: String {
        switch kind {
        case nil: "file"
        case "attachment": "photo"
        case "conflict": "conflict file"
        case let k?: String(k.split(separator: ".").last ?? Substring(k)).replacingOccurrences(of: "-", with: " ")
        }
    }

    /// Per app, "2 sessions added, 1 preset changed" — the shape of commit messages and reports.
    public static func summary(_ changes: [DocumentChange]) -> [(app: AppID?, text: String)] {
        let byApp = Dictionary(grouping: changes) { $0.app }
        let order = AppID.allCases.map(Optional.some) + [nil]
        return order.compactMap { app in
            guard let list = byApp[app] else { return nil }
            var parts: [String] = []
            for change in [FileChange.added, .modified, .deleted] {
                let nouns = Dictionary(grouping: list.filter { $0.change == change }, by: \.noun)
                for noun in nouns.keys.sorted() {
                    let n = nouns[noun]!.count
                    let word = change == .modified ? "changed" : change.rawValue
                    parts.append("\(n) \(n == 1 ? noun : noun + "s") \(word)")
                }
            }
            return (app, parts.joined(separator: ", "))
        }
    }
}

/// How a file changed on both sides was resolved.
public struct Resolution: Sendable {
    public var document: DocumentChange
    /// Files the resolution created (a recipe's conflicted copy, a conflict file).
    public var created: [String]
    /// The conflict file keeping the other machine's version, when they could not be merged.
    public var conflictFile: String?
    /// What was decided.
    public var notes: [String]
}

/// What `ledger sync` did.
public struct SyncReport: Sendable {
    /// How the sync ended.
    public enum Outcome: String, Sendable {
        /// Everything was already in step: nothing committed, pulled or pushed (no branch moved).
        case upToDate = "up-to-date"
        /// Local and remote now hold the same commit, and the sync committed, pulled or pushed
        /// to get there.
        case synced
        /// The remote could not be reached; local changes are committed and safe (exit 3).
        case offline
        /// The remote refused the push, or kept refusing it; local changes are committed and
        /// safe (exit 3).
        case rejected
    }

    public var outcome: Outcome = .upToDate
    /// The remote's name and URL (any password replaced by `***`).
    public var remote: String
    public var url: String
    public var branch: String
    /// This device's name and id (`.git/ledger/device.json`).
    public var device: Device
    /// The commit of local changes, when there were any.
    package var committed: ObjectID?
    public var localChanges: [DocumentChange] = []
    /// Files the remote's commits changed here (including the results of resolutions).
    public var pulled: [DocumentChange] = []
    /// Files the remote's commits changed since the two devices parted that this device
    /// changed too, where the merge kept this device's version (so `pulled` leaves them out),
    /// each as the remote's commits changed it.
    public var pulledKept: [DocumentChange] = []
    /// Files this push changed on the remote.
    public var pushed: [DocumentChange] = []
    /// How many commits the sync brought in from the remote, and sent to it: commits are
    /// exchanged even when, together, they change no file (one adds what another takes back),
    /// and `pulled`/`pushed` are then empty.
    public var pulledCommits = 0
    public var pushedCommits = 0
    public var resolutions: [Resolution] = []
    /// Repairs across documents after the merge (e.g. two active sessions made one).
    public var reconciled: [String] = []
    /// Problems `check` found in the files the merge changed (the merge still happened).
    public var problems: [Problem] = []
    /// The branch's commit at the end.
    package var head: ObjectID?
    /// The merge commit, when one was made.
    package var mergeCommit: ObjectID?
    /// How many pushes were tried (a refused push is retried after another fetch and merge).
    public var pushAttempts = 0
    /// Why the remote could not be reached or refused the push (outcomes `.offline`, `.rejected`).
    public var error: String?
    /// What was done to the repositories besides syncing, one sentence each: stale locks
    /// removed, leftovers of interrupted writes removed, a file no longer tracked.
    public var housekeeping: [String] = []
    /// Purges made on other devices that this sync honoured (or, previewed, would), one
    /// sentence each.
    public var purges: [String] = []
    /// The maintenance runs that were due (this repository, a remote on a path).
    public var maintenance: [Maintenance.Report] = []
    /// What went wrong without stopping the sync (a maintenance that failed).
    public var warnings: [String] = []

    /// Conflict files created by this sync.
    public var conflictFiles: [String] { resolutions.compactMap(\.conflictFile) }

    /// Conflicted copies created by this sync (a recipe changed differently on two devices,
    /// forked into "<name> (Conflicted Copy)"): what a resolution created besides its conflict file.
    public var conflictedCopies: [String] { resolutions.flatMap { r in r.created.filter { $0 != r.conflictFile } } }

    /// Set when the report is a preview (`Sync.preview`): what it adds to the report of a sync.
    package var preview: Preview?

    /// What a preview says besides what a sync says.
    package struct Preview: Sendable {
        /// The commits the push would send, newest first (ids of the preview's own making:
        /// the sync's commits will have others).
        package var commitsToPush: [CommitInfo] = []
        /// The local changes the sync would commit, told.
        package var committed: [TreeChange] = []
        /// Each document the sync would change here (from the remote, or merged), told.
        package var documents: [TreeChange] = []
    }
}
