import Foundation
import LedgerKit
import ProcessRunner

/// A remote reached through one of git's remote helpers: a URL `<transport>::<address>`
/// (`gcrypt::/mnt/usb/ledger.git`, `gcrypt::rsync://host/ledger`), for which git runs the
/// program `git-remote-<transport>` found on the `PATH`. libgit2 has no remote helpers, so the
/// transfers go through the git command — `git fetch` and `git push`, with the user's whole
/// configuration — while ledger still commits, merges and checks.
struct RemoteHelper {
    let git: GitTool
    /// Where git runs (the repository's work tree), and what it is told to fetch from and push
    /// to: the remote's name when it has one (its `pushurl` and other settings then apply, as
    /// for `git push origin`), else the URL.
    let directory: String
    let remote: String
    /// The URL as configured (shown in messages), and the helper's name (`gcrypt`).
    let url: String
    let transport: String

    /// The helper a URL names (`gcrypt` for `gcrypt::…`), as git reads it: letters, digits,
    /// `+`, `-` and `.` before `::`. nil for every URL libgit2 handles.
    static func transport(of url: String) -> String? {
        guard let r = url.range(of: "::") else { return nil }
        let name = url[..<r.lowerBound]
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return String(name)
    }

    /// The helper for `url` (nil when the URL names none), for `repository`. Throws (exit 3,
    /// like an unreachable remote) when git or the helper's program is not installed.
    init?(url: String, name: String?, repository: Repository, environment: [String: String]) throws {
        guard let transport = Self.transport(of: url) else { return nil }
        guard let git = GitTool.find(in: environment) else {
            throw LedgerError(.unreachable, "\(Remote.redact(url)) is reached through git's remote helper git-remote-\(transport), which needs the git command, and git is not on the PATH")
        }
        if let missing = Self.missingProgram(transport, environment: environment) { throw LedgerError(.unreachable, missing) }
        self.git = git
        directory = repository.workdir
        self.remote = name ?? url
        self.url = url
        self.transport = transport
    }

    /// Why git could not reach a remote through `transport` on this machine (its program is
    /// neither on the `PATH` nor in git's own programs, `git --exec-path`), or nil when it can.
    static func missingProgram(_ transport: String, environment: [String: String]) -> String? {
        let program = "git-remote-" + transport
        guard ProgramPath.find(program, path: environment["PATH"]) == nil else { return nil }
        if let git = GitTool.find(in: environment), let own = try? git.capture(["--exec-path"], in: "/"), own.status == 0,
           ProgramPath.find(program, path: own.output.trimmingWhitespace(newlines: true)) != nil {
            return nil
        }
        let package = transport == "gcrypt" ? " (Debian and Ubuntu: `apt install git-remote-gcrypt`)" : ""
        return "remotes named \(transport)::… are reached through git's remote helper git-remote-\(transport), which is not installed (not on the PATH)\(package)"
    }

    /// Fetches `refspecs`, without tags and without writing FETCH_HEAD. A branch the remote does
    /// not have (a new, empty remote) is not an error: nothing is fetched for it, as with
    /// libgit2's transports.
    func fetch(_ refspecs: [String]) throws {
        let run = try git.capture(["fetch", "--no-tags", "--no-write-fetch-head", "--quiet", remote] + refspecs, in: directory)
        guard run.status != 0 else { return }
        if run.errors.contains("couldn't find remote ref") { return }
        throw unreachable("fetch", run.errors)
    }

    /// The commit the remote's `refs/heads/<branch>` is at, or nil when it has no such branch.
    func tip(of branch: String) throws -> ObjectID? {
        let run = try git.capture(["ls-remote", "--heads", remote, "refs/heads/" + branch], in: directory)
        guard run.status == 0 else { throw unreachable("read the branches of", run.errors) }
        for line in run.output.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count == 2, fields[1] == "refs/heads/" + branch { return ObjectID(hex: String(fields[0])) }
        }
        return nil
    }

    /// Pushes `refspec` (`refs/heads/main:refs/heads/main`) when the remote's branch is still
    /// at `expected` (nil: it has none). Some helpers replace the branch whatever it holds
    /// (git-remote-gcrypt pushes as if forced), so the branch is read first: moved on means
    /// `.rejected`, as a non-fast-forward, and the sync fetches and merges again.
    func push(_ refspec: String, expected: ObjectID?) throws -> Remote.PushOutcome {
        let destination = String(refspec[refspec.index(after: refspec.lastIndex(of: ":")!)...])
        let now = try tip(of: String(destination.dropFirst("refs/heads/".count)))
        if now != expected { return .rejected("\(destination) has moved on since the fetch (fetch first)") }
        return try send(refspec).map { .rejected($0) } ?? .pushed
    }

    /// Replaces the remote's `branch` with the local reference `source` if it is still at
    /// `expected` (`Remote.replace`; read just before, as for `push`).
    func replace(branch: String, with source: String, expected: ObjectID?) throws -> Remote.Replacement {
        let now = try tip(of: branch)
        guard now == expected else { return .moved(now) }
        return try send("+\(source):refs/heads/\(branch)").map { .refused($0) } ?? .replaced
    }

    /// `git push` of one refspec: nil when it was pushed, else the reason the remote refused it.
    private func send(_ refspec: String) throws -> String? {
        let run = try git.capture(["push", "--porcelain", "--quiet", remote, refspec], in: directory)
        // `--porcelain`: "!<TAB>src:dst<TAB>[rejected] (fetch first)" for each refused reference.
        for line in run.output.split(separator: "\n") where line.hasPrefix("!") {
            return line.split(separator: "\t").dropFirst(2).joined(separator: " ")
        }
        guard run.status == 0 else { throw unreachable("push to", run.errors) }
        return nil
    }

    /// A `LedgerError` (exit 3) for a transfer git could not make: its last words (gpg's
    /// chatter on the way left out).
    func unreachable(_ what: String, _ errors: String) -> LedgerError {
        let lines = errors.split(separator: "\n").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty && !$0.hasPrefix("gpg: ") }
        let said = lines.suffix(3).joined(separator: " ")
        return LedgerError(.unreachable, "git could not \(what) \(Remote.redact(url)) through git-remote-\(transport)" + (said.isEmpty ? "" : ": " + Remote.redact(said)))
    }
}
