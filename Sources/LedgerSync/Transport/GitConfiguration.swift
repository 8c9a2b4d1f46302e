import CGit2
import Foundation
import LedgerKit

/// git's configuration as the `git` command reads it for a repository, or for a clone before
/// there is one: the system file (`GIT_CONFIG_SYSTEM`, else `/etc/gitconfig`, skipped with
/// `GIT_CONFIG_NOSYSTEM`), the global ones (`GIT_CONFIG_GLOBAL`, else
/// `$XDG_CONFIG_HOME/git/config` then `~/.gitconfig`), then the repository's `config`, with
/// their includes. The files are found from the command's environment, not libgit2's search
/// path, so a clone reads the same global settings as `git clone` would.
final class GitConfiguration {
    private let snapshot: OpaquePointer
    let environment: [String: String]

    init(environment: [String: String], gitDirectory: String? = nil) throws {
        _ = Libgit2.initialized
        self.environment = environment
        var config: OpaquePointer?
        try check(git_config_new(&config), "git_config_new")
        defer { git_config_free(config) }
        for (path, level) in Self.files(environment: environment, gitDirectory: gitDirectory) {
            try check(git_config_add_file_ondisk(config, path, level, nil, 0), "git_config_add_file_ondisk")
        }
        var snap: OpaquePointer?
        try check(git_config_snapshot(&snap, config), "git_config_snapshot")
        snapshot = snap!
    }

    deinit { git_config_free(snapshot) }

    /// The files git reads, lowest priority first, with libgit2's level for each.
    static func files(environment env: [String: String], gitDirectory: String?) -> [(String, git_config_level_t)] {
        var files: [(String, git_config_level_t)] = []
        let noSystem = env["GIT_CONFIG_NOSYSTEM"].map { Self.boolean($0) ?? true } ?? false
        if !noSystem { files.append((env["GIT_CONFIG_SYSTEM"] ?? "/etc/gitconfig", GIT_CONFIG_LEVEL_SYSTEM)) }
        if let global = env["GIT_CONFIG_GLOBAL"] {
            files.append((global, GIT_CONFIG_LEVEL_GLOBAL))
        } else {
            let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            if let xdg = env["XDG_CONFIG_HOME"].flatMap({ $0.isEmpty ? nil : $0 }) ?? home.map({ $0 + "/.config" }) {
                files.append((xdg + "/git/config", GIT_CONFIG_LEVEL_XDG))
            }
            if let home { files.append((home + "/.gitconfig", GIT_CONFIG_LEVEL_GLOBAL)) }
        }
        if let gitDirectory { files.append((gitDirectory + "/config", GIT_CONFIG_LEVEL_LOCAL)) }
        return files
    }

    /// The value of `key` (the last one set, as git takes it), or nil.
    func string(_ key: String) -> String? {
        var out: UnsafePointer<CChar>?
        guard git_config_get_string(&out, snapshot, key) == 0, let out else { return nil }
        return String(cString: out)
    }

    /// Every value of a multi-valued `key` (such as `remote.<name>.pushurl`), in the order git
    /// reads them.
    func values(_ key: String) -> [String] {
        Self.entries { git_config_multivar_iterator_new(&$0, snapshot, key, nil) }.map(\.value)
    }

    /// A pathname setting's value with `~/` expanded as git does.
    func expandingHome(_ value: String) -> String {
        guard value.hasPrefix("~/"), let home = environment["HOME"] else { return value }
        return home + value.dropFirst(1)
    }

