import Foundation
/// A ledger on disk: reading and writing documents, and the writer lock.
///
/// Reads are lock-free (every write is an atomic rename). Writes happen inside
/// `withWriterLock`, taken by the apps' stores (`WaterlineStore`, `BrewStore`, …) for each
/// intent's whole read-modify-write, so two processes never lose each other's writes.
///
/// The store knows nothing of git or of the process it runs in: the directory for
/// device-local state, the files that witness bulk changes made by other tools, the number
/// of worker threads and what the lock file says about its holder are given by the caller
/// (LedgerSync's `LedgerStore(gitWorkTree:)` for a ledger in a git repository).
public struct LedgerStore: Sendable {
    /// The largest document accepted, in bytes. A heavy night's session is tens of kilobytes;
    /// the limit keeps a stray 50 MB file from being read at all.
    package static let maximumDocumentBytes = 4 * 1024 * 1024

    /// The ledger's root directory (absolute, without a trailing slash).
    public let root: String
    /// The directory for device-local state that is never synced (SPEC §3): the writer lock,
    /// hints and caches, a brew in progress. Absolute.
    package let localStateDirectory: String
    /// Files whose stamps change whenever another tool may have rewritten documents in bulk —
    /// for a git repository, its index. Hints that spare a reader from reading every document
    /// trust themselves only while these are unchanged. Relative to the root when inside it
    /// (so that a hint recorded through one path to the ledger holds through another: a
    /// symbolic link, `--repo` or the current directory), else absolute.
    package var bulkChangeWitnesses: [String] = []
    /// How many threads may read documents at once (readers of many files use them); 0: one
    /// per core available to the process, counted when first needed (not by the commands that
    /// read one file: it costs a look at the process's cgroup).
    public var workerThreads = 1
    /// `workerThreads`, with 0 made the cores available.
    var readerThreads: Int { workerThreads > 0 ? workerThreads : Parallel.cores }
    /// What the lock file records about the process holding the writer lock (its pid and
    /// command line), shown by `lockWait` to a process waiting for it.
    package var lockHolder = ""
    /// Called when the writer lock is held by another process, with what it recorded (its pid
    /// and command line), before waiting for it.
    package var lockWait: (@Sendable (String) -> Void)?

    /// The ledger at `root`, keeping its device-local state in `localStateDirectory`.
    public init(root: String, localStateDirectory: String) {
        var r = root
        while r.count > 1, r.hasSuffix("/") { r.removeLast() }
        self.root = r
        self.localStateDirectory = localStateDirectory
    }

    /// The absolute path of a path relative to the root.
    package func absolute(_ relative: String) -> String { root + "/" + relative }

    /// The absolute path of a file of device-local state.
    package func localState(_ name: String) -> String { localStateDirectory + "/" + name }

    /// Whether `root` holds a ledger (a `ledger.json`).
    public var exists: Bool { FileSystem.stamp(absolute(LedgerManifest.kind.path()))?.type == .file }

    /// Makes `root` (created when missing) a new ledger, under the writer lock: `ledger.json` and each app's initial
    /// documents, dated `now`. Refuses a directory that already holds one. (`ledger init` makes
    /// the git repository around it; an app keeping its ledger in a plain folder calls this.)
    public func create(now: Timestamp) throws {
        try FileSystem.makeDirectories(root)
        try withWriterLock {
            if exists { throw LedgerError.invalid("\(root) already holds a ledger (a ledger.json)") }
            for (relative, document) in LedgerSchema.initialDocuments(now: now) { try write(relative, document) }
        }
    }

    /// Runs `body` holding the ledger's exclusive writer lock. Not re-entrant.
    package func withWriterLock<T>(_ body: () throws -> T) throws -> T {
        let lock = try FileLock(path: localState("lock"), holder: lockHolder, waiting: lockWait)
        defer { lock.release() }
        return try body()
    }

    /// Runs `body` holding the writer lock when the ledger can be written, and without it when
    /// it cannot (a read-only mount, a backup this user may not write): `body` is told which,
    /// and must write nothing when it is not holding the lock. For reads that would like to
    /// record something on the way (a cache, a repair) but must work on a read-only ledger.
    package func withWriterLockIfWritable<T>(_ body: (_ locked: Bool) throws -> T) throws -> T {
        guard FileSystem.isWritable(localState("lock")) else { return try body(false) }
        return try withWriterLock { try body(true) }
    }

