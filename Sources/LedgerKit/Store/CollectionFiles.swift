import Foundation

/// Where the documents of one collection kind are on disk: its shard directories
/// (`<dir>/<YYYY>/`, `<dir>/<YYYY>/<MM>/`) and the `<id>.json` files in them.
///
/// The one walk every reader of a collection uses (repositories, the apps' stores, the
/// checker's look-ups, the merge driver). It sees what `check` counts as documents of the
/// kind: regular files named by a valid id, in directories whose names are shards (four-digit
/// years, months 01–12); hidden entries, symbolic links to files and anything else are left
/// out. A folder on the way that is a symbolic link — the app's, the collection's, a year or
/// month shard — is never followed: the walk refuses it (exit status 1, as `check` reports
/// it), rather than show a collection without the documents behind it.
package struct CollectionFiles: Sendable {
    /// One document's id and path (relative to the ledger root).
    package struct File: Sendable, Hashable {
        package var id: String
        package var path: String
    }

    package let store: LedgerStore
    package let kind: DocumentKind
    /// The collection's directory, relative to the ledger root.
    package let directory: String

    /// The files of `kind`, which must be a collection.
    package init(_ kind: DocumentKind, in store: LedgerStore) {
        guard case .collection(let dir, _) = kind.location else { preconditionFailure("\(kind) is not a collection") }
        self.store = store
        self.kind = kind
        directory = dir
    }

    /// The shard directories (relative paths), newest first: the directories that hold
    /// documents, `depth` levels below the collection's directory (the directory itself for
    /// an unsharded kind). `years` keeps only the shards of those years.
    package func shards(years: ClosedRange<Int>? = nil) throws -> [String] {
        var out: [String] = []
        func visit(_ rel: String, level: Int) throws {
            if level == kind.shardDepth {
                out.append(rel)
                return
            }
            let shards = try (FileSystem.list(rel, under: store.root) ?? [])
                .filter { ($0.type == .directory || $0.type == .symlink) && DocumentKind.isShardName($0.name, level: level) }
            for shard in shards.sorted(by: { $0.name > $1.name }) {
                if level == 0, let years, let year = Int(shard.name), !years.contains(year) { continue }
                if shard.type == .symlink { throw FileSystem.linkRefusal(rel + "/" + shard.name, "read", rel + "/" + shard.name) }
                try visit(rel + "/" + shard.name, level: level + 1)
            }
        }
        try visit(directory, level: 0)
        return out
    }

    /// The documents in one shard directory (relative path), in no particular order.
    package func files(in shard: String) throws -> [File] { try listing(in: shard).files }

    /// Every document of the collection, in no particular order.
    package func files() throws -> [File] { try listing().files }

    /// The documents in one shard directory (relative path), and the paths of the files
    /// there that look like documents yet are left out (`isMisnamed`), in no particular order.
    package func listing(in shard: String) throws -> (files: [File], misnamed: [String]) {
        var files: [File] = [], misnamed: [String] = []
        for e in try FileSystem.list(shard, under: store.root) ?? [] where e.type == .file {
            if let id = DocumentID.inFileName(e.name) {
                files.append(File(id: id, path: shard + "/" + e.name))
            } else if Self.isMisnamed(e.name) {
                misnamed.append(shard + "/" + e.name)
            }
        }
        return (files, misnamed)
    }

    /// `listing(in:)` of every shard.
    package func listing() throws -> (files: [File], misnamed: [String]) {
        var files: [File] = [], misnamed: [String] = []
        for shard in try shards() {
            let l = try listing(in: shard)
            files += l.files
            misnamed += l.misnamed
        }
        return (files, misnamed)
    }

    /// Whether a file named `name` in a shard directory, not `<id>.json`, still looks like a
    /// document: a JSON file (`.json` in any case) whose name is no valid id, or whose
    /// extension is not in lower case — a hand-renamed document, which `check` reports as an
    /// error. Hidden files and a sync's conflict copies are not.
    package static func isMisnamed(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.lowercased().hasSuffix(".json") && !name.contains(FileRole.conflictMarker)
    }

    /// The shard directory where a document dated `date` belongs.
    package func shard(for date: LocalDate) -> String {
        (kind.path(id: "x", date: date) as NSString).deletingLastPathComponent
    }

    /// The path of document `id`, looking in the shards newest first; nil when there is none.
    package func path(of id: String) throws -> String? {
        guard DocumentID.isValid(id) else { return nil }
        for shard in try shards() {
            let path = shard + "/" + id + ".json"
            if FileSystem.stamp(path, under: store.root)?.type == .file { return path }
        }
        return nil
    }
}
