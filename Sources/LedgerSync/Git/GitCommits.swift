import CGit2
import Foundation
import LedgerKit

/// A commit as the history shows it.
package struct CommitInfo: Sendable {
    package var id: ObjectID
    package var parents: [ObjectID]
    package var tree: ObjectID
    /// When it was committed, with the committer's UTC offset.
    package var time: Timestamp
    package var authorName: String
    package var authorEmail: String
    package var message: String

    /// The first line of the message.
    package var subject: String { String(message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "") }
}

extension Repository {
    /// The commit `id`.
    package func commitInfo(_ id: ObjectID) throws -> CommitInfo {
        var c: OpaquePointer?
        var oid = id.raw
        try check(git_commit_lookup(&c, pointer, &oid), "git_commit_lookup")
        defer { git_commit_free(c) }
        let parents = (0..<git_commit_parentcount(c)).compactMap { git_commit_parent_id(c, $0).map { ObjectID($0.pointee) } }
        let offset = Int(git_commit_time_offset(c))
        let author = git_commit_author(c)?.pointee
        return CommitInfo(id: id, parents: parents, tree: ObjectID(git_commit_tree_id(c)!.pointee),
                          time: Timestamp(epochMilliseconds: Int64(git_commit_time(c)) * 1000, utcOffsetSeconds: offset * 60),
                          authorName: author.map { String(cString: $0.name) } ?? "", authorEmail: author.map { String(cString: $0.email) } ?? "",
                          message: git_commit_message(c).map { String(cString: $0) } ?? "")
    }

    /// Walks the commits reachable from `tips` and not from `hidden`, newest first (by commit
    /// time, parents after their children) — or, `parentsFirst`, each after its parents —
    /// until `body` returns false.
    package func walkCommits(from tips: [ObjectID], hiding hidden: [ObjectID] = [], parentsFirst: Bool = false,
                             _ body: (ObjectID) throws -> Bool) throws {
        var walk: OpaquePointer?
        try check(git_revwalk_new(&walk, pointer), "git_revwalk_new")
        defer { git_revwalk_free(walk) }
        let sorting = parentsFirst ? GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_REVERSE.rawValue : GIT_SORT_TIME.rawValue
        try check(git_revwalk_sorting(walk, sorting), "git_revwalk_sorting")
        for tip in tips {
            var oid = tip.raw
            try check(git_revwalk_push(walk, &oid), "git_revwalk_push")
        }
        for h in hidden {
            var oid = h.raw
            try check(git_revwalk_hide(walk, &oid), "git_revwalk_hide")
        }
        var next = git_oid()
        while git_revwalk_next(&next, walk) == 0 {
            if try !body(ObjectID(next)) { return }
        }
    }

    /// The commits reachable from `tip`, newest first by commit time — as `git log` lists
    /// them: a commit is met when one of its children has been, so the cost follows the
    /// commits listed, not the history (libgit2's sorted walk reads the whole history first) —
    /// and among commits of the same second (syncs that follow each other closely), each
    /// before its parents, until `body` returns false.
    package func walkHistory(from tip: ObjectID, _ body: (CommitInfo) throws -> Bool) throws {
        var queue = [try commitInfo(tip)]  // by time, newest last
        var seen: Set<ObjectID> = [tip]
        var group: [CommitInfo] = []
        func flush() throws -> Bool {
            defer { group.removeAll() }
            for c in Self.childrenFirst(group) where try !body(c) { return false }
            return true
        }
        while let next = queue.popLast() {
            if let last = group.last, last.time.epochMilliseconds != next.time.epochMilliseconds, try !flush() { return }
            group.append(next)
            for p in next.parents where seen.insert(p).inserted {
                let parent = try commitInfo(p)
                // After the commits of the same time already queued (met first, listed first).
                let at = queue.firstIndex { $0.time.epochMilliseconds >= parent.time.epochMilliseconds } ?? queue.count
                queue.insert(parent, at: at)
            }
        }
        _ = try flush()
    }

    /// `commits` (in walk order) with each before its parents among them.
    static func childrenFirst(_ commits: [CommitInfo]) -> [CommitInfo] {
        guard commits.count > 1 else { return commits }
        let byID = Dictionary(commits.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var children: [ObjectID: Int] = [:]
        for c in commits { for p in c.parents where byID[p] != nil { children[p, default: 0] += 1 } }
        var ready = commits.filter { children[$0.id] == nil }
        var out: [CommitInfo] = []
        while !ready.isEmpty {
            let c = ready.removeFirst()
            out.append(c)
            for p in c.parents where byID[p] != nil {
                children[p]! -= 1
                if children[p] == 0 { ready.append(byID[p]!) }
            }
        }
        return out
    }

    /// The commits reachable from `head` that are not reachable from `base` (nil: all), newest first.
    package func commits(from head: ObjectID, notIn base: ObjectID?) throws -> [ObjectID] {
        var out: [ObjectID] = []
        try walkCommits(from: [head], hiding: base.map { [$0] } ?? []) { out.append($0); return true }
        return out
    }

    /// The commit a revision names: a full or abbreviated id, a reference, `HEAD~2`… (git's
    /// revision syntax, `git rev-parse`), or nil when it names none.
    package func commit(named revision: String) -> ObjectID? {
        var obj: OpaquePointer?
        guard git_revparse_single(&obj, pointer, revision) == 0 else { return nil }
        defer { git_object_free(obj) }
        var peeled: OpaquePointer?
        guard git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) == 0 else { return nil }
        defer { git_object_free(peeled) }
        return ObjectID(git_object_id(peeled)!.pointee)
    }

