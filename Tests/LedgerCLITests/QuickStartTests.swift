import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// The README's quick start, as a newcomer types it: every command succeeds at any hour.
@Suite struct QuickStartTests {
    /// The quick start's commands, read from the README itself (`make install` aside).
    static func quickStart() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Quick start\n")).upperBound
        var lines: [String] = []
        for line in readme[section...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("    ") {
                lines.append(String(line.dropFirst(4)))
            } else if !line.isEmpty, !lines.isEmpty {
                break
            }
        }
        return lines.filter { !$0.hasPrefix("make install") }
    }

    /// "The quick start's `ledger hydrate drank`, typed before the day's first reminder (06:10
    /// when tried as a new user would), exits 1 … — the sixth command a newcomer types fails
    /// and their glass of water is lost. … make every command of the quick start succeed at any
    /// hour (a test runs the whole quick start at 06:00, 12:00 and 23:30)."
    @Test(arguments: ["2026-11-21T06:00:00+01:00", "2026-11-21T12:00:00+01:00", "2026-11-21T23:30:00+01:00"])
    func theQuickStartSucceedsAtAnyHour(now: String) throws {
        let commands = try Self.quickStart()
        #expect(commands.contains("ledger hydrate drank; ledger moments add \"coffee with Sam\""), "\(commands)")
        let dir = TemporaryDirectory("quick-start")
        let home = dir.path + "/home", remote = dir.path + "/remote.git"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try GitCLI.initBare(remote)
        // The editor a newcomer would use, scripted: it renames the recipe.
        let editor = dir.path + "/editor"
        try "#!/bin/sh\nsed -i 's/\"name\": \"Morning V60\"/\"name\": \"Morning V60, finer\"/' \"$1\"\n"
            .write(toFile: editor, atomically: true, encoding: .utf8)
        _ = chmod(editor, 0o755)
        let script = (["set -e"] + commands.map { $0.replacingOccurrences(of: "git@host:me/ledger.git", with: remote) }).joined(separator: "\n")
        let env = GitCLI.gitEnvironment.merging(["HOME": home, "LEDGER_NOW": now, "TZ": "Europe/Paris", "EDITOR": editor, "NO_COLOR": "1"]) { $1 }
        let r = try Processes.run("/bin/sh", ["-c", script], environment: env, currentDirectory: home)
        #expect(r.status == 0, "at \(now):\n\(script)\n\(r)")
        #expect(!r.stderr.contains("ledger: error") && !r.stderr.contains("nothing was recorded"), "\(r)")
        // The glass, the moment and the edited recipe reached the remote: plain git sees them.
        let clone = dir.path + "/clone"
        #expect(try GitCLI.run(["clone", "-q", remote, clone], in: dir.path).status == 0)
        let files = try GitCLI.run(["ls-files"], in: clone).stdout
        #expect(files.contains("hydrate/days/2026/2026-11-21.json") && files.contains("moments/experiences/2026/11/"), "\(files)")
        let recipes = try GitCLI.run(["grep", "-h", "\"name\"", "--", "brew/recipes"], in: clone).stdout
        #expect(recipes.contains("Morning V60, finer"), "\(recipes)")
        let day = try GitCLI.run(["show", "HEAD:hydrate/days/2026/2026-11-21.json"], in: clone).stdout
        #expect(day.contains("\"confirmedAt\": \"\(now)\""), "\(day)")
    }
}

/// The README's Water Reminder example says what its setup gives: "3 out of 8 reminders
/// completed" (SPEC §5) from the setup line above it, the end of the window exclusive
/// (docs/hydrate.md), run as written.
@Suite struct ReadmeHydrateExampleTests {
    @Test func theSetupLineGivesTheCountTheStatusLineShows() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let setup = try #require(lines.first { $0.hasPrefix("ledger hydrate setup --start") })
        let status = try #require(lines.first { $0.hasPrefix("ledger hydrate status") && $0.contains("out of") })
        let words = status.split(separator: " ")
        let of = try #require(words.firstIndex(of: "out"))
        let (completed, total) = (Int(words[of - 1]), Int(words[of + 2]))
        let arguments = setup.split(separator: "#")[0].split(separator: " ").dropFirst().map(String.init)
        let ledger = try TestLedger(now: "2026-11-21T06:30:00+01:00")
        #expect(ledger.run(arguments: arguments).status == 0)
        let slots = ledger.run("hydrate", "plan", "--json").json["slots"]?.arrayValue?.compactMap { $0["time"]?.stringValue } ?? []
        #expect(slots.count == total, "\(setup): \(slots)")
        for slot in slots.prefix(completed ?? 0) {
            let hhmm = String(slot.dropFirst(11).prefix(5))
            let r = ledger.run("hydrate", "drank", "--slot", hhmm, env: ["LEDGER_NOW": slot.replacingOccurrences(of: ":00:00+", with: ":05:00+")])
            #expect(r.status == 0, "\(r)")
        }
        let json = ledger.run("hydrate", "status", "--json", env: ["LEDGER_NOW": "2026-11-21T11:15:00+01:00"]).json
        #expect(json["completed"] == .number(Double(completed ?? -1)) && json["total"] == .number(Double(total ?? -1)), "\(json)")
    }
}