    // MARK: - Documents

    //
    // Paths inside the ledger never go through a symbolic link, for reading or for writing, at
    // any component below the root (see `FileSystem.Directory`): what is behind a link is not
    // part of the ledger, and writing into a linked folder is refused (exit status 1).

    /// The bytes of a document, or nil when it does not exist.
    package func read(_ relative: String) throws -> [UInt8]? {
        try read(relative, limit: Self.maximumDocumentBytes)
    }

    /// The bytes of a file of the ledger no larger than `limit` (an attachment's own limit),
    /// or nil when it does not exist.
    package func read(_ relative: String, limit: Int) throws -> [UInt8]? {
        try FileSystem.read(relative, under: root, limit: limit)
    }

    /// Writes a document in canonical form, atomically; refuses one larger than a document
    /// may be (`check` would reject it).
    package func write(_ relative: String, _ json: JSONValue) throws {
        let bytes = CanonicalJSON.encode(json)
        if bytes.count > Self.maximumDocumentBytes {
            throw LedgerError.invalid("refusing to write \(relative): it would be \(FileSystem.formatBytes(bytes.count)), larger than the \(FileSystem.formatBytes(Self.maximumDocumentBytes)) a ledger document may be")
        }
        try write(relative, bytes: bytes)
    }

    /// Writes a file of the ledger (a photo, a file checked out by a sync) atomically, as it is.
    package func write(_ relative: String, bytes: [UInt8], mode: mode_t = 0o644) throws {
        try FileSystem.writeAtomically(relative, under: root, bytes, mode: mode)
    }

    /// Deletes a file, and its shard directories when they become empty.
    package func remove(_ relative: String) throws {
        try FileSystem.remove(relative, under: root, keep: 1)
    }

    /// The first component of `relative` — a folder on its way or the file itself — that is
    /// a symbolic link, which ledger does not follow; nil when there is none.
    package func symbolicLink(on relative: String) -> String? {
        FileSystem.symbolicLink(on: relative, under: root)
    }

    /// Refuses (exit status 1, naming the link and what `check` says of it) when a file of
    /// `writing` is or lies behind a symbolic link, or one of `deleting` lies behind one (a
    /// link itself may be deleted): for writers of many files (a sync's checkout), so that
    /// nothing is written when one of them would be refused.
    package func refuseSymbolicLinks(writing: [String], deleting: [String] = []) throws {
        var clear: Set<String> = [""]  // directories with no link on their way
        for (path, itself) in writing.map({ ($0, true) }) + deleting.map({ ($0, false) }) {
            let directory = FileSystem.split(path).directory
            if !clear.contains(directory) {
                if let link = symbolicLink(on: directory) { throw FileSystem.linkRefusal(link, itself ? "write" : "delete", path) }
                clear.insert(directory)
            }
            if itself, FileSystem.stamp(absolute(path))?.type == .symlink { throw FileSystem.linkRefusal(path, "write", path, folder: false) }
        }
    }

    /// Reads, decodes and validates the document at `relative` as a `D`; nil when the file
    /// does not exist. An invalid document is refused with the problems `check` reports.
    package func load<D: StoredDocument>(_ type: D.Type, at relative: String) throws -> D? {
        guard let bytes = try read(relative) else { return nil }
        return try Self.decode(D.self, from: bytes, path: relative)
    }

    /// Decodes and validates a document's bytes; see `load(_:at:)`.
    package static func decode<D: StoredDocument>(_ type: D.Type, from bytes: [UInt8], path: String) throws -> D {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            var issue = DocumentIssue.error(.root, error.message)
            issue.line = error.line
            issue.column = error.column
            throw invalidDocument(path, [issue])
        }
        var issues: [DocumentIssue] = []
        let decoded = D.decode(json, at: .root, issues: &issues)
        if let decoded { issues += decoded.validate() }
        if let c = decoded?.asCollection {
            let name = FileSystem.stem(path)
            if c.id != name { issues.append(.error(.root.appending("id"), "the id \"\(c.id)\" does not match the file name \(name).json")) }
        }
        let errors = issues.filter { $0.severity == .error }
        guard let decoded, errors.isEmpty else { throw invalidDocument(path, errors) }
        return decoded
    }

    static func invalidDocument(_ path: String, _ issues: [DocumentIssue]) -> LedgerError {
        .invalid("\(path) is invalid; fix it by hand and \(next: .checkLedger):", problems: issues.map { Problem(path, $0) })
    }

    /// Validates, recomputes and writes a document (refusing invalid ones: ledger never writes
    /// a document `check` would reject). Internal, like the repositories' `save` and `delete`:
    /// outside LedgerKit documents change only through the apps' façades.
    func save<D: StoredDocument>(_ document: D, at relative: String) throws {
        let doc = document.recomputed
        let errors = doc.validate().filter { $0.severity == .error }
        if !errors.isEmpty {
            throw LedgerError.invalid("refusing to save \(relative):", problems: errors.map { Problem(relative, $0) })
        }
        try write(relative, doc.json)
    }

    /// The typed repository of a collection kind.
    package func repository<D: CollectionDocument>(_ type: D.Type) -> DocumentRepository<D> { DocumentRepository(store: self) }

    /// The typed repository of a singleton kind.
    package func singleton<D: SingletonDocument>(_ type: D.Type) -> SingletonRepository<D> { SingletonRepository(store: self) }
}

