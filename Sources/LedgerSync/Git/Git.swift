import CGit2
import Foundation
import LedgerKit

/// A libgit2 failure: the function, libgit2's error code and class, and its message.
public struct GitError: Error, Sendable, CustomStringConvertible {
    /// libgit2's return code (`GIT_ENOTFOUND` is -3, `GIT_ENONFASTFORWARD` -11, …).
    public let code: Int32
    /// libgit2's error class (`GIT_ERROR_NET`, `GIT_ERROR_SSH`, …), 0 when none was set.
    public let errorClass: Int32
    public let message: String
    /// The libgit2 function that failed.
    public let function: String

    public var description: String { message.isEmpty ? "\(function) failed (\(code))" : message }

    /// Whether the failure is about reaching a remote (network, ssh, http, certificates).
    public var isNetwork: Bool {
        [GIT_ERROR_NET.rawValue, GIT_ERROR_SSH.rawValue, GIT_ERROR_HTTP.rawValue, GIT_ERROR_SSL.rawValue]
            .contains(UInt32(bitPattern: errorClass)) || code == GIT_ECERTIFICATE.rawValue || code == GIT_EAUTH.rawValue
    }
}

/// libgit2 is initialised exactly once per process and never shut down.
///
/// Trees of any size are kept in libgit2's object cache (by default only those under 4 KiB
/// are): a ledger's shard directories hold thousands of documents, so their trees are large,
/// and one sync reads the same few of them in each step — writing the commit, merging,
/// diffing, validating and packing — which without the cache meant inflating and parsing
/// them again every time (a sync at 10x the ten-year ledger went from 3.9 s to 2.4 s).
enum Libgit2 {
    static let initialized: Void = {
        _ = git_libgit2_init()
        _ = ledger_git_set_cache_object_limit(GIT_OBJECT_TREE, 1 << 24)
        _ = ledger_git_enable_fsync_gitdir(1)
    }()
}

/// Throws a `GitError` when `rc` is negative, reading libgit2's per-thread error at once.
@inline(__always)
func check(_ rc: Int32, _ function: String) throws(GitError) {
    guard rc < 0 else { return }
    var message = ""
    var errorClass: Int32 = 0
    if let e = git_error_last() {
        message = String(cString: e.pointee.message)
        errorClass = e.pointee.klass
    }
    throw GitError(code: rc, errorClass: errorClass, message: message.trimmingWhitespace(newlines: true), function: function)
}

/// Process-wide libgit2 settings.
package enum Git {
    /// Points libgit2's global and XDG config search paths at `directory` (tests use an empty
    /// directory so the machine's `~/.gitconfig` does not leak in).
    package static func setGlobalConfigSearchPath(_ directory: String) throws {
        _ = Libgit2.initialized
        try check(ledger_git_set_search_path(Int32(GIT_CONFIG_LEVEL_GLOBAL.rawValue), directory), "git_libgit2_opts")
        try check(ledger_git_set_search_path(Int32(GIT_CONFIG_LEVEL_XDG.rawValue), directory), "git_libgit2_opts")
        try check(ledger_git_set_search_path(Int32(GIT_CONFIG_LEVEL_SYSTEM.rawValue), directory), "git_libgit2_opts")
    }

    /// Trusts the certificate authorities in `file` (PEM) for HTTPS remotes instead of the
    /// system's bundle. Process-wide: call it before any transfer.
    package static func trustCertificates(inFile file: String) throws {
        _ = Libgit2.initialized
        try check(ledger_git_set_ssl_cert_file(file), "git_libgit2_opts")
    }
}

/// A 20-byte git object id.
package struct ObjectID: Sendable, Hashable, CustomStringConvertible {
    var raw: git_oid

    init(_ raw: git_oid) { self.raw = raw }

    /// The id that 40 hex digits (either case) spell; nil for anything else. Parsed here, not
    /// by libgit2, so that reading a reference file does not load the library.
    package init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 40 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var o = git_oid()
        let ok = withUnsafeMutableBytes(of: &o.id) { bytes in
            for i in 0..<20 {
                guard let high = value(digits[2 * i]), let low = value(digits[2 * i + 1]) else { return false }
                bytes[i] = high << 4 | low
            }
            return true
        }
        guard ok else { return nil }
        raw = o
    }

    /// The 40 lowercase hex digits.
    package var description: String {
        let hex = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: raw.id) { bytes in
            String(decoding: bytes.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
        }
    }

    /// The first seven hex digits.
    package var short: String { String(description.prefix(7)) }

    package static func == (a: ObjectID, b: ObjectID) -> Bool {
        withUnsafeBytes(of: a.raw.id) { x in withUnsafeBytes(of: b.raw.id) { y in x.elementsEqual(y) } }
    }

    package func hash(into h: inout Hasher) {
        withUnsafeBytes(of: raw.id) { h.combine(bytes: $0) }
    }
}

