import Foundation
import LedgerKit
@testable import LedgerRemind
import LedgerTestSupport
import Testing

@Suite struct ReminderUnitTests {
    @Test func theUnitStartsWithTheGraphicalSessionAndRestartsOnFailure() {
        let unit = ReminderUnit(executable: "/usr/local/bin/ledger", ledger: "/home/sam/ledger")
        #expect(unit.text == """
            [Unit]
            Description=ledger reminders (Water Reminder and Waterline notifications)
            PartOf=graphical-session.target
            After=graphical-session.target

            [Service]
            Type=exec
            ExecStart=/usr/local/bin/ledger remind --repo /home/sam/ledger
            Restart=on-failure
            RestartSec=10s

            [Install]
            WantedBy=graphical-session.target

            """)
    }

    @Test(arguments: [
        ("/home/sam/ledger", "/home/sam/ledger"),
        ("/home/sam/My Ledger", "\"/home/sam/My Ledger\""),
        ("/home/sam/100%", "/home/sam/100%%"),
        ("/home/sam/$HOME", "/home/sam/$$HOME"),
        ("/home/sam/a\"b\\c", "\"/home/sam/a\\\"b\\\\c\""),
        ("/home/sam/it's", "\"/home/sam/it's\""),
        ("/home/sam/a;b", "\"/home/sam/a;b\""),
    ])
    func execStartWordsAreQuotedAsSystemdReadsThem(path: String, word: String) {
        #expect(ReminderUnit.quoted(path) == word)
    }

    /// The ledger an installed unit serves is read back from its `ExecStart=` line, whatever
    /// quoting its path needed (install and doctor name it when it is another ledger's).
    @Test(arguments: ["/home/sam/ledger", "/home/sam/My Ledger", "/home/sam/100%", "/home/sam/$HOME", "/home/sam/a\"b\\c", "/home/sam/it's x", "/home/sam/a;b"])
    func theLedgerAnInstalledUnitServesIsReadBack(ledger: String) throws {
        let dir = TemporaryDirectory("ledger-unit")
        #expect(ReminderUnit.installedLedger(in: dir.path, kind: .autosync) == nil)
        try ReminderUnit(executable: "/opt/my tools/ledger", ledger: ledger, kind: .autosync).install(in: dir.path)
        #expect(ReminderUnit.installedLedger(in: dir.path, kind: .autosync) == ledger)
        #expect(ReminderUnit.installedLedger(in: dir.path, kind: .reminders) == nil)
    }

    @Test func systemdAnalyzeVerifyAcceptsTheWrittenUnit() throws {
        let analyze = try Processes.require("systemd-analyze", package: "systemd")
        let dir = TemporaryDirectory("ledger-unit")
        // A binary and a ledger whose paths need quoting and escaping.
        try FileSystem.makeDirectories(dir.url("bin dir"))
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: dir.url("bin dir/ledger 100%"))
        try FileSystem.makeDirectories(dir.url("My $Ledger"))
        let unit = try ReminderUnit.resolving(executable: dir.url("bin dir/ledger 100%"), ledger: dir.url("My $Ledger"))
        let path = try unit.install(in: dir.url("config/systemd/user"))

        try FileSystem.makeDirectories(dir.url("runtime"))
        chmod(dir.url("runtime"), 0o700)
        let env = ["XDG_RUNTIME_DIR": dir.url("runtime"), "HOME": dir.path, "PATH": "/usr/bin:/bin"]
        let verify = try Processes.run(analyze, ["verify", "--user", "--man=no", path], environment: env)
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify)")

        // The same unit with the binary's path unquoted names a program that does not exist:
        // verify refuses it, so the check above can fail.
        let broken = unit.text.replacingOccurrences(of: ReminderUnit.quoted(unit.executable), with: unit.executable.replacingOccurrences(of: "%", with: "%%"))
        try FileSystem.writeAtomically(path, Array(broken.utf8))
        let refused = try Processes.run(analyze, ["verify", "--user", "--man=no", path], environment: env)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("is not executable"), "\(refused)")
    }

    @Test func installWritesAtomicallyAndUninstallRemovesTheUnitAndItsLink() throws {
        let dir = TemporaryDirectory("ledger-unit")
        let units = dir.url("systemd/user")
        let unit = ReminderUnit(executable: "/usr/bin/ledger", ledger: "/srv/ledger")
        let path = try unit.install(in: units)
        #expect(path == units + "/ledger-remind.service")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == unit.text)
        // Installing again replaces it, leaving no temporary file.
        let moved = ReminderUnit(executable: "/usr/bin/ledger", ledger: "/srv/other")
        try moved.install(in: units)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == moved.text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: units) == ["ledger-remind.service"])

        // The link `systemctl --user enable` makes.
        try FileSystem.makeDirectories(units + "/graphical-session.target.wants")
        try FileManager.default.createSymbolicLink(atPath: units + "/graphical-session.target.wants/ledger-remind.service", withDestinationPath: path)
        #expect(try ReminderUnit.uninstall(from: units) == [units + "/graphical-session.target.wants/ledger-remind.service", path])
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try ReminderUnit.uninstall(from: units) == [])
        #expect(ReminderUnit.Kind.reminders.startCommand == "systemctl --user enable --now ledger-remind.service")
        #expect(ReminderUnit.Kind.reminders.stopCommand == "systemctl --user disable --now ledger-remind.service")
    }

    @Test func resolvingFollowsLinksAndRelativePaths() throws {
        let dir = TemporaryDirectory("ledger-unit")
        try FileSystem.makeDirectories(dir.url("real/ledger"))
        try FileManager.default.createSymbolicLink(atPath: dir.url("link"), withDestinationPath: dir.url("real"))
        let real = (dir.path as NSString).resolvingSymlinksInPath
        let unit = try ReminderUnit.resolving(executable: "/bin/../bin/true", ledger: dir.url("link/ledger/../ledger"))
        #expect(unit.ledger == real + "/real/ledger")
        #expect(unit.executable.hasSuffix("/true") && !unit.executable.contains(".."))
        #expect(throws: RemindError.self) { try ReminderUnit.resolving(executable: "/bin/true", ledger: dir.url("missing")) }
    }

    @Test(arguments: [
        (["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/sam"], "/x/config/systemd/user"),
        (["HOME": "/home/sam"], "/home/sam/.config/systemd/user"),
        (["XDG_CONFIG_HOME": "relative", "HOME": "/home/sam"], "/home/sam/.config/systemd/user"),
    ])
    func theUnitDirectoryFollowsXDG(environment: [String: String], directory: String) throws {
        #expect(try ReminderUnit.directory(environment: environment) == directory)
    }
}
