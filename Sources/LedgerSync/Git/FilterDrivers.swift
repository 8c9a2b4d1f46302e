import CGit2
import Foundation
import LedgerKit

/// git's filter drivers: a gitattributes line `PATTERN filter=NAME` whose driver is configured
/// (`filter.NAME.clean`, `.smudge` or `.process`, or `.required`) makes git store the file as
/// the driver's `clean` command turns it (git-crypt: encrypted) and write it back through
/// `smudge`. libgit2 runs none of them, and ledger's own reads and merges work on the stored
/// bytes, so ledger does not run them either: a sync that meets one refuses, before anything is
/// committed or sent — never a file stored in a form git would not have stored. A filter named
/// but configured nowhere is what git ignores too (it stores the file as it is), and so does
/// ledger. Encryption belongs to the remote instead (`gcrypt::` remotes, `RemoteHelper`).
package struct FilterUse: Sendable, Equatable {
    /// The first file it applies to, and how many it applies to in all.
    package var path: String
    package var files: Int
    /// The driver's name (`git-crypt`), and the setting that makes git run it
    /// (`filter.git-crypt.clean = "git-crypt" clean`).
    package var filter: String
    package var setting: String

    /// "the filter git-crypt (filter.git-crypt.clean = "git-crypt" clean) applies to
    /// moments/x.json and 3 more files"
    package var description: String {
        "the filter \(filter) (\(setting)) applies to \(path)" + (files > 1 ? " and \(files - 1) more file\(files == 2 ? "" : "s")" : "")
    }

    /// What it means for a sync, as `ledger status` and `ledger doctor` say it.
    package var syncRefusal: LedgerError.Sentence {
        "\(description): ledger does not run filter drivers, so \(next: .sync(.sync)) refuses before it commits or sends anything"
    }

    /// The refusal of a sync (or of a command that would commit) on a ledger where `uses` apply.
    package static func refusal(_ uses: [FilterUse], consequence: String) -> LedgerError {
        let list = uses.map(\.description).joined(separator: "; ")
        return LedgerError.invalid("""
            ledger does not run git's filter drivers, and \(list): ledger would store those files unfiltered where git \
            stores them filtered (encrypted, for git-crypt), so \(consequence). Keep the ledger encrypted with an \
            encrypted remote instead (git-remote-gcrypt: see "Encrypted remote" in the README), or take the filter \
            out of .gitattributes if it is not wanted
            """)
    }
}

extension Repository {
    /// The filter drivers git would run on the ledger's files: those of the index and the work
    /// tree's `changes` (new files included), each driver once, in the order met.
    ///
    /// Asking git's attributes of every file costs about 0.1 ms each (libgit2 checks each
    /// folder's `.gitattributes` again per file): 5 s for a ledger of 47,000 files. So the files
    /// are asked only when both a driver is configured (`filter.*` in git's configuration — git
    /// LFS sets one globally) and some attributes file git reads mentions `filter`.
    package func filterUses(changes: [PathChange] = []) throws -> [FilterUse] {
        guard try mentionsFilters() else { return [] }
        var paths: [String] = []
        var attributes: [[UInt8]] = []
        let index = try indexHandle()
        defer { git_index_free(index) }
        try check(git_index_read(index, 0), "git_index_read")
        for i in 0..<git_index_entrycount(index) {
            guard let e = git_index_get_byindex(index, i), git_index_entry_stage(e) == 0 else { continue }
            let path = String(cString: e.pointee.path)
            paths.append(path)
            if Self.isAttributesFile(path) { attributes.append(try blob(ObjectID(e.pointee.id))) }
        }
        paths += changes.filter { $0.change == .added }.map(\.path)
        for path in paths where Self.isAttributesFile(path) {
            if let text = try? FileSystem.read(workdir + "/" + path) { attributes.append(text) }
        }
        attributes += globalAttributesFiles().compactMap { try? FileSystem.read($0) }
        guard attributes.contains(where: { String(decoding: $0, as: UTF8.self).contains("filter") }) else { return [] }
        return try filterUses(paths)
    }