/// Who signs commits.
package struct Signature: Sendable {
    package var name: String
    package var email: String

    package init(name: String, email: String) {
        self.name = name
        self.email = email
    }
}

/// An open git repository. Owns its libgit2 handle; not thread-safe, so not `Sendable`:
/// use one per thread.
package final class Repository {
    let pointer: OpaquePointer
    /// This process's link of the index, once libgit2 works with the index through it
    /// (`indexHandle()`).
    var stagedIndex: String?

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit {
        git_repository_free(pointer)
        if let stagedIndex { unlink(stagedIndex) }
    }

    /// Opens the repository whose work tree is `path` (exactly; no discovery upwards).
    package static func open(_ path: String) throws -> Repository {
        _ = Libgit2.initialized
        var repo: OpaquePointer?
        let rc = git_repository_open_ext(&repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil)
        if rc < 0 {
            if let owner = Self.foreignOwner(path) {
                throw LedgerError.failure("\(path) belongs to another user (\(owner)); git refuses to work in repositories owned by someone else. Run ledger as that user, or change the owner with chown")
            }
            try check(rc, "git_repository_open_ext")
        }
        return Repository(repo!)
    }

    /// The work tree of the repository containing `directory`, found as git finds it: the
    /// nearest `.git` in `directory` or above, stopping at the directories listed in `ceilings`
    /// (`GIT_CEILING_DIRECTORIES`, colon-separated) and, unless `acrossFileSystems`
    /// (`GIT_DISCOVERY_ACROSS_FILESYSTEM`), at a file-system boundary. Nil when there is none
    /// or it is bare. libgit2 is asked only when the answer is not plain (`GitDiscovery`).
    package static func workTree(containing directory: String, ceilings: String?, acrossFileSystems: Bool) -> String? {
        switch GitDiscovery.discover(from: directory, ceilings: ceilings, acrossFileSystems: acrossFileSystems) {
        case .none: return nil
        case .workTree(let root): return root
        case .unsure: return libgit2WorkTree(containing: directory, ceilings: ceilings, acrossFileSystems: acrossFileSystems)
        }
    }

    /// `workTree(containing:…)` as libgit2 finds it.
    static func libgit2WorkTree(containing directory: String, ceilings: String?, acrossFileSystems: Bool) -> String? {
        _ = Libgit2.initialized
        var repo: OpaquePointer?
        let flags = acrossFileSystems ? GIT_REPOSITORY_OPEN_CROSS_FS.rawValue : 0
        guard git_repository_open_ext(&repo, directory, flags, ceilings) == 0, let repo else { return nil }
        let r = Repository(repo)
        return git_repository_workdir(repo) == nil ? nil : r.workdir
    }

    /// Whether `path` is the work tree of a git repository.
    package static func exists(at path: String) -> Bool {
        _ = Libgit2.initialized
        return git_repository_open_ext(nil, path, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil) == 0
    }

    /// The owner of `path/.git` when it is not the current user (libgit2 1.5.1 reports this
    /// case as a misleading "safe.directory was not found").
    static func foreignOwner(_ path: String) -> String? {
        var st = stat()
        guard stat(path + "/.git", &st) == 0 || stat(path, &st) == 0, st.st_uid != geteuid() else { return nil }
        if let pw = getpwuid(st.st_uid) { return String(cString: pw.pointee.pw_name) }
        return "uid \(st.st_uid)"
    }

    /// Creates a repository with a work tree at `path` whose HEAD is `refs/heads/<branch>`.
    package static func initialize(at path: String, initialBranch: String = "main") throws -> Repository {
        _ = Libgit2.initialized
        var opts = git_repository_init_options()
        try check(git_repository_init_options_init(&opts, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION)), "git_repository_init_options_init")
        opts.flags = GIT_REPOSITORY_INIT_MKPATH.rawValue
        var repo: OpaquePointer?
        try initialBranch.withCString { branch in
            opts.initial_head = branch
            try check(git_repository_init_ext(&repo, path, &opts), "git_repository_init_ext")
        }
        return Repository(repo!)
    }

    /// The work tree directory, without a trailing slash.
    package var workdir: String {
        var s = String(cString: git_repository_workdir(pointer))
        if s.count > 1, s.hasSuffix("/") { s.removeLast() }
        return s
    }

    /// The `.git` directory, without a trailing slash.
    package var gitDirectory: String {
        var s = String(cString: git_repository_path(pointer))
        if s.count > 1, s.hasSuffix("/") { s.removeLast() }
        return s
    }

    // MARK: - Config

    /// Sets a string in the repository's own config (`.git/config`).
    package func setConfig(_ key: String, _ value: String) throws {
        try withLocalConfig { try check(git_config_set_string($0, key, value), "git_config_set_string") }
    }

    /// Deletes a reference (nothing happens when it does not exist).
    package func deleteReference(_ name: String) throws {
        var ref: OpaquePointer?
        let rc = git_reference_lookup(&ref, pointer, name)
        if rc == GIT_ENOTFOUND.rawValue { return }
        try check(rc, "git_reference_lookup")
        defer { git_reference_free(ref) }
        try check(git_reference_delete(ref), "git_reference_delete")
    }

    /// Removes a key from the repository's own config (nothing happens when it is not set).
    package func removeConfig(_ key: String) throws {
        try withLocalConfig { local in
            let rc = git_config_delete_entry(local, key)
            if rc != GIT_ENOTFOUND.rawValue { try check(rc, "git_config_delete_entry") }
        }
    }

    private func withLocalConfig(_ body: (OpaquePointer?) throws -> Void) throws {
        var cfg: OpaquePointer?
        try check(git_repository_config(&cfg, pointer), "git_repository_config")
        defer { git_config_free(cfg) }
        var local: OpaquePointer?
        try check(git_config_open_level(&local, cfg, GIT_CONFIG_LEVEL_LOCAL), "git_config_open_level")
        defer { git_config_free(local) }
        try body(local)
    }

    /// A string from the repository's config (all levels), or nil when unset.
    package func config(_ key: String) -> String? {
        var cfg: OpaquePointer?
        guard git_repository_config_snapshot(&cfg, pointer) == 0 else { return nil }
        defer { git_config_free(cfg) }
        var out: UnsafePointer<CChar>?
        guard git_config_get_string(&out, cfg, key) == 0, let out else { return nil }
        return String(cString: out)
    }

    /// An integer from the repository's config (all levels; git's `k`, `m` and `g` suffixes
    /// are understood), or nil when it is unset or not a number.
    package func configInteger(_ key: String) -> Int? {
        var cfg: OpaquePointer?
        guard git_repository_config_snapshot(&cfg, pointer) == 0 else { return nil }
        defer { git_config_free(cfg) }
        var out: Int64 = 0
        guard git_config_get_int64(&out, cfg, key) == 0 else { return nil }
        return Int(out)
    }

    /// Adds `path` (relative to the work tree) to `.git/info/exclude`, git's list of files this
    /// machine leaves untracked without saying so in the repository.
    package func excludeLocally(_ path: String) throws {
        let file = gitDirectory + "/info/exclude"
        var text = try FileSystem.read(file).map { String(decoding: $0, as: UTF8.self) } ?? ""
        if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        // Anchored at the root; the characters that make a pattern escaped.
        var pattern = "/"
        for c in path { pattern += "\\*?[".contains(c) ? "\\\(c)" : String(c) }
        if pattern.hasSuffix(" ") { pattern.insert("\\", at: pattern.index(before: pattern.endIndex)) }
        try FileSystem.writeAtomically(file, Array((text + pattern + "\n").utf8))
    }

    /// The signature from `user.name`/`user.email`, or `fallback` when they are not set.
    package func signature(fallback: Signature) -> Signature {
        if let name = config("user.name"), let email = config("user.email") { return Signature(name: name, email: email) }
        return fallback
    }

    /// A git operation that stopped half-way and waits for the user (a merge with conflicts,
    /// a rebase, …), as the files git keeps for it say (`MERGE_HEAD`, `rebase-merge/`, …).
    package enum Operation: Sendable, Equatable {
        case merge, revert, cherryPick, bisect, rebase, applyMailbox

        /// "a merge", "a rebase", …
        package var name: String {
            switch self {
            case .merge: "a merge"
            case .revert: "a revert"
            case .cherryPick: "a cherry-pick"
            case .bisect: "a bisect"
            case .rebase: "a rebase"
            case .applyMailbox: "`git am`"
            }
        }

        /// git's ways out: how to finish it, and how to abandon it.
        package var waysOut: String {
            switch self {
            case .merge: "finish it (resolve the conflicts, `git add` the files, `git commit`) or abandon it with `git merge --abort`"
            case .revert: "finish it with `git revert --continue` or abandon it with `git revert --abort`"
            case .cherryPick: "finish it with `git cherry-pick --continue` or abandon it with `git cherry-pick --abort`"
            case .bisect: "end it with `git bisect reset`"
            case .rebase: "finish it with `git rebase --continue` or abandon it with `git rebase --abort`"
            case .applyMailbox: "finish it with `git am --continue` or abandon it with `git am --abort`"
            }
        }
    }

    /// The git operation in progress in this repository, or nil.
    package var operationInProgress: Operation? {
        switch UInt32(bitPattern: git_repository_state(pointer)) {
        case GIT_REPOSITORY_STATE_MERGE.rawValue: .merge
        case GIT_REPOSITORY_STATE_REVERT.rawValue, GIT_REPOSITORY_STATE_REVERT_SEQUENCE.rawValue: .revert
        case GIT_REPOSITORY_STATE_CHERRYPICK.rawValue, GIT_REPOSITORY_STATE_CHERRYPICK_SEQUENCE.rawValue: .cherryPick
        case GIT_REPOSITORY_STATE_BISECT.rawValue: .bisect
        case GIT_REPOSITORY_STATE_REBASE.rawValue, GIT_REPOSITORY_STATE_REBASE_INTERACTIVE.rawValue,
             GIT_REPOSITORY_STATE_REBASE_MERGE.rawValue, GIT_REPOSITORY_STATE_APPLY_MAILBOX_OR_REBASE.rawValue: .rebase
        case GIT_REPOSITORY_STATE_APPLY_MAILBOX.rawValue: .applyMailbox
        default: nil
        }
    }

    // MARK: - References and commits

    /// The commit HEAD points at, or nil on an unborn branch.
    package func headCommit() -> ObjectID? {
        var oid = git_oid()
        guard git_reference_name_to_id(&oid, pointer, "HEAD") == 0 else { return nil }
        return ObjectID(oid)
    }

    /// The full name of the branch HEAD points at (`refs/heads/main`), born or not.
    package var headReferenceName: String? {
        var ref: OpaquePointer?
        guard git_reference_lookup(&ref, pointer, "HEAD") == 0 else { return nil }
        defer { git_reference_free(ref) }
        guard let target = git_reference_symbolic_target(ref) else { return nil }
        return String(cString: target)
    }

    /// The id a reference resolves to, or nil when it does not exist.
    package func resolve(_ reference: String) -> ObjectID? {
        var oid = git_oid()
        guard git_reference_name_to_id(&oid, pointer, reference) == 0 else { return nil }
        return ObjectID(oid)
    }

    /// How many commits `local` has that `upstream` lacks, and the reverse.
    package func aheadBehind(_ local: ObjectID, _ upstream: ObjectID) throws -> (ahead: Int, behind: Int) {
        var a = 0, b = 0
        var l = local.raw, u = upstream.raw
        try check(git_graph_ahead_behind(&a, &b, pointer, &l, &u), "git_graph_ahead_behind")
        return (a, b)
    }

    /// Stages every change in the work tree (new, modified and deleted files, respecting
    /// `.gitignore`) and commits it on HEAD when the tree differs from HEAD's; returns the new
    /// commit, or nil when there was nothing to commit.
    @discardableResult
    package func commitAll(message: String, signature: Signature) throws -> ObjectID? {
        let index = try indexHandle()
        defer { git_index_free(index) }
        var star = strdup("*")
        defer { free(star) }
        try withUnsafeMutablePointer(to: &star) { p in
            var spec = git_strarray(strings: p, count: 1)
            try check(git_index_add_all(index, &spec, GIT_INDEX_ADD_DEFAULT.rawValue, nil, nil), "git_index_add_all")
            try check(git_index_update_all(index, &spec, nil, nil), "git_index_update_all")
        }
        try check(git_index_write(index), "git_index_write")
        try publishIndex()
        var treeID = git_oid()
        try check(git_index_write_tree(&treeID, index), "git_index_write_tree")
        let parent = headCommit()
        if let parent, try treeOf(commit: parent) == ObjectID(treeID) { return nil }
        return try commit(tree: ObjectID(treeID), parents: parent.map { [$0] } ?? [], message: message,
                          signature: signature, updating: "HEAD")
    }

    /// The tree of a commit.
    package func treeOf(commit: ObjectID) throws -> ObjectID {
        var c: OpaquePointer?
        var oid = commit.raw
        try check(git_commit_lookup(&c, pointer, &oid), "git_commit_lookup")
        defer { git_commit_free(c) }
        return ObjectID(git_commit_tree_id(c)!.pointee)
    }

    /// Creates a commit of `tree` with `parents`; moves `reference` to it when given.
    package func commit(tree: ObjectID, parents: [ObjectID], message: String, signature: Signature,
                       updating reference: String?) throws -> ObjectID {
        var sig: UnsafeMutablePointer<git_signature>?
        try check(git_signature_now(&sig, signature.name, signature.email), "git_signature_now")
        defer { git_signature_free(sig) }
        return try createCommit(tree: tree, parents: parents, message: message, author: sig, committer: sig, encoding: nil, updating: reference)
    }
}
