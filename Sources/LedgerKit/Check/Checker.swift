import Dispatch
import Foundation

/// What `ledger check` found.
public struct CheckReport: Sendable {
    /// Every problem left, sorted by path.
    public var problems: [Problem]
    /// What `--fix` repaired.
    public var fixed: [Problem]
    /// Files looked at (documents, attachments and stray files).
    public var filesChecked: Int
    /// Files skipped because the check cache knew them to be clean.
    public var filesFromCache: Int
    /// Directories listed (the others' entries were known from the check cache).
    public var directoriesListed: Int

    public var errorCount: Int { problems.count { $0.severity == .error } }
    public var warningCount: Int { problems.count { $0.severity == .warning } }
}

/// Validates a whole ledger (or some of its files): SPEC §4.
///
/// Per file: JSON syntax with line:column, the kind's schema and domain rules, id versus
/// file name, shard directory, canonical formatting and stale derived values. Across files:
/// duplicate ids, dangling references and each app's cross-document rules. The tree is
/// walked in a fixed order while worker threads inspect its files in batches, a bounded
/// number at a time, and what must be remembered across files is small (a fixed-size filter
/// of the ids seen, one entry per document referred to), so memory does not grow with the
/// number of documents; the record of the last check lets a
/// revalidation after a hand edit stat each file once and list no unchanged directory.
public struct Checker: Sendable {
    let store: LedgerStore
    /// The kinds and rules to check against.
    package let schema: DocumentSchema
    /// Worker threads; defaults to the store's.
    public var threads: Int
    /// Whether to read and write the cache of clean files.
    public var useCache: Bool

    /// A checker of `store` against every app's kinds and rules.
    public init(store: LedgerStore, threads: Int? = nil, useCache: Bool = true) {
        self.init(store: store, schema: LedgerSchema.standard, threads: threads, useCache: useCache)
    }

    package init(store: LedgerStore, schema: DocumentSchema, threads: Int? = nil, useCache: Bool = true) {
        self.store = store
        self.schema = schema
        self.threads = max(1, threads ?? store.readerThreads)
        self.useCache = useCache
    }

    var cachePath: String { store.localState("check-cache") }

    /// Checks the whole ledger, or only the files at or under `scope` (paths relative to the
    /// root); with `fix`, rewrites what can be fixed without guessing, holding the writer
    /// lock for the whole check (so no write of another process comes between what it read
    /// and what it rewrites).
    ///
    /// A scoped check reads only the given files and directories. Its rules across documents
    /// look up what they need — the other shards for a duplicate id, the target of each
    /// reference — and judge the apps' rules (such as one active session) with the given
    /// documents and what the last full check recorded about the others.
    public func check(scope: [String]? = nil, fix: Bool = false) throws -> CheckReport {
        fix ? try store.withWriterLock { try check(scope, fix: true) } : try check(scope, fix: false)
    }

