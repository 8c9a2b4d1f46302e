import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// `ledger purge`: documents and photos removed from the history of every repository — a bare
/// remote and three clones, one of them with unsynced changes — checked object by object with
/// `git cat-file --batch-all-objects --batch`, beside `git filter-repo` on the same history.
@Suite struct PurgeTests {
    static func at(_ time: String) -> [String: String] { ["LEDGER_NOW": "2026-11-21T\(time)+01:00"] }

    /// A 1×1 PNG carrying `marker` in a text chunk: a photo whose bytes can be found.
    static func png(_ marker: String) -> [UInt8] {
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return ~c
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            let n = UInt32(data.count), crc = crc32(body)
            return [UInt8(n >> 24), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] + body
                + [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        }
        let base = [UInt8](Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)
        let iend = base.count - 12
        return Array(base[..<iend]) + chunk("tEXt", Array("Comment\0\(marker)".utf8)) + Array(base[iend...])
    }

    /// How many objects of the repository at `path` hold `needle` (`git cat-file
    /// --batch-all-objects --batch`: every object, loose or packed, reachable or not), and how
    /// many objects it holds.
    static func objects(in path: String, holding needle: String) throws -> (holding: Int, objects: Int) {
        let all = try GitCLI.run(["cat-file", "--batch-all-objects", "--batch-check"], in: path)
        let contents = try GitCLI.run(["cat-file", "--batch-all-objects", "--batch"], in: path)
        #expect(all.status == 0 && contents.status == 0)
        var holding = 0
        var rest = Substring(contents.stdout)
        while let r = rest.range(of: needle) {
            holding += 1
            rest = rest[r.upperBound...]
        }
        return (holding, all.stdout.split(separator: "\n").count)
    }

    /// A remote and its first device, which recorded a moment of `text` and synced it.
    static func originWithNote(_ text: String) throws -> (fixture: SyncFixture, a: TestLedger, note: String) {
        let fixture = try SyncFixture()
        let a = try fixture.origin(now: "2026-11-21T08:00:00+01:00")
        let note = try #require(a.run("moments", "add", text, "--json", env: Self.at("09:00:00")).json["path"]?.stringValue)
        #expect(a.run("sync").status == 0)
        return (fixture, a, note)
    }

    static func expectClean(_ ledgers: [TestLedger]) {
        for l in ledgers {
            let check = l.run("check", "--json")
            #expect(check.status == 0 && check.json["errors"] == .number(0), "\(l.root): \(check)")
            #expect(((try? l.gitStatus()) ?? "?").isEmpty, "\(l.root) has uncommitted changes")
        }
    }

    /// The journey of the issue: a moment with a secret note and a photo purged on one device;
    /// the others sync; the purged content is in no object of the four repositories, the third
    /// device's unsynced work survives, and a further round brings nothing back.
    @Test func aPurgedMomentAndItsPhotoAreInNoObjectOfAnyRepository() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin(now: "2026-11-21T08:00:00+01:00")
        let photo = fixture.directory.url("secret.png")
        try Data(Self.png("photo-bytes-k7q2x")).write(to: URL(fileURLWithPath: photo))
        let note = try #require(a.run("moments", "add", "a secret note zq3vx", "--json", env: Self.at("09:00:00")).json["path"]?.stringValue)
        let shot = a.run("moments", "add", "--photo", photo, "--json", env: Self.at("09:05:00")).json
        let shotPath = try #require(shot["path"]?.stringValue)
        let image = try #require(shot["experience"]?["payload"]?.stringValue)
        #expect(a.run("moments", "add", "coffee with Sam", env: Self.at("09:10:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let b = try fixture.clone(now: "2026-11-21T09:20:00+01:00")
        let c = try fixture.clone(now: "2026-11-21T09:20:00+01:00")
        // b and a keep syncing; the note is edited once, so the history holds two versions.
        #expect(b.run("moments", "add", "tea", env: Self.at("09:30:00")).status == 0)
        #expect(b.run("sync").status == 0)
        try a.write(note, try #require(a.read(note)).replacingOccurrences(of: "zq3vx", with: "zq3vx, edited"))
        #expect(a.run("sync").status == 0)
        // c works offline: a moment, a night out, its own file; none of it synced.
        #expect(c.run("moments", "add", "sunset from the bridge", env: Self.at("10:00:00")).status == 0)
        #expect(c.run("waterline", "start", env: Self.at("10:05:00")).status == 0)
        #expect(c.run("waterline", "drink", "--preset", "beer", env: Self.at("10:06:00")).status == 0)
        try c.write("notes.txt", "my own notes\n")
        #expect(c.run("sync", "--dry-run").status == 0)  // c has seen the history (and so holds it)

        // Plain git on the same history: git filter-repo on a mirror of the remote.
        let mirror = fixture.directory.path + "/mirror.git"
        #expect(try GitCLI.run(["clone", "-q", "--mirror", "--no-local", fixture.remote, mirror], in: "/").status == 0)
        _ = try Processes.require("git-filter-repo", package: "git-filter-repo")
        let filtered = try GitCLI.run(["filter-repo", "--force", "--invert-paths", "--path", note, "--path", shotPath, "--path", image], in: mirror)
        #expect(filtered.status == 0, "\(filtered)")

        for (id, repo) in [(note, a.root), (note, fixture.remote)] { #expect(try Self.objects(in: repo, holding: "zq3vx").holding >= 1, "\(id) in \(repo)") }
        let dry = a.run("purge", shotPath, "--dry-run", "--json", env: Self.at("11:00:00"))
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.json["files"]?.arrayValue?.compactMap { $0["path"]?.stringValue }.sorted() == [image, shotPath].sorted(), "a photo moment's photo goes with it: \(dry)")
        let noTerminal = a.run("purge", shotPath, env: Self.at("11:00:00"))
        #expect(noTerminal.status == 2 && noTerminal.stderr.contains("--yes"), "\(noTerminal)")
        let asked = a.run("purge", shotPath, env: Self.at("11:00:00"), stdin: ["n"], terminal: true)
        #expect(asked.status == 0 && asked.stdout.contains("Purge \(shotPath) from the history of every device?") && asked.stdout.contains(image), "\(asked)")
        #expect(try Self.objects(in: fixture.remote, holding: "photo-bytes-k7q2x").holding >= 1, "a refusal changes nothing")

        let first = a.run("purge", shotPath, "--yes", "--json", env: Self.at("11:00:00"))
        #expect(first.status == 0, "\(first)")
        let id = (note as NSString).lastPathComponent.replacingOccurrences(of: ".json", with: "")
        let second = a.run("purge", id, "--yes", env: Self.at("11:05:00"))
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("purged content found: 0"), "\(second)")
        #expect(a.read(note) == nil && a.read(shotPath) == nil && a.read(image) == nil)
        let log = a.run("log", "--limit", "1")
        #expect(log.stdout.contains("purge") && log.stdout.contains("Ledger: purge of \(id) — \(note) (2 versions) removed from the history of every device"), "\(log)")

