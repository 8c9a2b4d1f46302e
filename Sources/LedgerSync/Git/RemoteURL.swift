import Foundation
import LedgerKit

/// Reading remote URLs: local paths, ssh forms, hosts, and hiding passwords.
extension Remote {
    /// The git directory of a local remote (a path or `file://` URL), or nil for network remotes.
    static func localGitDirectory(_ url: String) throws -> String? {
        var path: String
        if url.hasPrefix("file://") {
            path = String(url.dropFirst(7))
            path = path.removingPercentEncoding ?? path
        } else if url.hasPrefix("/") || url.hasPrefix(".") {
            path = url
        } else {
            return nil
        }
        if FileSystem.stamp(path + "/.git")?.type == .directory { return path + "/.git" }
        guard FileSystem.stamp(path)?.type == .directory else { return nil }
        return path
    }

    /// The directory a local remote names (a plain path or a `file://` URL), or nil.
    static func localPath(_ url: String) -> String? {
        if url.hasPrefix("file://") { return String(url.dropFirst(7)).removingPercentEncoding }
        return url.contains("://") || isSSH(url) ? nil : url
    }

    /// The path a local remote names when nothing is there — a remote still to make (`init
    /// --remote` does not make it) or a disk not mounted — else nil.
    package static func missingLocalPath(_ url: String) -> String? {
        guard let path = localPath(url), !FileSystem.exists(path) else { return nil }
        return path
    }

    /// Whether the URL is an ssh one (`ssh://…` or scp-like `[user@]host:path`).
    static func isSSH(_ url: String) -> Bool {
        if url.hasPrefix("ssh://") || url.hasPrefix("ssh+git://") || url.hasPrefix("git+ssh://") { return true }
        guard !url.contains("://"), let colon = url.firstIndex(of: ":") else { return false }
        return !url[..<colon].contains("/")
    }

    /// The host (and port) a URL names, without credentials.
    static func host(of url: String) -> String? {
        var rest = Substring(url)
        if let r = url.range(of: "://") { rest = url[r.upperBound...] } else if isSSH(url) {
            rest = url[..<url.firstIndex(of: ":")!]
        } else {
            return nil
        }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        return rest.isEmpty ? nil : String(rest)
    }

    /// `url` without the password of its user info (the user name kept).
    package static func withoutPassword(_ url: String) -> String {
        redact(url).replacingOccurrences(of: ":***@", with: "@")
    }

    /// `url` with the password of its user info (if any) replaced by `***`.
    package static func redact(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let r = rest.range(of: "://") {
            out += rest[..<r.upperBound]
            rest = rest[r.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != " " }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                out += rest[..<colon] + ":***"
                rest = rest[at...]
            }
        }
        return out + rest
    }
}