    private func check(_ scope: [String]?, fix: Bool) throws -> CheckReport {
        // The root among the paths ("." or the ledger's own path) means the whole ledger.
        let scope = scope.map { Set($0.map { Self.normalize($0) }) }.flatMap { $0.contains("") || $0.contains(".") ? nil : $0 }
        let targeted = scope != nil
        var run = Run(store: store, schema: schema, scope: scope, fix: fix, threads: threads,
                      cache: useCache && !targeted ? CheckCache.Reader(path: cachePath, schema: schema) : nil,
                      writer: useCache && !targeted ? CheckCache.Writer(path: cachePath, schema: schema) : nil)
        if targeted, let scope {
            run.targeted = true
            try visit(scope, with: &run)
            run.finish()
            if useCache {
                // What the last full check recorded about the files this one did not read.
                run.tagged += CheckCache.taggedFacts(path: cachePath, schema: schema, store: store) { !Run.inScope($0, scope) }
            }
        } else {
            // The root holds one document; the app directories hold the rest; anything else at
            // the top level (README, .git, scripts) is the user's business.
            if let manifest = FileSystem.stamp(store.absolute("ledger.json")) {
                let block = run.cache?.block(for: "") ?? CheckCache.Block()
                run.enqueue(.directory("", stamp: nil, subdirectories: [], listed: false))
                try run.process(dir: "", names: [("ledger.json", manifest.type)], block: block)
            } else {
                run.report(Problem("ledger.json", .error(.root, "is missing: this directory is not a ledger (\(next: .createLedger))" as LedgerError.Sentence)))
            }
            for dir in schema.appDirectories.sorted(by: { Bytes.precedes($0, $1) }) {
                try run.walk(dir)
            }
            run.finish()
        }
        if let scope = run.scope {
            for path in scope.sorted() where !run.seen.contains(path) && !run.scopeDirectories.contains(path) {
                if FileSystem.stamp(store.absolute(path)) == nil {
                    run.report(Problem(path, .error(.root, "no such file in the ledger")))
                } else if !path.contains("/") || !schema.appDirectories.contains(String(path.split(separator: "/")[0])) {
                    run.report(Problem(path, .warning(.root, "is not a ledger document (it is outside the apps' directories)")))
                } else {
                    run.report(Problem(path, .warning(.root, "is not a ledger document (hidden files and directories are ignored)")))
                }
            }
        }
        run.crossDocumentChecks()
        // The facts of every document are known to a full check, and to a scoped one from the record.
        if !targeted || useCache {
            for followUp in schema.checkFollowUps { followUp(run.tagged, store) }
        }
        // Rewrite the record only when it would change.
        if let writer = run.writer {
            if let cache = run.cache, !writer.changed, !cache.skippedBlocks, cache.atEnd, cache.entriesRead == writer.entriesWritten {
                writer.abandon()
            } else {
                writer.commit()
            }
        }
        let order = run.problems.enumerated().sorted { a, b in
            a.element.path == b.element.path ? a.offset < b.offset : Bytes.precedes(a.element.path, b.element.path)
        }.map(\.element)
        return CheckReport(problems: ProblemPositions.place(order, in: store), fixed: run.fixed, filesChecked: run.filesChecked, filesFromCache: run.filesFromCache,
                           directoriesListed: run.directoriesListed)
    }

    /// A scoped check's files: each directory walked, the files grouped by directory.
    private func visit(_ scope: Set<String>, with run: inout Run) throws {
        var files: [String: [(String, FileSystem.EntryType)]] = [:]
        for path in scope.sorted(by: { Bytes.precedes($0, $1) }) {
            let parts = path.split(separator: "/").map(String.init)
            // Hidden files and the top level (but for ledger.json) are not the ledger's.
            guard !parts.contains(where: { $0.hasPrefix(".") }), path == "ledger.json" || schema.appDirectories.contains(parts[0]) else { continue }
            // Nothing behind a symbolic link is read: the link is the problem (a linked file
            // is one of its folder's entries, reported as they are).
            if let link = store.symbolicLink(on: path), link != path || parts.count == 1 {
                if !run.problems.contains(where: { $0.path == link }) { run.problems.append(Problem(link, .error(.root, FileSystem.symbolicLinkProblem))) }
                run.seen.insert(path)
                continue
            }
            guard let stamp = FileSystem.stamp(store.absolute(path)), path == "ledger.json" || parts.count > 1 || stamp.type == .directory
            else { continue }
            if stamp.type == .directory, !path.hasSuffix(".json") {
                try run.walk(path)
            } else {
                files[parts.dropLast().joined(separator: "/"), default: []].append((parts.last!, stamp.type))
            }
        }
        for (dir, names) in files.sorted(by: { Bytes.precedes($0.key, $1.key) }) {
            try run.process(dir: dir, names: names)
        }
    }

    static func normalize(_ path: String) -> String {
        var p = path
        while p.hasSuffix("/") { p.removeLast() }
        if p.hasPrefix("./") { p.removeFirst(2) }
        return p
    }
}

/// The state of one check run.
private struct Run {
    let store: LedgerStore
    let schema: DocumentSchema
    let scope: Set<String>?
    let fix: Bool
    let threads: Int
    let cache: CheckCache.Reader?
    let writer: CheckCache.Writer?