    static func isAttributesFile(_ path: String) -> Bool { path == ".gitattributes" || path.hasSuffix("/.gitattributes") }

    /// The attributes files git reads besides the work tree's: `.git/info/attributes`,
    /// `core.attributesFile` (else `attributes` in git's XDG folder, `~/.config/git`), and the
    /// system's `gitattributes` (`/etc`), where libgit2 looks for them.
    func globalAttributesFiles() -> [String] {
        var files = [gitDirectory + "/info/attributes"]
        if let configured = configPath("core.attributesFile") {
            files.append(configured)
        } else {
            files += searchPath(GIT_CONFIG_LEVEL_XDG).map { $0 + "/attributes" }
        }
        files += searchPath(GIT_CONFIG_LEVEL_SYSTEM).map { $0 + "/gitattributes" }
        return files
    }

    /// The folders libgit2 searches for git's files at `level`.
    private func searchPath(_ level: git_config_level_t) -> [String] {
        var buf = git_buf()
        defer { git_buf_dispose(&buf) }
        guard ledger_git_get_search_path(level.rawValue, &buf) == 0, let p = buf.ptr else { return [] }
        return String(cString: p).split(separator: ":").map(String.init)
    }

    /// A path from git's configuration (`~/` expanded), or nil when unset.
    private func configPath(_ key: String) -> String? {
        var cfg: OpaquePointer?
        guard git_repository_config_snapshot(&cfg, pointer) == 0 else { return nil }
        defer { git_config_free(cfg) }
        var buf = git_buf()
        defer { git_buf_dispose(&buf) }
        guard git_config_get_path(&buf, cfg, key) == 0, let p = buf.ptr else { return nil }
        return String(cString: p)
    }

    /// The filter drivers git would run on `paths` (relative to the work tree).
    private func filterUses(_ paths: [String]) throws -> [FilterUse] {
        var uses: [FilterUse] = []
        var settings: [String: String?] = [:]
        for path in paths {
            var value: UnsafePointer<CChar>?
            try check(git_attr_get(&value, pointer, UInt32(GIT_ATTR_CHECK_FILE_THEN_INDEX), path, "filter"), "git_attr_get")
            guard let value, git_attr_value(value) == GIT_ATTR_VALUE_STRING else { continue }
            let name = String(cString: value)
            if settings[name] == nil { settings[name] = .some(driverSetting(name)) }
            guard case .some(.some(let setting)) = settings[name] else { continue }
            if let i = uses.firstIndex(where: { $0.filter == name }) {
                uses[i].files += 1
            } else {
                uses.append(FilterUse(path: path, files: 1, filter: name, setting: setting))
            }
        }
        return uses
    }

    /// Refuses (`FilterUse.refusal`, exit 1) when a filter driver applies to the ledger's files
    /// (`filterUses(changes:)`): before a command commits or checks out anything.
    package func refuseFilterDrivers(changes: [PathChange] = [], consequence: String) throws {
        let uses = try filterUses(changes: changes)
        if !uses.isEmpty { throw FilterUse.refusal(uses, consequence: consequence) }
    }

    /// The setting that makes git run the driver `name`, or nil when none is configured.
    func driverSetting(_ name: String) -> String? {
        for key in ["clean", "smudge", "process"] {
            if let command = config("filter.\(name).\(key)"), !command.isEmpty { return "filter.\(name).\(key) = \(command)" }
        }
        if let required = config("filter.\(name).required"), ["true", "yes", "on", "1"].contains(required.lowercased()) {
            return "filter.\(name).required = \(required)"
        }
        return nil
    }

    /// Whether any filter driver is configured at all (`filter.*` in git's configuration): the
    /// usual answer, no, spares a look at every file's attributes.
    func mentionsFilters() throws -> Bool {
        var cfg: OpaquePointer?
        try check(git_repository_config_snapshot(&cfg, pointer), "git_repository_config_snapshot")
        defer { git_config_free(cfg) }
        return !GitConfiguration.entries(of: cfg!, section: "filter").isEmpty
    }
}
