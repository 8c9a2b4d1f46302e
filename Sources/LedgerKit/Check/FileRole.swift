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
    case stray(Issue)

    /// The marker in a conflict file's name: `settings.conflict-<tag>.json`.
    static let conflictMarker = ".conflict-"

    /// Classifies a path relative to the ledger root.
    static func classify(_ path: String, type: FileSystem.EntryType, in schema: Schema) -> FileRole {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let name = parts.last ?? path
        switch type {
        case .symlink:
            return .stray(.error(.root, "is a symbolic link; ledger documents must be regular files inside the ledger (it is not followed)"))
        case .directory:
            return .stray(.error(.root, "is a directory, but its name is that of a document"))
        case .other:
            return .stray(.error(.root, "is not a regular file"))
        case .file:
            break
        }
        if name.contains(conflictMarker), name.hasSuffix(".json") {
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
        for (dir, t) in schema.collections where path.hasPrefix(dir + "/") {
            let rest = parts.dropFirst(dir.split(separator: "/").count)
            let depth = t.kind.shardDepth
            let shape = t.kind.path(id: "<id>", date: nil)
                .replacingOccurrences(of: "/0000/00/", with: "/<YYYY>/<MM>/").replacingOccurrences(of: "/0000/", with: "/<YYYY>/")
            guard rest.count == depth + 1 else {
                return .stray(.warning(.root, "is not where a document can be: \(t.kind.name) documents are \(shape)"))
            }
            let shards = Array(rest.dropLast())
            if depth >= 1, !(shards[0].count == 4 && shards[0].allSatisfy(\.isASCIIDigit)) {
                return .stray(.warning(.root, "is not where a document can be: \(t.kind.name) documents are \(shape)"))
            }
            if depth >= 2, !(shards[1].count == 2 && (Int(shards[1]).map { (1...12).contains($0) } ?? false)) {
                return .stray(.warning(.root, "is not where a document can be: \(t.kind.name) documents are \(shape)"))
            }
            guard name.hasSuffix(".json") else {
                return .stray(.warning(.root, "is not a document: documents are .json files (\(shape))"))
            }
            let id = String(name.dropLast(5))
            guard DocumentID.isValid(id) else {
                return .stray(.error(.root, "the file name \"\(id)\" is not a valid document id: \(DocumentID.rule)"))
            }
            return .document(t, id: id)
        }
        let app = parts.first ?? ""
        return .stray(.warning(.root, "is not a ledger document: \(app)/ holds nothing at this location"))
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
