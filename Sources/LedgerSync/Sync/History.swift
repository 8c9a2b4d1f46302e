import Foundation
import LedgerKit

/// One file a commit (or a sync's preview, or an undo) changes, told in its app's words.
package struct TreeChange: Sendable {
    package var document: DocumentChange
    package var story: DocumentStory
}

extension Repository {
    /// Each file that differs between the trees `old` (nil: empty) and `new`, told. With
    /// `otherParent` — a merge's other parent — only what the merge made itself is told: the
    /// files both sides changed, merged (`DocumentStories.tellMerge`) — also those of
    /// `resolved` (`changedOnBothSides`), where the merge kept one side's version whole (an
    /// edit that beat a deletion, a setting changed on both) — and the files it created (a
    /// recipe's conflicted copy, a conflict file); files taken whole from one side are that
    /// side's commits' story, unless `includeTaken` (a preview tells all it would change).
    package func tellChanges(from old: ObjectID?, to new: ObjectID, otherParent: ObjectID? = nil, resolved: [String: FileChange] = [:],
                             includeTaken: Bool = false, matching filter: HistoryFilter? = nil) throws -> [TreeChange] {
        var out: [TreeChange] = []
        var changes = try diff(from: old, to: new)
        let changed = Set(changes.map(\.path))
        changes += resolved.filter { !changed.contains($0.key) }.map { PathChange($0.key, $0.value) }.sorted { $0.path < $1.path }
        for change in changes where filter?.matches(change.path) ?? true {
            let path = change.path
            let before = try old.flatMap { try file(at: path, inTree: $0) }
            let after = try file(at: path, inTree: new)
            // A recipe's conflicted copy is told by where it differs from the recipe beside it.
            let forkedFrom = try before == nil ? DocumentStories.conflictedCopyName(path: path, new: after)
                .flatMap { try recipe(forkedInto: $0, at: path, inTree: new) } : nil
            let story: DocumentStory
            if let otherParent {
                let other = try entry(at: path, inTree: otherParent)
                if resolved[path] == nil, other?.id == (try entry(at: path, inTree: new))?.id {
                    guard includeTaken else { continue }
                    story = DocumentStories.tell(path: path, old: before, new: after, forkedFrom: forkedFrom)
                } else {
                    story = before == nil && other == nil
                    ? DocumentStories.tell(path: path, old: nil, new: after, forkedFrom: forkedFrom)
                    : DocumentStories.tellMerge(path: path, ours: before, theirs: try other.map { try blob($0.id) }, result: after)
                }
            } else {
                story = DocumentStories.tell(path: path, old: before, new: after, forkedFrom: forkedFrom)
            }
            out.append(TreeChange(document: DocumentChange(change), story: story))
        }
        return out
    }

    /// The recipe the conflicted copy named `copyName`, at `path`, was forked from: the one
    /// beside it in `tree` of that name (`Recipe.isForkOrigin`, as `ledger conflicts` finds it);
    /// nil when there is none.
    func recipe(forkedInto copyName: String, at path: String, inTree tree: ObjectID) throws -> [UInt8]? {
        let folder = path.split(separator: "/").dropLast().joined(separator: "/")
        for file in try files(under: folder, inTree: tree) where file.path != path {
            let bytes = try blob(file.id)
            if let name = (try? JSONParser.parse(bytes))?["name"]?.stringValue, Recipe.isForkOrigin(name, ofCopyNamed: copyName) { return bytes }
        }
        return nil
    }

