import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `ledger schema` against `ledger check`: Python's `jsonschema` (draft 2020-12) and ledger
/// judge the same documents — every kind's valid documents from sample-data and hundreds of
/// mutations of them — and must agree on everything a schema states; every problem check
/// reports is placed at the value its pointer names (read back by Python's own JSON reader).
@Suite struct SchemaAgreementTests {
    /// One document as `jsonschema` and `ledger check` saw it.
    struct Case {
        var name: String
        var kind: String
        var path: String
        var text: String
        var json: JSONValue
    }

    @Test func jsonschemaAndCheckAgreeOnEveryDocumentAndMutation() throws {
        let ledger = try MomentsFixture.sampleLedger()
        let types = LedgerSchema.documentTypes
        // One valid document of every kind (the first in file order), and its mutations.
        var cases: [Case] = []
        // Kinds sample-data has no document of: one written as ledger writes it.
        for (path, text) in Self.extraSamples { try ledger.write(path, text) }
        for t in types {
            let path = try #require((t.kind.app == .ledger ? ["ledger.json"] + ledger.files(under: "purges") : ledger.files(under: t.kind.app.rawValue))
                .first { LedgerSchema.standard.documentType(forPath: $0)?.kind.name == t.kind.name }, "no sample of \(t.kind.name)")
            let json = try #require(ledger.document(path))
            cases.append(Case(name: "\(cases.count)", kind: t.kind.name, path: path, text: CanonicalJSON.string(json), json: json))
            for (i, mutated) in Self.mutations(of: json).enumerated() {
                // Every other one written on one line, so columns are tested too.
                let canonical = CanonicalJSON.string(mutated)
                let text = i % 2 == 0 ? canonical : Self.oneLine(canonical)
                cases.append(Case(name: "\(cases.count)", kind: t.kind.name, path: path, text: text, json: mutated))
            }
        }
        // What ledger says of each, through `ledger check PATH` on the ledger.
        var checked: [String: JSONValue] = [:]
        for c in cases {
            let original = ledger.read(c.path)!
            try ledger.write(c.path, c.text)
            let r = ledger.run("check", "--json", "--no-cache", c.path)
            try ledger.write(c.path, original)
            checked[c.name] = r.json["problems"] ?? .array([])
        }
        // What jsonschema says, and whether each placed problem reads back as its value.
        let dir = ledger.directory.path + "/agreement"
        try FileManager.default.createDirectory(atPath: dir + "/schemas", withIntermediateDirectories: true)
        #expect(ledger.run("schema", "--write", dir + "/schemas").status == 0)
        var manifest = JSONObject()
        for c in cases {
            try c.text.write(toFile: dir + "/\(c.name).json", atomically: false, encoding: .utf8)
            manifest[c.name] = ["kind": .string(c.kind), "problems": checked[c.name]!]
        }
        try CanonicalJSON.string(.object(manifest)).write(toFile: dir + "/manifest.json", atomically: false, encoding: .utf8)
        try Self.python.write(toFile: dir + "/agree.py", atomically: false, encoding: .utf8)
        let py = try Processes.run("/usr/bin/env", ["python3", dir + "/agree.py", dir])
        try #require(py.status == 0, "python3 with jsonschema is needed (scripts/install-deps.sh test installs it): \(py)")
        let verdicts = try #require(py.json.objectValue)

