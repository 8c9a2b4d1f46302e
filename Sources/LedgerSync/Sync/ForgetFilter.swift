import Foundation
import LedgerKit

/// The forget rule in a merge (`Forgetting`, docs/deleting.md): a side that
/// had not seen a forget in force after the merge keeps, of what it changed in that app since
/// the two sides parted, only what was recorded at or after the forget's instant. What it
/// changed before is as if it had never changed it, so the other side's forget wins there.
///
/// It works on trees, before the three-way merge (`TreeMerge`): each unaware side's tree is
/// replaced by one holding only what outlives the forget, and the merge runs as always.
struct ForgetFilter {
    let repo: Repository
    let base: ObjectID?
    /// The forgets in force after the merge (`ledger.json`'s, merged).
    let inForce: ForgottenApps
    /// What each side recorded.
    let ours: ForgottenApps
    let theirs: ForgottenApps

    init(_ repo: Repository, base: ObjectID?, ours: ObjectID, theirs: ObjectID) throws {
        self.repo = repo
        self.base = base
        func recorded(_ tree: ObjectID?) throws -> ForgottenApps {
            ForgottenApps.recorded(in: try tree.flatMap { try repo.file(at: LedgerManifest.kind.path(), inTree: $0) })
        }
        self.ours = try recorded(ours)
        self.theirs = try recorded(theirs)
        inForce = ForgottenApps.merged(base: try recorded(base), ours: self.ours, theirs: self.theirs)
    }

    /// `tree` (a side that recorded `forgotten`) with what it changed since the base, in the apps
    /// whose forget it had not seen, cut to what outlives that forget; and one sentence per app
    /// cut, for the report.
    func filtered(_ tree: ObjectID, recorded forgotten: ForgottenApps, side: String) throws -> (tree: ObjectID, notes: [String]) {
        let unseen = forgotten.unseen(in: inForce)
        guard !unseen.isEmpty else { return (tree, []) }
        var updates: [(path: String, entry: (id: ObjectID, mode: UInt32)?)] = []
        var survivors: [(path: String, bytes: [UInt8])] = []
        var photos: [(path: String, base: TreeEntry?)] = []
        var dropped: [AppID: Int] = [:], cut: [AppID: Int] = [:]
        for change in try repo.diff(from: base, to: tree) {
            guard let app = AppID(rawValue: String(change.path.prefix { $0 != "/" })), let instant = unseen[app] else { continue }
            let before = try base.flatMap { try repo.entry(at: change.path, inTree: $0) }
            let asBefore = before.map { (id: $0.id, mode: $0.mode) }
            guard let entry = try repo.entry(at: change.path, inTree: tree) else {
                updates.append((change.path, asBefore))
                continue
            }
            let bytes = try repo.blob(entry.id)
            switch Forgetting.remainder(path: change.path, bytes: bytes, afterForgetAt: instant) {
            case .whole:
                survivors.append((change.path, bytes))
            case .part(let kept):
                updates.append((change.path, (try repo.createBlob(kept), entry.mode)))
                survivors.append((change.path, kept))
                cut[app, default: 0] += 1
            case .nothing:
                updates.append((change.path, asBefore))
                dropped[app, default: 0] += 1
            case .ifShown:
                photos.append((change.path, before))
            }
        }
        let shown = Forgetting.attachments(shownBy: survivors)
        for photo in photos where !shown.contains(photo.path) {
            updates.append((photo.path, photo.base.map { (id: $0.id, mode: $0.mode) }))
            if let app = AppID(rawValue: String(photo.path.prefix { $0 != "/" })) { dropped[app, default: 0] += 1 }
        }
        let notes = unseen.keys.sorted().compactMap { app -> String? in
            let (d, c) = (dropped[app] ?? 0, cut[app] ?? 0)
            guard d + c > 0 else { return nil }
            var what: [String] = []
            if d > 0 { what.append("\(d) \(d == 1 ? "file" : "files") dropped") }
            if c > 0 { what.append("\(c) \(c == 1 ? "document" : "documents") kept in part") }
            return "\(app.title) was forgotten at \(unseen[app]!.iso8601), which \(side) had not seen: of what it recorded before, "
                + what.joined(separator: " and ") + " (what was recorded at or after the forget stays)"
        }
        return (try repo.updatedTree(tree, updates), notes)
    }
}