    /// The files `ours` and `theirs` (trees; nil: empty) both changed since `base` (their
    /// common ancestor's tree; nil when they have none), each to a version of its own — what a merge of the two resolves — with how each differs from
    /// `base` on the side of `ours` (added, modified, deleted). Only the files that differ
    /// between the two sides are looked at.
    package func changedOnBothSides(base: ObjectID?, ours: ObjectID?, theirs: ObjectID) throws -> [String: FileChange] {
        var out: [String: FileChange] = [:]
        for c in try diff(from: ours, to: theirs) {
            let was = try base.flatMap { try entry(at: c.path, inTree: $0)?.id }
            let mine = try ours.flatMap { try entry(at: c.path, inTree: $0)?.id }
            guard was != mine, was != (try entry(at: c.path, inTree: theirs))?.id else { continue }
            out[c.path] = was == nil ? .added : mine == nil ? .deleted : .modified
        }
        return out
    }
}

/// Which files a history is about: a file, a folder (an app's), or a document by its id.
package struct HistoryFilter: Sendable {
    /// Files and folders, relative to the ledger root (a folder without its trailing slash).
    package var paths: [String]
    /// File names (`<id>.json`) matched anywhere: a document no longer in the ledger.
    package var fileNames: [String]

    package init(paths: [String] = [], fileNames: [String] = []) {
        self.paths = paths
        self.fileNames = fileNames
    }

    func matches(_ path: String) -> Bool {
        paths.contains { path == $0 || path.hasPrefix($0 + "/") }
            || fileNames.contains { path.hasSuffix("/" + $0) || path == $0 }
    }

    /// The paths of the documents whose id is `id` in the ledger at `tree` (each kind's
    /// folder, and its year and month folders); none when no document has it there.
    package static func documents(withID id: String, in repo: Repository, tree: ObjectID) throws -> [String] {
        var out: [String] = []
        for type in LedgerSchema.standard.documentTypes {
            guard case .collection(let dir, let sharding) = type.kind.location else { continue }
            var folders = [dir]
            if sharding != .none { folders = try repo.subfolders(at: dir, inTree: tree).map { dir + "/" + $0 } }
            if sharding == .yearMonth { folders = try folders.flatMap { f in try repo.subfolders(at: f, inTree: tree).map { f + "/" + $0 } } }
            for folder in folders where try repo.entry(at: "\(folder)/\(id).json", inTree: tree) != nil { out.append("\(folder)/\(id).json") }
        }
        return out
    }
}

/// One commit of a ledger's history, as the apps see it.
package struct HistoryEntry: Sendable {
    /// What made the commit.
    package enum Kind: String, Sendable {
        /// `ledger sync` committing this device's changes.
        case sync
        /// A merge: of `ledger sync`, or of plain git (`git pull`, `git merge`).
        case merge
        /// `ledger undo`.
        case undo
        /// The first commit of `ledger init`.
        case initial = "init"
        /// `ledger purge`: its record, on top of the rewritten history.
        case purge
        /// A commit made with plain git (`git commit`).
        case commit
    }

    package var commit: CommitInfo
    package var kind: Kind
    /// The device named in the message (`Device: laptop (…)`, `ledger sync on laptop: …`);
    /// nil for a commit of plain git.
    package var device: String?
    /// For an undo, the commit it takes back (`Undoes: <id>` in its message).
    package var undoes: ObjectID?
    /// What the commit changed (a merge: what it resolved or created), told.
    package var changes: [TreeChange]
}

