import Foundation
import LedgerKit

/// How one file changed on both sides of a merge was resolved.
package struct FileResolution: Sendable {
    /// The path, relative to the ledger root.
    package var path: String
    /// The resolved contents, or nil when the file stays deleted.
    package var result: [UInt8]?
    /// Files the resolution adds beside it: a kind's new documents (a recipe's conflicted
    /// copy) and the conflict file keeping the other side's version.
    package var created: [(path: String, bytes: [UInt8])]
    /// The conflict file holding the other side's version, when the two could not be merged.
    package var conflictFile: String?
    /// What was decided, one sentence each.
    package var notes: [String]

    /// Whether a kind's rule (or the generic rules) merged both versions without a conflict file.
    package var merged: Bool { conflictFile == nil }
}

/// The resolution of a file changed on two sides, shared by `ledger sync` and
/// `ledger merge-driver` so that both reach the same result (SPEC §6).
///
/// - A document goes to its kind's rule through `DocumentType.merge` (deletions first: an
///   unchanged side gives way, an edit beats a deletion), and the result must pass the kind's
///   validation.
/// - A photo is content-addressed: the same path should hold the same bytes; a deletion gives
///   way to the other side's file.
/// - A ledger's `.gitignore` or `.gitattributes` met, with no history in common, by a new
///   repository's own (a ledger synced onto it): the repository's lines, then the ledger's
///   (`LedgerSetup.joinedSetupFile`), as `ledger clone` of that repository makes them.
/// - Whatever cannot be parsed, has no rule, or merges into something invalid: the local
///   version stays in place and the other side's goes beside it as `<stem>.conflict-<tag>.<ext>`,
///   where the tag is the start of its git blob id (the same on every machine). Never
///   conflict markers, never silent loss.
package enum FileMerge {
    /// Resolves `path` given the three versions (nil meaning absent). `siblings` lists the
    /// other documents of the same kind in the merged tree, read only when a rule asks.
    package static func resolve(path: String, base: [UInt8]?, ours: [UInt8]?, theirs: [UInt8]?,
                               siblings: @escaping @Sendable () -> [JSONValue] = { [] }) -> FileResolution {
        if ours == theirs { return FileResolution(path: path, result: ours, created: [], notes: []) }
        switch PathRole(path: path) {
        case .document(let type):
            return resolveDocument(path, type, base, ours, theirs, siblings)
        case .attachment, .conflictCopy, .other:
            return resolveBytes(path, base, ours, theirs)
        }
    }

    static func resolveDocument(_ path: String, _ type: DocumentType, _ base: [UInt8]?, _ ours: [UInt8]?, _ theirs: [UInt8]?,
                                _ siblings: @escaping @Sendable () -> [JSONValue]) -> FileResolution {
        let o = ours.flatMap { try? JSONParser.parse($0) }
        let t = theirs.flatMap { try? JSONParser.parse($0) }
        guard ours == nil || o != nil, theirs == nil || t != nil else {
            let which = (ours != nil && o == nil) ? "this machine's version" : "the other machine's version"
            return keepBoth(path, base, ours, theirs, because: "\(which) is not valid JSON")
        }
        let b = base.flatMap { try? JSONParser.parse($0) }
        guard let merged = type.merge(base: b, ours: o, theirs: t, context: MergeContext(siblings: siblings)) else {
            return keepBoth(path, base, ours, theirs, because: "one version is not a valid \(type.kind.name.replacingOccurrences(of: ".", with: " "))")
        }
        if let reason = merged.differentDocuments { return keepBoth(path, base, ours, theirs, because: reason) }
        guard let result = merged.result else {
            return FileResolution(path: path, result: nil, created: [], notes: merged.notes)
        }
        if type.inspect(result).issues.contains(where: { $0.severity == .error }) {
            return keepBoth(path, base, ours, theirs, because: "merging the two versions gives an invalid document")
        }
        let bytes = CanonicalJSON.encode(result)
        var created: [(String, [UInt8])] = []
        for (p, doc) in merged.created {
            created.append((p, CanonicalJSON.encode(doc)))
        }
        return FileResolution(path: path, result: bytes, created: created, notes: merged.notes)
    }

    static func resolveBytes(_ path: String, _ base: [UInt8]?, _ ours: [UInt8]?, _ theirs: [UInt8]?) -> FileResolution {
        if ours == base { return FileResolution(path: path, result: theirs, created: [], notes: []) }
        if theirs == base { return FileResolution(path: path, result: ours, created: [], notes: []) }
        if base == nil, let ours, let theirs, let joined = LedgerSetup.joinedSetupFile(path, ours: ours, theirs: theirs) {
            return FileResolution(path: path, result: joined, created: [], notes: ["kept the repository's own lines, with the ledger's after them"])
        }
        return keepBoth(path, base, ours, theirs, because: "both machines changed it and it has no merge rule")
    }

    /// Keeps the local version in place and the other one beside it; an edit still beats a
    /// deletion.
    static func keepBoth(_ path: String, _ base: [UInt8]?, _ ours: [UInt8]?, _ theirs: [UInt8]?, because reason: String) -> FileResolution {
        guard let ours else {
            return FileResolution(path: path, result: theirs, created: [], notes: ["deleted on this machine but changed on the other; kept the change"])
        }
        guard let theirs else {
            return FileResolution(path: path, result: ours, created: [], notes: ["changed on this machine but deleted on the other; kept the change"])
        }
        let conflict = conflictPath(path, theirs: theirs)
        return FileResolution(path: path, result: ours, created: [(conflict, theirs)], conflictFile: conflict,
                              notes: ["\(reason): kept this machine's version; the other machine's is in \(conflict)"])
    }

    /// The conflict file name for the other side's version of `path`.
    package static func conflictPath(_ path: String, theirs: [UInt8]) -> String {
        PathRole.conflictCopyPath(of: path, tag: String(ObjectID.blob(hashing: theirs).description.prefix(8)))
    }
}
