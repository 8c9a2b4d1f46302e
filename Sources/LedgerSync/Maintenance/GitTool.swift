import Foundation
import LedgerKit
import ProcessRunner

/// The git command-line tool, for the one job libgit2 does not do: repository maintenance
/// (`git gc`). Found by the caller on its `PATH`; LedgerSync reads no environment itself.
package struct GitTool: Sendable {
    /// The executable's absolute path.
    package let executable: String
    /// The environment git runs with: the caller's, without the variables that would point
    /// git at another repository than the one named on its command line.
    let environment: [String: String]

    /// Variables git reads to find its repository (set, for instance, when ledger runs inside
    /// a git hook or as git's merge driver).
    static let repositoryVariables: Set<String> = [
        "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_PREFIX", "GIT_QUARANTINE_PATH",
    ]

    package init(executable: String, environment: [String: String]) {
        self.executable = executable
        self.environment = environment.filter { !Self.repositoryVariables.contains($0.key) }
    }

    /// `git` as found on the `PATH` of `environment`, or nil when it is not installed.
    package static func find(in environment: [String: String]) -> GitTool? {
        ProgramPath.find("git", path: environment["PATH"]).map { GitTool(executable: $0, environment: environment) }
    }

    /// What a run of git returned.
    struct Outcome {
        var status: Int32
        /// What git wrote on stderr (its end), trimmed.
        var errors: String
    }

    /// Runs `git ARGUMENTS` with stdin and stdout on /dev/null, and waits for it. git and
    /// every program it starts (`git gc`'s `repack`, its `pack-objects`) run in a watched
    /// process group (`ChildProcess.Group.watched`), ended when ledger dies (`kill -9`
    /// included): a killed `ledger gc` or `ledger sync` leaves no git working in the
    /// repository without its locks.
    func run(_ arguments: [String]) throws -> Outcome {
        do {
            let git = try ChildProcess(executable, arguments, environment: environment, input: .null, output: .null, group: .watched)
            let status = git.wait()
            return Outcome(status: status, errors: git.errorText)
        } catch {
            throw LedgerError.failure("cannot run \(executable): \(error)")
        }
    }

    /// Runs `git ARGUMENTS` in `directory` to its end: its status, standard output and the end
    /// of its standard error. Its standard input is
    /// empty: what asks (a passphrase) asks on the terminal.
    func capture(_ arguments: [String], in directory: String) throws -> (status: Int32, output: String, errors: String) {
        do {
            let r = try ChildProcess.run(executable, arguments, environment: environment, directory: directory)
            return (r.status, r.output, r.error)
        } catch {
            throw LedgerError.failure("cannot run \(executable): \(error)")
        }
    }

    /// Runs `git ARGUMENTS` on the repository at `gitDirectory` so that what it does survives
    /// a power cut: every file it writes flushed before it is renamed into place
    /// (`core.fsync=all`; with git's defaults `packed-refs` is not, and a cut after the loose
    /// references are removed leaves no branch at all), and its renames and removals — git
    /// flushes files, not folders — made durable once it ends (`Durability`).
    func runDurably(in gitDirectory: String, _ arguments: [String]) throws -> Outcome {
        let started = Durability.now()
        defer { Durability.flush(gitDirectory: gitDirectory, since: started) }
        return try run(["-c", "core.fsync=all", "-c", "core.fsyncMethod=fsync", "--git-dir=" + gitDirectory] + arguments)
    }
}
