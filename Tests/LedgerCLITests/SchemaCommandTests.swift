import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `ledger schema`: printing, writing, the VS Code association, and `$schema` in documents.
@Suite struct SchemaCommandTests {
    @Test func printsOneKindByNameOrPathAndEveryKindWithout() throws {
        let ledger = try TestLedger()
        let all = ledger.run("schema")
        #expect(all.status == 0, "\(all)")
        let kinds = Set(all.json.objectValue?.keys.map { $0 } ?? [])
        #expect(kinds == Set(LedgerSchema.documentTypes.map(\.kind.name)))
        let byName = ledger.run("schema", "waterline.settings")
        #expect(byName.json["$schema"] == .string("https://json-schema.org/draft/2020-12/schema"))
        #expect(byName.json["properties"]?["waterEveryNDrinks"]?["minimum"] == .number(1), "\(byName.stdout)")
        #expect(ledger.run("schema", "waterline/settings.json").stdout == byName.stdout)
        #expect(ledger.run("schema", ledger.root + "/waterline/settings.json").stdout == byName.stdout)
        let wrong = ledger.run("schema", "waterline.setings")
        #expect(wrong.status == 2 && wrong.stderr.contains("did you mean"), "\(wrong)")
    }

    /// A near miss of a kind's part is answered with the kinds it may mean, as a near miss of
    /// a whole name is; `--write` where a file is names it, exits 1 and writes nothing.
    @Test func nearMissesAreSuggestedAndAFileIsNoFolderToWriteInto() throws {
        let ledger = try TestLedger()
        let moment = ledger.run("schema", "moment")
        #expect(moment.status == 2 && moment.stderr.contains("(did you mean 'moments.experience' or 'moments.settings'?)"), "\(moment)")
        let session = ledger.run("schema", "sesion")
        #expect(session.status == 2 && session.stderr.contains("(did you mean 'waterline.session'?)"), "\(session)")
        let file = ledger.directory.path + "/schemas"
        try "mine\n".write(toFile: file, atomically: true, encoding: .utf8)
        for target in [file, file + "/editor"] {
            let r = ledger.run("schema", "--write", target)
            #expect(r.status == 1 && r.stderr.contains("--write \(target): \(file) is a file, not a folder"), "\(r)")
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "mine\n")
    }

    @Test func writeAndVSCodeAssociateEveryKindAndKeepTheUsersSettings() throws {
        let ledger = try TestLedger()
        let dir = ledger.directory.path + "/schemas"
        #expect(ledger.run("schema", "--write", dir).status == 0)
        let written = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(written == LedgerSchema.documentTypes.map { $0.kind.name + ".schema.json" }.sorted())

        try FileManager.default.createDirectory(atPath: ledger.root + "/.vscode", withIntermediateDirectories: true)
        try ledger.write(".vscode/settings.json", #"{"editor.tabSize": 2, "json.schemas": [{"fileMatch": ["/mine.json"], "url": "./mine.schema.json"}]}"#)
        let r = ledger.run("schema", "--vscode")
        #expect(r.status == 0, "\(r)")
        let settings = try #require(ledger.document(".vscode/settings.json"))
        #expect(settings["editor.tabSize"] == .number(2))
        let associations = settings["json.schemas"]?.arrayValue ?? []
        #expect(associations.count == 1 + LedgerSchema.documentTypes.count)
        let session = associations.first { $0["url"] == .string("./.vscode/ledger-schemas/waterline.session.schema.json") }
        #expect(session?["fileMatch"] == .array([.string("/waterline/sessions/*/*.json")]), "\(associations)")
        // Again (after an upgrade): ours replaced, not doubled.
        #expect(ledger.run("schema", "--vscode").status == 0)
        #expect(ledger.document(".vscode/settings.json")?["json.schemas"]?.arrayValue?.count == 1 + LedgerSchema.documentTypes.count)
        // Each association's pattern matches that kind's files in the ledger.
        for a in associations where a["url"]?.stringValue?.hasPrefix("./.vscode/") == true {
            let url = try #require(a["url"]?.stringValue)
            #expect(FileManager.default.fileExists(atPath: ledger.root + "/" + url.dropFirst(2)), "\(url)")
        }
        // The schemas are hidden files: not data, not synced, not checked.
        #expect(ledger.run("check").status == 0)
        // A settings file with comments (VS Code allows them) is not rewritten.
        let jsonc = "{\n  // mine\n  \"editor.tabSize\": 4\n}\n"
        try ledger.write(".vscode/settings.json", jsonc)
        let refused = ledger.run("schema", "--vscode")
        #expect(refused.status == 1 && refused.stderr.contains("json.schemas"), "\(refused)")
        #expect(ledger.read(".vscode/settings.json") == jsonc)
    }

    /// `"$schema"` in a document is accepted, kept through the apps' writes and sorted first.
    @Test func schemaMemberIsKeptThroughWritesInCanonicalOrder() throws {
        let ledger = try TestLedger()
        let path = "waterline/settings.json"
        guard case .object(var settings)? = ledger.document(path) else { Issue.record("no settings"); return }
        settings["$schema"] = "../.vscode/ledger-schemas/waterline.settings.schema.json"
        try ledger.write(path, CanonicalJSON.string(.object(settings)))
        let check = ledger.run("check")
        #expect(check.status == 0 && check.stdout.hasSuffix("no problems.\n"), "\(check)")
        #expect(ledger.run("waterline", "settings", "set", "waterEveryNDrinks", "2").status == 0)
        let text = try #require(ledger.read(path))
        #expect(text.hasPrefix("{\n  \"$schema\": \"../.vscode/ledger-schemas/waterline.settings.schema.json\",\n"), "\(text)")
        #expect(ledger.document(path)?["waterEveryNDrinks"] == .number(2))
    }
}
