/// What `check` learns from one parsed document.
package struct Inspection: Sendable {
    /// Every problem in the document itself (cross-document ones come later).
    package var issues: [DocumentIssue]
    /// The document as ledger would write it — unknown fields kept, derived values
    /// recomputed — when its fields decode; what `check --fix` writes.
    package var normalized: JSONValue?
    /// The document's id field, when it has one.
    package var id: String?
    /// The date choosing its shard directory, for sharded kinds.
    package var shardDate: LocalDate?
    package var references: [DocumentReference] = []
    package var tags: [String] = []
}

/// How to resolve one document changed on two sides; `nil` from `DocumentType.merge` means
/// the versions could not be read and the caller must keep both (a conflict file).
package struct MergeResolution: Sendable {
    /// The merged document, or nil when it stays deleted.
    package var result: JSONValue?
    /// New documents the rule created, by path relative to the ledger root.
    package var created: [(path: String, document: JSONValue)]
    /// What was decided, for the sync report.
    package var notes: [String]
    /// Set when the two versions are different documents (their ids differ), which are
    /// never merged: why, in a sentence. `result` is then this machine's version, and the
    /// caller keeps the other machine's beside it (a conflict file).
    package var differentDocuments: String?

    package init(result: JSONValue?, created: [(path: String, document: JSONValue)] = [], notes: [String] = [],
                differentDocuments: String? = nil) {
        self.result = result
        self.created = created
        self.notes = notes
        self.differentDocuments = differentDocuments
    }
}