/// The documents of one collection kind: `load(id:)`, `all()`, and inside LedgerKit (for the
/// apps' façades) `save(_:)`, `delete(id:)`.
///
/// `D` is constrained by the extension, not the type, here and in `SingletonRepository` and
/// `Field`: a constraint on a generic type makes the runtime look the conformance up — a
/// scan of every conformance record in the binary, a tenth of a millisecond — the first time
/// it builds the type's metadata, which a quick command does for each of these types.
package struct DocumentRepository<D>: Sendable {
    package let store: LedgerStore
}

extension DocumentRepository where D: CollectionDocument {
    /// Where the documents are on disk.
    package var files: CollectionFiles { CollectionFiles(D.kind, in: store) }

    var directory: String { files.directory }

    /// Every document's id and relative path, in no particular order.
    package func index() throws -> [(id: String, path: String)] {
        try files.files().map { ($0.id, $0.path) }
    }

    /// The relative path of document `id`, or nil when there is none.
    package func path(of id: String) throws -> String? { try files.path(of: id) }

    /// Whether document `id` exists.
    package func contains(id: String) throws -> Bool { try path(of: id) != nil }

    /// Whether document `id` exists in the shard of `date` (anywhere, without a date or for
    /// a kind without shards): what a fresh id for a new document dated `date` must avoid.
    /// Ids are ten random base-36 characters, so the other shards — a `stat` each, hundreds
    /// over a long history — are not searched: a clash with one of them would take about
    /// 10^15 draws, and `check` reports duplicate ids.
    package func contains(id: String, inShardOf date: LocalDate?) throws -> Bool {
        guard let date, D.kind.shardDepth > 0 else { return try contains(id: id) }
        return FileSystem.stamp(D.kind.path(id: id, date: date), under: store.root)?.type == .file
    }

    /// Document `id`; throws `.notFound` when there is none and `.invalid` when it is invalid.
    package func load(id: String) throws -> D {
        guard let doc = try loadIfPresent(id: id) else {
            throw LedgerError.notFound("there is no \(D.kind.name.replacingOccurrences(of: ".", with: " ")) with id \"\(id)\"")
        }
        return doc
    }

    /// Document `id`, nil when there is none; throws `.invalid` when it is invalid.
    package func loadIfPresent(id: String) throws -> D? {
        guard let path = try path(of: id) else { return nil }
        return try store.load(D.self, at: path)
    }

    /// Every document; throws on the first invalid one.
    package func all() throws -> [D] {
        try load(index().map(\.path).sorted())
    }

    /// The documents at `paths` (relative), read and validated on the store's worker
    /// threads, in the order of `paths`: each a document, nil for a file removed meanwhile,
    /// or the error reading it gave. Each directory is walked (without following a link)
    /// once, and its files are opened relative to it. A file whose bytes `skip` (given its
    /// path and bytes) says the caller has no use for is not decoded (nil, as a file removed
    /// meanwhile).
    package func read(_ paths: [String], skip: (@Sendable (String, [UInt8]) -> Bool)? = nil) -> [Result<D?, any Error>] {
        let store = store
        // A few folders (a month's, a year's): a list, not a dictionary of them.
        var directories: [(path: String, opened: Result<FileSystem.Directory?, any Error>)] = []
        for path in paths {
            let dir = FileSystem.split(path).directory
            if !directories.contains(where: { $0.path == dir }) {
                directories.append((dir, Result { try FileSystem.walk(dir, under: store.root, create: false) }))
            }
        }
        let opened = directories
        return Parallel.map(paths, threads: store.readerThreads) { path in
            Result {
                let (dir, name) = FileSystem.split(path)
                let bytes: [UInt8]?
                switch opened.first(where: { $0.path == dir })!.opened {
                case .success(let d): bytes = try d?.read(name, limit: LedgerStore.maximumDocumentBytes)
                case .failure: bytes = try store.read(path)  // says why, as a single read does
                }
                guard let bytes, skip?(path, bytes) != true else { return nil }
                return try LedgerStore.decode(D.self, from: bytes, path: path)
            }
        }
    }