    var problems: [Problem] = []
    var fixed: [Problem] = []
    var filesChecked = 0
    var filesFromCache = 0
    var directoriesListed = 0
    /// Paths of the scope that were seen, to report those that are not documents.
    var seen: Set<String> = []
    var scopeDirectories: Set<String> = []
    /// Hashes of (kind, id) of every collection document, and those seen twice.
    var ids = IDFilter()
    /// What `IDFilter.prefetch` read, kept so that the reads are not optimized away.
    var prefetched: UInt64 = 0
    var duplicateCandidates: [(kind: String, id: String)] = []
    /// Whether the targets of references exist, by `Run.hash` of their kind and id.
    var targets: [UInt64: Bool] = [:]
    /// References to documents that do not exist.
    var dangling: [Problem] = []
    /// Facts of documents carrying tags, for the apps' cross-document rules.
    var tagged: [DocumentFacts] = []
    /// Whether only some files are read (a scoped check), and the collection documents among them.
    var targeted = false
    var scopedDocuments: [(path: String, kind: String, id: String)] = []
    /// Collection kinds whose every document is in scope, by kind name.
    var wholeCollections: [String: Bool] = [:]
    /// A scoped check's lookups of documents by id, per collection kind.
    var lookups: [String: CollectionLookup] = [:]
    /// Directories entered and batches handed to the workers, not yet recorded, in walk order.
    var inFlight: [Pending] = []
    let workers: DispatchQueue

    init(store: LedgerStore, schema: DocumentSchema, scope: Set<String>?, fix: Bool, threads: Int, cache: CheckCache.Reader?,
         writer: CheckCache.Writer?) {
        self.store = store
        self.schema = schema
        self.scope = scope
        self.fix = fix
        self.threads = threads
        self.cache = cache
        self.writer = writer
        ids = IDFilter(expected: cache?.expectedEntries)
        // `--fix` moves documents between directories: "is the right place free? write it
        // there, remove the old one" must not run for two files at once, or two copies of
        // an id bound for the same place would both take it and one would be lost.
        workers = DispatchQueue(label: "ledger.check", attributes: threads > 1 && !fix ? .concurrent : [])
    }

    func inScope(_ path: String) -> Bool { Run.inScope(path, scope) }

    mutating func report(_ p: Problem) {
        if inScope(p.path) { problems.append(p) }
    }

    mutating func walk(_ dir: String) throws {
        let block = cache?.block(for: dir) ?? CheckCache.Block()
        // Opened without following a symbolic link; its files are read through it.
        let opened: FileSystem.Directory
        do {
            guard let d = try FileSystem.walk(dir, under: store.root, create: false) else { return }
            opened = d
        } catch FileSystem.Blocked.link(let link) {
            // An app folder that is a link (deeper ones are entries of their parent folder).
            report(Problem(link, .error(.root, FileSystem.symbolicLinkProblem)))
            return
        } catch is FileSystem.Blocked {
            return
        }
        let stamp = opened.stamp
        // The entries as recorded, when the directory has not changed since; else listed.
        var entries: [(String, FileSystem.EntryType)]
        let listed: Bool
        if let known = block.entries(ifUnchanged: stamp, racyThreshold: cache?.racyThreshold ?? .min) {
            entries = known
            listed = false
        } else {
            entries = try opened.list().compactMap { $0.name.hasPrefix(".") ? nil : ($0.name, $0.type) }
            listed = true
            directoriesListed += 1
        }
        if scope?.contains(dir) == true { scopeDirectories.insert(dir) }
        var files: [(String, FileSystem.EntryType)] = []
        var subdirs: [String] = []
        for e in entries {
            if e.1 == .directory, !e.0.hasSuffix(".json") { subdirs.append(e.0) } else { files.append(e) }
        }
        entries = []
        if writer != nil {
            // A name that does not fit on a line of the record means listing it every time.
            let trusted = files.allSatisfy { CheckCache.recordable($0.0) } && subdirs.allSatisfy(CheckCache.recordable)
            enqueue(.directory(dir, stamp: trusted ? stamp : nil, subdirectories: subdirs, listed: listed))
        }
        // Files need no order (problems are sorted at the end); directories are visited in
        // the record's order.
        try process(dir: dir, names: files, block: block, opened: opened)
        for s in subdirs.sorted(by: { Bytes.precedes($0, $1) }) {
            try walk(dir + "/" + s)
        }
    }

    /// Queues work to be recorded in walk order; a bounded number of batches are in flight,
    /// so memory stays flat and results are recorded while later batches are inspected.
    mutating func enqueue(_ item: Pending) {
        if inFlight.count >= Batch.window { record(inFlight.removeFirst()) }
        inFlight.append(item)
    }

