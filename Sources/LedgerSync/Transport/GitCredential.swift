import Foundation
import LedgerKit
import ProcessRunner

/// A user name and password for an HTTP(S) remote, from git's credential helpers through
/// `git credential fill` — so `store`, `cache`, libsecret, `gh auth git-credential` and every
/// other helper the user configured answer, and git asks on the terminal when none does —
/// then confirmed with `git credential approve` or dropped with `git credential reject`.
struct GitCredential {
    /// The `key=value` lines git answered (protocol, host, path, username, password, …).
    var fields: [(key: String, value: String)]

    var username: String? { fields.last { $0.key == "username" }?.value }
    var password: String? { fields.last { $0.key == "password" }?.value }

    /// What git needs to find a credential for `url`: protocol, host (with its port), path,
    /// and the user name the URL names.
    static func request(for url: String) -> [(key: String, value: String)] {
        guard let u = URLComponents(string: url), let scheme = u.scheme, let host = u.host else { return [] }
        var fields = [("protocol", scheme), ("host", host + (u.port.map { ":\($0)" } ?? ""))]
        let path = u.path.hasPrefix("/") ? String(u.path.dropFirst()) : u.path
        if !path.isEmpty { fields.append(("path", path)) }
        if let user = u.user, !user.isEmpty { fields.append(("username", user)) }
        return fields
    }

    /// Asks git's helpers (or the user, on a terminal) for a credential for `url`.
    static func fill(for url: String, environment: [String: String]) throws -> GitCredential {
        let r = try run("fill", request(for: url), environment: environment)
        guard r.status == 0 else {
            let said = r.error.split(separator: "\n").last.map(String.init) ?? "exit status \(r.status)"
            throw LedgerError(.unreachable, "\(Remote.redact(url)) asks for a user name and password, and no git credential helper had them (git said: \(said)): store them once with a helper (`git config --global credential.helper store`, or cache, libsecret, `gh auth setup-git`) and sync on a terminal, where git asks for them")
        }
        let fields = r.output.split(separator: "\n").compactMap { line -> (key: String, value: String)? in
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
        let credential = GitCredential(fields: fields)
        guard credential.username != nil, credential.password != nil else {
            throw LedgerError(.unreachable, "\(Remote.redact(url)) asks for a user name and password, and git's credential helpers gave none")
        }
        return credential
    }

    /// Tells the helpers the credential worked (`approve`: a helper such as `store` keeps it)
    /// or was refused (`reject`: they forget it).
    func report(_ worked: Bool, environment: [String: String]) {
        _ = try? Self.run(worked ? "approve" : "reject", fields, environment: environment)
    }

    private static func run(_ action: String, _ fields: [(key: String, value: String)], environment: [String: String]) throws
        -> (status: Int32, output: String, error: String) {
        guard let git = ProgramPath.find("git", path: environment["PATH"]) else {
            throw LedgerError(.unreachable, "asking git's credential helpers for a password needs the `git` command: install the git package (`apt-get install git`)")
        }
        let input = fields.map { "\($0.key)=\($0.value)\n" }.joined() + "\n"
        return try ChildProcess.run(git, ["credential", action], environment: environment, input: input)
    }
}
