import Foundation
import LedgerKit
@testable import LedgerSync
import LedgerTestSupport
import Testing

/// The repository around a directory, found without libgit2 when the answer is plain, is the
/// one libgit2 and `git rev-parse --show-toplevel` find; every other layout is left to libgit2.
@Suite struct GitDiscoveryTests {
    let dir = TemporaryDirectory("ledger-discovery")
    var root: String { realPath(dir.path) }

    init() { TestGit.isolate() }

    func realPath(_ path: String) -> String {
        guard let p = realpath(path, nil) else { return path }
        defer { free(p) }
        return String(cString: p)
    }

    func git(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws {
        let r = try GitCLI.run(arguments, in: directory, environment: environment)
        #expect(r.status == 0, "git \(arguments): \(r)")
    }

    /// The work tree git finds from `directory` (nil: none, or a bare repository).
    func gitTopLevel(_ directory: String, environment: [String: String] = [:]) throws -> String? {
        let r = try GitCLI.run(["rev-parse", "--show-toplevel"], in: directory, environment: environment)
        let top = r.stdout.trimmingWhitespace(newlines: true)
        return r.status == 0 && !top.isEmpty ? top : nil
    }

    func mkdir(_ path: String) throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }

    /// Expects the plain answer `expected` from `directory`, and libgit2 and git to agree with it.
    func expectPlain(_ directory: String, _ expected: GitDiscovery.Answer, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let answer = GitDiscovery.discover(from: directory, ceilings: nil, acrossFileSystems: false)
        #expect(answer == expected, "\(directory)", sourceLocation: sourceLocation)
        let found: String? = if case .workTree(let w) = expected { w } else { nil }
        #expect(Repository.libgit2WorkTree(containing: directory, ceilings: nil, acrossFileSystems: false) == found, sourceLocation: sourceLocation)
        #expect(try gitTopLevel(directory) == found, sourceLocation: sourceLocation)
        #expect(Repository.workTree(containing: directory, ceilings: nil, acrossFileSystems: false) == found, sourceLocation: sourceLocation)
    }

    @Test func aPlainRepositoryIsFoundWithoutLibgit2() throws {
        try git(["init", "-q", root + "/repo"], in: "/")
        try mkdir(root + "/repo/a/b")
        try expectPlain(root + "/repo", .workTree(root + "/repo"))
        try expectPlain(root + "/repo/a/b", .workTree(root + "/repo"))
        // Through a symbolic link: the real path, as git gives it.
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/repo/a")
        try expectPlain(root + "/link", .workTree(root + "/repo"))
        // A repository inside another's work tree: the nearest.
        try git(["init", "-q", root + "/repo/a/inner"], in: "/")
        try expectPlain(root + "/repo/a/inner", .workTree(root + "/repo/a/inner"))
        try expectPlain(root + "/repo/a", .workTree(root + "/repo"))
    }

    @Test func noRepositoryIsFoundWithoutLibgit2() throws {
        try mkdir(root + "/plain/dir")
        try expectPlain(root + "/plain/dir", .none)
    }

    /// Layouts only libgit2 reads: still found as before, each beside git's answer.
    @Test func otherLayoutsAreLeftToLibgit2() throws {
        try git(["init", "-q", root + "/repo"], in: "/")
        try git(["commit", "-q", "--allow-empty", "-m", "one"], in: root + "/repo")
        func expectUnsure(_ directory: String, ceilings: String? = nil, git top: String?, libgit2: String?,
                          sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(GitDiscovery.discover(from: directory, ceilings: ceilings, acrossFileSystems: false) == .unsure, "\(directory)",
                    sourceLocation: sourceLocation)
            #expect(Repository.workTree(containing: directory, ceilings: ceilings, acrossFileSystems: false) == libgit2, sourceLocation: sourceLocation)
            #expect(try gitTopLevel(directory, environment: ceilings.map { ["GIT_CEILING_DIRECTORIES": $0] } ?? [:]) == top,
                    sourceLocation: sourceLocation)
        }
        // A ceiling: git and libgit2 stop below it.
        try mkdir(root + "/repo/sub")
        try expectUnsure(root + "/repo/sub", ceilings: root + "/repo", git: nil, libgit2: nil)
        // Inside the git directory: git has no work tree there, libgit2 gives the repository's.
        try expectUnsure(root + "/repo/.git/refs", git: nil, libgit2: root + "/repo")
        // A bare repository.
        try git(["init", "-q", "--bare", root + "/bare.git"], in: "/")
        try expectUnsure(root + "/bare.git", git: nil, libgit2: nil)
        // A linked work tree: `.git` is a file.
        try git(["worktree", "add", "-q", root + "/linked"], in: root + "/repo")
        try expectUnsure(root + "/linked", git: root + "/linked", libgit2: root + "/linked")
        // core.worktree moves the work tree elsewhere.
        try git(["init", "-q", root + "/moved"], in: "/")
        try mkdir(root + "/elsewhere")
        try git(["config", "core.worktree", root + "/elsewhere"], in: root + "/moved")
        try expectUnsure(root + "/moved", git: root + "/elsewhere", libgit2: root + "/elsewhere")
        // An include in the config may set anything.
        try git(["init", "-q", root + "/included"], in: "/")
        try git(["config", "include.path", root + "/other.config"], in: root + "/included")
        try expectUnsure(root + "/included", git: root + "/included", libgit2: root + "/included")
    }
}
