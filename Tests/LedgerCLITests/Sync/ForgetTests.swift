import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// `ledger forget`: an app's documents deleted at once, as one change that syncs like any
/// deletion, and the forget's instant honoured by the merge for what another device recorded
/// offline (docs/deleting.md).
@Suite struct ForgetTests {
    static func at(_ time: String) -> [String: String] { ["LEDGER_NOW": "2026-11-21T\(time)+01:00"] }

    static func entryTimes(_ l: TestLedger) -> [String] {
        l.run("waterline", "entries", "--json").json.arrayValue?.compactMap { $0["timestamp"]?.stringValue }.sorted() ?? []
    }

    @Test func forgettingAnAppEmptiesItsFolderAndWritesTheDefaultsBack() throws {
        let l = try TestLedger(now: "2026-11-21T20:00:00+01:00")
        #expect(l.run("waterline", "start", env: Self.at("21:00:00")).status == 0)
        #expect(l.run("waterline", "drink", "--preset", "beer", env: Self.at("21:10:00")).status == 0)
        #expect(l.run("waterline", "presets", "add", "Stout", "--type", "beer", env: Self.at("21:15:00")).status == 0)
        #expect(l.run("waterline", "settings", "set", "waterEveryNDrinks", "3", env: Self.at("21:20:00")).status == 0)
        #expect(l.run("moments", "add", "coffee with Sam", env: Self.at("21:30:00")).status == 0)
        try l.write("waterline/notes.txt", "my own notes\n")
        let session = try #require(l.files(under: "waterline/sessions").first)

        let dry = l.run("forget", "waterline", "--dry-run", "--json", env: Self.at("22:00:00"))
        #expect(dry.status == 0, "\(dry)")
        let removed = dry.json["removed"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(removed.contains(session) && removed.contains("waterline/notes.txt") && removed.contains("waterline/presets/stout.json"))
        #expect(removed.allSatisfy { $0.hasPrefix("waterline/") })
        #expect(l.read(session) != nil, "a dry run changes nothing")

        let refused = l.run("forget", "waterline", env: Self.at("22:00:00"))
        #expect(refused.status == 2 && refused.stderr.contains("--yes"), "no terminal, no --yes: \(refused)")
        let no = l.run("forget", "waterline", env: Self.at("22:00:00"), stdin: ["n"], terminal: true)
        #expect(no.status == 0 && no.stdout.contains("Forget Waterline?") && no.stdout.contains("6 presets, 1 session, 1 settings"), "\(no)")
        #expect(l.read(session) != nil)

        let r = l.run("forget", "waterline", env: Self.at("22:00:00"), stdin: ["y"], terminal: true)
        #expect(r.status == 0, "\(r)")
        #expect(l.read(session) == nil && l.read("waterline/notes.txt") == nil && l.read("waterline/presets/stout.json") == nil)
        #expect(l.files(under: "waterline/presets").count == 5, "the five default presets are back")
        #expect(l.document("waterline/settings.json")?["waterEveryNDrinks"] == .number(1))
        #expect(l.document("ledger.json")?["forgotten"]?["waterline"] == .string("2026-11-21T22:00:00+01:00"))
        #expect(l.files(under: "moments/experiences").count == 1, "another app is untouched")
        #expect(l.run("waterline", "status", "--json").json["sessionId"] == .null)
        let check = l.run("check", "--json")
        #expect(check.status == 0 && check.json["warnings"] == .number(0), "\(check)")

        let all = l.run("forget", "--all", "--yes", "--json", env: Self.at("22:10:00"))
        #expect(all.status == 0, "\(all)")
        #expect(l.files(under: "moments").isEmpty == false && l.files(under: "moments/experiences").isEmpty)
        #expect(l.document("ledger.json")?["forgotten"]?.objectValue?.count == 4)
        #expect(l.run("check").status == 0)
        #expect(l.run("forget").status == 2)
        #expect(l.run("forget", "coffee", "--yes").status == 2)
    }

    /// A forget killed half-way (its note written, some files gone) is finished by the next
    /// command of any kind.
    @Test func anInterruptedForgetIsFinishedByTheNextCommand() throws {
        let l = try TestLedger(now: "2026-11-21T20:00:00+01:00")
        #expect(l.run("moments", "add", "coffee", env: Self.at("21:00:00")).status == 0)
        #expect(l.run("moments", "add", "tea", env: Self.at("21:05:00")).status == 0)
        let files = l.files(under: "moments/experiences")
        // What a kill after the first file leaves: the note, one moment gone, the rest there.
        try #"{"apps": ["moments"], "instant": "2026-11-21T22:00:00+01:00"}"#.write(toFile: l.root + "/.git/ledger/forget.json", atomically: true, encoding: .utf8)
        try l.remove(files[0])
        let next = l.run("status", env: Self.at("22:05:00"))
        #expect(next.status == 0 && next.stderr.contains("finished forgetting DotLife Moments, which was interrupted"), "\(next)")
        #expect(l.files(under: "moments/experiences").isEmpty)
        #expect(l.document("ledger.json")?["forgotten"]?["moments"] == .string("2026-11-21T22:00:00+01:00"))
        #expect(!FileManager.default.fileExists(atPath: l.root + "/.git/ledger/forget.json"))
        #expect(l.run("check").status == 0)
    }

    /// The rule of docs/deleting.md, across devices: phone logs offline, the laptop forgets Waterline in
    /// between. What the phone recorded before the forget goes; what it recorded after stays.
    @Test func whatAnotherDeviceLoggedOfflineLaterThanTheForgetSurvives() throws {
        let fixture = try SyncFixture()
        let laptop = try fixture.origin(now: "2026-11-21T20:00:00+01:00")
        #expect(laptop.run("waterline", "start", env: Self.at("21:00:00")).status == 0)
        #expect(laptop.run("waterline", "drink", "--preset", "beer", env: Self.at("21:30:00")).status == 0)
        #expect(laptop.run("sync").status == 0)
        let phone = try fixture.clone(now: "2026-11-21T21:40:00+01:00")
        let other = try fixture.clone(now: "2026-11-21T21:40:00+01:00")

        // The phone, offline: a drink and a preset before the forget…
        #expect(phone.run("waterline", "drink", "--preset", "beer", env: Self.at("22:00:00")).status == 0)
        #expect(phone.run("waterline", "presets", "add", "Stout", "--type", "beer", env: Self.at("22:05:00")).status == 0)
        #expect(phone.run("moments", "add", "sunset", env: Self.at("22:06:00")).status == 0)
        // …the laptop forgets Waterline at 22:30 and syncs…
        #expect(laptop.run("forget", "waterline", "--yes", env: Self.at("22:30:00")).status == 0)
        let pushed = laptop.run("sync", env: Self.at("22:31:00"))
        #expect(pushed.status == 0, "\(pushed)")
        // …and the phone, still offline, logs a drink and changes a setting after it.
        #expect(phone.run("waterline", "drink", "--preset", "double", env: Self.at("23:00:00")).status == 0)
        #expect(phone.run("waterline", "settings", "set", "warningThreshold", "4", env: Self.at("23:05:00")).status == 0)

        // Plain git on the same histories: git sees a session deleted here and changed there, and
        // stops with a conflict for a person to settle (a copy of the phone, committed by git).
        let plain = fixture.directory.path + "/plain-phone"
        #expect(try Processes.run("/bin/cp", ["-a", phone.root, plain]).status == 0)
        #expect(try GitCLI.run(["add", "-A"], in: plain).status == 0)
        #expect(try GitCLI.run(["commit", "-q", "-m", "phone"], in: plain).status == 0)
        let pull = try GitCLI.run(["pull", "-q", "--no-rebase", "origin", "main"], in: plain)
        #expect(pull.status != 0 && (pull.stdout + pull.stderr).contains("CONFLICT (modify/delete)"), "\(pull)")

        let r = phone.run("sync", "--json", env: Self.at("23:10:00"))
        #expect(r.status == 0, "\(r)")
        #expect(r.json["reconciled"]?.arrayValue?.contains { $0.stringValue?.contains("Waterline was forgotten at 2026-11-21T22:30:00+01:00") == true } == true, "\(r)")
        #expect(laptop.run("sync", env: Self.at("23:11:00")).status == 0)
        #expect(other.run("sync", env: Self.at("23:12:00")).status == 0)
        for l in [laptop, phone, other] {
            #expect(try l.headTree() == phone.headTree())
            #expect(Self.entryTimes(l) == ["2026-11-21T23:00:00+01:00"], "only the drink logged after the forget: \(Self.entryTimes(l))")
            #expect(l.read("waterline/presets/stout.json") == nil, "a preset added before the forget is gone")
            #expect(l.document("waterline/settings.json")?["warningThreshold"] == .number(4), "a setting changed after it stays")
            #expect(l.files(under: "moments/experiences").count == 1, "another app is not touched")
            let status = l.run("waterline", "status", "--json").json
            #expect(status["totalStandardDrinks"] == .number(2) && status["waterlineValue"] == .number(2))
            let check = l.run("check", "--json")
            #expect(check.status == 0 && check.json["warnings"] == .number(0), "\(check)")
        }
    }

    /// A forget is undone as any sync is: the documents come back, and the forget's instant
    /// leaves `ledger.json` with them.
    @Test func aForgetIsUndone() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin(now: "2026-11-21T20:00:00+01:00")
        #expect(a.run("moments", "add", "coffee with Sam", env: Self.at("21:00:00")).status == 0)
        #expect(a.run("sync", env: Self.at("21:01:00")).status == 0)
        #expect(a.run("forget", "moments", "--yes", env: Self.at("21:10:00")).status == 0)
        #expect(a.run("sync", env: Self.at("21:11:00")).status == 0)
        let forget = try GitCLI.run(["rev-parse", "HEAD"], in: a.root).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let undo = a.run("undo", forget, "--yes", env: Self.at("21:20:00"))
        #expect(undo.status == 0, "\(undo)")
        #expect(a.files(under: "moments/experiences").count == 1)
        #expect(a.document("ledger.json")?["forgotten"] == nil)
        #expect(a.run("check").status == 0)
    }