    /// The reflog of `reference`, newest first: where it was before and after each move, and why.
    package func reflog(_ reference: String) throws -> [(old: ObjectID?, new: ObjectID, message: String)] {
        var log: OpaquePointer?
        guard git_reflog_read(&log, pointer, reference) == 0 else { return [] }
        defer { git_reflog_free(log) }
        return (0..<git_reflog_entrycount(log)).compactMap { i in
            guard let e = git_reflog_entry_byindex(log, i) else { return nil }
            let old = ObjectID(git_reflog_entry_id_old(e)!.pointee)
            return (old.isZero ? nil : old, ObjectID(git_reflog_entry_id_new(e)!.pointee),
                    git_reflog_entry_message(e).map { String(cString: $0) } ?? "")
        }
    }

    /// Adds an entry to `reference`'s reflog at `commit`, the commit it holds: libgit2 writes
    /// none when a reference is set to the commit it already holds, and git's record of what
    /// happened to the branch (`ledger undo` reads it) would miss what did.
    package func appendReflog(_ reference: String, at commit: ObjectID, message: String, signature: Signature) throws {
        var log: OpaquePointer?
        try check(git_reflog_read(&log, pointer, reference), "git_reflog_read")
        defer { git_reflog_free(log) }
        var sig: UnsafeMutablePointer<git_signature>?
        try check(git_signature_now(&sig, signature.name, signature.email), "git_signature_now")
        defer { git_signature_free(sig) }
        var id = commit.raw
        try check(git_reflog_append(log, &id, sig, message), "git_reflog_append")
        try check(git_reflog_write(log), "git_reflog_write")
    }

    /// The references whose names start with `prefix` (`refs/ledger/unsynced/`), with the
    /// object each points at (a commit, or for an annotated tag the tag); symbolic ones left out.
    package func references(under prefix: String) throws -> [(name: String, commit: ObjectID)] {
        var iterator: OpaquePointer?
        try check(git_reference_iterator_glob_new(&iterator, pointer, prefix + "*"), "git_reference_iterator_glob_new")
        defer { git_reference_iterator_free(iterator) }
        var out: [(String, ObjectID)] = []
        var ref: OpaquePointer?
        while git_reference_next(&ref, iterator) == 0 {
            defer { git_reference_free(ref) }
            if let name = git_reference_name(ref), let target = git_reference_target(ref) { out.append((String(cString: name), ObjectID(target.pointee))) }
        }
        return out.sorted { $0.0 < $1.0 }
    }
}

extension Repository {
    /// Stages `changes` of the work tree in the repository's index (in memory; not written)
    /// and returns the index's tree: what a commit of them holds.
    func stage(_ changes: [PathChange]) throws -> ObjectID {
        let index = try index()
        for c in changes {
            if c.change == .deleted { try index.removeFromWorkTree(c.path) } else { try index.addFromWorkTree(c.path) }
        }
        return try index.writeTree()
    }
}

extension Repository {
    /// The files named like conflict files (`.conflict-` in their name) that the work tree
    /// holds: those in the index but for the ones `changes` (the work tree against HEAD) says
    /// are deleted, and the new ones among `changes`. A pass over the index's names instead of
    /// a listing of every folder.
    package func conflictFiles(changes: [PathChange]) throws -> [String] {
        let index = try indexHandle()
        defer { git_index_free(index) }
        var out: Set<String> = []
        for i in 0..<git_index_entrycount(index) {
            guard let e = git_index_get_byindex(index, i), strstr(e.pointee.path, ".conflict-") != nil else { continue }
            out.insert(String(cString: e.pointee.path))
        }
        for c in changes where c.path.contains(".conflict-") {
            if c.change == .deleted { out.remove(c.path) } else { out.insert(c.path) }
        }
        return out.sorted()
    }
}

extension ObjectID {
    /// Whether this is git's null id (forty zeros: "none", in a reflog).
    var isZero: Bool { withUnsafeBytes(of: raw.id) { $0.allSatisfy { $0 == 0 } } }
}
