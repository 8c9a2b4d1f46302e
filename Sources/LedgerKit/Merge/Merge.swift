/// What a kind's merge rule may look at besides the three versions.
package struct MergeContext: Sendable {
    /// The other documents of the same kind in the merged tree, for rules that must pick a
    /// name no other document has (a recipe's "(Conflicted Copy 2)").
    package let siblings: @Sendable () -> [JSONValue]

    package init(siblings: @escaping @Sendable () -> [JSONValue] = { [] }) {
        self.siblings = siblings
    }

    /// An id derived from `seed` alone, so that two machines resolving the same conflict
    /// create the same document instead of two copies.
    package func derivedID(_ seed: String) -> String {
        var h = FNV1a.hash(seed.utf8)
        return IDAlphabet.make(count: 10) {
            defer { h /= 36 }
            return h % 36
        }
    }
}

/// The result of a kind's merge rule.
package struct Merged<Document: StoredDocument>: Sendable {
    /// The document that takes the conflicted path.
    package var document: Document
    /// New documents of the same kind the merge created (a recipe's conflicted copy).
    package var created: [Document]
    /// What the rule decided, one sentence each, for the sync report.
    package var notes: [String]

    package init(_ document: Document, created: [Document] = [], notes: [String] = []) {
        self.document = document
        self.created = created
        self.notes = notes
    }
}

/// The shared rule for settings-like documents: a three-way merge per field, where a field
/// changed on one side takes that change and a field changed differently on both sides takes
/// the value of the side with the later `updatedAt` (SPEC §6's "last write wins per field",
/// as near as the documents allow: they record when they were saved, not when each field
/// was; the note names the value kept and the one set aside).
///
/// Ties on `updatedAt` go to the side whose canonical text sorts last, which does not depend
/// on which machine runs the merge, so both machines reach the same result. Nested objects
/// merge field by field too; arrays and other values are replaced whole.
package enum FieldwiseMerge {
    /// Merges two documents field by field; see the type's documentation.
    package static func merge<D: StoredDocument>(base: D?, ours: D, theirs: D) -> Merged<D> {
        let preferOurs = oursWins(ours, theirs)
        var conflicts: [JSONPointer] = []
        guard case .object(let o) = ours.json, case .object(let t) = theirs.json else { return Merged(ours) }
        let b = base.flatMap { $0.json.objectValue }
        var merged = merge(base: b, ours: o, theirs: t, preferOurs: preferOurs, at: .root, conflicts: &conflicts)
        merged["updatedAt"] = max(ours.updatedAt, theirs.updatedAt).json
        merged["createdAt"] = min(ours.createdAt, theirs.createdAt).json
        let (winner, loser) = preferOurs ? (ours, theirs) : (theirs, ours)
        var issues: [DocumentIssue] = []
        guard let result = D.decode(.object(merged), at: .root, issues: &issues), !result.validate().hasErrors else {
            return Merged(winner, notes: ["changes on both machines could not be combined field by field; kept the later version whole"])
        }
        let notes = conflicts.filter { $0.tokens != ["updatedAt"] && $0.tokens != ["createdAt"] }.map {
            "\($0) changed on both machines; kept the value of the version saved later, \(shown($0, in: winner)) (not \(shown($0, in: loser)))"
        }
        return Merged(result, notes: notes)
    }

    /// The value at `pointer` in `document`, as JSON text, for a merge's note.
    static func shown<D: StoredDocument>(_ pointer: JSONPointer, in document: D) -> String {
        CanonicalJSON.compact(value(at: pointer, in: document.json) ?? .null)
    }

    /// Merges JSON objects field by field; `conflicts` receives the fields changed on both sides.
    package static func merge(base: JSONObject?, ours: JSONObject, theirs: JSONObject, preferOurs: Bool,
                             at pointer: JSONPointer, conflicts: inout [JSONPointer]) -> JSONObject {
        var result = JSONObject()
        let keys = Set(ours.keys).union(theirs.keys).union(base?.keys ?? [])
        for key in keys {
            let b = base?[key], o = ours[key], t = theirs[key]
            let value: JSONValue?
            if o == t { value = o } else if o == b { value = t } else if t == b { value = o } else if case .object(let oo)? = o, case .object(let to)? = t {
                var bo: JSONObject?
                if case .object(let x)? = b { bo = x }
                value = .object(merge(base: bo, ours: oo, theirs: to, preferOurs: preferOurs, at: pointer.appending(key), conflicts: &conflicts))
            } else {
                conflicts.append(pointer.appending(key))
                value = preferOurs ? o : t
            }
            if let value { result[key] = value }
        }
        return result
    }

    /// Whether `ours` wins a conflicting change: the later `updatedAt`, then the canonical
    /// text that sorts last.
    package static func oursWins<D: StoredDocument>(_ ours: D, _ theirs: D) -> Bool {
        if ours.updatedAt.epochMilliseconds != theirs.updatedAt.epochMilliseconds {
            return ours.updatedAt.epochMilliseconds > theirs.updatedAt.epochMilliseconds
        }
        return !CanonicalJSON.encode(ours.json).lexicographicallyPrecedes(CanonicalJSON.encode(theirs.json))
    }

    static func value(at pointer: JSONPointer, in json: JSONValue) -> JSONValue? {
        var v: JSONValue? = json
        for t in pointer.tokens { v = v?[t] }
        return v
    }
}
