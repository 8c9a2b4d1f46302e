import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// `ledger check [PATH...] [--fix] [--json | --format gnu]`
struct CheckCommand: ParsableCommand {
    /// How problems are printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// `PATH: POINTER: severity: message [line L, column C]`, and a summary.
        case text
        /// `FILE:LINE:COLUMN: severity: message` only, files named from the current directory.
        case gnu
    }

    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate every document (or the given files) and report each problem.",
        discussion: """
            Problems are printed as PATH: POINTER: severity: message [line L, column C], where \
            POINTER is a JSON pointer (/ for the whole document, LINE:COLUMN for syntax errors) \
            and L, C the place in the file of the value it names. --format gnu prints \
            FILE:LINE:COLUMN: severity: message alone, for Vim's quickfix, Emacs' compile mode \
            and a VS Code problem matcher; with --json every problem has "line" and "column". \
            Exits 1 when any problem is an error. --fix rewrites what can be fixed without \
            guessing: canonical formatting, stale derived values, a document in the wrong year \
            folder.
            """)

    @Argument(help: ArgumentHelp("Files or directories to check (default: the whole ledger).", valueName: "path"), completion: .file())
    var paths: [String] = []

    @Flag(help: "Rewrite what can be fixed without guessing, and report the rest.")
    var fix = false

    @OptionGroup var output: JSONOption

    @Option(help: ArgumentHelp("How to print problems: text, or gnu (FILE:LINE:COLUMN: severity: message) for editors.", valueName: "format"))
    var format: Format = .text

    @Flag(name: .customLong("no-cache"), help: "Re-read every file instead of trusting the record of clean ones.")
    var noCache = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if output.json, format != .text { throw LedgerError.usage("--json prints every problem with its line and column; give --json or --format, not both") }
    }

    /// A warning about a file that is neither a document nor an app's attachment nor a
    /// conflict file.
    static func isStray(_ p: Problem) -> Bool {
        guard p.severity == .warning, case .other = PathRole(path: p.path) else { return false }
        return true
    }

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
        // A file that is no document and that git leaves out of every commit (an editor's
        // `x.json~`, by the ledger's .gitignore) is not data: sync never commits it, so it is
        // not reported. One git would commit (`x.json.orig` where .gitignore does not name it)
        // is, since the next sync takes it to every device (docs/ledger.md).
        if report.problems.contains(where: { Self.isStray($0) }), let repo = try? Repository.open(store.root) {
            report.problems.removeAll { Self.isStray($0) && repo.isIgnored($0.path) }
        }
        if scope.isEmpty, let problem = LedgerSetup.mergeDriverProblem(workTree: store.root, searchPath: ctx.environment["PATH"] ?? "") {
            report.problems.insert(Problem(".gitattributes", .warning(.root, problem)), at: 0)
        }
        // The history under the documents, at a glance (HEAD's commit and tree, the index).
        let damage = FileSystem.exists(store.root + "/.git") ? RepositoryRepair.examine(gitDirectory: LedgerStore.gitDirectory(ofWorkTree: store.root), record: store.localState("readable-commit")) : []
        if !damage.isEmpty {
            report.problems.insert(Problem(".git", .error(.root, RepositoryDamage(found: damage).sentence)), at: 0)
        }
        if output.json {
            Output.json([
                ("errors", .number(Double(report.errorCount))), ("warnings", .number(Double(report.warningCount))),
                ("files", .number(Double(report.filesChecked))),
                ("problems", .array(report.problems.map(\.json))), ("fixed", .array(report.fixed.map(\.json))),
            ])
        } else if format == .gnu {
            for p in report.problems { Console.print(p.gnuDescription(file: Self.shown(p.path, root: store.root, from: ctx.currentDirectory))) }
        } else {
            for p in report.fixed { Console.print(Style.green("fixed") + " " + p.commandLineDescription) }
            for p in report.problems {
                var line = p.commandLineDescription
                // (Not Foundation's replacingOccurrences: a check of thousands of problems spent
                // a tenth of its time there.)
                if p.severity == .error, let r = line.firstRange(of: ": error: ") { line.replaceSubrange(r, with: ": " + Style.red("error") + ": ") }
                Console.print(line)
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

    /// How `--format gnu` names a file: from the current directory when the ledger is there
    /// or below it (the ledger's root is a workspace), else by its absolute path.
    static func shown(_ path: String, root: String, from directory: String) -> String {
        if root == directory { return path }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return root.hasPrefix(base) ? String(root.dropFirst(base.count)) + "/" + path : root + "/" + path
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