/// A ledger's history, newest first.
package enum History {
    /// What to read.
    package struct Query: Sendable {
        package var filter: HistoryFilter?
        /// Commits made before are left out.
        package var since: Timestamp?
        /// Only commits of this device (its name, case-insensitively; for commits of plain git,
        /// the author's name).
        package var device: String?
        package var limit: Int?

        package init(filter: HistoryFilter? = nil, since: Timestamp? = nil, device: String? = nil, limit: Int? = nil) {
            self.filter = filter
            self.since = since
            self.device = device
            self.limit = limit
        }
    }

    /// The history of the branch HEAD is on, newest first (by commit time, as `git log`).
    package static func read(_ repo: Repository, _ query: Query) throws -> [HistoryEntry] {
        guard let head = repo.headCommit() else { return [] }
        var out: [HistoryEntry] = []
        try repo.walkHistory(from: head) { info in
            if let limit = query.limit, out.count >= limit { return false }
            if let since = query.since, info.time < since { return true }
            let device = Self.device(in: info.message)
            if let wanted = query.device, (device ?? info.authorName).lowercased() != wanted.lowercased() { return true }
            let parent = try info.parents.first.map { try repo.treeOf(commit: $0) }
            // A merge may resolve a document by keeping its first parent's version: its
            // changes below say whether it is about the filter's files.
            if let filter = query.filter, info.parents.count < 2, try !touches(repo, filter, parent, info.tree) { return true }
            let other = try info.parents.count > 1 ? repo.treeOf(commit: info.parents[1]) : nil
            let resolved = try other.map { other -> [String: FileChange] in
                let base = try repo.mergeBase(info.parents[0], info.parents[1]).map { try repo.treeOf(commit: $0) }
                return try repo.changedOnBothSides(base: base, ours: parent, theirs: other)
            } ?? [:]
            let kind = kind(info)
            // An undo bringing back kept work merges it: what it brings back is its story.
            let changes = try repo.tellChanges(from: parent, to: info.tree, otherParent: other, resolved: resolved, includeTaken: kind == .undo,
                                               matching: query.filter)
            if query.filter != nil, changes.isEmpty { return true }
            out.append(HistoryEntry(commit: info, kind: kind, device: device, undoes: undoes(info.message), changes: changes))
            return true
        }
        return out
    }

    /// Whether the commit of `tree` changed what `filter` names (against its first parent's
    /// `parent`): an object id compared per path, or for file names the changed paths.
    static func touches(_ repo: Repository, _ filter: HistoryFilter, _ parent: ObjectID?, _ tree: ObjectID) throws -> Bool {
        for path in filter.paths where try repo.objectID(at: path, inTree: tree) != parent.flatMap({ try repo.objectID(at: path, inTree: $0) }) {
            return true
        }
        guard !filter.fileNames.isEmpty else { return false }
        return try repo.diff(from: parent, to: tree).contains { c in filter.fileNames.contains { c.path.hasSuffix("/" + $0) || c.path == $0 } }
    }

    /// The device a message of ledger's names: its `Device: NAME (ID)` line, else the subject
    /// `ledger sync on NAME: …` / `ledger undo on NAME: …`.
    package static func device(in message: String) -> String? {
        let lines = message.split(separator: "\n")
        if let line = lines.last(where: { $0.hasPrefix("Device: ") }) {
            var name = line.dropFirst(8)
            if let paren = name.lastIndex(of: "("), name.hasSuffix(")") { name = name[..<paren] }
            return name.trimmingWhitespace()
        }
        for prefix in ["ledger sync on ", "ledger undo on ", "ledger purge on "] {
            if let subject = lines.first, subject.hasPrefix(prefix), let colon = subject.dropFirst(prefix.count).firstIndex(of: ":") {
                return String(subject[subject.index(subject.startIndex, offsetBy: prefix.count)..<colon])
            }
        }
        return nil
    }

    static func kind(_ info: CommitInfo) -> HistoryEntry.Kind {
        let subject = info.subject
        if subject.hasPrefix("ledger undo on ") { return .undo }
        if subject.hasPrefix("ledger purge on ") { return .purge }
        if info.parents.count > 1 { return .merge }
        if subject.hasPrefix("ledger sync on ") { return .sync }
        if subject == "ledger: new ledger", info.parents.isEmpty { return .initial }
        return .commit
    }

    /// The commit an undo's message names (`Undoes: <id>`), or git's revert (`This reverts
    /// commit <id>.`, `This reverts commit <id>, reversing…` for a merge).
    static func undoes(_ message: String) -> ObjectID? {
        let lines = message.split(separator: "\n")
        if let line = lines.last(where: { $0.hasPrefix(Undo.trailer) }) { return ObjectID(hex: String(line.dropFirst(Undo.trailer.count))) }
        return lines.first { $0.hasPrefix(revertLine) }.flatMap { ObjectID(hex: String($0.dropFirst(revertLine.count).prefix(40))) }
    }

    /// How git's revert names the commit it takes back.
    static let revertLine = "This reverts commit "

    /// Whether a commit's message says it takes another back — an undo of ledger's (`Undoes:`)
    /// or git's revert (`This reverts commit …`): what it brings in, an earlier commit had.
    static func takesBack(_ message: String) -> Bool {
        undoes(message) != nil || message.split(separator: "\n").contains { $0.hasPrefix(revertLine) }
    }
}