        // A dry run tells what honouring the purges would do, and does none of it.
        let before = try GitCLI.run(["for-each-ref", "--format=%(objectname) %(refname)"], in: b.root).stdout
        let preview = b.run("sync", "--dry-run", "--json", env: Self.at("11:20:00"))
        #expect(preview.status == 0 && preview.json["purges"]?.arrayValue?.first?.stringValue?.hasPrefix("would honour the purge of \(shotPath)") == true, "\(preview)")
        #expect(try GitCLI.run(["for-each-ref", "--format=%(objectname) %(refname)"], in: b.root).stdout == before)
        #expect(try Self.objects(in: b.root, holding: "zq3vx").holding >= 1)
        for l in [b, c] {
            let r = l.run("sync", env: Self.at("11:30:00"))
            #expect(r.status == 0, "\(r)")
            #expect(r.stdout.contains("Honoured the purge of \(shotPath)"), "\(r)")
        }
        // A fourth round: nothing comes back.
        for l in [a, b, c, a] { #expect(l.run("sync", env: Self.at("12:00:00")).status == 0) }
        for repo in [a.root, b.root, c.root, fixture.remote] {
            for needle in ["zq3vx", "photo-bytes-k7q2x"] {
                let found = try Self.objects(in: repo, holding: needle)
                #expect(found.holding == 0, "\(needle) is still in \(repo) (\(found.objects) objects)")
                #expect(found.objects > 0)
            }
            #expect(try GitCLI.run(["log", "--all", "--format=%H", "--", note, shotPath, image], in: repo).stdout.isEmpty, "\(repo)")
            #expect(try GitCLI.fsck(repo) == nil, "\(repo)")
        }
        #expect(try a.headTree() == b.headTree() && b.headTree() == c.headTree())
        // c's unsynced work survived, and is everywhere now.
        for l in [a, b, c] {
            #expect(l.read("notes.txt") == "my own notes\n")
            #expect(l.run("waterline", "status", "--json").json["totalAlcoholCount"] == .number(1))
            let texts = l.files(under: "moments/experiences").compactMap { l.document($0)?["payload"]?.stringValue }
            #expect(Set(texts) == ["coffee with Sam", "tea", "sunset from the bridge"], "\(texts)")
        }
        Self.expectClean([a, b, c])

        // Beside git filter-repo: the same trees, commit for commit (ledger's history has one
        // commit more on top per purge, holding its record).
        let purges = try GitCLI.run(["log", "--format=%H", "--grep=^ledger purge on", "main"], in: fixture.remote).stdout.split(separator: "\n")
        let firstPurge = try #require(purges.last.map(String.init))
        let ours = try GitCLI.run(["log", "--format=%T", "--first-parent", firstPurge + "^"], in: fixture.remote).stdout
        let theirs = try GitCLI.run(["log", "--format=%T", "--first-parent", "main"], in: mirror).stdout
        #expect(ours == theirs, "ledger:\n\(ours)git filter-repo:\n\(theirs)")
        // filter-repo rewrote its own copy only: the remote, and every clone, still held
        // everything until ledger's purge reached them.
        #expect(try Self.objects(in: mirror, holding: "zq3vx").holding == 0)
    }