    /// Hands one directory's files to the workers, in batches; their results are recorded
    /// in walk order by `record`, while the walk goes on listing the next directories.
    mutating func process(dir: String, names: [(String, FileSystem.EntryType)], block: CheckCache.Block = .init(),
                          opened: FileSystem.Directory? = nil) throws {
        guard !names.isEmpty else { return }
        // The kind whose documents this directory holds, if any: one classification per
        // directory, so each file needs only a look at its name.
        var collection: DocumentType?
        if !dir.isEmpty, case .document(let t, _) = FileRole.classify(dir + "/x.json", type: .file, in: self.schema) {
            collection = t
        }
        let directory = Directory(path: dir, store: store, collection: collection, opened: opened)
        let store = store, schema = schema, fix = fix, scope = scope, racy = cache?.racyThreshold ?? .min
        var start = 0
        while start < names.count {
            let batch = Batch(directory: directory, names: names[start..<min(names.count, start + Batch.size)], block: block)
            start += Batch.size
            enqueue(.batch(batch))
            workers.async {
                // The record lists a directory's files in the order they were listed last time.
                var lookup = CheckCache.Lookup(batch.block, from: batch.names.startIndex)
                batch.results = batch.names.map { name, type in
                    let item = Item(name: name, type: type, directory: directory)
                    let line = lookup.line(for: name)
                    var result = Run.inspect(item, cached: line, in: batch.block, store: store, schema: schema,
                                             fix: fix && (scope == nil || Run.inScope(item.path, scope)), racyThreshold: racy)
                    result.wasRecorded = line != nil
                    return result
                }
                batch.done.signal()
            }
        }
    }

    /// Waits for every batch handed to the workers and records its results.
    mutating func finish() {
        for item in inFlight { record(item) }
        inFlight = []
    }

    /// Records a directory's entry in the record of clean files, or a batch's results once
    /// its worker is done.
    mutating func record(_ item: Pending) {
        switch item {
        case .directory(let dir, let stamp, let subdirectories, let listed):
            writer?.enter(dir, stamp: stamp)
            for s in subdirectories { writer?.addOther(name: s, type: .directory) }
            if listed { writer?.noteChange() }
        case .batch(let batch):
            record(batch)
        }
    }

    mutating func record(_ batch: Batch) {
        batch.done.wait()
        prefetched ^= ids.prefetch(batch.results.lazy.map(\.idHash))
        for (i, (name, type)) in zip(batch.results.indices, batch.names) {
            let result = batch.results[i]
            filesChecked += 1
            if result.cachedLine != nil { filesFromCache += 1 }
            if result.idHash != 0, ids.insert(result.idHash),
               let named = Run.kindAndID(of: Item(name: name, type: type, directory: batch.directory), in: schema) {
                duplicateCandidates.append(named)
            }
            if let stamp = result.cacheStamp {
                if let line = result.cachedLine {
                    writer?.add(line: batch.block[line])
                } else {
                    writer?.add(name: name, entry: .init(stamp: stamp, tags: result.details?.tags ?? [],
                                                         references: result.details?.references ?? []))
                }
            } else {
                writer?.addOther(name: name, type: type)
                if result.wasRecorded { writer?.noteChange() }
            }
            // The rest concerns files with something to say.
            guard result.details != nil || scope != nil else { continue }
            let item = Item(name: name, type: type, directory: batch.directory)
            let path = item.path
            if scope?.contains(path) == true { seen.insert(path) }
            // A document may have a duplicate among the files a scoped check does not read,
            // unless they are all read (its whole collection is in scope).
            if targeted, result.idHash != 0, let named = Run.kindAndID(of: item, in: schema), !readsWholeCollection(named.kind) {
                scopedDocuments.append((path, named.kind, named.id))
            }
            guard let d = result.details else { continue }
            // A file `--fix` moved is named by its new path from here on.
            let now = d.movedTo ?? path
            if inScope(path) { problems += d.issues.map { Problem(now, $0) } }
            for issue in d.fixed where inScope(path) { fixed.append(Problem(path, issue)) }
            for r in d.references where !exists(r) { dangling.append(Problem(now, Run.dangling(r))) }
            if !d.tags.isEmpty, let kind = d.kindName {
                tagged.append(DocumentFacts(path: now, kind: kind, id: d.id, references: d.references, tags: d.tags))
            }
        }
    }

