import Foundation
import LedgerKit

/// A throwaway GnuPG home for encrypted remotes: private (mode 0700, in a temporary
/// directory), non-interactive (a key without a passphrase, no pinentry, no smart-card daemon),
/// with its own gpg-agent started here and stopped by its PID (which the agent itself tells:
/// `gpg-agent --daemon` forks and its first process exits). gpg may not start an agent of its
/// own (`no-autostart`), so nothing outlives the value.
package final class GnuPGHome: @unchecked Sendable {
    // @unchecked: owned by one test.
    let directory: TemporaryDirectory
    /// The GnuPG home (`GNUPGHOME`).
    package let path: String
    /// The key's fingerprint: it signs and encrypts (an ed25519 key with a cv25519 subkey).
    package private(set) var fingerprint = ""
    /// The agent's process.
    private var agent: pid_t = 0

    /// The variables that point gpg (and git-remote-gcrypt, through it) at this home.
    package var environment: [String: String] { ["GNUPGHOME": path] }

    package init() throws {
        let gpg = try Processes.require("gpg", package: "gnupg")
        let gpgAgent = try Processes.require("gpg-agent", package: "gnupg")
        let connect = try Processes.require("gpg-connect-agent", package: "gnupg")
        directory = TemporaryDirectory("ledger-gnupg")
        path = directory.path + "/home"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try "no-autostart\n".write(toFile: path + "/gpg.conf", atomically: true, encoding: .utf8)
        try "disable-scdaemon\n".write(toFile: path + "/gpg-agent.conf", atomically: true, encoding: .utf8)
        let env = ["GNUPGHOME": path, "PATH": "/usr/bin:/bin"]
        // Returns once the agent listens.
        let started = try Processes.run(gpgAgent, ["--homedir", path, "--daemon"], environment: env)
        guard started.status == 0 else { throw LedgerError.failure("gpg-agent did not start: \(started)") }
        let pid = try Processes.run(connect, ["--homedir", path, "--no-autostart", "getinfo pid", "/bye"], environment: env).stdout
            .split(separator: "\n").first { $0.hasPrefix("D ") }.flatMap { pid_t($0.dropFirst(2)) }
        guard let pid, pid > 0 else { throw LedgerError.failure("gpg-agent does not tell its process id") }
        agent = pid
        let made = try Processes.run(gpg, ["--batch", "--passphrase", "", "--quick-gen-key", "Ledger Test <ledger-test@example.invalid>",
                                           "future-default", "default", "never"], environment: env)
        guard made.status == 0 else { throw LedgerError.failure("gpg could not make a key: \(made)") }
        let listed = try Processes.run(gpg, ["--batch", "--with-colons", "--list-secret-keys"], environment: env).stdout
        fingerprint = listed.split(separator: "\n").first { $0.hasPrefix("fpr:") }.map { String($0.split(separator: ":", omittingEmptySubsequences: false)[9]) } ?? ""
        guard !fingerprint.isEmpty else { throw LedgerError.failure("gpg lists no secret key: \(listed)") }
    }

    /// Stops the agent by its PID: SIGTERM, then SIGKILL if it still runs after two seconds.
    deinit {
        guard agent > 0 else { return }
        kill(agent, SIGTERM)
        let deadline = Date().addingTimeInterval(2)
        while Self.isRunning(agent), Date() < deadline { usleep(20_000) }
        if Self.isRunning(agent) { kill(agent, SIGKILL) }
    }

    /// Whether `pid` runs (exists and is not a zombie waiting for its parent).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }
}

extension GitCLI {
    /// Everything a repository holds, readable: every object's contents as git stores them
    /// (`git cat-file --batch-all-objects --batch`), then every file's raw bytes — what someone
    /// with the remote's disk could read.
    package static func everythingStored(in repository: String) throws -> String {
        let objects = try run(["cat-file", "--batch-all-objects", "--batch"], in: repository).stdout
        var files = ""
        if let walk = FileManager.default.enumerator(atPath: repository) {
            while let relative = walk.nextObject() as? String {
                if let data = FileManager.default.contents(atPath: repository + "/" + relative) {
                    files += String(decoding: data, as: UTF8.self)
                }
            }
        }
        return objects + files
    }
}