    /// A device that changed a purged document offline keeps what it recorded after the purge
    /// and loses the rest; the purge's instant decides, as a forget's does.
    @Test func anOfflineEditOfAPurgedNightKeepsOnlyWhatCameAfterThePurge() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin(now: "2026-11-21T20:00:00+01:00")
        #expect(a.run("waterline", "start", env: Self.at("21:00:00")).status == 0)
        #expect(a.run("waterline", "drink", "--preset", "beer", env: Self.at("21:10:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let phone = try fixture.clone(now: "2026-11-21T21:15:00+01:00")
        let session = try #require(a.files(under: "waterline/sessions").first)
        let id = (session as NSString).lastPathComponent.replacingOccurrences(of: ".json", with: "")
        #expect(phone.run("waterline", "drink", "--preset", "shot", env: Self.at("21:20:00")).status == 0)
        let purge = a.run("purge", id, "--yes", env: Self.at("21:30:00"))
        #expect(purge.status == 0, "\(purge)")
        #expect(phone.run("waterline", "water", env: Self.at("21:40:00")).status == 0)
        let r = phone.run("sync", env: Self.at("21:45:00"))
        #expect(r.status == 0, "\(r)")
        #expect(a.run("sync", env: Self.at("21:46:00")).status == 0)
        for l in [a, phone] {
            let entries = l.run("waterline", "entries", "--json").json.arrayValue ?? []
            #expect(entries.map { $0["type"]?.stringValue } == ["water"], "only the water logged after the purge: \(entries)")
            #expect(try Self.objects(in: l.root, holding: "\"presetId\": \"beer\"").holding == 0, "the purged night's drinks are in no object of \(l.root)")
            #expect(try Self.objects(in: l.root, holding: "\"presetId\": \"shot\"").holding == 0, "nor the drink logged offline before the purge")
        }
        #expect(try a.headTree() == phone.headTree())
        Self.expectClean([a, phone])
    }

    /// The sync that brought a purge in cannot be undone: taking back its record let the next
    /// sync accept the old history a device that had not yet synced pushed, and the purged
    /// moment came back on the remote and on this device. The undo is refused (exit 1, nothing
    /// changed); a device still on the old history then honours the purge; nothing of it is in
    /// any repository, as `git cat-file` shows.
    @Test func theSyncThatBroughtAPurgeCannotBeUndone() throws {
        let (fixture, laptop, note) = try Self.originWithNote("secret diary line")
        let phone = try fixture.clone(now: "2026-11-21T09:10:00+01:00")
        let tablet = try fixture.clone(now: "2026-11-21T09:10:00+01:00")
        #expect(phone.run("moments", "add", "phone offline", env: Self.at("09:20:00")).status == 0)
        let id = ((note as NSString).lastPathComponent as NSString).deletingPathExtension
        #expect(laptop.run("purge", id, "--yes", env: Self.at("09:30:00")).status == 0)
        #expect(phone.run("sync", env: Self.at("09:40:00")).status == 0)
        let head = try GitCLI.run(["rev-parse", "HEAD"], in: phone.root).stdout
        let undo = phone.run("undo", "--yes", env: Self.at("09:45:00"))
        #expect(undo.status == 1 && undo.stderr.contains("a purge cannot be undone") && undo.stderr.contains("purges/"), "\(undo)")
        #expect(try GitCLI.run(["rev-parse", "HEAD"], in: phone.root).stdout == head, "nothing was changed")
        let json = phone.run("undo", "--yes", "--json", env: Self.at("09:46:00"))
        #expect(json.status == 1 && json.json["outcome"] == .string("refused"), "\(json)")
        #expect(phone.run("sync", env: Self.at("09:50:00")).status == 0)
        let t = tablet.run("sync", env: Self.at("09:55:00"))
        #expect(t.status == 0 && t.stdout.contains("purge"), "the tablet honours the purge: \(t)")
        #expect(laptop.run("sync", env: Self.at("10:00:00")).status == 0)
        for path in [fixture.remote, laptop.root, phone.root, tablet.root] {
            #expect(try Self.objects(in: path, holding: "secret diary line").holding == 0, "\(path)")
        }
    }

    /// A purge deletes every reflog, so `ledger undo` finds no sync in it: on the device that
    /// purged and on one whose sync only took the purge in, the last sync is the purge — refused
    /// as such — never a merge made days before it, which the undo used to take back instead
    /// (deleting a moment nobody asked about) and call "the last sync".
    @Test func afterAPurgeUndoRefusesThePurgeInsteadOfTakingBackAnOlderMerge() throws {
        let (fixture, laptop, note) = try Self.originWithNote("secret diary line")
        let phone = try fixture.clone(now: "2026-11-21T09:10:00+01:00")
        #expect(laptop.run("moments", "add", "laptop offline", env: Self.at("09:15:00")).status == 0)
        #expect(phone.run("moments", "add", "phone offline", env: Self.at("09:20:00")).status == 0)
        #expect(laptop.run("sync").status == 0)
        #expect(phone.run("sync").status == 0, "the phone's sync is a merge")
        #expect(laptop.run("sync").status == 0)
        let id = ((note as NSString).lastPathComponent as NSString).deletingPathExtension
        #expect(laptop.run("purge", id, "--yes", env: Self.at("09:30:00")).status == 0)
        #expect(phone.run("sync", env: Self.at("09:40:00")).status == 0, "a fast-forward to the purge")
        for device in [laptop, phone] {
            let head = try device.revParse("HEAD")
            let preview = device.run("undo", "--dry-run")
            #expect(preview.status == 1 && preview.stderr.contains("a purge cannot be undone") && preview.stderr.contains("name its commit"), "\(device.root): \(preview)")
            let undo = device.run("undo", "--yes")
            #expect(undo.status == 1 && undo.stderr.contains("a purge cannot be undone"), "\(device.root): \(undo)")
            #expect(try device.revParse("HEAD") == head, "nothing was changed")
            #expect(device.files(under: "moments/experiences").count == 2, "both offline moments stay")
        }
    }

    /// Waterline's account deletion from the history too (`ledger purge waterline`): every
    /// session, preset and setting of it in no object of any repository, its defaults back,
    /// the forget's instant recorded; a drink another device logged offline after the purge
    /// survives it, the other apps are untouched.
    @Test func anAppIsPurgedFromEveryDevice() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin(now: "2026-11-21T20:00:00+01:00")
        #expect(a.run("waterline", "start", env: Self.at("21:00:00")).status == 0)
        #expect(a.run("waterline", "drink", "--preset", "beer", env: Self.at("21:10:00")).status == 0)
        #expect(a.run("waterline", "presets", "add", "Stout x9pq", "--type", "beer", env: Self.at("21:15:00")).status == 0)
        #expect(a.run("moments", "add", "coffee with Sam", env: Self.at("21:20:00")).status == 0)
        #expect(a.run("sync").status == 0)
        let phone = try fixture.clone(now: "2026-11-21T21:25:00+01:00")
        #expect(try Self.objects(in: fixture.remote, holding: "x9pq").holding >= 1)

        let purge = a.run("purge", "waterline", "--yes", env: Self.at("22:00:00"))
        #expect(purge.status == 0 && purge.stdout.contains("purged content found: 0"), "\(purge)")
        #expect(a.files(under: "waterline/sessions").isEmpty && a.files(under: "waterline/presets").count == 5)
        #expect(a.document("ledger.json")?["forgotten"]?["waterline"] == .string("2026-11-21T22:00:00+01:00"))
        // The phone, offline, logs a drink after the purge, then syncs.
        #expect(phone.run("waterline", "drink", "--preset", "shot", env: Self.at("22:05:00")).status == 0)
        let r = phone.run("sync", env: Self.at("22:10:00"))
        #expect(r.status == 0 && r.stdout.contains("Honoured the purge of waterline"), "\(r)")
        #expect(a.run("sync", env: Self.at("22:11:00")).status == 0)
        for repo in [a.root, phone.root, fixture.remote] {
            #expect(try Self.objects(in: repo, holding: "x9pq").holding == 0, "\(repo)")
            #expect(try Self.objects(in: repo, holding: "\"presetId\": \"beer\"").holding == 0, "the night before the purge is in no object of \(repo)")
        }
        for l in [a, phone] {
            let entries = l.run("waterline", "entries", "--json").json.arrayValue ?? []
            #expect(entries.map { $0["alcoholMeta"]?["presetId"]?.stringValue } == ["shot"], "the drink logged after the purge survives: \(entries)")
            #expect(l.files(under: "moments/experiences").count == 1)
        }
        #expect(try a.headTree() == phone.headTree())
        Self.expectClean([a, phone])
    }

    /// A clone used with plain git does not honour a purge: its `git pull` merges the old
    /// history back and `git push` publishes it. ledger refuses to take it in, names the commit,
    /// and a new purge removes it again.
    @Test func plainGitBringingPurgedContentBackIsRefusedAndPurgedAgain() throws {
        let (fixture, a, note) = try Self.originWithNote("a secret note w8ej2")
        let plain = fixture.directory.path + "/plain"
        #expect(try GitCLI.run(["clone", "-q", fixture.remote, plain], in: "/").status == 0)
        try "mine\n".write(toFile: plain + "/mine.txt", atomically: true, encoding: .utf8)
        #expect(try GitCLI.run(["add", "mine.txt"], in: plain).status == 0)
        #expect(try GitCLI.run(["commit", "-q", "-m", "mine"], in: plain).status == 0)
        #expect(try GitCLI.run(["push", "-q", "origin", "main"], in: plain).status == 0)
        #expect(a.run("sync").status == 0)

        let plan = a.run("purge", note, "--dry-run", env: Self.at("10:00:00"))
        #expect(plan.stdout.contains("Commits by test <test@example.com>") && plan.stdout.contains("plain git"), "the plain git clone is named: \(plan)")
        #expect(a.run("purge", note, "--yes", env: Self.at("10:00:00")).status == 0)
        // Plain git: pull (a merge of the old history with the new) and push.
        let pull = try GitCLI.run(["pull", "-q", "--no-rebase", "origin", "main"], in: plain)
        #expect(pull.status == 0, "\(pull)")
        #expect(try GitCLI.run(["push", "-q", "origin", "main"], in: plain).status == 0)
        #expect(try Self.objects(in: fixture.remote, holding: "w8ej2").holding >= 1, "plain git brought it back")

        let refused = a.run("sync", env: Self.at("10:10:00"))
        #expect(refused.status == 1 && refused.stderr.contains("brings back what a purge removed") && refused.stderr.contains("ledger purge"), "\(refused)")
        #expect(try Self.objects(in: a.root, holding: "w8ej2").holding == 0, "ledger took nothing in")
        let again = a.run("purge", note, "--yes", env: Self.at("10:20:00"))
        #expect(again.status == 0 && again.stdout.contains("brought back purged content"), "\(again)")
        #expect(a.run("sync", env: Self.at("10:30:00")).status == 0)
        for repo in [a.root, fixture.remote] { #expect(try Self.objects(in: repo, holding: "w8ej2").holding == 0, "\(repo)") }
        #expect(a.read("mine.txt") == "mine\n", "the plain clone's own work stays")
        Self.expectClean([a])
    }

    /// What plain git says of a purged file in the repository at `path`: the commits of any
    /// reference that hold it (`git log --all -- PATH`), and whether the object database holds
    /// its version (`git cat-file -e BLOB`).
    static func gitTrace(of path: String, blob: String, in repo: String) throws -> (commits: String, blobPresent: Bool) {
        let log = try GitCLI.run(["log", "--all", "--format=%H", "--", path], in: repo)
        #expect(log.status == 0, "\(log)")
        return (log.stdout, try GitCLI.run(["cat-file", "-e", blob], in: repo).status == 0)
    }

    /// A plain git clone's own commit on the old history it still has, published: merged with
    /// the remote's new history (`git pull --no-rebase`, then `git push`), or pushed over it
    /// (`git push --force`). Returns the remote's branch afterwards.
    @discardableResult
    static func plainPushBack(_ plain: String, remote: String, force: Bool) throws -> String {
        try "mine\n".write(toFile: plain + "/mine.txt", atomically: true, encoding: .utf8)
        #expect(try GitCLI.run(["add", "mine.txt"], in: plain).status == 0)
        #expect(try GitCLI.run(["commit", "-q", "-m", "mine"], in: plain).status == 0)
        if !force {
            let pull = try GitCLI.run(["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], in: plain)
            #expect(pull.status == 0, "\(pull)")
        }
        let push = try GitCLI.run(["push", "-q"] + (force ? ["--force"] : []) + ["origin", "main"], in: plain)
        #expect(push.status == 0, "\(push)")
        return try GitCLI.run(["rev-parse", "main"], in: remote).stdout.trimmingWhitespace(newlines: true)
    }

    /// A purge that reaches a device together with the old history a plain git clone merged
    /// back into it (the clone pulled the purged history and pushed): the device refuses the
    /// remote, takes nothing of it in, and honours the purge all the same — its copy of the
    /// purged moment goes, from the work tree, every reference and every object, as plain git
    /// sees it — while keeping its own work. A device that honoured the purge before the push
    /// back refuses it alike. The next purge names the device and the plain clone, rewrites
    /// the remote, and the device then syncs it in.
    @Test(arguments: [false, true])
    func aPurgeArrivingWithTheOldHistoryMergedBackIsHonouredAndTheRestRefused(honouredFirst: Bool) throws {
        let (fixture, a, note) = try Self.originWithNote("a secret note h5vq2")
        let blob = try GitCLI.run(["rev-parse", "HEAD:" + note], in: a.root).stdout.trimmingWhitespace(newlines: true)
        let b = try fixture.clone(now: "2026-11-21T09:05:00+01:00")
        #expect(b.run("moments", "add", "tea with Kim", env: Self.at("09:10:00")).status == 0)
        #expect(b.run("sync", env: Self.at("09:10:00")).status == 0)
        #expect(a.run("sync", env: Self.at("09:20:00")).status == 0)
        let plain = fixture.directory.path + "/plain"
        #expect(try GitCLI.run(["clone", "-q", fixture.remote, plain], in: "/").status == 0)
        #expect(try Self.gitTrace(of: note, blob: blob, in: b.root).blobPresent)

        #expect(a.run("purge", note, "--yes", env: Self.at("10:00:00")).status == 0)
        if honouredFirst {
            let r = b.run("sync", env: Self.at("10:05:00"))
            #expect(r.status == 0 && r.stdout.contains("Honoured the purge of \(note)"), "\(r)")
        }
        let pushedBack = try Self.plainPushBack(plain, remote: fixture.remote, force: false)
        #expect(try Self.gitTrace(of: note, blob: blob, in: fixture.remote).blobPresent, "plain git brought it back to the remote")
        // b recorded something of its own meanwhile, not synced.
        #expect(b.run("moments", "add", "walk by the river", env: Self.at("10:15:00")).status == 0)
        let tracking = try GitCLI.run(["rev-parse", "refs/remotes/origin/main"], in: b.root).stdout

        let refused = b.run("sync", env: Self.at("10:20:00"))
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("brings back what a purge removed") && refused.stderr.contains(String(pushedBack.prefix(7)))
                && refused.stderr.contains("test <test@example.com>") && refused.stderr.contains("Nothing was merged or pushed"), "\(refused)")
        #expect(refused.stderr.contains("this ledger honoured the purge of \(note)") != honouredFirst, "\(refused)")
        let trace = try Self.gitTrace(of: note, blob: blob, in: b.root)
        #expect(trace.commits.isEmpty && !trace.blobPresent, "b holds the purged moment: \(trace)")
        #expect(try Self.objects(in: b.root, holding: "h5vq2").holding == 0)
        #expect(b.read(note) == nil && b.read("mine.txt") == nil, "nothing of the remote was merged")
        #expect(try GitCLI.run(["rev-parse", "refs/remotes/origin/main"], in: b.root).stdout != pushedBack + "\n", "the remote-tracking branch did not take it in")
        if honouredFirst { #expect(try GitCLI.run(["rev-parse", "refs/remotes/origin/main"], in: b.root).stdout == tracking) }
        let texts = Set(b.files(under: "moments/experiences").compactMap { b.document($0)?["payload"]?.stringValue })
        #expect(texts == ["tea with Kim", "walk by the river"], "\(texts)")
        #expect(b.run("sync", env: Self.at("10:25:00")).status == 1, "refused again while the remote holds it")
        #expect(a.run("sync", env: Self.at("10:25:00")).status == 1)

        // The next purge names who still holds it: the device, and the plain clone's author.
        let device = try #require(b.document(".git/ledger/device.json")?["name"]?.stringValue)
        let plan = a.run("purge", note, "--dry-run", env: Self.at("10:30:00"))
        #expect(plan.status == 0 && plan.stdout.contains("Device \(device) (last synced") && plan.stdout.contains("Commits by test <test@example.com>")
                && plan.stdout.contains("The remote brought back purged content") && plan.stdout.contains(String(pushedBack.prefix(7))), "\(plan)")
        let again = a.run("purge", note, "--yes", env: Self.at("10:30:00"))
        #expect(again.status == 0 && again.stdout.contains("purged content found: 0"), "\(again)")
        let synced = b.run("sync", env: Self.at("10:35:00"))
        #expect(synced.status == 0, "\(synced)")
        #expect(a.run("sync", env: Self.at("10:40:00")).status == 0)
        for repo in [a.root, b.root, fixture.remote] {
            let trace = try Self.gitTrace(of: note, blob: blob, in: repo)
            #expect(trace.commits.isEmpty && !trace.blobPresent, "\(repo): \(trace)")
        }
        #expect(try a.headTree() == b.headTree())
        #expect(b.read("mine.txt") == "mine\n", "the plain clone's own work came with the new purge")
        #expect(Set(a.files(under: "moments/experiences").compactMap { a.document($0)?["payload"]?.stringValue }) == ["tea with Kim", "walk by the river"])
        Self.expectClean([a, b])
    }

    /// How a device meets the old history a plain git clone publishes after a purge.
    enum PushBackVariant: String, CaseIterable, CustomTestStringConvertible {
        /// It honoured the purge, then the clone pushed over it with `git push --force`.
        case forcePushAfterHonouring
        /// It is a `ledger clone` made after the purge; then the clone pulled and pushed.
        case clonedAfterThePurge
        /// It is a `ledger clone` made after the clone pulled and pushed.
        case clonedAfterThePushBack
        /// It had not synced since the purge when the clone pushed over it with `--force`:
        /// the remote no longer holds the purge, so this device cannot know of it.
        case forcePushBeforeItSynced
        var testDescription: String { rawValue }
    }

    /// Every way a ledger device meets the old history a plain git clone published: it never
    /// holds the purged moment after its sync or clone (as `git log --all -- PATH` and `git
    /// cat-file -e BLOB` see it), except when a forced push erased the purge from the remote
    /// before the device ever saw it — then the purging device's sync refuses the remote, and
    /// the next purge reaches this device as any other.
    @Test(arguments: PushBackVariant.allCases)
    func aDeviceNeverTakesInWhatAPlainCloneBringsBack(_ variant: PushBackVariant) throws {
        let (fixture, a, note) = try Self.originWithNote("a secret note r3dw6")
        let blob = try GitCLI.run(["rev-parse", "HEAD:" + note], in: a.root).stdout.trimmingWhitespace(newlines: true)
        let plain = fixture.directory.path + "/plain"
        #expect(try GitCLI.run(["clone", "-q", fixture.remote, plain], in: "/").status == 0)
        var b = try fixture.clone(now: "2026-11-21T09:05:00+01:00")
        #expect(a.run("purge", note, "--yes", env: Self.at("10:00:00")).status == 0)
        switch variant {
        case .forcePushAfterHonouring:
            #expect(b.run("sync", env: Self.at("10:05:00")).status == 0)
            try Self.plainPushBack(plain, remote: fixture.remote, force: true)
        case .clonedAfterThePurge:
            b = try fixture.clone(now: "2026-11-21T10:05:00+01:00")
            try Self.plainPushBack(plain, remote: fixture.remote, force: false)
        case .clonedAfterThePushBack:
            try Self.plainPushBack(plain, remote: fixture.remote, force: false)
            b = try TestLedger(now: "2026-11-21T10:05:00+01:00", initialize: false)
            let clone = b.run("clone", fixture.remote, b.root)
            #expect(clone.status == 1 && clone.stderr.contains("brings back what a purge removed")
                    && clone.stderr.contains("the clone holds the history up to the purge's own commit"), "\(clone)")
            #expect(b.run("check").status == 0, "the clone is a ledger all the same")
        case .forcePushBeforeItSynced:
            try Self.plainPushBack(plain, remote: fixture.remote, force: true)
        }
        #expect(try Self.gitTrace(of: note, blob: blob, in: fixture.remote).blobPresent, "plain git brought it back to the remote")

        let r = b.run("sync", env: Self.at("10:20:00"))
        let trace = try Self.gitTrace(of: note, blob: blob, in: b.root)
        if variant == .forcePushBeforeItSynced {
            #expect(r.status == 0 && trace.blobPresent && b.read("mine.txt") == "mine\n", "no purge left to see: \(r)")
        } else {
            #expect(r.status == 1 && r.stderr.contains("brings back what a purge removed"), "\(r)")
            #expect(trace.commits.isEmpty && !trace.blobPresent && b.read(note) == nil && b.read("mine.txt") == nil, "\(trace)")
        }
        let refused = a.run("sync", env: Self.at("10:25:00"))
        #expect(refused.status == 1 && refused.stderr.contains("test <test@example.com>"), "\(refused)")
        #expect(a.run("purge", note, "--yes", env: Self.at("10:30:00")).status == 0)
        #expect(b.run("sync", env: Self.at("10:35:00")).status == 0)
        #expect(a.run("sync", env: Self.at("10:40:00")).status == 0)
        for repo in [a.root, b.root, fixture.remote] {
            let trace = try Self.gitTrace(of: note, blob: blob, in: repo)
            #expect(trace.commits.isEmpty && !trace.blobPresent, "\(repo): \(trace)")
        }
        #expect(try a.headTree() == b.headTree() && b.read("mine.txt") == "mine\n")
        Self.expectClean([a, b])
    }

    /// Over smart HTTP (git http-backend): the branch is replaced only if it is still where the
    /// purge found it (the lease, checked against what the server advertises); the server keeps
    /// the old objects until its own garbage collection, as the purge says, and the manual's
    /// commands for a bare repository remove them.
    @Test func overSmartHTTPTheBranchIsReplacedOnlyIfItDidNotMove() throws {
        let fixture = try SyncFixture()
        try GitCLI.run(["config", "http.receivepack", "true"], in: fixture.remote)
        let server = try HTTPGitServer(root: fixture.directory.path, directory: fixture.directory.url("http"))
        defer { server.stop() }
        let url = server.url("remote.git")
        let a = try TestLedger(now: "2026-11-21T08:00:00+01:00", initialize: false)
        #expect(a.run("clone", url, a.root).status == 0)
        let note = try #require(a.run("moments", "add", "a secret note v2mq8", "--json", env: Self.at("09:00:00")).json["path"]?.stringValue)
        #expect(a.run("sync").status == 0)
        let b = try TestLedger(now: "2026-11-21T09:10:00+01:00", initialize: false)
        #expect(b.run("clone", url, b.root).status == 0)

        // The lease itself: a replacement expecting another commit than the server's is refused.
        let repo = try Repository.open(a.root)
        let head = try #require(repo.headCommit())
        try repo.setReference("refs/ledger/test", to: head, message: "test")
        let moved = try Remote(repo, url: url, name: "origin").replace(branch: "main", with: "refs/ledger/test", expecting: ObjectID(hex: String(repeating: "1", count: 40)),
                                                                       options: TransportOptions(environment: a.environment))
        #expect(moved == .moved(head))
        try repo.deleteReference("refs/ledger/test")

        let r = a.run("purge", note, "--yes", env: Self.at("10:00:00"))
        #expect(r.status == 0 && r.stdout.contains("The server keeps the old objects until its own garbage collection"), "\(r)")
        #expect(b.run("sync", env: Self.at("10:10:00")).status == 0)
        for repo in [a.root, b.root] { #expect(try Self.objects(in: repo, holding: "v2mq8").holding == 0, "\(repo)") }
        #expect(try Self.objects(in: fixture.remote, holding: "v2mq8").holding >= 1, "the server still holds the old objects")
        #expect(try GitCLI.run(["reflog", "expire", "--expire=now", "--all"], in: fixture.remote).status == 0)
        #expect(try GitCLI.run(["gc", "-q", "--prune=now"], in: fixture.remote).status == 0)
        #expect(try Self.objects(in: fixture.remote, holding: "v2mq8").holding == 0)
        #expect(try a.headTree() == b.headTree())
        Self.expectClean([a, b])
    }

    /// A ledger without a remote is purged here: its history, its tags and branches, the work a
    /// reset kept; a photo another moment still shows stays, and the purge says so.
    @Test func aLedgerWithoutARemoteIsPurgedHereWithEveryReference() throws {
        let l = try TestLedger(now: "2026-11-21T08:00:00+01:00")
        let photo = l.directory.path + "/shared.png"
        try Data(Self.png("shared-bytes-4hd9")).write(to: URL(fileURLWithPath: photo))
        let first = try #require(l.run("moments", "add", "--photo", photo, "--json", env: Self.at("09:00:00")).json["path"]?.stringValue)
        #expect(l.run("moments", "add", "--photo", photo, env: Self.at("09:05:00")).status == 0)
        let note = try #require(l.run("moments", "add", "a secret note t6pe0", "--json", env: Self.at("09:10:00")).json["path"]?.stringValue)
        #expect(try GitCLI.run(["add", "-A"], in: l.root).status == 0)
        #expect(try GitCLI.run(["commit", "-q", "-m", "moments"], in: l.root).status == 0)
        #expect(try GitCLI.run(["tag", "-a", "-m", "a tag", "before"], in: l.root).status == 0)
        #expect(try GitCLI.run(["branch", "side"], in: l.root).status == 0)
        #expect(try GitCLI.run(["update-ref", "refs/ledger/unsynced/2026-11-21T09-20-00", "HEAD"], in: l.root).status == 0)

        let shared = l.run("purge", first, "--yes", env: Self.at("10:00:00"))
        #expect(shared.status == 0 && shared.stdout.contains("here (this ledger has no remote)") && shared.stdout.contains("(kept: moments/photos/"), "\(shared)")
        #expect(l.files(under: "moments/photos").count == 1, "the other moment still shows the photo")
        let r = l.run("purge", note, "--yes", env: Self.at("10:05:00"))
        #expect(r.status == 0 && r.stdout.contains("purged content found: 0"), "\(r)")
        #expect(try Self.objects(in: l.root, holding: "t6pe0").holding == 0, "not in the tag, the branch or the kept work either")
        #expect(try Self.objects(in: l.root, holding: "shared-bytes-4hd9").holding >= 1)
        for ref in ["refs/tags/before", "refs/heads/side", "refs/ledger/unsynced/2026-11-21T09-20-00"] {
            #expect(try GitCLI.run(["rev-parse", "-q", "--verify", ref], in: l.root).status == 0, "\(ref) is kept, rewritten")
        }
        #expect(try GitCLI.run(["cat-file", "-t", "refs/tags/before"], in: l.root).stdout == "tag\n", "an annotated tag stays one")
        Self.expectClean([l])
    }

    /// A device that has not synced for months is named in the plan, with what to do about it;
    /// when it syncs at last, it honours the purge like any other and keeps its own work.
    @Test func aDeviceSilentForMonthsIsNamedAndHonoursThePurgeWhenItSyncs() throws {
        let (fixture, a, note) = try Self.originWithNote("a secret note m4nt8")
        let b = try fixture.clone(now: "2026-11-21T09:10:00+01:00")
        // Named as its person named it (`.git/ledger/device.json`).
        let device = try #require(b.document(".git/ledger/device.json"))
        try FileSystem.writeAtomically(b.root + "/.git/ledger/device.json", CanonicalJSON.encode(.object(["id": device["id"] ?? .null, "name": .string("old-phone")])))
        #expect(b.run("moments", "add", "tea on the train", env: Self.at("09:15:00")).status == 0)
        #expect(b.run("sync").status == 0)
        #expect(a.run("sync").status == 0)

        // A hundred days after b's last commit (commits carry the machine's clock).
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'+00:00'"
        let later = ["LEDGER_NOW": formatter.string(from: Date().addingTimeInterval(100 * 86_400))]
        let plan = a.run("purge", note, "--dry-run", env: later)
        #expect(plan.status == 0 && plan.stdout.contains("Device old-phone (last synced")
                && plan.stdout.contains("3 months ago) holds it until its next `ledger sync`: sync it, or if it is gone, delete that copy."), "\(plan)")
        #expect(a.run("purge", note, "--yes", env: later).status == 0)
        #expect(try Self.objects(in: b.root, holding: "m4nt8").holding >= 1, "b holds it until it syncs")

        let synced = b.run("sync", env: later)
        #expect(synced.status == 0 && synced.stdout.contains("Honoured the purge of \(note)"), "\(synced)")
        #expect(try Self.objects(in: b.root, holding: "m4nt8").holding == 0)
        #expect(b.files(under: "moments/experiences").compactMap { b.document($0)?["payload"]?.stringValue } == ["tea on the train"])
        Self.expectClean([a, b])
    }

    /// Refusals: another device's sync holding the remote's lock, a ledger not in step,
    /// uncommitted changes to what goes — each says why, and changes nothing.
    @Test func aPurgeRefusesWhatWouldMakeItHalf() throws {
        let (fixture, a, note) = try Self.originWithNote("secret")
        let b = try fixture.clone(now: "2026-11-21T09:10:00+01:00")
        let remoteHead = try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout

        // Another device's sync holds the remote's push lock.
        let lock = try FileLock(path: fixture.remote + "/" + LocalRemoteLock.fileName)
        let busy = a.run("purge", note, "--yes")
        #expect(busy.status == 4 && busy.stderr.contains("another device is syncing with origin"), "\(busy)")
        let busyForget = a.run("forget", "moments", "--yes")
        #expect(busyForget.status == 4 && busyForget.stderr.contains("another device is syncing with origin"), "\(busyForget)")
        lock.release()

        // Not in step: the remote has b's changes.
        #expect(b.run("moments", "add", "tea", env: Self.at("09:20:00")).status == 0)
        #expect(b.run("sync").status == 0)
        let behind = a.run("purge", note, "--yes")
        #expect(behind.status == 1 && behind.stderr.contains("`ledger sync`"), "\(behind)")
        #expect(a.run("sync").status == 0)
        // Uncommitted changes to what goes.
        try a.write(note, try #require(a.read(note)).replacingOccurrences(of: "secret", with: "secret!"))
        let dirty = a.run("purge", note, "--yes")
        #expect(dirty.status == 1 && dirty.stderr.contains("uncommitted changes"), "\(dirty)")
        #expect(try GitCLI.run(["rev-parse", "main"], in: fixture.remote).stdout != remoteHead, "only b's sync moved the remote")
        #expect(a.run("purge", "nothing-like-this", "--yes").status == 1)
        #expect(a.run("purge", "not an id!", "--yes").status == 2)
    }
}

/// SPEC §2: "Every read command takes `--json` and then prints one JSON value on stdout" — on
/// every exit, as `sync --json` does (docs/ledger.md, Output).
@Suite struct ChangeCommandJSONTests {
    @Test(arguments: [
        ["purge", "brew/recipes/nosuch.json", "--dry-run", "--json"],
        ["purge", "nosuch", "--yes", "--json"],
        ["forget", "nosuch", "--dry-run", "--json"],
        ["undo", "--dry-run", "--json"],
        // --json without --dry-run or --yes: a usage refusal (exit 2), in JSON too.
        ["undo", "--json"],
        ["forget", "moments", "--json"],
        ["purge", "brew", "--json"],
    ])
    func aRefusalStillPrintsOneJSONValue(arguments: [String]) throws {
        let ledger = try TestLedger()
        let r = ledger.run(arguments: arguments)
        #expect(r.status != 0, "\(r)")
        let json = try JSONParser.parse(Array(r.stdout.utf8))
        #expect(json["outcome"] == .string(r.status == 4 ? "failed" : "refused"), "\(r)")
        let error = try #require(json["error"]?.stringValue)
        #expect(!error.isEmpty && r.stderr.contains(error), "\(r)")
    }
}