    static func inScope(_ path: String, _ scope: Set<String>?) -> Bool {
        guard let scope else { return true }
        if scope.contains(path) || scope.contains("") || scope.contains(".") { return true }
        var p = path
        while let slash = p.lastIndex(of: "/") {
            p = String(p[..<slash])
            if scope.contains(p) { return true }
        }
        return false
    }

    /// FNV-1a of a kind name followed by a separator: the seed of `hash(seed:id:)`.
    static func seed(_ kind: String) -> UInt64 { FNV1a.hash(CollectionOfOne(0xFF), from: FNV1a.hash(kind.utf8)) }

    /// The hash identifying (kind, id) among all documents, for duplicate ids and references.
    static func hash(seed: UInt64, id: some Sequence<UInt8>) -> UInt64 {
        let h = FNV1a.hash(id, from: seed)
        return h == 0 ? 1 : h
    }

    static func hash(_ kind: String, _ id: String) -> UInt64 { hash(seed: seed(kind), id: id.utf8) }

    /// The kind name and id a file would be known by (collection documents and attachments).
    static func kindAndID(of item: Item, in schema: DocumentSchema) -> (kind: String, id: String)? {
        switch FileRole.classify(item.path, type: item.type, in: schema) {
        case .document(let t, let id?): (t.kind.name, id)
        case .attachment(let a): (a.name, item.name)
        default: nil
        }
    }

    // MARK: - One file

    /// A directory being checked: its path, the directory opened without following a
    /// symbolic link (nil when it cannot be: a link replaced it meanwhile), through which its
    /// files are stamped and read, and the collection whose shard it is (if it is one).
    final class Directory: Sendable {
        let path: String
        let opened: FileSystem.Directory?
        let collection: DocumentType?
        /// `Run.seed` of the collection's kind.
        let seed: UInt64

        init(path: String, store: LedgerStore, collection: DocumentType?, opened: FileSystem.Directory?) {
            self.path = path
            self.collection = collection
            seed = collection.map { Run.seed($0.kind.name) } ?? 0
            self.opened = opened ?? (try? FileSystem.walk(path, under: store.root, create: false)) ?? nil
        }

        /// The contents of its file `name`, never through a symbolic link.
        func read(_ name: String, store: LedgerStore, limit: Int) throws -> [UInt8]? {
            if let opened { return try opened.read(name, limit: limit) }
            return try store.read(path.isEmpty ? name : path + "/" + name, limit: limit)
        }
    }

    /// Work recorded in walk order.
    enum Pending {
        /// A directory entered: its stamp when its entries may be trusted next time, its
        /// subdirectories, and whether it was listed (rather than known from the record).
        case directory(String, stamp: FileSystem.Stamp?, subdirectories: [String], listed: Bool)
        case batch(Batch)
    }

    /// Up to `size` files of one directory, inspected together by one worker.
    final class Batch: @unchecked Sendable {
        // @unchecked: `results` is written by the one worker that inspects the batch, then
        // read after `done` is signalled.
        static let size = 128
        /// Batches in flight at most.
        static let window = 64
        let directory: Directory
        let names: ArraySlice<(String, FileSystem.EntryType)>
        /// The directory's lines in the record of clean files.
        let block: CheckCache.Block
        var results: [Result] = []
        let done = DispatchSemaphore(value: 0)

        init(directory: Directory, names: ArraySlice<(String, FileSystem.EntryType)>, block: CheckCache.Block) {
            self.directory = directory
            self.names = names
            self.block = block
        }
    }

    struct Item {
        var name: String
        var type: FileSystem.EntryType
        var directory: Directory
        /// The path relative to the ledger root.
        var path: String { directory.path.isEmpty ? name : directory.path + "/" + name }
    }

    /// What one file contributes. Small, because most files are clean and trusted from the
    /// cache; anything more is in `details`.
    struct Result: Sendable {
        /// `Run.hash` of the file's kind and id (collection documents, attachments), else 0.
        var idHash: UInt64 = 0
        /// Set when the file is clean and may be remembered as such.
        var cacheStamp: FileSystem.Stamp?
        /// The index of the cache's line in the directory's block, when the file was trusted from it.
        var cachedLine: Int?
        /// Whether the cache had a line for the file (trusted or not).
        var wasRecorded = false
        var details: Details?
    }