/// A document type with its generic parameter erased, so that `check` and sync can handle a
/// file of any kind through one value.
package struct DocumentType: Sendable {
    package let kind: DocumentKind
    /// How the kind's app tells a change of one of its documents (nil: field by field).
    package let narrator: Narrator?
    /// The kind's JSON Schema (the object schema of its field lists).
    private let objectSchema: @Sendable () -> JSONObject
    /// The problems of its field lists alone: what a schema states (types, required fields,
    /// value rules, unknown fields).
    private let fieldProblems: @Sendable (JSONValue) -> [DocumentIssue]
    private let inspectJSON: @Sendable (JSONValue) -> Inspection
    private let mergeDecoded: @Sendable (JSONValue?, JSONValue, JSONValue, MergeContext) -> MergeResolution?
    private let remainderDecoded: @Sendable (JSONValue, Timestamp) -> JSONValue?

    package init<D: StoredDocument>(_ type: D.Type) {
        self.init(type, narrator: nil)
    }

    /// A kind its app tells changes of in its own words. (Chosen at compile time: a dynamic
    /// cast to the protocol would scan every conformance record of the process on each start.)
    package init<D: NarratedDocument>(_ type: D.Type) {
        self.init(type, narrator: Narrator(type))
    }

    private init<D: StoredDocument>(_ type: D.Type, narrator: Narrator?) {
        kind = D.kind
        self.narrator = narrator
        objectSchema = { D.jsonSchema }
        fieldProblems = { json in
            let (model, issues) = D.decodeDocument(json)
            return issues + (model.map { D.ruleIssues($0, at: .root) } ?? [])
        }
        inspectJSON = { json in DocumentType.inspect(D.self, json) }
        mergeDecoded = { base, ours, theirs, context in DocumentType.merge(D.self, base, ours, theirs, context) }
        remainderDecoded = { json, instant in
            var ignored: [DocumentIssue] = []
            // A version that cannot be read cannot be dated: it is kept, for `check` to report.
            guard let model = D.decode(json, at: .root, issues: &ignored) else { return json }
            guard let kept = model.remainder(afterForgetAt: instant) else { return nil }
            return kept.json == model.json ? json : kept.recomputed.json
        }
    }

    /// What of `json`, a document of this kind, outlives a forget of its app at `instant` for
    /// a device that had not seen the forget (`StoredDocument.remainder`): the document as it
    /// is, a part of it, or nil. A version that cannot be read is kept as it is.
    package func remainder(of json: JSONValue, afterForgetAt instant: Timestamp) -> JSONValue? {
        remainderDecoded(json, instant)
    }

    /// What the kind's JSON Schema says is wrong with `json`, in ledger's words: the issues
    /// of its field lists (types, required fields, value rules, unknown fields). `inspect`
    /// reports these and the rules only ledger checks.
    package func fieldIssues(_ json: JSONValue) -> [DocumentIssue] { fieldProblems(json) }

    /// The kind's JSON Schema document (draft 2020-12), as `ledger schema` prints it.
    package var jsonSchema: JSONObject {
        var s = objectSchema()
        var properties = s["properties"]?.objectValue ?? [:]
        properties[schemaMember] = ["type": "string", "description": "Where an editor finds this schema; ledger keeps it."]
        s["properties"] = .object(properties)
        s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        s["title"] = .string(title)
        s["description"] = .string("\(filePattern) in a ledger. `ledger check` also checks the rules relating several values or documents.")
        return s
    }

    /// "Waterline session", "BrewGuide recipe", "Ledger manifest".
    package var title: String {
        kind.app == .ledger ? "Ledger manifest" : kind.app.title + " " + (kind.name.split(separator: ".").last.map(String.init) ?? kind.name)
    }

    /// Where the kind's files are, relative to the ledger root, as a glob:
    /// `waterline/settings.json`, `waterline/sessions/*/*.json`.
    package var filePattern: String {
        switch kind.location {
        case .singleton(let path): path
        case .collection(let dir, _): dir + "/" + String(repeating: "*/", count: kind.shardDepth) + "*.json"
        }
    }

    /// Decodes, validates and recomputes one parsed document.
    package func inspect(_ json: JSONValue) -> Inspection { inspectJSON(json) }

    /// Three-way merge of one document (nil meaning absent on that side), SPEC §6:
    /// unchanged sides give way to changed ones, an edit beats a deletion, and changes on both
    /// sides go to the kind's rule. Nil when a changed side cannot be read as this kind (it
    /// is not a valid document of the kind, or of another kind).
    ///
    /// Two versions with different ids are different documents — one of them put at the
    /// other's path — and are never blended field by field: the resolution keeps ours and says
    /// why (`differentDocuments`). A base with another id than ours is no ancestor of it.
    package func merge(base: JSONValue?, ours: JSONValue?, theirs: JSONValue?,
                      context: MergeContext = MergeContext()) -> MergeResolution? {
        if ours == theirs { return MergeResolution(result: ours) }
        if ours == base { return MergeResolution(result: theirs) }
        if theirs == base { return MergeResolution(result: ours) }
        guard let ours else {
            return MergeResolution(result: theirs, notes: ["deleted on this machine but edited on the other; kept the edit"])
        }
        guard let theirs else {
            return MergeResolution(result: ours, notes: ["edited on this machine but deleted on the other; kept the edit"])
        }
        if let o = ours["id"]?.stringValue, let t = theirs["id"]?.stringValue, o != t {
            let name = kind.name.replacingOccurrences(of: ".", with: " ")
            return MergeResolution(result: ours, differentDocuments: "this machine's version is the \(name) \"\(o)\" and the other machine's is the \(name) \"\(t)\": two different documents are never merged")
        }
        let ancestor = base.flatMap { $0["id"] == ours["id"] ? $0 : nil }
        return mergeDecoded(ancestor, ours, theirs, context)
    }

    private static func inspect<D: StoredDocument>(_: D.Type, _ json: JSONValue) -> Inspection {
        var (model, issues) = D.decodeDocument(json)
        var inspection = Inspection(issues: [], normalized: nil, id: json["id"]?.stringValue)
        guard let model else {
            inspection.issues = issues
            return inspection
        }
        issues += model.validate()
        if model.updatedAt < model.createdAt {
            // A warning, not an error: the document reads as it is, and a device whose clock
            // runs behind the one that created it stamps its changes so too (docs/ledger.md).
            issues.append(.warning(.root.appending("updatedAt"), "is earlier than createdAt (\(model.createdAt)): a change cannot come before "
                + "the creation (a hand edit, or a clock set wrong); sync's merges prefer the later updatedAt, so set it to when the document last changed"))
        }
        // Derived values are recomputed from the document's inputs; while one of them has an
        // error the recompute would be a guess built on a rejected value (a total of 1e300, a
        // duration of 0 for an end before the start), so they stay as stored, reported, not
        // fixable, and what `--fix` writes keeps them (docs/ledger.md).
        let trusted = !issues.hasErrors
        let fixed = trusted ? model.recomputed.json : model.json
        let recomputed = trusted ? fixed : model.recomputed.json
        if recomputed != json {
            // Something differs from how ledger would write it: normalisation of what was read
            // (a timestamp written with "Z", a defaulted field left out), or stale derived values.
            // A derived value is told once, as stored against its recompute (a removed `state`
            // is "missing; a recompute gives …", not also "ledger writes null").
            // Each list is told up to `shown` values, then counted in one line: a session whose
            // hundreds of entries all differ is one problem, not a screenful — but nothing
            // `--fix` rewrites goes unmentioned.
            let written = model.json, shown = 10
            let stale = JSONDiff.differences(written, recomputed, limit: .max)
            let derived = Set(stale.map(\.pointer))
            let normalised = JSONDiff.differences(json, written, limit: .max).filter { !derived.contains($0.pointer) }
            for d in normalised.prefix(shown) {
                issues.append(.warning(d.pointer, d.describe(as: "ledger writes"), fixable: true))
            }
            if normalised.count > shown {
                issues.append(.warning(.root, normalised.count - shown == 1 ? "and 1 more value differs from how ledger writes it" : "and \(normalised.count - shown) more values differ from how ledger writes them", fixable: true))
            }
            let refused = trusted ? "" : " (not fixed while this document has an error: the recompute would use the value refused)"
            for var d in stale.prefix(shown) {
                d.old = JSONDiff.value(at: d.pointer, in: json)  // as stored, not as read
                issues.append(.warning(d.pointer, "derived value is stale: " + d.describe(as: "a recompute gives") + refused, fixable: trusted))
            }
            if stale.count > shown {
                issues.append(.warning(.root, (stale.count - shown == 1 ? "and 1 more derived value is stale" : "and \(stale.count - shown) more derived values are stale") + refused, fixable: trusted))
            }
        }
        inspection.issues = issues
        inspection.normalized = fixed
        inspection.references = model.references
        inspection.tags = model.tags
        if let c = model.asCollection { inspection.shardDate = c.shardDate }
        return inspection
    }

    private static func merge<D: StoredDocument>(_: D.Type, _ base: JSONValue?, _ ours: JSONValue, _ theirs: JSONValue,
                                                 _ context: MergeContext) -> MergeResolution? {
        var ignored: [DocumentIssue] = []
        guard let o = D.decode(ours, at: .root, issues: &ignored), !o.validate().hasErrors,
              let t = D.decode(theirs, at: .root, issues: &ignored), !t.validate().hasErrors else { return nil }
        let b = base.flatMap { D.decode($0, at: .root, issues: &ignored) }
        let merged = D.merge(base: b, ours: o, theirs: t, context: context)
        let created = merged.created.map { doc -> (String, JSONValue) in
            let path = doc.asCollection?.path ?? D.kind.path()
            return (path, doc.recomputed.json)
        }
        return MergeResolution(result: merged.document.recomputed.json, created: created, notes: merged.notes)
    }
}