extension Repository {
    /// The newest commit of HEAD's history that deleted what `reference` names — a path, or an
    /// id (`<id>.json` in any folder) — with the path; nil when none did, or it came back since.
    package func deletion(of reference: String) throws -> (commit: CommitInfo, path: String)? {
        guard let head = headCommit() else { return nil }
        let filter = reference.contains("/") ? HistoryFilter(paths: [reference]) : HistoryFilter(fileNames: [reference + ".json"])
        var found: (commit: CommitInfo, path: String)?
        try walkHistory(from: head) { info in
            let parent = try info.parents.first.map { try treeOf(commit: $0) }
            guard let change = try diff(from: parent, to: info.tree).first(where: { filter.matches($0.path) }) else { return true }
            if change.change == .deleted { found = (info, change.path) }
            return false
        }
        return found
    }
}

extension Repository {
    /// Where a conflict file or a recipe's conflicted copy came from, as far as the history
    /// tells: `base`, the version of `document` in the common ancestor of the merge that created
    /// it; `own`, `document` as this device's branch held it just before the commit that
    /// created the conflict came into it (its reflog: the device's own version of what was
    /// forked, whichever device made the fork — here by a sync or a `git pull`, or elsewhere
    /// and pulled since).
    package struct ConflictOrigin: Sendable {
        package var base: [UInt8]?
        package var own: [UInt8]?
    }

    /// The origin of the conflict `created` — found in the history of HEAD as the newest
    /// commit whose tree has `created` and whose first parent's does not, passing over commits
    /// that take another back (an undo, a revert: one that brings the conflict back, after an
    /// undo of the merge that made it or of its resolution, did not make it; the same fork
    /// arriving again must not turn which side is this device's). `base` is nil when no merge
    /// created it (a conflict file git's merge driver left, committed later; a rebase) or the
    /// document was not in that ancestor; `own` is nil when the branch's reflog does not reach
    /// back to before that commit (a clone made after the fork).
    package func conflictOrigin(created: String, document: String) throws -> ConflictOrigin {
        guard let head = headCommit() else { return ConflictOrigin() }
        var bringers: [CommitInfo] = []
        var maker: CommitInfo?
        try walkHistory(from: head) { info in
            guard try objectID(at: created, inTree: info.tree) != nil else { return true }
            if let parent = info.parents.first, try objectID(at: created, inTree: treeOf(commit: parent)) != nil { return true }
            guard History.takesBack(info.message) else { maker = info; return false }
            bringers.append(info)
            return true
        }
        // Only ever brought back (what it took back is not in this history): the newest that did.
        guard let creator = maker ?? bringers.first else { return ConflictOrigin() }
        var origin = ConflictOrigin()
        if creator.parents.count > 1, let ancestor = try mergeBase(creator.parents[0], creator.parents[1]) {
            origin.base = try file(at: document, inTree: treeOf(commit: ancestor))
        }
        // Newest first: the first place the branch was that does not contain the creator is
        // where it stood when the creator came in.
        for entry in try reflog(headReferenceName ?? "HEAD") {
            guard let old = entry.old else { break }
            if try !isAncestor(creator.id, of: old) {
                origin.own = try file(at: document, inTree: treeOf(commit: old))
                break
            }
        }
        return origin
    }
}
