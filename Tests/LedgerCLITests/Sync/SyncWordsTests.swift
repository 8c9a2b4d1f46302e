import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// LedgerSync reports what went wrong as data (`LedgerError.Sentence` with a `NextStep`):
/// an app linking it shows its own words ("add one"), the command line words the same
/// sentence with commands ("add one with `ledger init --remote URL` …").
@Suite struct SyncWordsTests {
    /// A ledger without a remote: the library's sentence names no command; the command line's
    /// is as before; plain git has nowhere to push either.
    @Test func noRemoteIsAStepForAnAppAndACommandForTheCommandLine() throws {
        let ledger = try TestLedger()
        do {
            _ = try Sync.run(ledger.store, options: SyncOptions())
            Issue.record("a sync without a remote went through")
        } catch let e as LedgerError {
            #expect(e.code == .invalidArgument)
            #expect(e.message == "this ledger has no remote to sync with; add one", "\(e.message)")
            #expect(e.sentence.nextStep == .sync(.addRemote(root: ledger.root)))
        }
        let r = ledger.run("sync")
        #expect(r.status == 2, "\(r)")
        #expect(r.stderr == "ledger: this ledger has no remote to sync with; add one with `ledger init --remote URL` (or `git -C \(ledger.root) remote add origin URL`)\n", "\(r)")
        let git = try GitCLI.run(["push"], in: ledger.root)
        #expect(git.status != 0 && git.stderr.contains("No configured push destination"), "\(git)")
    }

    /// Two ledgers with no history in common: the ways out are steps (a clone, merging both
    /// histories on purpose), worded with commands only by the command line.
    @Test func unrelatedHistoriesNameTheirWaysOutAsSteps() throws {
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        #expect(a.run("sync").status == 0)
        let d = try TestLedger(now: "2026-11-21T23:00:00+01:00", initialize: false)
        #expect(d.run("init", "--remote", fixture.remote).status == 0)
        #expect(d.run("waterline", "settings", "set", "waterEveryNDrinks", "3").status == 0)
        let git = try GitCLI.run(["pull", "--no-rebase", "origin", "main"], in: d.root)
        #expect(git.status != 0 && git.stderr.contains("unrelated histories"), "\(git)")
        do {
            _ = try Sync.run(d.store, options: SyncOptions())
            Issue.record("unrelated histories were merged")
        } catch let e as LedgerError {
            #expect(e.message.contains("To use the remote's ledger here, clone it into a new folder and move what you need; to combine both on purpose, merge both histories on purpose and check the ledger after it."), "\(e.message)")
            #expect(!e.message.contains("`"), "\(e.message)")
            #expect(e.sentence.nextStep == .sync(.cloneInto(url: fixture.remote)))
        }
        let r = d.run("sync")
        #expect(r.status == 1)
        #expect(r.stderr.contains("clone it into a new directory (`ledger clone \(fixture.remote) DIR`) and move what you need; to combine both on purpose, run `git -C \(d.root) pull --no-rebase --allow-unrelated-histories origin main` (documents go through ledger's merge driver) and then `ledger check`. Nothing was merged"), "\(r)")
    }

    /// `undo` of a ledger whose history has no merge: "the history lists them" for an app,
    /// "`ledger log` lists them" on the command line.
    @Test func undoWithoutASyncPointsToTheHistory() throws {
        let ledger = try TestLedger()
        #expect(ledger.run("waterline", "start").status == 0)
        do {
            _ = try LedgerSync.Undo.plan(ledger.store, revision: nil)
            Issue.record("an undo was planned with no merge in the history")
        } catch let e as LedgerError {
            #expect(e.message.hasSuffix("name a commit (the history lists them)"), "\(e.message)")
            #expect(e.sentence.nextStep == .sync(.history))
        }
        let r = ledger.run("undo", "--dry-run")
        #expect(r.status == 1)
        #expect(r.stderr.hasSuffix("name a commit (`ledger log` lists them)\n"), "\(r)")
    }

    /// No sentence of LedgerSync names a command of ledger: each is a `NextStep` the command
    /// line words. (The `.gitattributes` it writes keeps its comment, a file's text.)
    @Test func noLedgerSyncSentenceNamesALedgerCommand() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/LedgerSync").path
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20, "\(sources)")
        for file in files {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") || code.hasPrefix("#") { continue }
                if code.contains("`ledger ") { Issue.record("Sources/LedgerSync/\(file):\(number + 1) names a ledger command: \(code)") }
            }
        }
    }
}
