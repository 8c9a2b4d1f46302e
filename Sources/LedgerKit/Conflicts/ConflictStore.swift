import Foundation

/// Conflicts in plain sight: what a sync (or git's merge with ledger's merge driver) could not
/// merge — a conflict file beside a document, holding the other machine's version — and the
/// recipes it forked into conflicted copies, each with both sides field by field; and their
/// resolution (the façade: the only way to settle one).
///
/// The base version (the common ancestor) lives in the history, which LedgerKit does not
/// read: the sync layer adds it.
package struct ConflictStore: Sendable {
    package let store: LedgerStore

    package init(_ store: LedgerStore) {
        self.store = store
    }

    /// One conflict.
    package struct Conflict: Sendable {
        package enum Kind: String, Sendable {
            /// A conflict file, `<stem>.conflict-<tag>.<ext>`, beside the document it is the
            /// other version of.
            case file
            /// A recipe forked into "<name> (Conflicted Copy)" because two machines changed it
            /// differently.
            case copy
        }

        package var kind: Kind
        /// The conflict file, or the conflicted copy's file (relative to the ledger root).
        package var path: String
        /// The document it is the other version of (for a copy: the recipe it was forked
        /// from, found by name; nil when there is none any more).
        package var documentPath: String?
        /// What a person calls it ("recipe Morning V60", "night of Sat 21 Nov", a path).
        package var subject: String
        /// The version in place (the document) and the other one (the conflict file or the
        /// copy), parsed; nil when absent or not JSON.
        package var mine: JSONValue?
        package var theirs: JSONValue?
        /// The same two as stored (nil: absent): a file of the user's own, or a document that
        /// is not JSON, has only these.
        package var mineBytes: [UInt8]?
        package var theirsBytes: [UInt8]?
        /// Where the two differ (for a copy, its id, name and timestamps aside).
        package var fields: [FieldChange]
        /// Whether the conflict file or the copy is this device's own version and the one in
        /// place the other device's: the other device made the fork (or git's rebase replayed
        /// this device's commits onto the other's), and this device pulled it. `mine`,
        /// `theirs` and `fields` are then already seen from this device.
        package var reversed = false

        /// This conflict seen from the device whose own version of the document, before the
        /// conflict came, was `own` (its bytes as stored; nil: unknown): when that is the
        /// version beside (the conflict file's, the copy's) and not the one in place, mine and
        /// theirs trade places, as git's ours and theirs are always the side of the repository
        /// running git. Any file compares so — a text file, a document that is not valid JSON.
        package func seen(from own: [UInt8]?) -> Conflict {
            guard !reversed, let own, let mineBytes, let theirsBytes, same(own, theirsBytes), !same(own, mineBytes) else { return self }
            var c = self
            (c.mine, c.theirs, c.mineBytes, c.theirsBytes, c.reversed) = (theirs, mine, theirsBytes, mineBytes, true)
            c.fields = fields.map { FieldChange(pointer: $0.pointer, old: $0.new, new: $0.old) }
            return c
        }

        /// Whether two versions are the same: byte for byte, or as JSON (a copy: its recipe
        /// fields, without the id, name and timestamps that make it a copy).
        func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            guard a != b else { return true }
            guard let x = try? JSONParser.parse(a), let y = try? JSONParser.parse(b) else { return false }
            return kind == .copy ? ConflictStore.recipeFields(x) == ConflictStore.recipeFields(y) : x == y
        }

        /// The id a person may name it by: the copy's id, or the document's.
        package var id: String? { Self.stem(kind == .copy ? path : documentPath ?? path) }

        static func stem(_ path: String) -> String? {
            guard let name = path.split(separator: "/").last, name.hasSuffix(".json") else { return nil }
            return String(name.dropLast(5))
        }
    }

    /// Every conflict file (in the apps' folders and at the top of the ledger) and every
    /// recipe that is a conflicted copy, by path. `files`, when given, are the candidate
    /// conflict files (what git knows of the work tree), instead of listing every folder.
    package func list(files: [String]? = nil) throws -> [Conflict] {
        var out: [Conflict] = []
        let candidates = files?.filter { path in
            Self.isConflictFile(String(path.split(separator: "/").last ?? ""))
                && (!path.contains("/") || LedgerSchema.standard.appDirectories.contains(String(path.split(separator: "/")[0])))
                && store.symbolicLink(on: path) == nil && FileSystem.stamp(store.absolute(path))?.type == .file
        }
        for path in try candidates ?? conflictFiles() {
            let original = Self.originalPath(of: path)
            let (mineBytes, theirsBytes) = ((try? store.read(original)) ?? nil, (try? store.read(path)) ?? nil)
            let mine = mineBytes.flatMap { try? JSONParser.parse($0) }, theirs = theirsBytes.flatMap { try? JSONParser.parse($0) }
            let subject = DocumentStories.tell(path: original, old: nil, new: mineBytes).subject
            out.append(Conflict(kind: .file, path: path, documentPath: original, subject: subject, mine: mine, theirs: theirs,
                                mineBytes: mineBytes, theirsBytes: theirsBytes,
                                fields: mine != nil && theirs != nil ? FieldChange.between(mine, theirs) : []))
        }
        let recipes = try BrewStore(store).recipeEntries()
        for copy in recipes {
            guard let path = copy.path, let base = Recipe.conflictedCopyBase(copy.name) else { continue }
            let original = recipes.first { $0.path != nil && Recipe.isForkOrigin($0.name, ofCopyNamed: copy.name) }
            let (mineBytes, theirsBytes) = (try original?.path.flatMap { try store.read($0) }, try store.read(path))
            let mine = mineBytes.flatMap { try? JSONParser.parse($0) }, theirs = theirsBytes.flatMap { try? JSONParser.parse($0) }
            out.append(Conflict(kind: .copy, path: path, documentPath: original?.path, subject: "recipe \(base)", mine: mine, theirs: theirs,
                                mineBytes: mineBytes, theirsBytes: theirsBytes,
                                fields: Self.copyDifference(recipe: mine, copy: theirs)))
        }
        return out.sorted { $0.path < $1.path }
    }

    /// How to settle a conflict, seen from the device running it.
    package enum Keep: String, Sendable, CaseIterable {
        /// The version in place; the other goes (the conflict file, or the copy).
        case mine
        /// The other version, in the document's place; the conflict file or the copy goes.
        case theirs
        /// Both, as two recipes: the other version keeps a name of its own ("<name> copy").
        case both

        /// The same choice seen from the other device.
        var reversed: Keep { self == .mine ? .theirs : self == .theirs ? .mine : .both }
    }

    /// What a resolution did.
    package struct Resolved: Sendable {
        package var conflict: Conflict
        /// Files written and removed (relative paths).
        package var written: [String]
        package var removed: [String]
        /// The other version's new name, when both were kept.
        package var keptAs: String?
    }

    /// Settles the conflict `reference` names — its path, its document's path, or an id (the
    /// copy's, or the document's) — keeping `keep`, mine and theirs seen from the device whose
    /// own version of the document was `own(conflict)` (see `Conflict.seen(from:)`). Holds the
    /// writer lock; what it writes is validated first and written atomically; the next sync
    /// commits it.
    package func resolve(_ reference: String, keep: Keep, now: Timestamp, ids: any IDSource,
                         own: (Conflict) -> [UInt8]? = { _ in nil }) throws -> Resolved {
        try store.withWriterLock {
            let conflict = try find(reference)
            // Below, "mine" is the version in place and "theirs" the one beside; `inPlace` is
            // what the person calls keeping the version in place.
            let reversed = conflict.seen(from: own(conflict)).reversed
            let inPlace: Keep = reversed ? .theirs : .mine
            switch (conflict.kind, reversed ? keep.reversed : keep) {
            case (_, .mine):
                try store.remove(conflict.path)
                return Resolved(conflict: conflict, written: [], removed: [conflict.path])
            case (.file, .theirs):
                guard let original = conflict.documentPath, let bytes = try store.read(conflict.path) else {
                    throw LedgerError.notFound("\(conflict.path) is gone")
                }
                try write(bytes, at: original, from: conflict.path, inPlace: inPlace)
                try store.remove(conflict.path)
                return Resolved(conflict: conflict, written: [original], removed: [conflict.path])
            case (.copy, .theirs):
                var copy = try recipe(at: conflict.path)
                guard let originalPath = conflict.documentPath else {
                    // The recipe it was forked from is gone: the copy takes its name.
                    copy.name = Recipe.conflictedCopyBase(copy.name) ?? copy.name
                    copy.updatedAt = now
                    try store.save(copy, at: conflict.path)
                    return Resolved(conflict: conflict, written: [conflict.path], removed: [], keptAs: copy.name)
                }
                var replaced = copy
                let original = try recipe(at: originalPath)
                (replaced.id, replaced.name, replaced.createdAt, replaced.updatedAt) = (original.id, original.name, original.createdAt, now)
                try store.save(replaced, at: originalPath)
                try store.remove(conflict.path)
                return Resolved(conflict: conflict, written: [originalPath], removed: [conflict.path])
            case (.copy, .both):
                var copy = try recipe(at: conflict.path)
                copy.name = try BrewStore(store).copyName(of: Recipe.conflictedCopyBase(copy.name) ?? copy.name)
                copy.updatedAt = now
                try store.save(copy, at: conflict.path)
                return Resolved(conflict: conflict, written: [conflict.path], removed: [], keptAs: copy.name)
            case (.file, .both):
                guard let original = conflict.documentPath, case .document(let type) = PathRole(path: original), type.kind == Recipe.kind else {
                    throw LedgerError.invalidArgument("keeping both is for recipes, which can stand side by side; \(conflict.subject) has one version: keep mine or theirs")
                }
                var other = try decodeValid(Recipe.self, conflict.theirs, path: conflict.path, inPlace: inPlace)
                let brew = BrewStore(store)
                other.id = try brew.newID(in: brew.recipeRepository, ids)
                other.name = try brew.copyName(of: other.name)
                (other.createdAt, other.updatedAt) = (now, now)
                try brew.recipeRepository.save(other)
                try store.remove(conflict.path)
                return Resolved(conflict: conflict, written: [other.path], removed: [conflict.path], keptAs: other.name)
            }
        }
    }

    // MARK: - Finding

    /// The one conflict `reference` names.
    func find(_ reference: String) throws -> Conflict {
        let ref = reference.hasPrefix("./") ? String(reference.dropFirst(2)) : reference
        let all = try list()
        // An id names the copy, or the document a conflict is about (`<id>.json`).
        let matches = all.filter { $0.path == ref || $0.documentPath == ref || $0.id == ref || $0.documentPath?.hasSuffix("/\(ref).json") == true }
        guard !matches.isEmpty else {
            throw LedgerError.notFound("no conflict file or conflicted copy is \(reference)" + (all.isEmpty ? " (there are none)" : ""))
        }
        guard matches.count == 1 else {
            throw LedgerError.invalidArgument("\(reference) names \(matches.count) conflicts (\(matches.map(\.path).joined(separator: ", "))); name one by its path")
        }
        return matches[0]
    }

    /// Conflict files: in the apps' folders, at any depth, and at the top of the ledger. A
    /// folder behind a symbolic link is not entered.
    func conflictFiles() throws -> [String] {
        var out: [String] = []
        var folders = [""]
        while let folder = folders.popLast() {
            for entry in (try FileSystem.list(folder, under: store.root)) ?? [] {
                let path = folder.isEmpty ? entry.name : folder + "/" + entry.name
                if entry.type == .directory {
                    if !folder.isEmpty || LedgerSchema.standard.appDirectories.contains(entry.name) { folders.append(path) }
                } else if entry.type == .file, Self.isConflictFile(entry.name) {
                    out.append(path)
                }
            }
        }
        return out.sorted()
    }

    /// `<stem>.conflict-<tag>[.<ext>]`, as `PathRole.conflictCopyPath` names them.
    static func isConflictFile(_ name: String) -> Bool {
        // Bytes first: tens of thousands of names go through here, few of them conflict files.
        guard Bytes.contains(name, ".conflict-"), !name.hasPrefix("."), let r = name.range(of: FileRole.conflictMarker) else { return false }
        let tag = name[r.upperBound...].prefix { $0 != "." }
        return !tag.isEmpty && tag.allSatisfy(\.isHexDigit)
    }

    /// The file a conflict file is the other version of: its name without the marker and tag.
    static func originalPath(of path: String) -> String {
        guard let r = path.range(of: FileRole.conflictMarker, options: .backwards) else { return path }
        let rest = path[r.upperBound...]
        return String(path[..<r.lowerBound]) + (rest.firstIndex(of: ".").map { String(rest[$0...]) } ?? "")
    }

    /// Where a recipe's conflicted copy differs from the recipe it was forked from (nil: absent
    /// or not JSON: nothing to compare), field by field, their ids, names and timestamps aside:
    /// what `ledger conflicts` lists, and what the history tells of the fork.
    package static func copyDifference(recipe: JSONValue?, copy: JSONValue?) -> [FieldChange] {
        guard recipe != nil, copy != nil else { return [] }
        return FieldChange.between(recipeFields(recipe), recipeFields(copy))
    }

    /// A recipe's fields that say what it is, without its identity and timestamps.
    package static func recipeFields(_ json: JSONValue?) -> JSONValue? {
        guard var o = json?.objectValue else { return json }
        for key in ["id", "name", "createdAt", "updatedAt"] { o[key] = nil }
        return .object(o)
    }

    // MARK: - Writing

    func recipe(at path: String) throws -> Recipe {
        try store.load(Recipe.self, at: path) ?? { throw LedgerError.notFound("\(path) is gone") }()
    }

    func decodeValid<D: StoredDocument>(_: D.Type, _ json: JSONValue?, path: String, inPlace: Keep) throws -> D {
        var issues: [DocumentIssue] = []
        guard let json, let d = D.decode(json, at: .root, issues: &issues), !issues.hasErrors, !d.validate().hasErrors else {
            throw LedgerError.invalid("\(path) is not a valid \(D.kind.name.replacingOccurrences(of: ".", with: " ")), so it cannot be kept as one; edit it until it is valid, or keep \(inPlace.rawValue)")
        }
        return d
    }

    /// The other version written in the document's place: a document must be valid of its
    /// kind (it is written as ledger writes it, derived values recomputed); any other file is
    /// written as it is. A refusal names `inPlace`, the choice that keeps the document as it is.
    func write(_ bytes: [UInt8], at path: String, from conflictPath: String, inPlace: Keep) throws {
        guard case .document(let type) = PathRole(path: path) else {
            try store.write(path, bytes: bytes)
            return
        }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch {
            throw LedgerError.invalid("\(conflictPath) is not valid JSON (\(error)), so it cannot replace \(path); edit it until it is valid, or keep \(inPlace.rawValue)")
        }
        let inspection = type.inspect(json)
        let errors = inspection.issues.filter { $0.severity == .error }
        guard errors.isEmpty, let normalized = inspection.normalized else {
            throw LedgerError.invalid("\(conflictPath) is not a valid \(type.kind.name.replacingOccurrences(of: ".", with: " ")), so it cannot replace \(path); edit it until it is valid, or keep \(inPlace.rawValue):",
                                      problems: errors.map { Problem(conflictPath, $0) })
        }
        if inspection.id != nil, inspection.id != Conflict.stem(path) {
            throw LedgerError.invalid("\(conflictPath) holds another document (id \(inspection.id ?? "")) than \(path); it cannot replace it: keep \(inPlace.rawValue), or move it to a file of its own")
        }
        try store.write(path, normalized)
    }
}
