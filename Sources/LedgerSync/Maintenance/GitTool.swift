import CGit2
import Foundation
import LedgerKit

/// The git command-line tool, for the one job libgit2 does not do: repository maintenance
/// (`git gc`). Found by the caller on its `PATH`; LedgerSync reads no environment itself.
public struct GitTool: Sendable {
    /// The executable's absolute path.
    public let executable: String
    /// The environment git runs with: the caller's, without the variables that would point
    /// git at another repository than the one named on its command line.
    let environment: [String: String]

    /// Variables git reads to find its repository (set, for instance, when ledger runs inside
    /// a git hook or as git's merge driver).
    static let repositoryVariables: Set<String> = [
        "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_PREFIX", "GIT_QUARANTINE_PATH",
    ]

    public init(executable: String, environment: [String: String]) {
        self.executable = executable
        self.environment = environment.filter { !Self.repositoryVariables.contains($0.key) }
    }

    /// `git` as found on the `PATH` of `environment`, or nil when it is not installed.
    public static func find(in environment: [String: String]) -> GitTool? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where dir.hasPrefix("/") {
            let candidate = String(dir) + "/git"
            if access(candidate, X_OK) == 0, FileSystem.stamp(following: candidate)?.type == .file {
                return GitTool(executable: candidate, environment: environment)
            }
        }
        return nil
    }

    /// What a run of git returned.
    struct Outcome {
        var status: Int32
        /// What git wrote on stderr, trimmed.
        var errors: String
    }

    /// Runs `git ARGUMENTS` with stdin and stdout on /dev/null, and waits for it. git stays in
    /// ledger's process group (a signal to the group — Ctrl-C, a session ending — reaches it)
    /// and is killed when ledger is (`ledger_spawn`): a killed `ledger gc` leaves no `git gc`
    /// working in the repository without its locks.
    func run(_ arguments: [String]) throws -> Outcome {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw LedgerError.failure("cannot run git: \(String(cString: strerror(errno)))") }
        for fd in pipeEnds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        let child = argv.withUnsafeBufferPointer { a in
            envp.withUnsafeBufferPointer { e in ledger_spawn(executable, a.baseAddress, e.baseAddress, nil, devNull, devNull, pipeEnds[1]) }
        }
        close(pipeEnds[1])
        if devNull >= 0 { close(devNull) }
        defer { close(pipeEnds[0]) }
        guard child > 0 else { throw LedgerError.failure("cannot run \(executable): \(String(cString: strerror(-child)))") }
        var errors: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if n > 0 {
                // Keep the end: git's last lines say what went wrong.
                errors += buffer[0..<n]
                if errors.count > 1 << 16 { errors.removeFirst(errors.count - (1 << 16)) }
            } else if n == 0 || errno != EINTR {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which do not import.
        let exited = status & 0x7f == 0
        return Outcome(status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f),
                       errors: String(decoding: errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
