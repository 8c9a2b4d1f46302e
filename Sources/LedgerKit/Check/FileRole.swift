import Foundation
/// What a file in a ledger is, judged by its path alone.
enum FileRole: Sendable {
    /// A JSON document; `id` is the file name for collections, nil for singletons.
    case document(DocumentType, id: String?)
    /// A non-JSON file kept by an app (a photo).
    case attachment(AttachmentType)
    /// The other machine's version of `original`, kept by a sync that could not merge it.
    case conflict(original: String)
    /// Anything else: misplaced, misnamed or not a regular file.
    case stray(DocumentIssue)

    /// The marker in a conflict file's name: `settings.conflict-<tag>.json`.
    static let conflictMarker = ".conflict-"

    /// Where documents of a kind go, for messages: `waterline/sessions/<YYYY>/<id>.json`.
    static func shape(_ t: DocumentType) -> String {
        guard case .collection(let dir, let sharding) = t.kind.location else { return t.kind.path() }
        switch sharding {
        case .none: return "\(dir)/<id>.json"
        case .year: return "\(dir)/<YYYY>/<id>.json"
        case .yearMonth: return "\(dir)/<YYYY>/<MM>/<id>.json"
        }
    }

    static func misplaced(_ t: DocumentType) -> FileRole {
        .stray(.warning(.root, "is not where a document can be: \(t.kind.name) documents are \(shape(t))"))
    }

    /// The id in a file name `<id>.json` (its first bytes: their count, so that nothing is
    /// allocated per file), or nil when the name is not one.
    static func documentIDLength(inName name: String) -> Int? {
        var n = name
        return n.withUTF8 { b -> Int? in
            guard b.count > 5, b[b.count - 5] == 0x2E, b[b.count - 4] == 0x6A, b[b.count - 3] == 0x73,
                  b[b.count - 2] == 0x6F, b[b.count - 1] == 0x6E, DocumentID.isValid(utf8: b[0..<(b.count - 5)]) else { return nil }
            return b.count - 5
        }
    }

    /// Classifies a path relative to the ledger root.
    static func classify(_ path: String, type: FileSystem.EntryType, in schema: DocumentSchema) -> FileRole {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let name = parts.last ?? path
        switch type {
        case .symlink:
            return .stray(.error(.root, FileSystem.symbolicLinkProblem))
        case .directory:
            return .stray(.error(.root, "is a directory, but its name is that of a document"))
        case .other:
            return .stray(.error(.root, "is not a regular file"))
        case .file:
            break
        }
        if Bytes.contains(name, ".conflict-"), name.hasSuffix(".json") {
            let r = name.range(of: conflictMarker)!
            let original = (parts.dropLast() + [String(name[..<r.lowerBound]) + ".json"]).joined(separator: "/")
            return .conflict(original: original)
        }
        if let t = schema.singletons[path] { return .document(t, id: nil) }
        let parent = parts.dropLast().joined(separator: "/")
        if let a = schema.attachments[parent] {
            let ext = (name as NSString).pathExtension.lowercased()
            guard a.extensions.contains(ext) else {
                return .stray(.warning(.root, "is not a file \(a.directory) keeps (expected one of: \(a.extensions.sorted().map { "." + $0 }.joined(separator: ", ")))"))
            }
            return .attachment(a)
        }
        for (dir, t) in schema.collections where path.utf8.count > dir.utf8.count && path.hasPrefix(dir)
            && path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: dir.utf8.count)] == UInt8(ascii: "/") {
            let rest = parts.dropFirst(dir.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) })
            let depth = t.kind.shardDepth
            guard rest.count == depth + 1 else { return misplaced(t) }
            for (level, shard) in rest.dropLast().enumerated() where !DocumentKind.isShardName(shard, level: level) {
                return misplaced(t)
            }
            guard CollectionFiles.isMisnamed(name) || name.hasSuffix(".json") else {
                return .stray(.warning(.root, "is not a document: documents are .json files (\(shape(t)))"))
            }
            // A misnamed document is an error: the apps refuse it rather than overlook it.
            let id = String(name.dropLast(5))
            guard DocumentID.isValid(id) else {
                return .stray(.error(.root, "the file name \"\(id)\" is not a valid document id: \(DocumentID.rule); rename the file to <id>.json, after the id inside it"))
            }
            guard name.hasSuffix(".json") else {
                return .stray(.error(.root, "the extension \"\(name.suffix(5))\" is not \".json\": documents are .json files, in lower case (\(shape(t))); rename the file to \(id).json"))
            }
            return .document(t, id: id)
        }
        let app = parts.first ?? ""
        return .stray(.warning(.root, "is not a ledger document: \(app)/ holds nothing at this location"))
    }
}
