/// One document's change told the way its app would tell it — "Waterline: night of Sat 21 Nov
/// — 2 drinks added, ended 01:10" — with every field change beside it (JSON pointer, old →
/// new), for the history of a ledger (`ledger log`), a sync's preview and an undo.
///
/// Pure: two versions of a document in, words out. Where a kind has no words for a change
/// (a hand edit of a field it does not name, a file outside the apps), the field changes say
/// what changed.
package struct DocumentStory: Sendable, Equatable {
    /// The app owning the document, nil for files outside the apps.
    package var app: AppID?
    /// What a person calls the document: "night of Sat 21 Nov", "recipe Morning V60", or its
    /// path when its kind has no name for it.
    package var subject: String
    /// What happened to it in the app's words ("2 drinks added", "ended 01:10"); empty when
    /// the app has no words for the change.
    package var details: [String]
    /// Whether the version told is a merge of two machines' versions (`details` then say
    /// what the merge did).
    package var merged: Bool
    /// Every field that changed (for a document added or deleted: none).
    package var fields: [FieldChange]

    package init(app: AppID?, subject: String, details: [String], merged: Bool = false, fields: [FieldChange]) {
        self.app = app
        self.subject = subject
        self.details = details
        self.merged = merged
        self.fields = fields
    }

    /// "Waterline: night of Sat 21 Nov — 2 drinks added, ended 01:10"; for a merge
    /// "… — merged: both devices added entries; recomputed"; without words, the field changes
    /// ("waterline/notes.json — /mood: "ok" → "good"").
    package var sentence: String {
        let words: String
        if merged {
            words = "merged: " + details.joined(separator: "; ")
        } else if !details.isEmpty {
            words = details.joined(separator: ", ")
        } else if !fields.isEmpty {
            let shown = fields.prefix(Self.fieldsShown).map(\.text)
            words = shown.joined(separator: "; ") + (fields.count > Self.fieldsShown ? "; and \(fields.count - Self.fieldsShown) more" : "")
        } else {
            words = "changed"
        }
        return (app.map { $0.title + ": " } ?? "") + subject + " — " + words
    }

    /// How many field changes a sentence names before "and N more".
    static let fieldsShown = 4
}

/// One field that changed between two versions of a document.
package struct FieldChange: Sendable, Equatable {
    package var pointer: JSONPointer
    /// The value before and after (nil: absent).
    package var old: JSONValue?
    package var new: JSONValue?

    package init(pointer: JSONPointer, old: JSONValue?, new: JSONValue?) {
        self.pointer = pointer
        self.old = old
        self.new = new
    }

    /// `/entries/2/timestamp: "…" → "…"`, `/note: added "x"`, `/note: removed "x"`.
    package var text: String {
        let at = pointer.isRoot ? "/" : pointer.description
        switch (old, new) {
        case (nil, let n?): return "\(at): added \(Self.short(n))"
        case (let o?, nil): return "\(at): removed \(Self.short(o))"
        case (let o?, let n?): return "\(at): \(Self.short(o)) → \(Self.short(n))"
        case (nil, nil): return "\(at): changed"
        }
    }

    static func short(_ v: JSONValue) -> String {
        let s = CanonicalJSON.compact(v)
        return s.count > 60 ? String(s.prefix(57)) + "…" : s
    }

    /// How arrays are compared.
    package enum Arrays: Sendable {
        /// Elements matched by `id` when every element is an object with a distinct one, else
        /// by index (a pointer names the element's index in the version that has it).
        case byID
        /// By index when both have as many elements, else the array as a whole.
        case sameLength
    }

    /// Every difference between two versions, innermost: members by key, arrays as `arrays`
    /// says. At most `limit`.
    package static func between(_ old: JSONValue?, _ new: JSONValue?, arrays: Arrays = .byID, limit: Int = 200) -> [FieldChange] {
        var out: [FieldChange] = []
        walk(old, new, .root, arrays, &out, limit)
        return out
    }

    private static func walk(_ a: JSONValue?, _ b: JSONValue?, _ p: JSONPointer, _ arrays: Arrays, _ out: inout [FieldChange], _ limit: Int) {
        guard out.count < limit, a != b else { return }
        switch (a, b) {
        case (.object(let x)?, .object(let y)?):
            for key in Set(x.keys).union(y.keys).sorted(by: { Bytes.precedes($0, $1) }) {
                walk(x[key], y[key], p.appending(key), arrays, &out, limit)
            }
        case (.array(let x)?, .array(let y)?) where arrays == .byID || x.count == y.count:
            if arrays == .byID, let xi = ids(x), let yi = ids(y) {
                for (i, v) in y.enumerated() { walk(xi[v["id"]!.stringValue!].map { x[$0] }, v, p.appending(i), arrays, &out, limit) }
                for (i, v) in x.enumerated() where yi[v["id"]!.stringValue!] == nil { walk(v, nil, p.appending(i), arrays, &out, limit) }
            } else {
                for i in 0..<max(x.count, y.count) {
                    walk(i < x.count ? x[i] : nil, i < y.count ? y[i] : nil, p.appending(i), arrays, &out, limit)
                }
            }
        default:
            out.append(FieldChange(pointer: p, old: a, new: b))
        }
    }

    /// Each element's index by its `id`, when every element is an object with a distinct one.
    private static func ids(_ array: [JSONValue]) -> [String: Int]? {
        var out: [String: Int] = [:]
        for (i, v) in array.enumerated() {
            guard let id = v["id"]?.stringValue, out.updateValue(i, forKey: id) == nil else { return nil }
        }
        return out
    }
}

