import Foundation
import LedgerKit

/// `ledger undo [COMMIT]`: takes back a sync's merge — or the commit named — as a new commit
/// that restores this device's documents to what they were before it. Nothing in the history
/// is rewritten, so it is safe after the merge was pushed: the next sync publishes the undo,
/// and the changes taken back stay in the history (undoing the undo brings them back).
///
/// It is a three-way merge (`TreeMerge`, the merge rules of sync) of the current documents
/// with the ones to restore, from the commit taken back: a document nobody changed since is
/// restored as it was; one changed since keeps those changes (an entry added after the merge
/// stays, the entries the merge brought go); derived values are recomputed and the apps'
/// repairs across documents run, as after a sync.
///
/// After a reset to the remote (`ResetToRemote`), it brings back the work the reset kept: a
/// merge of the kept commit, as a sync would merge it, after which the reference keeping it
/// is deleted (the work is in the history then).
package enum Undo {
    /// The line of an undo's message naming the commit it takes back.
    static let trailer = "Undoes: "

    /// Why an undo takes back the commit it takes back.
    package enum Chosen: String, Sendable {
        /// Named (`ledger undo COMMIT`).
        case named
        /// The last sync: the last time a sync moved the branch (its reflog), the last reset
        /// to the remote, or — after a purge, which deletes the reflogs — the purge.
        case lastSync
        /// No sync of this device is on record (a fresh clone): the newest merge in the history,
        /// which another device may have made.
        case newestMerge
    }

    /// What an undo does.
    package struct Plan: Sendable {
        /// The commit taken back (for kept work: the kept commit brought back).
        package var target: CommitInfo
        /// Why that one.
        package var chosen: Chosen
        /// The commit whose documents are restored: where the sync started (a merge's first
        /// parent), or the parent of the commit named (for kept work: the kept commit).
        package var restoring: ObjectID
        /// The reference of the work a reset kept, when the undo brings it back.
        package var keptRef: String?
        /// The branch's commit the undo goes on top of.
        package var head: ObjectID
        /// The documents as the undo leaves them.
        package var tree: ObjectID
        /// What it changes, told.
        package var changes: [TreeChange]
        /// Documents changed since the commit taken back, merged with what is restored.
        package var resolutions: [Resolution]
        /// Repairs across documents.
        package var reconciled: [String]
        /// An undo made since that already took `target` back, if any.
        package var alreadyUndoneBy: ObjectID?
        /// The commits taken back: 1 for a merge or a commit named; for the last sync a
        /// fast-forward, every commit it brought (`restoring..target`).
        package var commitsTakenBack = 1
    }

    /// What an undo of `revision` (nil: the last sync's) would do, computed on objects kept in
    /// a temporary directory: nothing in the ledger or its `.git` changes.
    package static func plan(_ store: LedgerStore, revision: String?) throws -> Plan {
        let repo = try Repository.open(store.root)
        let scratch = try ScratchObjects(repo)
        return try withExtendedLifetime(scratch) { try plan(repo, store, revision: revision) }
    }

    /// Undoes `revision` (nil: the last sync's), holding the writer lock: commits the undo and
    /// brings the work tree to it. When `expected` is given (the plan shown for a
    /// confirmation), refuses if the branch has moved since. Returns the plan and the commit.
    package static func run(_ store: LedgerStore, revision: String?, expected: Plan? = nil, device: Device) throws -> (plan: Plan, commit: ObjectID) {
        try store.withWriterLock {
            let repo = try Repository.open(store.root)
            try repo.refuseFilterDrivers(consequence: "nothing was undone")
            let plan = try plan(repo, store, revision: revision)
            if let expected, expected.head != plan.head || expected.target.id != plan.target.id {
                throw LedgerError.invalid("the ledger changed since the undo was shown (its branch is now at \(plan.head.short)); nothing was undone: run the undo again to see what it would do now")
            }
            guard plan.tree != (try repo.treeOf(commit: plan.head)) else {
                throw LedgerError.invalid(nothingToDo(plan))
            }
            let branchRef = try branch(repo, store)
            let signature = repo.signature(fallback: Signature(name: "ledger on \(device.name)", email: "ledger@\(device.id)"))
            let parents = plan.keptRef == nil ? [plan.head] : [plan.head, plan.restoring]
            let commit = try repo.commit(tree: plan.tree, parents: parents, message: message(plan, device: device),
                                         signature: signature, updating: nil)
            try BranchMove.run(repo, store, branchRef: branchRef, to: commit, tree: plan.tree, from: plan.head, message: "ledger: undo")
            if let kept = plan.keptRef { try repo.deleteReference(kept) }
            return (plan, commit)
        }
    }

    /// Why an undo changes nothing.
    static func nothingToDo(_ plan: Plan) -> String {
        if let by = plan.alreadyUndoneBy {
            return "\(plan.target.id.short) was already taken back by \(by.short); nothing was changed"
        }
        return "taking back \(plan.target.id.short) changes nothing in the documents as they are now; nothing was changed"
    }

    static func plan(_ repo: Repository, _ store: LedgerStore, revision: String?) throws -> Plan {
        if let operation = repo.operationInProgress {
            throw LedgerError.invalid("git is in the middle of \(operation.name) in \(store.root): \(operation.waysOut), then undo again; nothing was changed")
        }
        _ = try branch(repo, store)
        guard let head = repo.headCommit() else { throw LedgerError.notFound("this ledger has no commits yet: there is nothing to undo") }
        let choice = try choose(repo, revision: revision, head: head)
        let info = try repo.commitInfo(choice.target)
        let headTree = try repo.treeOf(commit: head)
        // Taking a commit back merges from it; bringing kept work back merges from where the
        // kept work and the branch parted, as a sync would.
        let base = try choice.keptRef == nil ? info.tree : repo.mergeBase(head, choice.restoring).map { try repo.treeOf(commit: $0) }
        let merged = try TreeMerge(repo, base: base, ours: headTree, theirs: repo.treeOf(commit: choice.restoring))
        // The documents it would change must not hold uncommitted edits: the undo would have to
        // leave them out of the work tree, and the next sync would commit them over it.
        let changed = Set(try repo.diff(from: headTree, to: merged.tree).map(\.path))
        // A purge record taken back would let the purged content back in: the next sync would
        // accept the old history another device pushes, and this device would pull it.
        if case .collection(let folder, _) = PurgeRecord.kind.location,
           let record = changed.sorted().first(where: { $0.hasPrefix(folder + "/") }) {
            throw LedgerError.invalid("the undo would take back the purge record \(record): a purge cannot be undone (what it removed is gone from every device that honoured it, and without the record the next sync would take the old history back in); nothing was changed"
                + (choice.chosen != .named ? "; to take back an earlier sync, name its commit (\(next: .sync(.history)) lists them)" : ""))
        }
        let dirty = try repo.workTreeChanges().map(\.path).filter(changed.contains).sorted()
        if !dirty.isEmpty {
            throw LedgerError.invalid("the undo would change \(dirty.count == 1 ? "a file that has" : "files that have") uncommitted changes (\(dirty.joined(separator: ", "))); commit them first with \(next: .sync(.sync)) (or put them back as they were), then undo again; nothing was changed")
        }
        var undoneBy: ObjectID?
        if choice.keptRef == nil {
            try repo.walkCommits(from: [head], hiding: [choice.target]) { id in
                if History.undoes(try repo.commitInfo(id).message) == choice.target { undoneBy = id; return false }
                return true
            }
        }
        var plan = Plan(target: info, chosen: choice.chosen, restoring: choice.restoring, keptRef: choice.keptRef, head: head, tree: merged.tree,
                        changes: try repo.tellChanges(from: headTree, to: merged.tree), resolutions: merged.resolutions,
                        reconciled: merged.reconciled, alreadyUndoneBy: undoneBy)
        if choice.keptRef == nil, info.parents.first != choice.restoring {
            plan.commitsTakenBack = try repo.commits(from: choice.target, notIn: choice.restoring).count
        }
        return plan
    }

    /// What an undo chooses: the commit taken back and the one whose documents come back.
    struct Choice {
        var target: ObjectID
        var restoring: ObjectID
        var chosen: Chosen
        var keptRef: String?
    }

    /// The commit to take back and the one whose documents come back. Named: a merge restores
    /// its first parent (the side of the device that made it), any other commit its parent; a
    /// reference of kept work (`refs/ledger/unsynced/…`) is brought back. Not named: the last
    /// time a sync moved the branch (its reflog: `ledger: sync`, or git's `pull`/`merge`),
    /// from where it was to where the sync took it — a merge or a fast-forward — or the last
    /// reset to the remote, whose kept work is brought back; without a reflog, the newest
    /// merge on the branch's first-parent line, or a purge's commit met before it (a purge
    /// deletes the reflogs; undoing it is refused).
    static func choose(_ repo: Repository, revision: String?, head: ObjectID) throws -> Choice {
        if let revision, let kept = keptReference(repo, revision) {
            return Choice(target: kept.commit, restoring: kept.commit, chosen: .named, keptRef: kept.name)
        }
        if let revision {
            guard let target = repo.commit(named: revision) else {
                throw LedgerError.notFound("\(revision) names no commit of this ledger; \(next: .sync(.history)) lists them")
            }
            guard try repo.isAncestor(target, of: head) else {
                throw LedgerError.invalid("\(revision) (\(target.short)) is not in this ledger's history (the branch does not contain it); \(next: .sync(.history)) lists the commits that are")
            }
            guard let parent = try repo.commitInfo(target).parents.first else {
                throw LedgerError.invalid("\(target.short) is the ledger's first commit: there is nothing before it to restore")
            }
            return Choice(target: target, restoring: parent, chosen: .named)
        }
        let branchRef = repo.headReferenceName ?? "HEAD"
        for entry in try repo.reflog(branchRef) {
            if entry.message.hasPrefix(ResetToRemote.reflogMessage) {
                guard let r = entry.message.range(of: "(kept "), let kept = keptReference(repo, String(entry.message[r.upperBound...].dropLast())) else {
                    throw LedgerError.notFound("the last sync reset this ledger to its remote and there is no work it kept to bring back (it kept none, or it was brought back already); to take back an earlier sync, name its commit (\(next: .sync(.history)) lists them)")
                }
                return Choice(target: kept.commit, restoring: kept.commit, chosen: .lastSync, keptRef: kept.name)
            }
            guard ["ledger: sync", "pull", "merge "].contains(where: { entry.message.hasPrefix($0) }) else { continue }
            guard let old = entry.old, try repo.isAncestor(entry.new, of: head) else { continue }
            return Choice(target: entry.new, restoring: old, chosen: .lastSync)
        }
        // A purge deletes every reflog: the purge met first (its own commit, which the sync
        // that brought it in took in too) is the last sync then, and is refused as a purge —
        // never a merge made before it.
        let purges: String? = if case .collection(let folder, _) = PurgeRecord.kind.location { folder } else { nil }
        var commit: ObjectID? = head
        while let c = commit {
            let info = try repo.commitInfo(c)
            if info.parents.count > 1 { return Choice(target: c, restoring: info.parents[0], chosen: .newestMerge) }
            if let parent = info.parents.first, let purges,
               try repo.objectID(at: purges, inTree: info.tree) != repo.objectID(at: purges, inTree: repo.treeOf(commit: parent)) {
                return Choice(target: c, restoring: parent, chosen: .lastSync)
            }
            commit = info.parents.first
        }
        throw LedgerError.notFound("no sync of this ledger merged anything yet (its history has no merge): there is no sync to undo; name a commit (\(next: .sync(.history)) lists them)")
    }

    /// The kept work `name` names (`refs/ledger/unsynced/<time>` or `unsynced/<time>`), if it exists.
    static func keptReference(_ repo: Repository, _ name: String) -> (name: String, commit: ObjectID)? {
        let full = name.hasPrefix("refs/") ? name : "refs/ledger/" + name
        guard full.hasPrefix(ResetToRemote.keptPrefix), let commit = repo.resolve(full) else { return nil }
        return (full, commit)
    }

    /// The branch HEAD is on (refusing a detached HEAD, with git's way back, as a sync does).
    static func branch(_ repo: Repository, _ store: LedgerStore) throws -> String {
        guard let head = repo.headReferenceName, head.hasPrefix("refs/heads/") else {
            let problem = try SyncTarget.headProblem(repo, root: store.root) ?? "HEAD of \(store.root) is not on a branch"
            throw LedgerError.invalid(problem + ", then undo again; nothing was changed")
        }
        return head
    }

    /// "ledger undo on laptop: take back 1a2b3c4 (ledger sync on phone: merge origin/main)", one
    /// line per file, then `Undoes:`, `Restores:` and `Device:`.
    static func message(_ plan: Plan, device: Device) -> String {
        var lines = [plan.keptRef.map { "ledger undo on \(device.name): bring back the work kept at \($0)" }
                     ?? "ledger undo on \(device.name): take back \(plan.target.id.short) (\(plan.target.subject))", ""]
        for c in plan.changes.sorted(by: { $0.document.path < $1.document.path }) {
            lines.append("\(c.document.change == .modified ? "restored" : c.document.change == .added ? "brought back" : "removed"): \(c.document.path)")
        }
        lines += [""] + (plan.keptRef == nil ? [trailer + plan.target.id.description] : [])
        lines += ["Restores: " + plan.restoring.description, "Device: \(device.name) (\(device.id))"]
        return lines.joined(separator: "\n") + "\n"
    }
}
