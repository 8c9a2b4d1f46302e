import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// `ledger check [PATH...] [--fix] [--json]`
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate every document (or the given files) and report each problem.",
        discussion: """
            Problems are printed as PATH: POINTER: severity: message, where POINTER is a JSON \
            pointer (/ for the whole document, LINE:COLUMN for syntax errors). Exits 1 when \
            any problem is an error. --fix rewrites what can be fixed without guessing: \
            canonical formatting, stale derived values, a document in the wrong year folder.
            """)

    @Argument(help: ArgumentHelp("Files or directories to check (default: the whole ledger).", valueName: "path"))
    var paths: [String] = []

    @Flag(help: "Rewrite what can be fixed without guessing, and report the rest.")
    var fix = false

    @OptionGroup var output: JSONOption

    @Flag(name: .customLong("no-cache"), help: "Re-read every file instead of trusting the record of clean ones.")
    var noCache = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let ctx = CLIContext.current
        let absolute = paths.map { ctx.absolutePath($0) }
        let store = try chooseStore(for: absolute)
        let scope = try absolute.map { p -> String in
            if p == store.root { return "" }
            guard p.hasPrefix(store.root + "/") else {
                throw LedgerError.usage("\(p) is outside the ledger at \(store.root)")
            }
            return String(p.dropFirst(store.root.count + 1))
        }
        var report = try Checker(store: store, useCache: !noCache).check(scope: scope.isEmpty ? nil : scope, fix: fix)
        if scope.isEmpty, let repo = try? Repository.open(store.root),
           let problem = LedgerSetup.mergeDriverProblem(in: repo, searchPath: ctx.environment["PATH"] ?? "") {
            report.problems.insert(Problem(".gitattributes", .warning(.root, problem)), at: 0)
        }
        // The history under the documents, at a glance (HEAD's commit and tree, the index).
        let damage = FileSystem.exists(store.root + "/.git") ? RepositoryRepair.examine(gitDirectory: LedgerStore.gitDirectory(ofWorkTree: store.root)) : []
        if !damage.isEmpty {
            report.problems.insert(Problem(".git", .error(.root, RepositoryDamage(found: damage).sentence)), at: 0)
        }
        if output.json {
            Output.json([
                ("errors", .number(Double(report.errorCount))), ("warnings", .number(Double(report.warningCount))),
                ("files", .number(Double(report.filesChecked))),
                ("problems", .array(report.problems.map(\.json))), ("fixed", .array(report.fixed.map(\.json))),
            ])
        } else {
            for p in report.fixed { Console.print(Style.green("fixed") + " " + p.commandLineDescription) }
            for p in report.problems {
                let line = p.commandLineDescription
                Console.print(p.severity == .error ? line.replacingOccurrences(of: ": error: ", with: ": " + Style.red("error") + ": ") : line)
            }
            let files = Output.plural(report.filesChecked, "file")
            if report.problems.isEmpty {
                Console.print("\(files) checked: no problems" + (report.fixed.isEmpty ? "." : " left."))
            } else {
                let fixable = report.problems.filter(\.issue.fixable).count
                Console.print("\(files) checked: \(Output.plural(report.errorCount, "error")), \(Output.plural(report.warningCount, "warning"))"
                    + (fixable > 0 && !fix ? " (\(fixable) fixable with `ledger check --fix`)" : "") + ".")
            }
        }
        if report.errorCount > 0 { throw ExitCode(1) }
    }

    /// The ledger holding the given paths when no ledger was named, else the named one.
    func chooseStore(for paths: [String]) throws -> LedgerStore {
        let ctx = CLIContext.current
        if global.repo == nil, ctx.repoOverride == nil, let first = paths.first {
            var dir = first
            while dir.count > 1 {
                let candidate = GlobalOptions.store(at: dir)
                if candidate.exists, FileSystem.exists(dir + "/.git") {  // reported, not refused
                    GlobalOptions.housekeep(candidate)
                    return candidate
                }
                dir = (dir as NSString).deletingLastPathComponent
            }
        }
        return try global.store(readable: false)
    }
}
