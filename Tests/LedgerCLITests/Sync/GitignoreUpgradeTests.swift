import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// A ledger made before its `.gitignore` named merge tools' backups (`*.orig`, `*.rej`,
/// `*.bak`) or Emacs's auto-save files (`\#*#`, a buffer's unsaved edits in `#<id>.json#`)
/// gets them from its next sync (or `ledger init` run again): only the missing lines,
/// at the end of the ledger's own block, nothing of the owner's reordered or removed, committed
/// by the sync like any change a command made. Plain git (`git status --porcelain`,
/// `git check-ignore`) on the same ledger is the reference.
@Suite struct GitignoreUpgradeTests {
    /// What `ledger init` wrote before the backups' patterns.
    static let oldBlock = """
        # ledger: hidden files (editor swap files, interrupted writes) and backups are not data
        .*
        !.gitignore
        !.gitattributes
        *~

        """
    /// The owner's own lines after it: a later `!keep.bak` must keep winning over `*.bak`.
    static let mine = "\n# mine\nscratch/\n!keep.bak\n"
    static let additions = "*.orig\n*.rej\n*.bak\n\\#*#\n"

    /// `git check-ignore -q PATH` in `ledger`: true when git ignores it.
    func gitIgnores(_ ledger: TestLedger, _ path: String) throws -> Bool {
        let r = try GitCLI.run(["check-ignore", "-q", path], in: ledger.root)
        try #require(r.status == 0 || r.status == 1, "\(r)")
        return r.status == 0
    }

    @Test func aSyncAddsTheMissingPatternsAndCommitsThemAndTheOtherDeviceMergesItsOwnUpgrade() throws {
        let fixture = try SyncFixture()
        let laptop = try fixture.origin()
        try laptop.write(".gitignore", Self.oldBlock + Self.mine)
        try GitCLI.run(["commit", "-qam", "a ledger from before"], in: laptop.root)
        try GitCLI.run(["push", "-q", "origin", "main"], in: laptop.root)
        let phone = try fixture.clone()
        #expect(phone.read(".gitignore") == Self.oldBlock + Self.mine)
        // Backups a merge tool left, and a file of the owner's that their own line keeps.
        try laptop.write("waterline/settings.json.orig", "{}\n")
        try laptop.write("waterline/settings.json.rej", "@@ -1 +1 @@\n")
        try laptop.write("keep.bak", "mine\n")
        try laptop.write("waterline/#settings.json#", "{\"units\": \"ml\", half typed\n")  // Emacs, edits unsaved
        // Plain git on the old ledger would commit the backups.
        let before = try laptop.gitStatus()
        #expect(before.contains("?? waterline/settings.json.orig") && before.contains("?? waterline/settings.json.rej"), "\(before)")
        #expect(try !gitIgnores(laptop, "waterline/settings.json.orig") && !gitIgnores(laptop, "waterline/#settings.json#"))

        let r = laptop.run("sync")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("Added *.orig, *.rej, *.bak, \\#*# to .gitignore (merge tools' backups and Emacs's auto-save files"), "\(r)")
        let upgraded = Self.oldBlock + Self.additions + Self.mine
        #expect(laptop.read(".gitignore") == upgraded)
        // Committed with the owner's file, the backups left out; published.
        let committed = try GitCLI.run(["show", "--name-only", "--format=", "HEAD"], in: laptop.root).stdout
        #expect(committed == ".gitignore\nkeep.bak\n", "\(committed)")
        #expect(try GitCLI.run(["show", "main:.gitignore"], in: fixture.remote).stdout == upgraded)
        #expect(try laptop.gitStatus().isEmpty)
        #expect(try gitIgnores(laptop, "waterline/settings.json.orig") && gitIgnores(laptop, "waterline/settings.json.rej"))
        #expect(try !gitIgnores(laptop, "keep.bak"))
        // Once: the next sync finds nothing to add.
        let again = laptop.run("sync")
        #expect(again.status == 0 && !again.stdout.contains(".gitignore"), "\(again)")

        // The phone, still old, upgrades its own copy the same way and merges the laptop's.
        try phone.write("waterline/settings.json.orig", "{}\n")
        let p = phone.run("sync")
        #expect(p.status == 0 && p.stdout.contains("Added *.orig, *.rej, *.bak, \\#*# to .gitignore"), "\(p)")
        #expect(phone.read(".gitignore") == upgraded)
        #expect(try phone.gitStatus().isEmpty)
        #expect(try phone.headTree() == laptop.headTree())
    }

    /// `ledger init` on an existing ledger restores what its setup lacks, the patterns too; each
    /// `.gitignore` and what it becomes (nil: left as it is), with what git then ignores.
    @Test(arguments: [
        ("an old ledger's", oldBlock, oldBlock + additions),
        ("with the owner's lines, one of them *.bak", oldBlock + "\nscratch/\n*.bak\n", oldBlock + "*.orig\n*.rej\n\\#*#\n" + "\nscratch/\n*.bak\n"),
        ("without a final newline", String(oldBlock.dropLast()), oldBlock + String(additions.dropLast())),
        ("with CRLF line ends", oldBlock.replacingOccurrences(of: "\n", with: "\r\n"), (oldBlock + additions).replacingOccurrences(of: "\n", with: "\r\n")),
        ("upgraded, then *.bak taken out by its owner", oldBlock + "*.orig\n*.rej\n", oldBlock + "*.orig\n*.rej\n\\#*#\n"),
        ("made before Emacs's auto-save files", oldBlock + "*.orig\n*.rej\n*.bak\n", oldBlock + additions),
        ("upgraded twice", oldBlock + additions, nil),
        ("the owner's own, without ledger's block", "*.log\n", nil),
    ] as [(String, String, String?)])
    func initAddsOnlyTheMissingLines(name: String, old: String, upgraded: String?) throws {
        let ledger = try TestLedger()
        try ledger.write(".gitignore", old)
        try GitCLI.run(["commit", "-qam", "the .gitignore of \(name)"], in: ledger.root)
        try ledger.write("moments/settings.json.orig", "{}\n")
        let r = ledger.run("init", ledger.root)
        #expect(r.status == 0, "\(name): \(r)")
        #expect(ledger.read(".gitignore") == upgraded ?? old, "\(name)")
        #expect(r.stdout.contains("to .gitignore") == (upgraded != nil), "\(name): \(r)")
        // Plain git: the change is the work tree's until a sync commits it, and the backup is
        // ignored exactly when the file names its pattern.
        let status = try GitCLI.run(["status", "--porcelain", "--", ".gitignore"], in: ledger.root).stdout
        #expect(status == (upgraded == nil ? "" : " M .gitignore\n"), "\(name)")
        #expect(try gitIgnores(ledger, "moments/settings.json.orig") == (upgraded ?? old).contains("*.orig"), "\(name)")
        #expect(try gitIgnores(ledger, "keep.bak") == (upgraded ?? old).contains("*.bak"), "\(name)")
        #expect(try gitIgnores(ledger, "moments/#settings.json#") == (upgraded ?? old).contains("\\#*#"), "\(name)")
    }
}