    /// Problems, fixes and facts of one file.
    final class Details: @unchecked Sendable {
        // @unchecked: filled by the one worker that inspects the file, read after the workers.
        var issues: [DocumentIssue] = []
        var fixed: [DocumentIssue] = []
        var references: [DocumentReference] = []
        var tags: [String] = []
        var kindName: String?
        var id: String?
        /// Where `--fix` moved the file.
        var movedTo: String?
    }

    static func inspect(_ item: Item, cached lineIndex: Int?, in block: CheckCache.Block, store: LedgerStore, schema: DocumentSchema, fix: Bool,
                        racyThreshold: Int64) -> Result {
        var result = Result()
        // Fast path: a `<id>.json` in a collection's shard directory.
        let collection = item.type == .file ? item.directory.collection : nil
        let fastIDLength = collection == nil ? nil : FileRole.documentIDLength(inName: item.name)
        if let n = fastIDLength { result.idHash = hash(seed: item.directory.seed, id: item.name.utf8.prefix(n)) }
        // The id as a string, made only when needed (not for a file trusted from the record).
        func fastID() -> String? { fastIDLength.map { String(item.name.utf8.prefix($0))! } }
        // Clean last time and untouched since: trust it.
        let stamp = item.directory.opened?.stamp(item.name)
        if let lineIndex, let stamp, !fix, let cached = CheckCache.parse(block[lineIndex]),
           cached.stamp.vouches(for: stamp, racyThreshold: racyThreshold) {
            result.cacheStamp = stamp
            result.cachedLine = lineIndex
            if fastIDLength == nil, let (kind, id) = kindAndID(of: item, in: schema) { result.idHash = hash(kind, id) }
            if !cached.tags.isEmpty || !cached.references.isEmpty {
                let d = Details()
                d.references = cached.references
                d.tags = cached.tags
                if case .document(let t, let id) = fastIDLength != nil ? .document(collection!, id: fastID()!)
                    : FileRole.classify(item.path, type: item.type, in: schema) {
                    d.kindName = t.kind.name
                    d.id = id
                }
                result.details = d
            }
            return result
        }
        let role = fastID().map { .document(collection!, id: $0) }
            ?? FileRole.classify(item.path, type: item.type, in: schema)
        let d = Details()
        switch role {
        case .stray(let issue):
            d.issues = [issue]
        case .conflict(let original):
            d.issues = [.error(.root, "unresolved sync conflict: this is the other machine's version of \(original), kept because the two could not be merged; compare them, keep what you want in \(original), then delete this file")]
        case .attachment(let a):
            result.idHash = hash(a.name, item.name)
            do {
                if let size = stamp?.size, size > a.maximumBytes {
                    d.issues = [.error(.root, "is \(FileSystem.formatBytes(Int(size))), larger than the \(FileSystem.formatBytes(a.maximumBytes)) \(a.directory) accepts")]
                } else if let bytes = try item.directory.read(item.name, store: store, limit: a.maximumBytes) {
                    d.issues = a.inspect(item.name, bytes)
                }
            } catch {
                d.issues = [.error(.root, Run.describe(error, item.path))]
            }
        case .document(let t, let fileID):
            if let fileID { result.idHash = hash(t.kind.name, fileID) }
            d.kindName = t.kind.name
            d.id = fileID
            inspectDocument(item, t, fileID, store: store, schema: schema, fix: fix, into: d)
        }
        if d.issues.isEmpty, let stamp { result.cacheStamp = stamp }
        if !d.issues.isEmpty || !d.fixed.isEmpty || !d.references.isEmpty || !d.tags.isEmpty { result.details = d }
        return result
    }

    static func describe(_ error: Error, _ path: String) -> String {
        var m = (error as? LedgerError)?.message ?? "\(error)"
        if m.hasPrefix(path + " ") { m.removeFirst(path.count + 1) }
        return m
    }

