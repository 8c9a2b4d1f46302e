import Foundation
import LedgerKit

/// What a purge removes, found in the whole history: every file the target names — in the
/// ledger now, or ever — every version of each (their blob ids), and how many commits hold them.
package struct PurgeScope: Sendable {
    /// Folders that go whole (an app's), and files that go besides.
    package var folders: [String] = []
    package var paths: [String] = []
    /// Every file that goes, with the versions it had (blob ids), anywhere in the history.
    package var versions: [String: Set<ObjectID>] = [:]
    /// Photos the purged documents showed that stay, because a document that stays shows them
    /// too: the photo and that document.
    package var keptPhotos: [(path: String, shownBy: String)] = []
    /// How many of the commits read hold something that goes, and how many were read.
    package var commitsHolding = 0
    package var commitsRead = 0

    package var blobs: Set<ObjectID> { versions.values.reduce(into: Set()) { $0.formUnion($1) } }

    /// The scope of `target` in the history of `tips`, whose current state is `head`.
    static func find(_ target: Purge.Target, in repo: Repository, tips: [ObjectID], head: ObjectID) throws -> PurgeScope {
        var scope = PurgeScope()
        switch target {
        case .app(let app):
            scope.folders = [app.rawValue]
        case .path(let path):
            let found = try HistoryScan(repo, descend: { path.hasPrefix($0 + "/") || $0.hasPrefix(path + "/") || $0 == path },
                                        match: { $0 == path || $0.hasPrefix(path + "/") }).run(tips)
            guard !found.files.isEmpty else {
                throw LedgerError.notFound("\(path) is not in this ledger, nor in its history: there is nothing to purge")
            }
            if found.files.keys.contains(path) { scope.paths = [path] } else { scope.folders = [path] }
        case .id(let id):
            let name = id + ".json"
            let found = try HistoryScan(repo, descend: { !$0.hasPrefix(".") && LedgerSchema.standard.appDirectories.contains(String($0.prefix { $0 != "/" })) },
                                        match: { $0 == name || $0.hasSuffix("/" + name) }).run(tips)
            guard !found.files.isEmpty else {
                throw LedgerError.notFound("no document with id \(id) is in this ledger, nor in its history: there is nothing to purge")
            }
            scope.paths = found.files.keys.sorted()
        }
        try scope.addConflictFilesAndPhotos(repo, tips: tips, head: head)
        let folders = scope.folders, paths = Set(scope.paths)
        let found = try HistoryScan(repo, descend: { dir in folders.contains { dir == $0 || dir.hasPrefix($0 + "/") || $0.hasPrefix(dir + "/") }
                                        || paths.contains { $0.hasPrefix(dir + "/") } },
                                    match: { p in paths.contains(p) || folders.contains { p.hasPrefix($0 + "/") } }).run(tips)
        scope.versions = found.files
        scope.commitsHolding = found.commitsHolding
        scope.commitsRead = found.commitsRead
        return scope
    }

    /// Adds to the files that go the conflict files kept beside them (`<stem>.conflict-<tag>.json`)
    /// and the photos their versions showed — unless a document that stays in `head` shows one.
    mutating func addConflictFilesAndPhotos(_ repo: Repository, tips: [ObjectID], head: ObjectID) throws {
        guard !paths.isEmpty else { return }
        let stems = paths.map { String($0.dropLast(".json".count)) + ".conflict-" }
        let conflicts = try HistoryScan(repo, descend: { dir in stems.contains { $0.hasPrefix(dir + "/") } },
                                        match: { p in stems.contains { p.hasPrefix($0) } }).run(tips)
        paths += conflicts.files.keys.sorted()
        let named = Set(paths)
        let documents = try HistoryScan(repo, descend: { dir in named.contains { $0.hasPrefix(dir + "/") } },
                                        match: { named.contains($0) }).run(tips)
        var versions: [(path: String, bytes: [UInt8])] = []
        for (path, ids) in documents.files { for id in ids { versions.append((path, try repo.blob(id))) } }
        let photos = Forgetting.attachments(shownBy: versions)
        guard !photos.isEmpty else { return }
        // A photo another document shows stays (as deleting a moment keeps it).
        let headTree = try repo.treeOf(commit: head)
        var others: [(path: String, bytes: [UInt8])] = []
        let apps = Set(photos.map { String($0.prefix { $0 != "/" }) }), purged = Set(paths)
        for type in LedgerSchema.documentTypes where apps.contains(type.kind.app.rawValue) {
            guard case .collection(let dir, _) = type.kind.location else { continue }
            for (path, id) in try repo.files(under: dir, inTree: headTree) where !purged.contains(path) { others.append((path, try repo.blob(id))) }
        }
        for photo in photos.sorted() {
            if let other = others.first(where: { Forgetting.attachments(shownBy: [$0]).contains(photo) }) {
                keptPhotos.append((photo, other.path))
            } else {
                paths.append(photo)
            }
        }
    }
}

/// A walk over every distinct tree of a history, collecting the files that match, with every
/// version (blob) they had: each (folder, tree) pair is read once, and folders `descend` says
/// nothing about are not read at all.
final class HistoryScan {
    let repo: Repository
    let descend: (String) -> Bool
    let match: (String) -> Bool
    private(set) var files: [String: Set<ObjectID>] = [:]
    private var seen: [String: Bool] = [:]
    private(set) var commitsHolding = 0
    private(set) var commitsRead = 0

    init(_ repo: Repository, descend: @escaping (String) -> Bool, match: @escaping (String) -> Bool) {
        self.repo = repo
        self.descend = descend
        self.match = match
    }

    /// Reads every commit reachable from `tips`.
    func run(_ tips: [ObjectID]) throws -> HistoryScan {
        for commit in try repo.commitsParentsFirst(from: tips, hiding: []) {
            commitsRead += 1
            if try visit(repo.treeOf(commit: commit), prefix: "") { commitsHolding += 1 }
        }
        return self
    }

    /// Whether `tree` (at `prefix`) holds a matching file; records them.
    private func visit(_ tree: ObjectID, prefix: String) throws -> Bool {
        let key = prefix + "\0" + tree.description
        if let done = seen[key] { return done }
        var holds = false
        for item in try repo.treeItems(tree) {
            let path = prefix + item.name
            if item.isTree {
                if descend(path), try visit(item.id, prefix: path + "/") { holds = true }
            } else if item.isBlob, match(path) {
                files[path, default: []].insert(item.id)
                holds = true
            }
        }
        seen[key] = holds
        return holds
    }
}
