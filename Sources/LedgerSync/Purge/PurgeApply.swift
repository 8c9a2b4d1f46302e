import Foundation
import LedgerKit

/// Honouring purges (`PurgeRecord`) in this repository: what the device that purged did to its
/// own, done here — by every other device at its next sync, and by the purging device itself
/// once its new history is published.
///
/// 1. Every commit reachable from a reference and not from the new history (`upstream`) is
///    rewritten by each record in turn (`HistoryRewrite`, deterministic): the history this
///    device shared with the others becomes, commit for commit, the one the remote holds, and
///    its own unsynced commits are moved onto it with what went taken out.
/// 2. What this device recorded in the purged files that the purging device never saw (an
///    offline edit) keeps what was recorded at or after the purge (`Forgetting.remainder`), in a
///    commit of its own on top — nothing of this device's is lost but what the purge removed.
/// 3. Every reference is moved to its rewritten commit — the branch with the work tree
///    (`BranchMove`), kept work (`refs/ledger/unsynced/…`), tags, other branches — the reflogs
///    are deleted and the old objects removed (`ObjectRemoval`), and the repository is scanned:
///    none of the purged blobs may be left.
///
/// Interrupted, it is finished by the next ledger command (`PurgeJournal`, `Purge.finish`):
/// every step can be taken again.
enum PurgeApply {
    /// The purge records in `tree` (`purges/*.json`) that can be read, oldest first.
    static func records(_ repo: Repository, tree: ObjectID) throws -> [PurgeRecord] {
        guard case .collection(let folder, _) = PurgeRecord.kind.location else { return [] }
        var out: [PurgeRecord] = []
        for (path, id) in try repo.files(under: folder, inTree: tree) where path.hasSuffix(".json") {
            var ignored: [DocumentIssue] = []
            if let json = try? JSONParser.parse(repo.blob(id)), let r = PurgeRecord.decode(json, at: .root, issues: &ignored) { out.append(r) }
        }
        return out.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// The records `upstream` holds that `head` does not, oldest first: purges this device has
    /// yet to honour.
    static func unapplied(_ repo: Repository, head: ObjectID?, upstream: ObjectID) throws -> [PurgeRecord] {
        let theirs = try records(repo, tree: repo.treeOf(commit: upstream))
        guard !theirs.isEmpty else { return [] }
        let ours = Set(try head.map { try records(repo, tree: repo.treeOf(commit: $0)).map(\.id) } ?? [])
        return theirs.filter { !ours.contains($0.id) }
    }

    /// The history rewritten by `records` in turn: objects only, no reference moves.
    struct Rewritten {
        var rewrites: [HistoryRewrite]
        /// Where HEAD goes: its rewritten commit, with what it kept across the purges on top.
        var head: ObjectID?
        /// The files kept across the purges (recorded after them), relative to the root.
        var kept: [String]

        /// What `commit` became through every record.
        func mapped(_ commit: ObjectID) -> ObjectID { rewrites.reduce(commit) { $1.mapped($0) } }

        var commitsRewritten: Int { rewrites.reduce(0) { $0 + $1.rewritten } }
    }

    /// Rewrites every commit reachable from a reference or HEAD and not from `upstream` by
    /// `records` in turn, then adds what HEAD holds that outlives them (see the type).
    static func rewrite(_ repo: Repository, records: [PurgeRecord], upstream: ObjectID?, signature: Signature, device: Device) throws -> Rewritten {
        let head = repo.headCommit()
        var tips = try repo.allReferences().compactMap { repo.peeledCommit($0.target) }
        if let head { tips.append(head) }
        var done = Rewritten(rewrites: [], head: head, kept: [])
        for record in records {
            let rewrite = HistoryRewrite(repo, record: record)
            try rewrite.rewrite(tips: tips.map(done.mapped), hiding: upstream.map { [$0] } ?? [])
            done.rewrites.append(rewrite)
        }
        guard let head else { return done }
        let newHead = done.mapped(head)
        let (tree, kept) = try keptAcross(repo, records: records, rewrites: done.rewrites, from: repo.treeOf(commit: head), onto: repo.treeOf(commit: newHead))
        done.head = newHead
        guard !kept.isEmpty else { return done }
        var lines = ["ledger sync on \(device.name): kept what was recorded after the purge of " + records.map(\.target).joined(separator: ", "), ""]
        lines += kept.map { "kept: \($0)" } + ["", "Device: \(device.name) (\(device.id))"]
        done.head = try repo.commit(tree: tree, parents: [newHead], message: lines.joined(separator: "\n") + "\n", signature: signature, updating: nil)
        done.kept = kept
        return done
    }

    /// `onto` with the files of `from` that the records removed although the device that
    /// purged never saw them (blobs the records do not name), cut to what was recorded at or
    /// after each purge; a photo stays when a kept document shows it.
    static func keptAcross(_ repo: Repository, records: [PurgeRecord], rewrites: [HistoryRewrite], from: ObjectID, onto: ObjectID) throws
        -> (tree: ObjectID, kept: [String]) {
        var documents: [(path: String, bytes: [UInt8])] = []
        var updates: [(path: String, entry: (id: ObjectID, mode: UInt32)?)] = []
        var photos: [(path: String, entry: TreeEntry)] = []
        for (record, rewrite) in zip(records, rewrites) {
            var files = try record.paths.compactMap { p in try repo.entry(at: p, inTree: from).map { (p, $0) } }
            for folder in record.folders {
                files += try repo.files(under: folder, inTree: from).compactMap { f in try repo.entry(at: f.path, inTree: from).map { (f.path, $0) } }
            }
            for (path, entry) in files where !rewrite.blobs.contains(entry.id) {
                let bytes = try repo.blob(entry.id)
                switch Forgetting.remainder(path: path, bytes: bytes, afterForgetAt: record.createdAt) {
                case .whole:
                    documents.append((path, bytes))
                    updates.append((path, (entry.id, entry.mode)))
                case .part(let kept):
                    documents.append((path, kept))
                    updates.append((path, (try repo.createBlob(kept), entry.mode)))
                case .ifShown: photos.append((path, entry))
                case .nothing: continue
                }
            }
        }
        let shown = Forgetting.attachments(shownBy: documents)
        for (path, entry) in photos where shown.contains(path) { updates.append((path, (entry.id, entry.mode))) }
        let tree = try repo.updatedTree(onto, updates)
        return (tree, tree == onto ? [] : updates.map(\.path).sorted())
    }

    /// What applying did.
    struct Outcome {
        var head: ObjectID?
        /// What each commit became.
        var rewrites: [HistoryRewrite]
        var commitsRewritten: Int
        var kept: [String]
        /// This repository's objects after the removal.
        var scan: ObjectRemoval.Scan

        /// What `commit` became through every record.
        func mapped(_ commit: ObjectID) -> ObjectID { rewrites.reduce(commit) { $1.mapped($0) } }
    }

    /// Applies `records` to this repository with `upstream` as the new history (see the
    /// type): rewrites, moves every reference (the branch with the work tree), deletes the
    /// reflogs, removes the old objects and scans for the purged ones. The caller holds the
    /// writer lock.
    static func apply(_ repo: Repository, _ store: LedgerStore, records: [PurgeRecord], upstream: ObjectID?, device: Device,
                      git: GitTool?, afterBranch: () -> Void = {}, beforeRemoving: () -> Void = {}) throws -> Outcome {
        let started = Durability.now()
        let signature = repo.signature(fallback: Signature(name: "ledger on \(device.name)", email: "ledger@\(device.id)"))
        let oldHead = repo.headCommit()
        var done = try rewrite(repo, records: records, upstream: upstream, signature: signature, device: device)
        // Nothing of this device's own on top: the branch simply goes to the new history.
        if let newHead = done.head, let upstream, newHead != upstream, try repo.isAncestor(newHead, of: upstream) { done.head = upstream }
        let branchRef = repo.headReferenceName
        if let oldHead, let newHead = done.head, newHead != oldHead, let branchRef {
            try BranchMove.run(repo, store, branchRef: branchRef, to: newHead, tree: repo.treeOf(commit: newHead), from: oldHead,
                               message: "ledger: purge " + records.map(\.id).joined(separator: ", "))
            afterBranch()
        }
        let blobs = Set(done.rewrites.flatMap(\.blobs))
        for ref in try repo.allReferences() where ref.name != branchRef && ref.name != PurgeJournal.reference {
            guard let commit = repo.peeledCommit(ref.target) else {
                if blobs.contains(ref.target) { try repo.deleteReference(ref.name) }
                continue
            }
            let moved = done.mapped(commit)
            guard moved != commit else { continue }
            try repo.setReference(ref.name, to: repo.isTag(ref.target) ? repo.retag(ref.target, to: moved) : moved, message: "ledger: purge")
        }
        for ref in try repo.allReferences() { repo.deleteReflog(ref.name) }
        repo.deleteReflog("HEAD")
        for name in ["ORIG_HEAD", "FETCH_HEAD"] { _ = try? FileSystem.remove(repo.gitDirectory + "/" + name) }
        // Every reference on the disk where it now is before the objects it named go: a power
        // cut never leaves one naming a removed commit.
        Durability.flush(gitDirectory: repo.gitDirectory, since: started)
        beforeRemoving()
        var scan = try ObjectRemoval.prune(gitDirectory: repo.gitDirectory, git: git, blobs: blobs)
        if !scan.found.isEmpty {
            // Every reference was rewritten: what keeps them is outside the references.
            scan.keptBy = "something outside its references: a .keep pack or an alternate object store (`git -C \(store.root) count-objects -v` shows which)"
        }
        return Outcome(head: done.head, rewrites: done.rewrites, commitsRewritten: done.commitsRewritten, kept: done.kept, scan: scan)
    }
}