        var invalid = 0
        for c in cases {
            let type = try #require(LedgerSchema.standard.documentType(named: c.kind))
            let verdict = try #require(verdicts[c.name])
            let schemaPointers = Set(verdict["pointers"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            let fieldIssues = type.fieldIssues(c.json)
            let ledgerPointers = Set(fieldIssues.map(\.pointer.description))
            let label = "\(c.kind) #\(c.name): \(Self.oneLine(c.text).prefix(400))\nschema: \(verdict)\nledger: \(fieldIssues.map { "\($0.pointer) \($0.message)" })"
            // The same documents are invalid …
            #expect(schemaPointers.isEmpty == fieldIssues.isEmpty, "\(label)")
            if !fieldIssues.isEmpty { invalid += 1 }
            // … at the same places: whatever ledger says the schema says; and when the types are
            // right (ledger reads the document), whatever the schema says ledger says (with a
            // wrong type, ledger tells that first and the value rules once it is right).
            #expect(ledgerPointers.isSubset(of: schemaPointers), "\(label)")
            if type.inspect(c.json).normalized != nil { #expect(schemaPointers.isSubset(of: ledgerPointers), "\(label)") }
            // `ledger check` reports every one of them, placed.
            let problems = checked[c.name]?.arrayValue ?? []
            for issue in fieldIssues {
                #expect(problems.contains { $0["pointer"]?.stringValue == issue.pointer.description && $0["message"]?.stringValue == issue.message
                    && $0["line"] != nil && $0["column"] != nil }, "\(label)")
            }
            // Every problem's line:column reads back as the value its pointer names.
            #expect(verdict["misplaced"]?.arrayValue?.isEmpty ?? false, "\(label)")
        }
        #expect(invalid >= 200, "only \(invalid) invalid documents")
    }

