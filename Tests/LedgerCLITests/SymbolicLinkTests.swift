import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// Nothing inside a ledger is followed if it is a symbolic link: a folder replaced by a link
/// to a folder outside (as a cloned repository or a hand-made "move to Dropbox" can leave it)
/// is never written through — the command is refused with exit status 1, naming the link and
/// what `check` says about it — and never read through.
@Suite struct SymbolicLinkTests {
    /// Where each app writes the document its command creates, and the command.
    struct Case: Sendable, CustomStringConvertible {
        var link: String
        var arguments: [String]
        var description: String { "\(arguments.joined(separator: " ")) with \(link) linked" }
    }

    static let cases: [Case] = [
        // app folder, collection folder, year shard (and month for moments)
        Case(link: "hydrate", arguments: ["hydrate", "drank"]),
        Case(link: "hydrate/days", arguments: ["hydrate", "drank"]),
        Case(link: "hydrate/days/2026", arguments: ["hydrate", "drank"]),
        Case(link: "brew", arguments: ["brew", "save", "--rating", "4"]),
        Case(link: "brew/logs", arguments: ["brew", "save", "--rating", "4"]),
        Case(link: "brew/logs/2026", arguments: ["brew", "save", "--rating", "4"]),
        Case(link: "moments", arguments: ["moments", "add", "a walk"]),
        Case(link: "moments/experiences", arguments: ["moments", "add", "a walk"]),
        Case(link: "moments/experiences/2026", arguments: ["moments", "add", "a walk"]),
        Case(link: "moments/experiences/2026/11", arguments: ["moments", "add", "a walk"]),
        Case(link: "waterline", arguments: ["waterline", "drink", "--preset", "beer"]),
        Case(link: "waterline/sessions", arguments: ["waterline", "drink", "--preset", "beer"]),
        Case(link: "waterline/sessions/2026", arguments: ["waterline", "drink", "--preset", "beer"]),
        Case(link: "waterline/sessions", arguments: ["waterline", "start"]),
        Case(link: "waterline/sessions/2026", arguments: ["waterline", "start"]),
    ]