    /// A remote reached through a helper that is not installed keeps the sync from carrying
    /// the forget: it goes ahead here and says so, as `ledger status` does; plain git cannot
    /// reach that remote either.
    @Test func aForgetWarnsThatAMissingRemoteHelperKeepsTheSyncFromCarryingIt() throws {
        let l = try TestLedger()
        try GitCLI.run(["remote", "add", "origin", "nohelper::/nonexistent/remote"], in: l.root)
        #expect(l.run("moments", "add", "coffee with Sam").status == 0)
        let r = l.run("forget", "moments", "--yes")
        #expect(r.status == 0, "\(r)")
        let said = "remotes named nohelper::… are reached through git's remote helper git-remote-nohelper, which is not installed"
        #expect(r.stderr.contains("ledger: warning: cannot sync: " + said), "\(r)")
        #expect(r.stdout.contains("it stays on this device until `ledger sync` can run"), "\(r)")
        #expect(l.files(under: "moments/experiences").isEmpty)
        let status = l.run("status", "--json").json["sync"]?["unsupported"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(status.contains { $0.hasPrefix(said) }, "\(status)")
        let git = try GitCLI.run(["ls-remote", "origin"], in: l.root)
        #expect(git.status != 0 && git.stderr.contains("remote-nohelper"), "\(git)")
    }
}