/// A kind of document whose changes its app tells in its own words. Conform a
/// `StoredDocument` in its app's `<App>Story.swift`; kinds that do not are told field by field.
package protocol NarratedDocument: StoredDocument {
    /// What a person calls the document: "night of Sat 21 Nov", "recipe Morning V60".
    var subject: String { get }
    /// Plain fields told by name: top-level key → how ("dose" in g).
    static var fieldWords: [String: FieldWords] { get }
    /// Top-level fields `events` tells, or derived from others: not told again field by field.
    static var toldFields: Set<String> { get }
    /// What happened between two versions (nil: the document is new, or deleted), beyond the
    /// plain fields: "2 drinks added", "ended 01:10".
    static func events(from old: Self?, to new: Self) -> [String]
    /// What a merge of `ours` and `theirs` into `result` did: "both devices added entries".
    static func mergeEvents(ours: Self, theirs: Self, result: Self) -> [String]
}

extension NarratedDocument {
    package static var fieldWords: [String: FieldWords] { [:] }
    package static var toldFields: Set<String> { [] }
    package static func events(from old: Self?, to new: Self) -> [String] { [] }
    package static func mergeEvents(ours: Self, theirs: Self, result: Self) -> [String] { [] }
}

/// How a plain field is told: "dose 15 → 18 g", "grind medium → fine".
package struct FieldWords: Sendable {
    package var label: String
    package var unit: String?

    package init(_ label: String, unit: String? = nil) {
        self.label = label
        self.unit = unit
    }

    /// "dose 15 → 18 g"; "note set to …" / "note removed" for optional fields.
    func tell(_ old: JSONValue?, _ new: JSONValue?) -> String {
        let u = unit.map { " " + $0 } ?? ""
        switch (old, new) {
        case (nil, let n?), (.null?, let n?): return "\(label) set to \(Self.show(n))\(u)"
        case (_?, nil), (_?, .null?): return "\(label) removed"
        case (let o?, let n?): return "\(label) \(Self.show(o)) → \(Self.show(n))\(u)"
        case (nil, nil): return label
        }
    }

    static func show(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): s
        case .number(let n): CanonicalJSON.formatNumber(n)
        case .bool(let b): b ? "on" : "off"
        default: FieldChange.short(v)
        }
    }
}