    /// Rules only ledger checks — relating several values or documents, derived values — are
    /// not in the schemas: each of these documents is valid by its schema and refused by
    /// `ledger check` at the pointer named (docs/editors.md lists them).
    @Test(arguments: [
        ("waterline/sessions/2026/buhxybs493.json", "/endTime", #"{"endTime": "2026-11-14T19:00:00+01:00"}"#),
        ("waterline/sessions/2026/8hsfejacda.json", "/isActive", #"{"isActive": false}"#),
        ("brew/recipes/xgv3dvhlnd.json", "/steps", #"{"defaultTargetYield": 900}"#),
        ("hydrate/schedule.json", "/followUpIntervalMinutes", #"{"followUpIntervalMinutes": 200}"#),
        ("hydrate/schedule.json", "/endTime", #"{"endTime": "08:00", "startTime": "08:00"}"#),
        ("waterline/settings.json", "/defaultWaterAmount", #"{"defaultWaterAmount": 100, "units": "oz"}"#),
    ])
    func rulesOnlyLedgerChecks(path: String, pointer: String, change: String) throws {
        let ledger = try MomentsFixture.sampleLedger()
        guard case .object(var document)? = ledger.document(path), case .object(let patch) = try JSONParser.parse(change) else {
            Issue.record("\(path) is not in sample-data")
            return
        }
        for member in patch { document[member.key] = member.value }
        try ledger.write(path, CanonicalJSON.string(.object(document)))
        let type = try #require(LedgerSchema.standard.documentType(forPath: path))
        #expect(type.fieldIssues(.object(document)).isEmpty, "the schema accepts it")
        let r = ledger.run("check", "--json", path)
        #expect(r.json["problems"]?.arrayValue?.contains { $0["pointer"]?.stringValue == pointer && $0["severity"]?.stringValue == "error" } == true, "\(r)")
    }

    /// Documents of the kinds sample-data holds none of, by path: the record a purge of the
    /// Waterline leaves (`ledger purge waterline`).
    static let extraSamples: [(String, String)] = [
        ("purges/p0rg3rec01.json", """
            {
              "blobs": [
                "0123456789abcdef0123456789abcdef01234567"
              ],
              "commitsRewritten": 3,
              "createdAt": "2026-11-21T22:00:00+01:00",
              "deviceId": "k3f9x2ab7q",
              "deviceName": "laptop-k3f9",
              "folders": [
                "waterline"
              ],
              "id": "p0rg3rec01",
              "paths": [],
              "previousHead": "89abcdef0123456789abcdef0123456789abcdef",
              "target": "waterline",
              "updatedAt": "2026-11-21T22:00:00+01:00"
            }

            """),
    ]

    // MARK: - Mutations

    /// Values that break types, ranges, lengths and shapes, tried at every member.
    static let replacements: [JSONValue] = [
        .null, .bool(true), .number(-1), .number(0), .number(0.04), .number(2.5), .number(101), .number(1441), .number(1e16),
        .string(""), .string(" "), .string("fifteen"), .string("Bad ID!"), .string("2026-02-30"), .string("2024-02-29"),
        .string("2026-11-21T25:00:00+01:00"), .string("2026-11-21T23:41:07Z"), .string("24:00"), .string("line\nbreak"),
        .string(String(repeating: "x", count: 300)), .array([]), .object(JSONObject()),
    ]

    /// The document with one member removed, replaced, or one added — at every depth.
    static func mutations(of json: JSONValue) -> [JSONValue] {
        var out: [JSONValue] = []
        func visit(_ pointer: [String], _ value: JSONValue) {
            switch value {
            case .object(let o):
                out.append(set(json, pointer + ["colour"], .string("blue")))
                for m in o {
                    out.append(set(json, pointer + [m.key], nil))
                    visit(pointer + [m.key], m.value)
                }
            case .array(let a):
                for (i, e) in a.prefix(2).enumerated() { visit(pointer + [String(i)], e) }
            default:
                break
            }
            guard !pointer.isEmpty else { return }
            for r in replacements where r != value { out.append(set(json, pointer, r)) }
        }
        visit([], json)
        out.append(set(json, ["$schema"], .string("https://example.org/any.schema.json")))
        out.append(set(json, ["$schema"], .number(7)))
        return out
    }

    /// `json` with the value at `pointer` set (nil: removed).
    static func set(_ json: JSONValue, _ pointer: [String], _ value: JSONValue?) -> JSONValue {
        guard let first = pointer.first else { return value ?? .null }
        switch json {
        case .object(var o):
            o[first] = pointer.count == 1 ? value : set(o[first] ?? .null, Array(pointer.dropFirst()), value)
            return .object(o)
        case .array(var a):
            let i = Int(first)!
            if pointer.count == 1, value == nil { a.remove(at: i) } else { a[i] = set(a[i], Array(pointer.dropFirst()), value) }
            return .array(a)
        default:
            return json
        }
    }

    /// Canonical JSON on one line (no raw line break is inside a string: they are escaped).
    static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: #"\n *"#, with: "", options: .regularExpression) + "\n"
    }

    /// For each document: the JSON pointers `jsonschema` finds errors at (a missing or unknown
    /// member at the member), and the problems whose line:column does not read back as the
    /// value their pointer names (or the closest value around it that is there).
    static let python = #"""
    import json, sys
    from jsonschema import Draft202012Validator
    d = sys.argv[1]
    manifest = json.load(open(d + "/manifest.json"))
    validators = {}
    def ptr(path):
        return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)
    def errors(e, instance):
        if e.context:
            for c in e.context: yield from errors(c, instance)
            return
        path = list(e.absolute_path)
        if e.validator == "required":
            for name in e.validator_value:
                if isinstance(e.instance, dict) and name not in e.instance: yield ptr(path + [name])
        elif e.validator == "additionalProperties":
            props = e.schema.get("properties", {})
            for name in e.instance:
                if name not in props: yield ptr(path + [name])
        else:
            yield ptr(path)
    def resolve(doc, pointer):
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]] if pointer else []
        for t in tokens:
            if isinstance(doc, dict) and t in doc: doc = doc[t]
            elif isinstance(doc, list) and t.isdigit() and int(t) < len(doc): doc = doc[int(t)]
            else: break
        return doc
    out = {}
    for name, entry in manifest.items():
        text = open(d + "/" + name + ".json", encoding="utf-8").read()
        doc = json.loads(text)
        kind = entry["kind"]
        if kind not in validators:
            validators[kind] = Draft202012Validator(json.load(open(d + "/schemas/" + kind + ".schema.json")))
        pointers = sorted({p for e in validators[kind].iter_errors(doc) for p in errors(e, doc)})
        lines = text.split("\n")
        misplaced = []
        for p in entry["problems"]:
            if "line" not in p:
                misplaced.append(p); continue
            index = sum(len(l) + 1 for l in lines[:p["line"] - 1]) + p["column"] - 1
            try:
                value, _ = json.JSONDecoder().raw_decode(text, index)
            except ValueError:
                misplaced.append(p); continue
            if value != resolve(doc, p["pointer"]): misplaced.append(p)
        out[name] = {"pointers": pointers, "misplaced": misplaced}
    print(json.dumps(out))
    """#
}
