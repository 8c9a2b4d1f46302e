import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `make install` into a temporary prefix: `man` finds a page per command, bash completes from
/// the ledger through the installed completion script, and `make uninstall` removes it all.
@Suite struct InstallTests {
    /// Runs bash's completion function for `line` (completing its last word) with the
    /// installed script, as bash does on TAB, in `directory` (default: the ledger's root); the
    /// candidates it offers.
    static func complete(_ line: String, prefix: String, ledger: TestLedger, in directory: String? = nil) throws -> [String] {
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if words.last != "" && line.hasSuffix(" ") { words.append("") }
        let script = """
            shopt -s extglob
            source "$PREFIX/share/bash-completion/completions/ledger"
            COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " ")))
            COMP_CWORD=\(words.count - 1)
            COMP_LINE='\(line)'
            COMP_POINT=${#COMP_LINE}
            _ledger ledger "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        var env = ledger.environment
        env["PREFIX"] = prefix
        env["PATH"] = prefix + "/bin:/usr/bin:/bin"
        env["LEDGER_NOW"] = nil
        let r = try Processes.run("/bin/bash", ["--norc", "--noprofile", "-c", script], environment: env, currentDirectory: directory ?? ledger.root)
        guard r.status == 0 else { throw LedgerError.failure("bash: \(r)") }
        return r.stdout.split(separator: "\n").map(String.init).filter { !$0.isEmpty }.sorted()
    }

    @Test func installPutsManPagesAndLiveCompletionsWhereTheSystemLooks() throws {
        let tmp = TemporaryDirectory("ledger-install")
        let prefix = tmp.path + "/prefix"
        let make = try Processes.run("/usr/bin/make", ["-C", MomentsFixture.packageRoot, "install", "PREFIX=" + prefix, "BIN=" + LedgerBinary.directory],
                                     environment: ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": tmp.path])
        try #require(make.status == 0, "\(make)")
        for page in ["ledger", "ledger-waterline", "ledger-waterline-drink", "ledger-doctor", "ledger-check"] {
            let man = try Processes.run("/usr/bin/man", ["-w", page], environment: ["MANPATH": prefix + "/share/man", "PATH": "/usr/bin:/bin"])
            #expect(man.status == 0 && man.stdout == "\(prefix)/share/man/man1/\(page).1\n", "\(page): \(man)")
        }
        let manual = try Processes.run("/usr/bin/man", ["ledger-check"], environment: ["MANPATH": prefix + "/share/man", "PATH": "/usr/bin:/bin", "MANPAGER": "cat", "COLUMNS": "200"])
        #expect(manual.stdout.contains("--format <format>") && manual.stdout.contains("Vim's quickfix"), "the command's own prose: \(manual)")
        for file in ["share/zsh/site-functions/_ledger", "share/fish/vendor_completions.d/ledger.fish"] {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file)")
        }

        // Completions from the ledger, as plain listings of it show them.
        let ledger = try MomentsFixture.sampleLedger()
        let presets = ledger.run("waterline", "presets", "--json").json.arrayValue ?? []
        let presetWords = Set(presets.flatMap { [$0["id"]?.stringValue, $0["name"]?.stringValue].compactMap { $0 } }.filter { !$0.contains(" ") })
        #expect(presetWords.contains("beer") && presetWords.contains("glass-of-wine"))
        #expect(Set(try Self.complete("ledger waterline drink --preset ", prefix: prefix, ledger: ledger)) == presetWords)
        #expect(try Self.complete("ledger waterline drink --preset gl", prefix: prefix, ledger: ledger) == ["glass-of-wine"])
        let logs = (ledger.run("brew", "logs", "--json").json.arrayValue ?? []).compactMap { $0["id"]?.stringValue }.sorted()
        let completedLogs = try Self.complete("ledger brew log show ", prefix: prefix, ledger: ledger)
        #expect(!logs.isEmpty && completedLogs == logs)
        let sessions = (ledger.run("waterline", "sessions", "--json").json.arrayValue ?? []).compactMap { $0["id"]?.stringValue }.sorted()
        let completedSessions = try Self.complete("ledger waterline summary ", prefix: prefix, ledger: ledger)
        #expect(!sessions.isEmpty && completedSessions == sessions)
        let recipes = try Self.complete("ledger brew plan ", prefix: prefix, ledger: ledger)
        for r in ledger.run("brew", "recipes", "--json").json.arrayValue ?? [] {
            #expect(recipes.contains(r["id"]?.stringValue ?? "?"), "\(r) in \(recipes)")
        }
        #expect(try Self.complete("ledger moments show 2026-", prefix: prefix, ledger: ledger) == ["2026-10", "2026-11"])
        try GitCLI.run(["remote", "add", "backup", "/nonexistent"], in: ledger.root)
        let remotes = try GitCLI.run(["remote"], in: ledger.root).stdout.split(separator: "\n").map(String.init).sorted()
        #expect(try Self.complete("ledger sync --remote ", prefix: prefix, ledger: ledger) == remotes)
        // --repo among the words names the ledger to complete from.
        let other = try TestLedger()
        #expect(Set(try Self.complete("ledger waterline drink --repo \(ledger.root) --preset ", prefix: prefix, ledger: other)).contains("ipa-pint"))
        #expect(!(try Self.complete("ledger waterline drink --preset ", prefix: prefix, ledger: other)).contains("ipa-pint"))

        let uninstall = try Processes.run("/usr/bin/make", ["-C", MomentsFixture.packageRoot, "uninstall", "PREFIX=" + prefix],
                                          environment: ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": tmp.path])
        #expect(uninstall.status == 0, "\(uninstall)")
        let left = FileManager.default.enumerator(atPath: prefix)?.compactMap { $0 as? String }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: prefix + "/" + $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        } ?? []
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