    static func inspectDocument(_ item: Item, _ type: DocumentType, _ fileID: String?, store: LedgerStore, schema: DocumentSchema,
                                fix: Bool, into result: Details) {
        let path = item.path
        let bytes: [UInt8]
        do {
            guard let b = try item.directory.read(item.name, store: store, limit: LedgerStore.maximumDocumentBytes) else { return }
            bytes = b
        } catch {
            result.issues = [.error(.root, describe(error, path))]
            return
        }
        var issues: [DocumentIssue] = []
        var body = bytes[...]
        if let bom = JSONSyntaxError.byteOrderMark(bytes) {
            issues.append(DocumentIssue(syntax: bom, fixable: true))
            body = bytes.dropFirst(3)
        }
        let json: JSONValue
        do {
            json = try body.withUnsafeBytes { try JSONParser.parse($0) }
        } catch let e as JSONSyntaxError {
            result.issues = issues.filter { !$0.fixable } + [DocumentIssue(syntax: e)]
            return
        } catch {
            result.issues = [.error(.root, "\(error)")]
            return
        }
        let inspection = type.inspect(json)
        if inspection.issues.contains(where: { $0.severity == .error }),
           let (other, place) = anotherKind(of: json, not: type, fileID: fileID, in: schema) {
            // A document moved into another app's folder: where it belongs, not a wall of
            // "required field is missing" and "unknown field".
            let taken = FileSystem.stamp(place, under: store.root) != nil
            result.issues = issues + [.error(.root, "holds the fields of a \(other.title), not of a \(type.title); move it to \(place)"
                + (taken ? ", where another file already is: compare the two" : ""))]
            return
        }
        issues += inspection.issues
        if let fileID, let id = inspection.id, id != fileID {
            issues.append(.error(.root.appending("id"), "the id \"\(id)\" does not match the file name \(fileID).json"))
        }
        var destination = path
        if let fileID, inspection.normalized != nil, type.kind.shardDepth > 0, let date = inspection.shardDate {
            let expected = type.kind.path(id: fileID, date: date)
            if expected != path {
                let free = FileSystem.stamp(expected, under: store.root) == nil
                issues.append(.warning(.root, "is in the wrong directory: by its date it belongs at \(expected)"
                    + (free ? "" : ", where another file already is"), fixable: free))
                if free { destination = expected }
            }
        }
        if !Bytes.equal(body, CanonicalJSON.encode(json)) {
            issues.append(.warning(.root, "is not in canonical format (sorted keys, 2-space indentation, one array element per line, final newline)", fixable: true))
        }
        // What `--fix` would write, which must not be a file `check` rejects: a document with
        // an error is left as it is (its formatting, BOM and folder too, as its stale derived
        // values are), and a document written compactly may grow past the size limit in
        // canonical form.
        if issues.contains(where: { $0.severity == .error && !$0.fixable }) {
            issues = Self.leftAsTheyAre(issues, because: "not fixed while this file has an error: `--fix` writes only files `check` accepts")
        }
        let target = issues.contains(where: \.fixable) ? CanonicalJSON.encode(inspection.normalized ?? json) : nil
        if let target, target.count > LedgerStore.maximumDocumentBytes {
            issues = Self.leftAsTheyAre(issues)
            issues.append(.warning(.root, "cannot be fixed: rewritten as ledger writes documents it would be \(FileSystem.formatBytes(target.count)), "
                + "larger than the \(FileSystem.formatBytes(LedgerStore.maximumDocumentBytes)) a ledger document may be, so \(next: .fixByHand)" as LedgerError.Sentence))
        } else if fix, let target {
            do {
                if destination != path || !bytes.elementsEqual(target) {
                    try store.write(destination, bytes: target)
                    if destination != path {
                        try store.remove(path)
                        result.movedTo = destination
                    }
                }
                result.fixed = issues.filter(\.fixable)
                issues = issues.filter { !$0.fixable }
            } catch {
                issues.append(.error(.root, "could not be fixed: " + describe(error, path)))
            }
        }
        result.issues = issues
        result.references = inspection.references
        result.tags = inspection.tags
        if result.id == nil { result.id = inspection.id }
    }

    /// The kind `json` is a document of, when it is not `type` (which it breaks, with fields
    /// `type` does not know) but another whose fields it has exactly — none missing, none
    /// unknown — with the path it belongs at (by its own id, else the file's, and its date).
    static func anotherKind(of json: JSONValue, not type: DocumentType, fileID: String?,
                            in schema: DocumentSchema) -> (DocumentType, String)? {
        let known = type.jsonSchema["properties"]?.objectValue
        guard let members = json.objectValue?.members, members.contains(where: { known?[$0.key] == nil }) else { return nil }
        for other in schema.documentTypes where other.kind.name != type.kind.name && other.fieldIssues(json).isEmpty {
            let inspection = other.inspect(json)
            return (other, other.kind.path(id: inspection.id ?? fileID, date: inspection.shardDate))
        }
        return nil
    }

