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

    public var errorCount: Int { problems.count { $0.severity == .error } }
    public var warningCount: Int { problems.count { $0.severity == .warning } }
}

/// Validates a whole ledger (or some of its files): SPEC §4.
///
/// Per file: JSON syntax with line:column, the kind's schema and domain rules, id versus
/// file name, shard directory, canonical formatting and stale derived values. Across files:
/// duplicate ids, dangling references and each app's cross-document rules. The tree is
/// walked one directory at a time in a fixed order and each directory's files are inspected
/// on all cores, so memory does not grow with the number of documents; a cache of
/// known-clean files makes a revalidation after a hand edit cost little more than a
/// directory walk.
public struct Checker: Sendable {
    public let store: LedgerStore
    /// The kinds and rules to check against.
    public let schema: Schema
    /// Worker threads; defaults to the number of cores.
    public var threads: Int
    /// Whether to read and write the cache of clean files.
    public var useCache: Bool

    public init(store: LedgerStore, schema: Schema = LedgerSchema.standard,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount, useCache: Bool = true) {
        self.store = store
        self.schema = schema
        self.threads = max(1, threads)
        self.useCache = useCache
    }

    var cachePath: String { store.localStateDirectory + "/check-cache" }

    /// Checks the whole ledger, or only the files at or under `scope` (paths relative to the
    /// root); with `fix`, rewrites what can be fixed without guessing.
    public func check(scope: [String]? = nil, fix: Bool = false) throws -> CheckReport {
        var run = Run(store: store, schema: schema, scope: scope.map { Set($0.map { Self.normalize($0) }) }, fix: fix,
                      threads: threads,
                      cache: useCache ? CheckCache.Reader(path: cachePath, schema: schema) : nil,
                      writer: useCache ? CheckCache.Writer(path: cachePath, schema: schema) : nil)
        // The root holds one document; the app directories hold the rest; anything else at
        // the top level (README, .git, scripts) is the user's business.
        if let manifest = FileSystem.stamp(store.absolute("ledger.json")) {
            try run.process(dir: "", names: [("ledger.json", manifest.type)])
        } else {
            run.report(Problem("ledger.json", .error(.root, "is missing: this directory is not a ledger (run `ledger init`)")))
        }
        for dir in schema.appDirectories.sorted(by: { Bytes.precedes($0, $1) }) {
            try run.walk(dir)
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
        return CheckReport(problems: order, fixed: run.fixed, filesChecked: run.filesChecked, filesFromCache: run.filesFromCache)
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
    let schema: Schema
    let scope: Set<String>?
    let fix: Bool
    let threads: Int
    let cache: CheckCache.Reader?
    let writer: CheckCache.Writer?

    var problems: [Problem] = []
    var fixed: [Problem] = []
    var filesChecked = 0
    var filesFromCache = 0
    /// Paths in scope that were seen, to report scope paths that are not documents.
    var seen: Set<String> = []
    var scopeDirectories: Set<String> = []
    /// Hashes of (kind, id) of every collection document, and those seen twice.
    var ids: Set<UInt64> = []
    var duplicateCandidates: [(kind: String, id: String)] = []
    /// References, for the dangling-reference check.
    var references: [(path: String, reference: DocumentReference)] = []
    /// Facts of documents carrying tags, for the apps' cross-document rules.
    var tagged: [DocumentFacts] = []

    init(store: LedgerStore, schema: Schema, scope: Set<String>?, fix: Bool, threads: Int, cache: CheckCache.Reader?,
         writer: CheckCache.Writer?) {
        self.store = store
        self.schema = schema
        self.scope = scope
        self.fix = fix
        self.threads = threads
        self.cache = cache
        self.writer = writer
    }

    func inScope(_ path: String) -> Bool { Run.inScope(path, scope) }

    mutating func report(_ p: Problem) {
        if inScope(p.path) { problems.append(p) }
    }

    mutating func walk(_ dir: String) throws {
        guard let entries = try FileSystem.list(store.absolute(dir)) else { return }
        if scope?.contains(dir) == true { scopeDirectories.insert(dir) }
        var files: [(String, FileSystem.EntryType)] = []
        var subdirs: [String] = []
        for e in entries where !e.name.hasPrefix(".") {
            if e.type == .directory, !e.name.hasSuffix(".json") { subdirs.append(e.name) } else { files.append((e.name, e.type)) }
        }
        // Files need no order (the cache's block for a directory is looked up by name, and
        // problems are sorted at the end); directories are visited in the cache's order.
        try process(dir: dir, names: files)
        for s in subdirs.sorted(by: { Bytes.precedes($0, $1) }) {
            try walk(dir + "/" + s)
        }
    }

    /// Inspects one directory's files on all cores, then records the results in order.
    mutating func process(dir: String, names: [(String, FileSystem.EntryType)]) throws {
        guard !names.isEmpty else { return }
        let block = cache?.block(for: dir) ?? CheckCache.Block()
        let racy = cache?.racyThreshold ?? .min
        // The kind whose documents this directory holds, if any: one classification per
        // directory, so each file needs only a look at its name.
        var collection: DocumentType?
        if !dir.isEmpty, case .document(let t, _) = FileRole.classify(dir + "/x.json", type: .file, in: self.schema) {
            collection = t
        }
        let directory = Directory(path: dir, store: store, collection: collection)
        defer { directory.close() }
        let results = Results(count: names.count)
        let store = store, fix = fix, scope = scope, schema = schema
        let workers = names.count >= 16 ? threads : 1
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var i = worker
            while i < names.count {
                let item = Item(name: names[i].0, type: names[i].1, directory: directory)
                results.set(i, Run.inspect(item, cached: block.entry(item.name), store: store, schema: schema,
                                           fix: fix && (scope == nil || Run.inScope(item.path, scope)), racyThreshold: racy))
                i += workers
            }
        }
        for (i, result) in results.values.enumerated() {
            let item = Item(name: names[i].0, type: names[i].1, directory: directory)
            filesChecked += 1
            if result.fromCache { filesFromCache += 1 }
            if let kind = result.collectionKind, let id = result.id {
                if !ids.insert(Run.hash(kind, id)).inserted { duplicateCandidates.append((kind, id)) }
            }
            if let stamp = result.cacheStamp {
                writer?.add(dir: dir, name: item.name, entry: result.cached ?? .init(stamp: stamp, tags: result.tags, references: result.references),
                            unchanged: result.cached != nil)
            }
            // The rest concerns files with something to say.
            guard !result.issues.isEmpty || !result.fixed.isEmpty || !result.references.isEmpty || !result.tags.isEmpty || scope != nil
            else { continue }
            let path = item.path
            if scope != nil, inScope(path) { seen.insert(path) }
            for issue in result.issues { report(Problem(path, issue)) }
            for issue in result.fixed where inScope(path) { fixed.append(Problem(path, issue)) }
            for r in result.references { references.append((path, r)) }
            if !result.tags.isEmpty, let kind = result.kindName {
                tagged.append(DocumentFacts(path: path, kind: kind, id: result.id, references: result.references, tags: result.tags))
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

    static func hash(_ kind: String, _ id: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in kind.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        h = (h ^ 0xFF) &* 0x0000_0100_0000_01B3
        for b in id.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    // MARK: - One file

    /// A directory being checked: its path, an open descriptor for `fstatat`, and the
    /// collection whose shard it is (if it is one).
    final class Directory: @unchecked Sendable {
        // @unchecked: immutable after init; the descriptor is closed once, after the workers.
        let path: String
        let fd: Int32
        let collection: DocumentType?

        init(path: String, store: LedgerStore, collection: DocumentType?) {
            self.path = path
            self.collection = collection
            fd = open(path.isEmpty ? store.root : store.absolute(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }

        func close() { if fd >= 0 { _ = Foundation.close(fd) } }
    }

    struct Item {
        var name: String
        var type: FileSystem.EntryType
        var directory: Directory
        /// The path relative to the ledger root.
        var path: String { directory.path.isEmpty ? name : directory.path + "/" + name }
    }

    struct Result: Sendable {
        var issues: [Issue] = []
        var fixed: [Issue] = []
        var kindName: String?
        var collectionKind: String?
        var id: String?
        var references: [DocumentReference] = []
        var tags: [String] = []
        /// Set when the file is clean and may be remembered as such.
        var cacheStamp: FileSystem.Stamp?
        var fromCache = false
        /// The cache's entry, when the file was trusted from it.
        var cached: CheckCache.Entry?
    }

    static func inspect(_ item: Item, cached: CheckCache.Entry?, store: LedgerStore, schema: Schema, fix: Bool,
                        racyThreshold: Int64) -> Result {
        let role = FileRole.classify(name: item.name, type: item.type, in: item.directory.collection)
            ?? FileRole.classify(item.path, type: item.type, in: schema)
        var result = Result()
        if case .document(let t, let id) = role {
            result.kindName = t.kind.name
            if id != nil { result.collectionKind = t.kind.name; result.id = id }
        }
        // Attachments are referred to by file name, as documents are by id.
        if case .attachment(let a) = role { result.collectionKind = a.name; result.id = item.name }
        // Clean last time and untouched since: trust it.
        let stamp = item.directory.fd >= 0 ? FileSystem.stamp(in: item.directory.fd, item.name) : FileSystem.stamp(store.absolute(item.path))
        if let cached, let stamp, !fix, cached.stamp.size == stamp.size,
           cached.stamp.modifiedNanoseconds == stamp.modifiedNanoseconds,
           cached.stamp.changedNanoseconds == stamp.changedNanoseconds, cached.stamp.inode == stamp.inode,
           stamp.modifiedNanoseconds < racyThreshold {
            result.references = cached.references
            result.tags = cached.tags
            result.cacheStamp = stamp
            result.fromCache = true
            result.cached = cached
            return result
        }
        switch role {
        case .stray(let issue):
            result.issues = [issue]
        case .conflict(let original):
            result.issues = [.error(.root, "unresolved sync conflict: this is the other machine's version of \(original), kept because the two could not be merged; compare them, keep what you want in \(original), then delete this file")]
        case .attachment(let a):
            do {
                if let size = stamp?.size, size > a.maximumBytes {
                    result.issues = [.error(.root, "is \(FileSystem.formatBytes(Int(size))), larger than the \(FileSystem.formatBytes(a.maximumBytes)) \(a.directory) accepts")]
                } else if let bytes = try FileSystem.read(store.absolute(item.path), limit: a.maximumBytes) {
                    result.issues = a.inspect(item.name, bytes)
                }
            } catch {
                result.issues = [.error(.root, Run.describe(error, item.path))]
            }
        case .document(let t, let fileID):
            inspectDocument(item.path, t, fileID, store: store, fix: fix, into: &result)
        }
        if result.issues.isEmpty, let stamp {
            result.cacheStamp = stamp
        }
        return result
    }

    static func describe(_ error: Error, _ path: String) -> String {
        var m = (error as? LedgerError)?.message ?? "\(error)"
        if m.hasPrefix(path + " ") { m.removeFirst(path.count + 1) }
        return m
    }

    static func inspectDocument(_ path: String, _ type: DocumentType, _ fileID: String?, store: LedgerStore, fix: Bool,
                                into result: inout Result) {
        let bytes: [UInt8]
        do {
            guard let b = try store.read(path) else { return }
            bytes = b
        } catch {
            result.issues = [.error(.root, describe(error, path))]
            return
        }
        var issues: [Issue] = []
        var body = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            issues.append(.error(.root, "starts with a UTF-8 byte order mark (BOM), which JSON does not allow", fixable: true))
            body = bytes.dropFirst(3)
        }
        let json: JSONValue
        do {
            json = try body.withUnsafeBytes { try JSONParser.parse($0) }
        } catch let e as JSONSyntaxError {
            var issue = Issue.error(.root, e.message)
            issue.line = e.line
            issue.column = e.column
            result.issues = issues.filter { !$0.fixable } + [issue]
            return
        } catch {
            result.issues = [.error(.root, "\(error)")]
            return
        }
        let inspection = type.inspect(json)
        issues += inspection.issues
        if let fileID, let id = inspection.id, id != fileID {
            issues.append(.error(.root.appending("id"), "the id \"\(id)\" does not match the file name \(fileID).json"))
        }
        var destination = path
        if let fileID, inspection.normalized != nil, type.kind.shardDepth > 0, let date = inspection.shardDate {
            let expected = type.kind.path(id: fileID, date: date)
            if expected != path {
                let free = !FileSystem.exists(store.absolute(expected))
                issues.append(.warning(.root, "is in the wrong directory: by its date it belongs at \(expected)"
                    + (free ? "" : ", where another file already is"), fixable: free))
                if free { destination = expected }
            }
        }
        if !Bytes.equal(body, CanonicalJSON.encode(json)) {
            issues.append(.warning(.root, "is not in canonical format (sorted keys, 2-space indentation, one array element per line, final newline)", fixable: true))
        }
        if fix, issues.contains(where: \.fixable) {
            let target = CanonicalJSON.encode(inspection.normalized ?? json)
            do {
                if destination != path || !bytes.elementsEqual(target) {
                    try FileSystem.writeAtomically(store.absolute(destination), target)
                    if destination != path { try store.remove(path) }
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

    // MARK: - Across documents

    mutating func crossDocumentChecks() {
        for (kind, id) in duplicateCandidates {
            guard let t = schema.collectionsByKind[kind] else { continue }
            let paths = Run.paths(of: id, in: t.kind, store: store)
            guard paths.count > 1 else { continue }
            for p in paths {
                let others = paths.filter { $0 != p }.joined(separator: ", ")
                report(Problem(p, .error(.root.appending("id"), "duplicate id \"\(id)\": also used by \(others)")))
            }
        }
        for (path, ref) in references where !ids.contains(Run.hash(ref.kind, ref.id)) {
            let kind = ref.kind.replacingOccurrences(of: ".", with: " ")
            report(Problem(path, .warning(ref.pointer, "refers to the \(kind) \"\(ref.id)\", which does not exist")))
        }
        for rule in schema.crossDocumentRules {
            for p in rule.check(tagged) { report(p) }
        }
    }

    /// Every file of `kind` named `id`, in any shard.
    static func paths(of id: String, in kind: DocumentKind, store: LedgerStore) -> [String] {
        guard case .collection(let dir, _) = kind.location else { return [] }
        var out: [String] = []
        func visit(_ rel: String, _ depth: Int) {
            if depth == 0 {
                let p = rel + "/" + id + ".json"
                if FileSystem.exists(store.absolute(p)) { out.append(p) }
                return
            }
            for e in (try? FileSystem.list(store.absolute(rel))) ?? [] where e.type == .directory && !e.name.hasPrefix(".") {
                visit(rel + "/" + e.name, depth - 1)
            }
        }
        visit(dir, kind.shardDepth)
        return out.sorted()
    }
}

/// Per-file results written by worker threads, each to its own index.
private final class Results: @unchecked Sendable {
    // @unchecked: every index is written by exactly one worker, and read only after
    // `concurrentPerform` has returned (which orders the writes before the reads).
    private var storage: UnsafeMutableBufferPointer<Run.Result>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: Run.Result())
    }

    func set(_ i: Int, _ r: Run.Result) { storage[i] = r }
    var values: UnsafeMutableBufferPointer<Run.Result> { storage }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }
}