    /// The documents at `paths`, in their order; throws the first error in that order.
    package func load(_ paths: [String]) throws -> [D] {
        try readable(paths).get()
    }

    /// The documents at `paths` that are valid, in their order, and the refusals of those a
    /// hand edit made invalid — for a listing, which shows what it can and names the rest.
    /// Other errors (a file that cannot be read at all) are thrown.
    package func readable(_ paths: [String]) throws -> Readable<D> {
        var out = Readable<D>(documents: [], invalid: [])
        for result in read(paths) {
            do {
                if let d = try result.get() { out.documents.append(d) }
            } catch let e as LedgerError where e.code == .invalid {
                out.invalid.append(e)
            }
        }
        return out
    }

    /// Every document that is valid, and the refusals of the others (see `readable`).
    package func allReadable() throws -> Readable<D> {
        try readable(index().map(\.path).sorted())
    }

    /// The id that `reference` names: an exact id, or a unique prefix of one (like git's short
    /// hashes). `describe` names the kind in messages ("session", "brew log").
    package func resolve(_ reference: String, describe: String) throws -> String {
        let ref = reference.lowercased()
        if try path(of: ref) != nil { return ref }
        let matches = try index().map(\.id).filter { $0.hasPrefix(ref) }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw LedgerError.notFound("there is no \(describe) with id \"\(reference)\"")
        default:
            throw LedgerError.invalidArgument("\"\(reference)\" matches \(matches.count) \(describe)s (\(matches.sorted().prefix(4).joined(separator: ", "))…); give more characters")
        }
    }

    /// Validates, recomputes and writes `document` at its path, removing the copy at its old
    /// path when its shard changed (a session whose start moved to another year). The other
    /// shards are searched (a `stat` each) only when no file is at its path — never for a
    /// `new` document, which is refused when its path is taken, so that nothing is overwritten.
    /// Returns the paths it wrote or removed.
    @discardableResult
    func save(_ document: D, new: Bool = false) throws -> [String] {
        let target = document.path
        let there = FileSystem.stamp(target, under: store.root) != nil
        if new, there {
            throw LedgerError.failure("cannot write the new \(D.kind.name.replacingOccurrences(of: ".", with: " ")) \(target): a file is already there")
        }
        let old = new || there ? nil : try path(of: document.id)
        try store.save(document, at: target)
        guard let old, old != target else { return [target] }
        try store.remove(old)
        return [target, old]
    }

    /// Deletes document `id`; throws `.notFound` when there is none.
    func delete(id: String) throws {
        guard let path = try path(of: id) else {
            throw LedgerError.notFound("there is no \(D.kind.name.replacingOccurrences(of: ".", with: " ")) with id \"\(id)\"")
        }
        try store.remove(path)
    }
}

/// The one document of a singleton kind.
package struct SingletonRepository<D>: Sendable {
    package let store: LedgerStore
}

extension SingletonRepository where D: SingletonDocument {
    /// Whether the file exists.
    package var exists: Bool { FileSystem.stamp(D.kind.path(), under: store.root) != nil }

    /// The document, or `D.defaultValue` while its file does not exist; throws when invalid.
    package func load() throws -> D {
        try store.load(D.self, at: D.kind.path()) ?? D.defaultValue
    }

    /// Validates, recomputes and writes the document.
    func save(_ document: D) throws {
        try store.save(document, at: D.kind.path())
    }
}

/// Documents read for a listing: the valid ones, and the refusals of those a hand edit made
/// invalid (each names its file and problems).
public struct Readable<D: Sendable>: Sendable {
    public var documents: [D]
    public var invalid: [LedgerError]

    /// The documents, or the first refusal when there is one.
    public func get() throws -> [D] {
        if let first = invalid.first { throw first }
        return documents
    }
}
