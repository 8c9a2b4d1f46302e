import ArgumentParser
import Foundation
import LedgerKit

/// `ledger schema [KIND] [--write DIR | --vscode]`: the JSON Schemas of the document kinds,
/// generated from the field lists `check` uses.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schemas (draft 2020-12) of the document kinds, for editors.",
        discussion: """
            With KIND (a kind such as waterline.session, or a document's path), prints that \
            kind's schema; without, one object holding every kind's schema by name. --write \
            DIR writes each as DIR/KIND.schema.json. --vscode writes them into the ledger's \
            .vscode/ledger-schemas/ and associates them with the ledger's files in \
            .vscode/settings.json (json.schemas), so that VS Code checks documents as they \
            are typed; nothing is written into a ledger otherwise. A document may also name \
            its schema itself with "$schema", which ledger keeps. A schema states each value \
            on its own; `ledger check` also checks what relates several values or documents \
            (docs/editors.md lists those rules).
            """)

    @Argument(help: ArgumentHelp("A document kind (waterline.session) or a document's path; default: every kind.", valueName: "kind"),
              completion: .list(LedgerSchema.documentTypes.map(\.kind.name)))
    var kind: String?

    @Option(help: ArgumentHelp("Write each schema as DIR/KIND.schema.json instead of printing.", valueName: "dir"),
            completion: .directory)
    var write: String?

    @Flag(help: "Write the schemas into the ledger's .vscode/ and associate them with its files in .vscode/settings.json.")
    var vscode = false

    @OptionGroup var global: GlobalOptions

    /// Where `--vscode` puts the schemas, relative to the ledger root.
    static let vscodeDirectory = ".vscode/ledger-schemas"

    func validate() throws {
        if vscode, write != nil { throw LedgerError.usage("--vscode writes the schemas into the ledger's .vscode/; give --write or --vscode, not both") }
        if vscode, kind != nil { throw LedgerError.usage("--vscode associates every kind; leave out KIND") }
    }

    func run() throws {
        let types = try chosenTypes()
        if vscode { return try writeVSCode(types) }
        if let write {
            let dir = CLIContext.current.absolutePath(write)
            try Self.refuseFile(on: dir, given: write)
            for t in types { Console.print("wrote " + (try Self.writeSchema(t, in: dir))) }
            return
        }
        if kind != nil, let t = types.first { return Output.json(.object(t.jsonSchema)) }
        var all = JSONObject()
        for t in types { all[t.kind.name] = .object(t.jsonSchema) }
        Output.json(.object(all))
    }

    /// The kinds asked for: one by name or by a document's path, else all.
    func chosenTypes() throws -> [DocumentType] {
        let all = LedgerSchema.documentTypes
        guard let kind else { return all }
        if let t = all.first(where: { $0.kind.name == kind }) { return [t] }
        var path = kind
        if path.hasPrefix("/") || path.hasPrefix(".") {
            let root = global.repositoryPath()
            let absolute = CLIContext.current.absolutePath(path)
            if absolute.hasPrefix(root + "/") { path = String(absolute.dropFirst(root.count + 1)) }
        }
        if let t = LedgerSchema.standard.documentType(forPath: path) { return [t] }
        let names = all.map(\.kind.name)
        throw LedgerError.usage("there is no document kind \"\(kind)\"\(Suggestion.didYouMean(kind, amongDotted: names)); the kinds are \(names.joined(separator: ", "))")
    }

    /// Refuses `--write` where a file is: at `dir` itself or on its way (exit 1, as `init`
    /// and `clone` refuse a file where their folder goes), before anything is written.
    static func refuseFile(on dir: String, given: String) throws {
        var path = dir
        while !path.isEmpty, path != "/", FileSystem.stamp(following: path) == nil { path = (path as NSString).deletingLastPathComponent }
        guard let stamp = FileSystem.stamp(following: path), stamp.type != .directory else { return }
        throw LedgerError.invalid("--write \(given): \(path) is a file, not a folder; give a folder to write the schemas into (nothing was written)")
    }

    /// Writes `type`'s schema as DIR/KIND.schema.json; the path written.
    static func writeSchema(_ type: DocumentType, in dir: String) throws -> String {
        let path = dir + "/" + type.kind.name + ".schema.json"
        try FileSystem.writeAtomically(path, CanonicalJSON.encode(.object(type.jsonSchema)))
        return path
    }

    /// The schemas in `.vscode/ledger-schemas/` and their association in `.vscode/settings.json`,
    /// by paths relative to the ledger, so that they hold on every device the ledger syncs to.
    func writeVSCode(_ types: [DocumentType]) throws {
        let root = try global.store(readable: false).root
        let dir = root + "/" + Self.vscodeDirectory
        for t in types { _ = try Self.writeSchema(t, in: dir) }
        let settingsPath = root + "/.vscode/settings.json"
        var settings = JSONObject()
        if let bytes = try FileSystem.read(settingsPath) {
            guard case .object(let o)? = try? JSONParser.parse(bytes) else {
                throw LedgerError.invalid("""
                    .vscode/settings.json is not plain JSON (VS Code allows comments and trailing commas there, ledger does not \
                    rewrite such a file); the schemas are in \(Self.vscodeDirectory)/: add to its "json.schemas" by hand:
                    \(CanonicalJSON.string(.array(Self.associations(types))))
                    """)
            }
            settings = o
        }
        // Our associations replace the ones we wrote before; the user's own stay.
        let ours = "./" + Self.vscodeDirectory + "/"
        let kept = (settings["json.schemas"]?.arrayValue ?? []).filter { !($0["url"]?.stringValue?.hasPrefix(ours) ?? false) }
        settings["json.schemas"] = .array(kept + Self.associations(types))
        try FileSystem.writeAtomically(settingsPath, CanonicalJSON.encode(.object(settings)))
        Console.print("wrote \(types.count) schemas in \(dir)")
        Console.print("associated them with the ledger's files in \(settingsPath)")
    }

    /// VS Code's `json.schemas` entries: each kind's files, and its schema relative to the workspace.
    static func associations(_ types: [DocumentType]) -> [JSONValue] {
        types.map { t in
            ["fileMatch": [.string("/" + t.filePattern)], "url": .string("./\(vscodeDirectory)/\(t.kind.name).schema.json")]
        }
    }
}
