import Foundation
import LedgerKit

/// A throwaway GnuPG home for encrypted remotes: private (mode 0700, in a temporary
/// directory), non-interactive (a key without a passphrase, no pinentry, no smart-card daemon),
/// with its own gpg-agent started here and stopped by its PID. gpg may not start an agent of
/// its own (`no-autostart`), so nothing outlives the value.
package final class GnuPGHome: @unchecked Sendable {
    // @unchecked: owned by one test.
    let directory: TemporaryDirectory
    /// The GnuPG home (`GNUPGHOME`).
    package let path: String
    /// The key's fingerprint: it signs and encrypts (an ed25519 key with a cv25519 subkey).
    package private(set) var fingerprint = ""
    private var agent: BackgroundProcess?

    /// The variables that point gpg (and git-remote-gcrypt, through it) at this home.
    package var environment: [String: String] { ["GNUPGHOME": path] }

    package init() throws {
        let gpg = try Processes.require("gpg", package: "gnupg")
        let gpgAgent = try Processes.require("gpg-agent", package: "gnupg")
        let gpgconf = try Processes.require("gpgconf", package: "gnupg")
        directory = TemporaryDirectory("ledger-gnupg")
        path = directory.path + "/home"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try "no-autostart\n".write(toFile: path + "/gpg.conf", atomically: true, encoding: .utf8)
        try "disable-scdaemon\n".write(toFile: path + "/gpg-agent.conf", atomically: true, encoding: .utf8)
        let env = ["GNUPGHOME": path, "PATH": "/usr/bin:/bin"]
        agent = try BackgroundProcess(gpgAgent, ["--homedir", path, "--daemon", "--no-detach"], environment: env,
                                      log: directory.path + "/agent.log")
        let socket = try Processes.run(gpgconf, ["--homedir", path, "--list-dirs", "agent-socket"], environment: env)
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket), agent?.isRunning == true, Date() < deadline { usleep(20_000) }
        guard FileManager.default.fileExists(atPath: socket) else {
            throw LedgerError.failure("gpg-agent did not start: \(agent?.output ?? "")")
        }
        let made = try Processes.run(gpg, ["--batch", "--passphrase", "", "--quick-gen-key", "Ledger Test <ledger-test@example.invalid>",
                                           "future-default", "default", "never"], environment: env)
        guard made.status == 0 else { throw LedgerError.failure("gpg could not make a key: \(made)") }
        let listed = try Processes.run(gpg, ["--batch", "--with-colons", "--list-secret-keys"], environment: env).stdout
        fingerprint = listed.split(separator: "\n").first { $0.hasPrefix("fpr:") }.map { String($0.split(separator: ":", omittingEmptySubsequences: false)[9]) } ?? ""
        guard !fingerprint.isEmpty else { throw LedgerError.failure("gpg lists no secret key: \(listed)") }
    }

    deinit { agent?.stop() }
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