/// Where two JSON values differ, for messages.
package enum JSONDiff {
    /// One difference: the value at `pointer` is `old` in the first value and `new` in the second
    /// (nil meaning absent).
    package struct Difference: Sendable {
        package var pointer: JSONPointer
        package var old: JSONValue?
        package var new: JSONValue?

        /// "stored 3, <verb> 2" style text.
        package func describe(as verb: String) -> String {
            switch (old, new) {
            case (nil, let n?): "missing; \(verb) \(short(n))"
            case (.null?, nil): "null here means the field is absent; ledger leaves it out"
            case (let o?, nil): "\(verb) no such field (found \(short(o)))"
            case (let o?, let n?): "stored \(short(o)), \(verb) \(short(n))"
            case (nil, nil): "differs"
            }
        }

        private func short(_ v: JSONValue) -> String { FieldChange.short(v) }
    }

    /// The value at `pointer` in `json`; nil when there is none.
    package static func value(at pointer: JSONPointer, in json: JSONValue) -> JSONValue? {
        pointer.tokens.reduce(json as JSONValue?) { value, token in
            if case .array(let elements)? = value, let i = Int(token) { return elements.indices.contains(i) ? elements[i] : nil }
            return value?[token]
        }
    }

    /// The first `limit` differences between `a` and `b`, outermost first.
    package static func differences(_ a: JSONValue, _ b: JSONValue, limit: Int) -> [Difference] {
        FieldChange.between(a, b, arrays: .sameLength, limit: limit).map { Difference(pointer: $0.pointer, old: $0.old, new: $0.new) }
    }
}