/// The words every app's stories share: days and clock times as recorded, counts.
package enum StoryWords {
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "Sat 21 Nov" (the history names the year of each commit).
    package static func day(_ d: LocalDate) -> String { "\(weekdays[d.isoWeekday - 1]) \(d.day) \(months[d.month - 1])" }

    /// "01:10", on the clock where it was recorded.
    package static func clock(_ t: Timestamp) -> String {
        let l = t.local
        return (l.hour < 10 ? "0" : "") + "\(l.hour):" + (l.minute < 10 ? "0" : "") + "\(l.minute)"
    }

    /// "1 drink", "2 drinks"; `plural` when it is not `word` + "s".
    package static func count(_ n: Int, _ word: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? word : plural ?? word + "s")"
    }
}

/// Tells documents' changes: the kind's words when it has them, the field changes always.
package enum DocumentStories {
    /// Top-level fields never told on their own: bookkeeping every write changes.
    static let silentFields: Set<String> = ["createdAt", "updatedAt"]

    /// The change of the file at `path` (relative to the ledger) from `old` to `new` (nil:
    /// absent; the bytes as stored, which need not be valid JSON). `forkedFrom`: for a recipe's
    /// conflicted copy added, the recipe it was forked from beside it (`conflictedCopyName`),
    /// whose difference from the copy tells the fork.
    package static func tell(path: String, old: [UInt8]?, new: [UInt8]?, forkedFrom: [UInt8]? = nil,
                             schema: DocumentSchema = LedgerSchema.standard) -> DocumentStory {
        let o = old.flatMap { try? JSONParser.parse($0) }, n = new.flatMap { try? JSONParser.parse($0) }
        var role = PathRole(path: path, schema: schema)
        // A conflict file of a file of your own (`notes.conflict-1a2b3c4d.txt`) is one too.
        if case .other = role, ConflictStore.isConflictFile(String(path.split(separator: "/").last ?? "")) {
            role = .conflictCopy(original: ConflictStore.originalPath(of: path))
        }
        switch role {
        case .document(let type):
            let fields = (old != nil && new != nil) ? FieldChange.between(o, n) : []
            if let narrator = type.narrator, let told = narrator.tell(o, n) {
                var details = told.details
                if old == nil, let forkedFrom, let n, type.kind == Recipe.kind, Recipe.isConflictedCopy(n["name"]?.stringValue ?? "") {
                    details = Recipe.forkEvents(ConflictStore.copyDifference(recipe: try? JSONParser.parse(forkedFrom), copy: n))
                }
                return DocumentStory(app: type.kind.app, subject: told.subject, details: details, fields: fields)
            }
            return DocumentStory(app: type.kind.app, subject: path, details: presence(old, new), fields: fields)
        case .attachment:
            return DocumentStory(app: app(of: path), subject: "photo " + (path.split(separator: "/").last.map(String.init) ?? path),
                                 details: presence(old, new), fields: [])
        case .conflictCopy(let original):
            let what = new == nil ? "resolved (removed)" : "the other device's version, kept beside it: it could not be merged"
            return DocumentStory(app: app(of: path), subject: "conflict file for \(original)", details: [what], fields: [])
        case .other:
            let fields = (o != nil && n != nil) ? FieldChange.between(o, n) : []
            let details = old == nil || new == nil || fields.isEmpty ? presence(old, new) : []
            return DocumentStory(app: path.contains("/") ? app(of: path) : nil, subject: path, details: details, fields: fields)
        }
    }

    /// When `new`, the file at `path`, is a recipe's conflicted copy, its name ("Morning V60
    /// (Conflicted Copy)"): the recipe it was forked from is the one beside it that
    /// `Recipe.isForkOrigin` names, to pass to `tell` as `forkedFrom`.
    package static func conflictedCopyName(path: String, new: [UInt8]?, schema: DocumentSchema = LedgerSchema.standard) -> String? {
        guard case .document(let type) = PathRole(path: path, schema: schema), type.kind == Recipe.kind,
              let new, let name = (try? JSONParser.parse(new))?["name"]?.stringValue, Recipe.isConflictedCopy(name) else { return nil }
        return name
    }

    /// What a merge made of a document both machines changed: `ours` and `theirs` are the
    /// versions merged (the merge's first and second parents), `result` what it made.
    package static func tellMerge(path: String, ours: [UInt8]?, theirs: [UInt8]?, result: [UInt8]?,
                                  schema: DocumentSchema = LedgerSchema.standard) -> DocumentStory {
        var story = tell(path: path, old: ours, new: result, schema: schema)
        story.merged = true
        let o = ours.flatMap { try? JSONParser.parse($0) }, t = theirs.flatMap { try? JSONParser.parse($0) }
        let r = result.flatMap { try? JSONParser.parse($0) }
        if case .document(let type) = PathRole(path: path, schema: schema), let o, let t, let r,
           let words = type.narrator?.merge(o, t, r), !words.isEmpty {
            story.details = words
        } else if result == nil {
            story.details = ["deleted on both devices"]
        } else if ours == nil || theirs == nil {
            story.details = ["deleted on one device and changed on the other: the change kept"]
        } else if result == ours || result == theirs {
            // A file with no merge rule (one of your own) is kept whole: nothing was merged.
            story.details = ["changed on both devices: \(result == ours ? "the merging device's" : "the other device's") version kept"]
        } else {
            story.details = ["both devices changed it; merged field by field"]
        }
        return story
    }

    static func presence(_ old: [UInt8]?, _ new: [UInt8]?) -> [String] {
        switch (old, new) {
        case (nil, _?): ["added"]
        case (_?, nil): ["deleted"]
        default: ["changed"]
        }
    }

    static func app(of path: String) -> AppID? { path.split(separator: "/").first.flatMap { AppID(rawValue: String($0)) } }
}

