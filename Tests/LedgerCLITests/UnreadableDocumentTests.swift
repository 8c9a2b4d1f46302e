import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// A document ledger may not read — copied in with `sudo`, restored from a backup as another
/// user's, mode 600 — is named on its app's line of `ledger status`, as a document `check`
/// rejects is, and the other apps' lines are shown: the dashboard does not give up (it did,
/// exit status 4, on any one such file, a recipe included).
@Suite struct UnreadableDocumentTests {
    /// A night, a brew, a custom recipe, a moment and a glass of water: one document of each app.
    static func ledger() throws -> TestLedger {
        let ledger = try TestLedger()
        for args in [["waterline", "start"], ["waterline", "drink"], ["brew", "save", "--rating", "4"],
                     ["brew", "recipe", "duplicate", "v60-starter", "--name", "Mine"], ["moments", "add", "tea"], ["hydrate", "drank"]] {
            let r = ledger.run(arguments: args)
            #expect(r.status == 0, "\(args): \(r)")
        }
        return ledger
    }

    /// `ledger ARGS` run by a user whom a file of mode 000 refuses: this one, or — as root, whom
    /// no mode refuses — nobody (uid 65534, through util-linux's setpriv), the ledger handed over
    /// with a copy of the executable (the build directory may be closed to nobody, under /root).
    static func runRefused(_ ledger: TestLedger, _ arguments: [String]) throws -> CommandResult {
        guard getuid() == 0 else { return ledger.run(arguments: arguments) }
        let setpriv = try Processes.require("setpriv", package: "util-linux")
        let binary = ledger.directory.url("bin/ledger")
        if !FileManager.default.fileExists(atPath: binary) {
            try FileManager.default.createDirectory(atPath: ledger.directory.url("bin"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: LedgerBinary.path, toPath: binary)
            chmod(ledger.directory.path, 0o755)
            _ = try Processes.run("/bin/chown", ["-R", "65534:65534", ledger.directory.path])
        }
        return try Processes.run(setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments,
                                 environment: ledger.environment, currentDirectory: ledger.root)
    }

    @Test func eachAppsUnreadableDocumentIsNamedOnItsLine() throws {
        let ledger = try Self.ledger()
        let documents: [(String, String?)] = [
            (try #require(ledger.files(under: "waterline/sessions").first), "Waterline       "),
            (try #require(ledger.files(under: "brew/logs").first), "BrewGuide       "),
            (try #require(ledger.files(under: "moments/experiences").first), "DotLife Moments "),
            (try #require(ledger.files(under: "hydrate/days").first), "Water Reminder  "),
            (try #require(ledger.files(under: "brew/recipes").first), nil),  // status reads it for conflicted copies only
        ]
        for (path, line) in documents {
            chmod(ledger.root + "/" + path, 0o000)
            defer { chmod(ledger.root + "/" + path, 0o644) }
            let status = try Self.runRefused(ledger, ["status"])
            #expect(status.status == 0, "\(path): \(status)")
            if let line {
                #expect(status.stdout.contains(line + "cannot read \(path): Permission denied; see `ledger check`"), "\(path): \(status)")
            }
            let shown = status.stdout.split(separator: "\n").filter { $0.contains("cannot read") }
            #expect(shown.count == (line == nil ? 0 : 1), "the other apps' lines as usual: \(status)")
            #expect(status.stdout.contains("Conflicts       none"), "\(status)")
            let json = try Self.runRefused(ledger, ["status", "--json"])
            let app = ["Waterline       ": "waterline", "BrewGuide       ": "brew", "DotLife Moments ": "moments", "Water Reminder  ": "hydrate"]
            if let line, let key = app[line] {
                #expect(json.status == 0 && json.json[key]?["error"]?.stringValue == "cannot read \(path): Permission denied", "\(json)")
            }
        }
    }

    /// An unreadable recipe is listed as an invalid one, with the reason `check` gives, and the
    /// other recipes are listed; brewing it is refused naming the file.
    @Test func anUnreadableRecipeIsListedAsInvalid() throws {
        let ledger = try Self.ledger()
        let path = try #require(ledger.files(under: "brew/recipes").first)
        let id = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        chmod(ledger.root + "/" + path, 0o000)
        let list = try Self.runRefused(ledger, ["brew", "recipes", "--json"])
        let recipes = list.json.arrayValue ?? []
        #expect(list.status == 0 && recipes.count == 2, "\(list)")
        #expect(recipes.contains { $0["id"]?.stringValue == id && $0["valid"] == .bool(false) }, "\(list)")
        let text = try Self.runRefused(ledger, ["brew", "recipes"])
        #expect(text.stdout.contains("it cannot be brewed until fixed (`ledger brew recipe edit ID --editor`; a file ledger cannot read: make it readable, then `ledger check`)"), "\(text)")
        let plan = try Self.runRefused(ledger, ["brew", "plan", id])
        #expect(plan.status == 1 && plan.stderr.contains("\(path): /: error: cannot read \(path): Permission denied"), "\(plan)")
        // No edit through ledger can fix a file it cannot read: access to the file can.
        #expect(plan.stderr.contains("cannot be used: ledger cannot read its file; make \(path) readable by you") && !plan.stderr.contains("--editor"), "\(plan)")
    }
}