    /// A boolean setting's value (true/yes/on/1, false/no/off/0, empty for a bare key).
    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "", "true", "yes", "on", "1": true
        case "false", "no", "off", "0": false
        default: Int(text).map { $0 != 0 }
        }
    }

    /// The entries of `section` (lower-case), in the order git reads them.
    func entries(section: String) -> [SectionEntry] {
        Self.entries(of: snapshot, section: section)
    }

    /// An entry of a section: `url.<base>.insteadof` has the subsection `<base>` (its case
    /// kept; it may hold dots, or be empty) and the key `insteadof` (lower-case, as the
    /// section's name).
    struct SectionEntry {
        var subsection: String?
        var key: String
        var value: String
    }

    /// The entries of `section` in any libgit2 configuration `config`.
    ///
    /// Every entry is walked and chosen here, never by libgit2's own filter
    /// (`git_config_iterator_glob_new`, or any call taking a regular expression): libgit2 1.5.1
    /// does not free pcre2's match data — 20 KiB — for each name that does not match (fixed
    /// upstream later), which grew a resident autosync by 0.8 MiB an hour of idle rounds
    /// (docs/BENCHMARKS.md, "Autosync").
    static func entries(of config: OpaquePointer, section: String) -> [SectionEntry] {
        let prefix = section + "."
        return entries { git_config_iterator_new(&$0, config) }.compactMap { e in
            guard e.name.hasPrefix(prefix) else { return nil }
            let rest = e.name.dropFirst(prefix.count)
            guard let dot = rest.lastIndex(of: ".") else { return SectionEntry(subsection: nil, key: String(rest), value: e.value) }
            return SectionEntry(subsection: String(rest[..<dot]), key: String(rest[rest.index(after: dot)...]), value: e.value)
        }
    }

    /// The entries of the iterator `make` creates: (name, value).
    private static func entries(_ make: (inout OpaquePointer?) -> Int32) -> [(name: String, value: String)] {
        var iterator: OpaquePointer?
        guard make(&iterator) == 0 else { return [] }
        defer { git_config_iterator_free(iterator) }
        var out: [(String, String)] = []
        var entry: UnsafeMutablePointer<git_config_entry>?
        while git_config_next(&entry, iterator) == 0, let e = entry?.pointee {
            out.append((String(cString: e.name), e.value.map { String(cString: $0) } ?? ""))
        }
        return out
    }

    // MARK: - url.<base>.insteadOf

    /// `url` rewritten by `url.<base>.insteadOf` — or, for a push, `url.<base>.pushInsteadOf`
    /// first — with the longest matching prefix, as git does.
    func rewrite(_ url: String, forPush push: Bool) -> String {
        let all = entries(section: "url").compactMap { e -> (base: String, prefix: String, push: Bool)? in
            guard let base = e.subsection, e.key == "insteadof" || e.key == "pushinsteadof" else { return nil }
            return (base, e.value, e.key == "pushinsteadof")
        }
        func longest(_ candidates: [(base: String, prefix: String, push: Bool)]) -> String? {
            candidates.filter { !$0.prefix.isEmpty && url.hasPrefix($0.prefix) }
                .max { $0.prefix.count < $1.prefix.count }
                .map { $0.base + url.dropFirst($0.prefix.count) }
        }
        if push, let rewritten = longest(all.filter(\.push)) { return rewritten }
        return longest(all.filter { !$0.push }) ?? url
    }

    // MARK: - http.<url>.*

    /// The values of `http.<key>` and of `http.<url>.<key>` for the config URLs matching `url`
    /// (same scheme, host, port and user; a path prefix), least specific first, as git orders
    /// them: the last is the one that applies to a single-valued setting.
    func http(_ key: String, for url: String) -> [String] {
        let lower = key.lowercased()
        var general: [String] = []
        var specific: [(length: Int, value: String)] = []
        for e in entries(section: "http") where e.key == lower {
            if let pattern = e.subsection {
                if let length = Self.urlMatch(pattern, url) { specific.append((length, e.value)) }
            } else {
                general.append(e.value)
            }
        }
        // Stable: equally specific entries stay in file order.
        let ordered = specific.enumerated().sorted { ($0.element.length, $0.offset) < ($1.element.length, $1.offset) }.map(\.element.value)
        return general + ordered
    }

    /// How specific config URL `pattern` is for `url` (its path's length), or nil when it does
    /// not match it.
    static func urlMatch(_ pattern: String, _ url: String) -> Int? {
        guard let p = URLComponents(string: pattern), let u = URLComponents(string: url),
              let ps = p.scheme?.lowercased(), ps == u.scheme?.lowercased(),
              let ph = p.host?.lowercased(), let uh = u.host?.lowercased() else { return nil }
        let hostMatches = ph == uh || (ph.hasPrefix("*.") && uh.hasSuffix(ph.dropFirst(1)) && !uh.dropLast(ph.count - 1).contains("."))
        let defaultPort = ps == "https" ? 443 : 80
        guard hostMatches, (p.port ?? defaultPort) == (u.port ?? defaultPort) else { return nil }
        if let user = p.user, user != u.user { return nil }
        var path = p.path
        while path.hasSuffix("/") { path.removeLast() }
        guard path.isEmpty || u.path == path || u.path.hasPrefix(path + "/") else { return nil }
        return path.count + 1
    }
}