/// A kind's words, with its type erased (held by `DocumentType`).
package struct Narrator: Sendable {
    let tell: @Sendable (JSONValue?, JSONValue?) -> (subject: String, details: [String])?
    let merge: @Sendable (JSONValue, JSONValue, JSONValue) -> [String]?

    init<D: NarratedDocument>(_: D.Type) {
        tell = { old, new in
            var ignored: [DocumentIssue] = []
            let o = old.flatMap { D.decode($0, at: .root, issues: &ignored) }
            let n = new.flatMap { D.decode($0, at: .root, issues: &ignored) }
            guard old == nil || o != nil, new == nil || n != nil, let subject = (n ?? o)?.subject else { return nil }
            guard let n else { return (subject, ["deleted"]) }
            var details = D.events(from: o, to: n)
            guard o != nil, let before = old?.objectValue, let after = new?.objectValue else {
                return (subject, details.isEmpty ? ["added"] : details)
            }
            var rest: [String] = []
            for key in Set(before.keys).union(after.keys).sorted(by: { Bytes.precedes($0, $1) }) where before[key] != after[key] {
                if let words = D.fieldWords[key] {
                    details.append(words.tell(before[key], after[key]))
                } else if !D.toldFields.contains(key), !DocumentStories.silentFields.contains(key) {
                    rest += FieldChange.between(before[key], after[key]).map { change in
                        var c = change
                        c.pointer = JSONPointer(tokens: [key] + change.pointer.tokens)
                        return c.text
                    }
                }
            }
            return (subject, details + rest)
        }
        merge = { ours, theirs, result in
            var ignored: [DocumentIssue] = []
            guard let o = D.decode(ours, at: .root, issues: &ignored), let t = D.decode(theirs, at: .root, issues: &ignored),
                  let r = D.decode(result, at: .root, issues: &ignored) else { return nil }
            return D.mergeEvents(ours: o, theirs: t, result: r)
        }
    }
}

extension JSONValue {
    /// The value `pointer` names (array elements by index), or nil when there is none.
    package func value(at pointer: JSONPointer) -> JSONValue? {
        var v: JSONValue? = self
        for t in pointer.tokens {
            switch v {
            case .object(let o)?: v = o[t]
            case .array(let a)?: v = Int(t).flatMap { a.indices.contains($0) ? a[$0] : nil }
            default: return nil
            }
        }
        return v
    }
}