    /// A ledger whose folder `link` has been moved outside and replaced by a symbolic link to
    /// it (the documents it held are there, as after a "move it to my sync folder").
    static func linkedLedger(_ link: String, activeSession: Bool) throws -> (TestLedger, outside: String) {
        let ledger = try TestLedger(now: "2026-11-21T12:30:00+01:00")
        if activeSession { #expect(ledger.run("waterline", "start").status == 0) }
        let outside = ledger.directory.url("outside")
        let fm = FileManager.default
        let inside = ledger.root + "/" + link
        if fm.fileExists(atPath: inside) {
            try fm.moveItem(atPath: inside, toPath: outside)
        } else {
            try fm.createDirectory(atPath: outside, withIntermediateDirectories: true)
            try fm.createDirectory(atPath: (inside as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        }
        try fm.createSymbolicLink(atPath: inside, withDestinationPath: outside)
        return (ledger, outside)
    }

    /// Every file under `directory` with its contents.
    static func snapshot(_ directory: String) -> [String: String] {
        var out: [String: String] = [:]
        for p in FileManager.default.subpaths(atPath: directory) ?? [] {
            out[p] = (try? String(contentsOfFile: directory + "/" + p, encoding: .utf8)) ?? "<directory>"
        }
        return out
    }

    @Test(arguments: cases) func aCommandNeverWritesThroughALinkedFolder(_ c: Case) throws {
        let (ledger, outside) = try Self.linkedLedger(c.link, activeSession: c.arguments != ["waterline", "start"])
        let before = Self.snapshot(outside)
        let r = ledger.run(arguments: c.arguments)
        #expect(Self.snapshot(outside) == before, "\(c) wrote outside the ledger: \(r)")
        #expect(r.status == 1, "\(r)")
        // The one line names the link and says what `check` says about it.
        #expect(r.stderr.contains("\(c.link) is a symbolic link"), "\(r)")
        #expect(r.stderr.contains("(`ledger check` reports \"\(c.link): /: error: \(FileSystem.symbolicLinkProblem)\")"), "\(r)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r)")
        // `check` reports the link itself, once.
        let check = ledger.run("check")
        #expect(check.status == 1)
        #expect(check.stdout.contains("\(c.link): /: error: \(FileSystem.symbolicLinkProblem)"), "\(check)")
    }

    @Test func theRefusalNamesTheLinkAndWhatCheckReports() throws {
        let (ledger, outside) = try Self.linkedLedger("brew/logs", activeSession: false)
        let r = ledger.run("brew", "save", "--rating", "4")
        #expect(r.status == 1)
        // The log it would have written, then the link.
        #expect(r.stderr.hasPrefix("ledger: refusing to write brew/logs/2026/"), "\(r)")
        #expect(r.stderr.hasSuffix(".json: brew/logs is a symbolic link, and ledger never follows one inside a ledger (`ledger check` reports \"brew/logs: /: error: is a symbolic link; ledger documents must be regular files inside the ledger (it is not followed)\"); put the real folder in its place\n"), "\(r)")
        #expect(Self.snapshot(outside).isEmpty)
        // With the real folder back in its place, the same command works.
        try FileManager.default.removeItem(atPath: ledger.root + "/brew/logs")
        try FileManager.default.moveItem(atPath: outside, toPath: ledger.root + "/brew/logs")
        #expect(ledger.run("brew", "save", "--rating", "4").status == 0)
        #expect(ledger.run("check").status == 0)
    }

    @Test func readersRefuseALinkedFolderInsteadOfShowingItEmpty() throws {
        let (ledger, _) = try Self.linkedLedger("brew/logs", activeSession: false)
        #expect(ledger.run("brew", "save", "--rating", "4").status == 1)
        try FileManager.default.removeItem(atPath: ledger.root + "/brew/logs")
        #expect(ledger.run("brew", "save", "--rating", "4").status == 0)
        let logs = ledger.root + "/brew/logs"
        try FileManager.default.moveItem(atPath: logs, toPath: ledger.directory.url("elsewhere"))
        try FileManager.default.createSymbolicLink(atPath: logs, withDestinationPath: ledger.directory.url("elsewhere"))
        let r = ledger.run("brew", "logs")
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("ledger: brew/logs is a symbolic link, and ledger never follows one inside a ledger"), "\(r)")
        // A linked document file is left out, as before: `check` reports it.
        try FileManager.default.removeItem(atPath: logs)
        try FileManager.default.moveItem(atPath: ledger.directory.url("elsewhere"), toPath: logs)
        let year = logs + "/2026"
        let file = try #require(FileManager.default.contentsOfDirectory(atPath: year).first)
        try FileManager.default.moveItem(atPath: year + "/" + file, toPath: ledger.directory.url(file))
        try FileManager.default.createSymbolicLink(atPath: year + "/" + file, withDestinationPath: ledger.directory.url(file))
        #expect(ledger.run("brew", "logs", "--json").json.arrayValue?.isEmpty == true)
    }

    /// A photo is a file of the ledger too: never copied into a linked `moments/photos`, and
    /// the experience that would show it is not written either.
    @Test func aPhotoIsNeverCopiedThroughALinkedFolder() throws {
        let ledger = try TestLedger()
        let photo = try MomentsFixture.file(ledger, "IMG_0001.PNG", MomentsFixture.png)
        let outside = ledger.directory.url("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: ledger.root + "/" + MomentsPhotos.directory, withDestinationPath: outside)
        let r = ledger.run("moments", "add", "--photo", photo)
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("\(MomentsPhotos.directory) is a symbolic link, and ledger never follows one inside a ledger"), "\(r)")
        #expect(Self.snapshot(outside).isEmpty, "\(r)")
        #expect(MomentsFixture.experiences(ledger).isEmpty)
    }

    @Test func checkFixDoesNotWriteThroughALink() throws {
        let (ledger, outside) = try Self.linkedLedger("hydrate/days/2026", activeSession: false)
        // A day document in the wrong year folder: --fix would move it into the linked one.
        let day = """
            {"completed":0,"confirmations":[],"createdAt":"2026-11-21T09:00:00+01:00","id":"2026-11-21",\
            "schedule":{"endTime":"21:00","followUpIntervalMinutes":20,"intervalMinutes":90,"startTime":"09:00"},\
            "timeZone":"Europe/Paris","total":8,"updatedAt":"2026-11-21T09:00:00+01:00"}
            """
        try ledger.write("hydrate/days/2025/2026-11-21.json", day)
        let r = ledger.run("check", "--fix")
        #expect(r.status == 1)
        #expect(Self.snapshot(outside).isEmpty, "\(r)")
        #expect(r.stdout.contains("hydrate/days/2025/2026-11-21.json: /: error: could not be fixed: refusing to write hydrate/days/2026/2026-11-21.json: hydrate/days/2026 is a symbolic link"), "\(r)")
        #expect(ledger.read("hydrate/days/2025/2026-11-21.json") == day)
    }

    @Test func aScopedCheckReportsTheLinkOnTheWay() throws {
        let (ledger, _) = try Self.linkedLedger("hydrate", activeSession: false)
        for scope in ["hydrate", "hydrate/schedule.json", "hydrate/days/2026/2026-11-21.json"] {
            let r = ledger.run("check", scope)
            #expect(r.status == 1)
            #expect(r.stdout.hasPrefix("hydrate: /: error: \(FileSystem.symbolicLinkProblem)\n"), "\(scope): \(r)")
        }
    }
}