    /// `issues` with none left for `--fix` to mend, each that was saying why, when `why` is
    /// given (otherwise a problem of its own says it).
    static func leftAsTheyAre(_ issues: [DocumentIssue], because why: String? = nil) -> [DocumentIssue] {
        issues.map { i in
            guard i.fixable else { return i }
            var left = i
            left.fixable = false
            if let why { left.sentence = i.sentence + " (\(why))" }
            return left
        }
    }

    // MARK: - Across documents

    mutating func crossDocumentChecks() {
        // Only some files were read: each of them may have a duplicate elsewhere.
        if targeted { duplicateCandidates += scopedDocuments.map { ($0.kind, $0.id) } }
        var asked: Set<String> = []
        for (kind, id) in duplicateCandidates where asked.insert(kind + "\u{0}" + id).inserted {
            let found = paths(of: id, kind: kind)
            guard found.count > 1 else { continue }
            for p in found {
                let others = found.filter { $0 != p }.joined(separator: ", ")
                report(Problem(p, .error(.root.appending("id"), "duplicate id \"\(id)\": also used by \(others)")))
            }
        }
        for p in dangling { report(p) }
        for rule in schema.crossDocumentRules {
            for p in rule.check(tagged) { report(p) }
        }
    }

    /// Whether every document of the collection `kind` is in scope (and so read by this check).
    mutating func readsWholeCollection(_ kind: String) -> Bool {
        if let known = wholeCollections[kind] { return known }
        var whole = false
        if case .collection(let dir, _)? = schema.collectionsByKind[kind]?.kind.location { whole = inScope(dir) }
        wholeCollections[kind] = whole
        return whole
    }

    /// Whether the target of a reference exists (a document of a collection, or an attachment),
    /// looked up once per target: many documents refer to the same few.
    mutating func exists(_ ref: DocumentReference) -> Bool {
        let key = Run.hash(ref.kind, ref.id)
        if let known = targets[key] { return known }
        let found: Bool
        if schema.collectionsByKind[ref.kind] != nil {
            found = !paths(of: ref.id, kind: ref.kind).isEmpty
        } else if let a = schema.attachmentTypes.first(where: { $0.name == ref.kind }) {
            found = FileSystem.stamp(a.directory + "/" + ref.id, under: store.root)?.type == .file
        } else {
            found = true
        }
        targets[key] = found
        return found
    }

    static func dangling(_ ref: DocumentReference) -> DocumentIssue {
        .warning(ref.pointer, "refers to the \(ref.kind.replacingOccurrences(of: ".", with: " ")) \"\(ref.id)\", which does not exist")
    }

    /// Every file of the collection `kind` named `id`, in any shard.
    mutating func paths(of id: String, kind: String) -> [String] {
        guard let t = schema.collectionsByKind[kind] else { return [] }
        if let lookup = lookups[kind] { return lookup.paths(of: id) }
        let lookup = CollectionLookup(t, store: store)
        lookups[kind] = lookup
        return lookup.paths(of: id)
    }
}

/// Where a scoped check finds the documents of one collection named by id: its shard
/// directories are listed once; a few ids are looked for in each, and once many have been
/// asked for, every name in them is indexed (one listing instead of a stat per id and shard).
private final class CollectionLookup {
    static let indexAfter = 32
    private let files: CollectionFiles
    private let shards: [String]
    private var asked = 0
    private var byID: [String: [String]]?

    /// Only what a check counts as a document of the kind (`CollectionFiles`).
    init(_ type: DocumentType, store: LedgerStore) {
        files = CollectionFiles(type.kind, in: store)
        shards = (try? files.shards()) ?? []
    }

    func paths(of id: String) -> [String] {
        asked += 1
        if byID == nil, asked > Self.indexAfter { byID = index() }
        if let byID { return byID[id] ?? [] }
        return shards.map { $0 + "/" + id + ".json" }.filter { FileSystem.stamp($0, under: files.store.root)?.type == .file }.sorted()
    }

    private func index() -> [String: [String]] {
        var out: [String: [String]] = [:]
        for shard in shards {
            for file in (try? files.files(in: shard)) ?? [] { out[file.id, default: []].append(file.path) }
        }
        return out.mapValues { $0.sorted() }
    }
}
