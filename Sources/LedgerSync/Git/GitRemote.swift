import CGit2
import Foundation
import LedgerKit

/// Bytes and objects moved so far by a fetch, clone or push.
public struct TransferProgress: Sendable {
    public enum Phase: Sendable { case receiving, resolving, sending }
    public var phase: Phase
    public var current: Int
    public var total: Int
    public var bytes: Int
}

/// How to authenticate to remotes and what to show while talking to them. Built by the
/// caller from its environment; LedgerSync reads no environment variables itself (except
/// what libssh2 and libgit2 read: `SSH_AUTH_SOCK`, `HOME` for `~/.ssh/known_hosts`).
public struct TransportOptions: @unchecked Sendable {
    // @unchecked: `progress` is only called on the thread running the transfer.

    /// The home directory, whose `.ssh/id_ed25519` (then `id_ecdsa`, `id_rsa`) are tried.
    public var home: String?
    /// The user name for ssh URLs without `user@` (like ssh, the local user's name).
    public var userName: String?
    /// An ssh private key file to try first.
    public var sshKey: String?
    /// The passphrase of encrypted key files.
    public var sshPassphrase: String?
    /// Whether an ssh-agent is available (`SSH_AUTH_SOCK` is set); tried before key files.
    public var sshAgent: Bool
    /// User name and password (or token) for HTTP(S) remotes whose URL carries none.
    public var httpUser: String?
    public var httpPassword: String?
    /// Called as objects are received or sent (for a progress line on a terminal).
    public var progress: ((TransferProgress) -> Void)?
    /// Seconds a network remote may stay silent before the transfer is given up (exit 3);
    /// zero waits forever. See `StallGuard`.
    public var stallTimeout: Double = 60

    public init(home: String? = nil, userName: String? = nil, sshKey: String? = nil, sshPassphrase: String? = nil,
                sshAgent: Bool = false, httpUser: String? = nil, httpPassword: String? = nil,
                progress: ((TransferProgress) -> Void)? = nil) {
        self.home = home
        self.userName = userName
        self.sshKey = sshKey
        self.sshPassphrase = sshPassphrase
        self.sshAgent = sshAgent
        self.httpUser = httpUser
        self.httpPassword = httpPassword
        self.progress = progress
    }

    /// The key files to offer, in order: the configured one, then the usual names in `~/.ssh`.
    var keyFiles: [String] {
        var keys: [String] = []
        if let k = sshKey { keys.append(k) }
        if let home {
            for name in ["id_ed25519", "id_ecdsa", "id_rsa"] where FileSystem.exists(home + "/.ssh/" + name) {
                let p = home + "/.ssh/" + name
                if !keys.contains(p) { keys.append(p) }
            }
        }
        return keys
    }
}

/// The state of one conversation with a remote, passed to libgit2's callbacks.
final class TransportSession {
    let url: String
    let options: TransportOptions
    private var pendingKeys: [String]
    private var triedAgent = false
    private var triedPassword = false
    /// What was offered, for the failure message.
    private(set) var offered: [String] = []
    /// A clear message about why authentication gave up.
    private(set) var authenticationFailure: String?
    /// References the server refused, with its reason.
    var rejected: [(reference: String, reason: String)] = []
    /// Set by a callback to abort the transfer (a test's kill point).
    var onTransfer: (() -> Void)?
    /// Cuts a network transfer that stops answering.
    let stall: StallGuard?

    init(url: String, options: TransportOptions) {
        self.url = url
        self.options = options
        pendingKeys = options.keyFiles
        stall = StallGuard(url: url, timeout: options.stallTimeout)
    }

    /// Runs the blocking libgit2 transfer `body`, with the stall watchdog for network remotes.
    func transfer<T>(_ body: () throws -> T) rethrows -> T {
        try withExtendedLifetime(self) {
            if let stall { return try stall.watch(body) }
            return try body()
        }
    }

    var payload: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ payload: UnsafeMutableRawPointer?) -> TransportSession {
        Unmanaged<TransportSession>.fromOpaque(payload!).takeUnretainedValue()
    }

    /// Answers libgit2's request for credentials; called again after each refusal.
    func credential(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>?, _ userFromURL: String?, _ allowed: UInt32) -> Int32 {
        let user = userFromURL ?? options.userName ?? "git"
        if allowed & GIT_CREDENTIAL_USERNAME.rawValue != 0 {
            return git_credential_username_new(out, user)
        }
        if allowed & GIT_CREDENTIAL_SSH_KEY.rawValue != 0 {
            if options.sshAgent, !triedAgent {
                triedAgent = true
                offered.append("the keys in your ssh-agent")
                return git_credential_ssh_key_from_agent(out, user)
            }
            while let key = pendingKeys.first {
                pendingKeys.removeFirst()
                let pub = FileSystem.exists(key + ".pub") ? key + ".pub" : nil
                offered.append(key)
                let rc = git_credential_ssh_key_new(out, user, pub, key, options.sshPassphrase)
                if rc == 0 { return 0 }
            }
            authenticationFailure = sshFailureMessage(user: user)
            return GIT_EAUTH.rawValue
        }
        if allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0 {
            if !triedPassword, let u = options.httpUser, let p = options.httpPassword {
                triedPassword = true
                return git_credential_userpass_plaintext_new(out, u, p)
            }
            authenticationFailure = triedPassword
                ? "\(Remote.redact(url)) refused the user name and password from LEDGER_HTTP_USER and LEDGER_HTTP_PASSWORD"
                : "\(Remote.redact(url)) asks for a user name and password: put them in the URL (https://user:token@host/…) or in LEDGER_HTTP_USER and LEDGER_HTTP_PASSWORD"
            return GIT_EAUTH.rawValue
        }
        authenticationFailure = "\(Remote.redact(url)) asks for a kind of authentication ledger does not offer (ssh keys and HTTP passwords are supported)"
        return GIT_EAUTH.rawValue
    }

    private func sshFailureMessage(user: String) -> String {
        let host = Remote.host(of: url) ?? url
        if offered.isEmpty {
            return "no ssh key to offer \(user)@\(host): start ssh-agent and `ssh-add` your key, or create one with `ssh-keygen -t ed25519` (or point LEDGER_SSH_KEY at a key file)"
        }
        var message = "\(user)@\(host) refused every ssh key offered (\(offered.joined(separator: ", "))): add your public key to the server's authorized_keys"
        if offered.contains(where: Self.isRSAKey) {
            message += "; note that RSA keys do not work with ledger's ssh library (libssh2 1.10 signs only with SHA-1, which OpenSSH refuses): use an ed25519 key (`ssh-keygen -t ed25519`)"
        }
        return message
    }

    /// Whether a key file (or its `.pub`) is an RSA key.
    static func isRSAKey(_ path: String) -> Bool {
        if let pub = try? FileSystem.read(path + ".pub", limit: 1 << 16) { return String(decoding: pub, as: UTF8.self).hasPrefix("ssh-rsa ") }
        guard let bytes = try? FileSystem.read(path, limit: 1 << 16) else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains("BEGIN RSA PRIVATE KEY") { return true }
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let data = Data(base64Encoded: body) else { return false }
        return data.range(of: Data("ssh-rsa".utf8)) != nil
    }

    /// The callbacks of a fetch, clone or push talking through this session.
    func callbacks() throws -> git_remote_callbacks {
        var cb = git_remote_callbacks()
        try check(git_remote_init_callbacks(&cb, UInt32(GIT_REMOTE_CALLBACKS_VERSION)), "git_remote_init_callbacks")
        cb.payload = payload
        cb.credentials = { out, _, user, allowed, payload in
            let s = TransportSession.from(payload)
            s.stall?.alive()
            return s.credential(out, user.map { String(cString: $0) }, allowed)
        }
        cb.sideband_progress = { _, _, payload in
            TransportSession.from(payload).stall?.alive()
            return 0
        }
        cb.pack_progress = { _, _, _, payload in
            TransportSession.from(payload).stall?.alive()
            return 0
        }
        cb.transfer_progress = { stats, payload in
            let s = TransportSession.from(payload)
            s.stall?.alive()
            s.onTransfer?()
            if let p = s.options.progress, let st = stats?.pointee {
                if st.received_objects < st.total_objects {
                    p(TransferProgress(phase: .receiving, current: Int(st.received_objects), total: Int(st.total_objects), bytes: Int(st.received_bytes)))
                } else {
                    p(TransferProgress(phase: .resolving, current: Int(st.indexed_deltas), total: Int(st.total_deltas), bytes: Int(st.received_bytes)))
                }
            }
            return 0
        }
        cb.push_transfer_progress = { current, total, bytes, payload in
            let s = TransportSession.from(payload)
            s.stall?.alive()
            s.onTransfer?()
            s.options.progress?(TransferProgress(phase: .sending, current: Int(current), total: Int(total), bytes: bytes))
            return 0
        }
        cb.push_update_reference = { ref, status, payload in
            if let status, let ref {
                TransportSession.from(payload).rejected.append((String(cString: ref), String(cString: status)))
            }
            return 0
        }
        return cb
    }

    /// A `LedgerError` (exit 3) for a failed transfer, in words a user can act on.
    func unreachable(_ error: GitError) -> LedgerError {
        let shown = Remote.redact(url)
        if let stall, stall.stalled {
            let seconds = stall.timeout.rounded() == stall.timeout ? String(Int(stall.timeout)) : String(stall.timeout)
            return LedgerError(.unreachable, "\(shown) stopped answering (nothing came for \(seconds) s), so ledger gave up; LEDGER_NETWORK_TIMEOUT sets how many seconds to wait")
        }
        if let a = authenticationFailure { return LedgerError(.unreachable, a) }
        if error.code == GIT_ECERTIFICATE.rawValue {
            if Remote.isSSH(url) {
                let host = Remote.host(of: url) ?? url
                return LedgerError(.unreachable, "the ssh host key of \(host) is not in ~/.ssh/known_hosts (or does not match it): check the server's key fingerprint, then accept it with `ssh \(Remote.sshCommandTarget(url))` and sync again")
            }
            return LedgerError(.unreachable, "the TLS certificate of \(shown) is not trusted (\(Remote.redact(error.message))); if the server uses your own certificate authority, point `git config http.sslCAInfo` or $SSL_CERT_FILE at its certificate")
        }
        if let path = Remote.localPath(url) {
            guard FileSystem.exists(path) else {
                return LedgerError(.unreachable, "there is no git repository at \(path) (nothing is there: is the disk mounted?)")
            }
            if !Repository.exists(at: path), !FileSystem.exists(path + "/HEAD") {
                return LedgerError(.unreachable, "\(path) is not a git repository; a remote on a disk is made with `git init --bare \(path)`")
            }
        }
        return LedgerError(.unreachable, "cannot reach \(shown): \(Remote.redact(error.message))")
    }
}

/// A remote to fetch from and push to, made from its URL alone.
///
/// It is an anonymous remote (no config lookup, no `insteadOf` rewriting, no default
/// refspecs): libgit2 1.5.1 leaks about 80 KB on every `git_remote_lookup`, which matters
/// to long-running processes that sync many times.
public final class Remote {
    let pointer: OpaquePointer
    let repository: Repository
    /// The URL as configured (may hold credentials: print `redactedURL` instead).
    public let url: String

    /// A remote of `repository` at `url`.
    public init(_ repository: Repository, url: String) throws {
        var opts = git_remote_create_options()
        try check(git_remote_create_options_init(&opts, UInt32(GIT_REMOTE_CREATE_OPTIONS_VERSION)), "git_remote_create_options_init")
        opts.repository = repository.pointer
        opts.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF.rawValue | GIT_REMOTE_CREATE_SKIP_DEFAULT_FETCHSPEC.rawValue
        var r: OpaquePointer?
        try check(git_remote_create_with_opts(&r, url, &opts), "git_remote_create_with_opts")
        pointer = r!
        self.repository = repository
        self.url = url
    }

    deinit { git_remote_free(pointer) }

    /// The URL with any password replaced by `***`.
    public var redactedURL: String { Self.redact(url) }

    /// Fetches with explicit refspecs (`+refs/heads/main:refs/remotes/origin/main`).
    /// Throws a `LedgerError` with exit status 3 when the remote cannot be reached.
    public func fetch(_ refspecs: [String], options: TransportOptions, onTransfer: (() -> Void)? = nil) throws {
        let session = TransportSession(url: url, options: options)
        session.onTransfer = onTransfer
        var opts = git_fetch_options()
        try check(git_fetch_options_init(&opts, UInt32(GIT_FETCH_OPTIONS_VERSION)), "git_fetch_options_init")
        opts.callbacks = try session.callbacks()
        opts.prune = GIT_FETCH_NO_PRUNE
        opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
        do {
            try session.transfer {
                try Self.withStrArray(refspecs) { specs in
                    try check(git_remote_fetch(pointer, specs, &opts, "ledger: fetch"), "git_remote_fetch")
                }
            }
        } catch let e as GitError {
            throw session.unreachable(e)
        }
    }

    /// Why a push did not update the remote.
    public enum PushOutcome: Sendable, Equatable {
        case pushed
        /// The remote has commits this one lacks (refused before sending, or by the server).
        case rejected(String)
    }

    /// Pushes `refspecs`; a non-fast-forward refusal (before sending, or by the server through
    /// the reference-status callback) is returned as `.rejected`, unreachable remotes throw
    /// (exit status 3). Pushes to local remotes (a path or `file://`) hold an exclusive lock
    /// on `ledger-push.lock` in the remote: libgit2 updates their refs without a
    /// compare-and-swap, so concurrent local pushes could otherwise lose commits.
    public func push(_ refspecs: [String], options: TransportOptions, onTransfer: (() -> Void)? = nil) throws -> PushOutcome {
        let lock = try Self.localGitDirectory(url).map { try FileLock(path: $0 + "/" + LocalRemoteLock.fileName) }
        defer { lock?.release() }
        let session = TransportSession(url: url, options: options)
        session.onTransfer = onTransfer
        var opts = git_push_options()
        try check(git_push_options_init(&opts, UInt32(GIT_PUSH_OPTIONS_VERSION)), "git_push_options_init")
        opts.callbacks = try session.callbacks()
        do {
            try session.transfer {
                try Self.withStrArray(refspecs) { specs in
                    try check(git_remote_push(pointer, specs, &opts), "git_remote_push")
                }
            }
        } catch let e as GitError {
            if e.code == GIT_ENONFASTFORWARD.rawValue { return .rejected(e.message) }
            throw session.unreachable(e)
        }
        if let r = session.rejected.first { return .rejected("\(r.reference): \(r.reason)") }
        return .pushed
    }

    static func withStrArray<T>(_ strings: [String], _ body: (UnsafeMutablePointer<git_strarray>) throws -> T) throws -> T {
        var cstrings: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        defer { cstrings.forEach { free($0) } }
        return try cstrings.withUnsafeMutableBufferPointer { buf in
            var arr = git_strarray(strings: buf.baseAddress, count: strings.count)
            return try body(&arr)
        }
    }

    // MARK: - URLs

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

    /// Whether the URL is an ssh one (`ssh://…` or scp-like `user@host:path`).
    /// The directory a local remote names (a plain path or a `file://` URL), or nil.
    static func localPath(_ url: String) -> String? {
        if url.hasPrefix("file://") { return String(url.dropFirst(7)).removingPercentEncoding }
        return url.contains("://") || isSSH(url) ? nil : url
    }

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

    /// `-p PORT user@host` for the ssh command that accepts a host key.
    static func sshCommandTarget(_ url: String) -> String {
        guard let hostPort = host(of: url) else { return url }
        var user = ""
        if let r = url.range(of: "://") {
            let auth = url[r.upperBound...].prefix { $0 != "/" }
            if let at = auth.lastIndex(of: "@") { user = String(auth[..<at].prefix { $0 != ":" }) + "@" }
        } else if let at = url.firstIndex(of: "@") {
            user = String(url[..<at]) + "@"
        }
        let parts = hostPort.split(separator: ":")
        if parts.count == 2 { return "-p \(parts[1]) \(user)\(parts[0])" }
        return user + hostPort
    }

    /// `url` with the password of its user info (if any) replaced by `***`.
    public static func redact(_ text: String) -> String {
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

extension Repository {
    /// Clones `url` into `path` (which must not exist or be empty). HEAD ends on
    /// `refs/heads/main` even when the remote is empty.
    public static func clone(_ url: String, to path: String, options: TransportOptions) throws -> Repository {
        _ = Libgit2.initialized
        let session = TransportSession(url: url, options: options)
        var opts = git_clone_options()
        try check(git_clone_options_init(&opts, UInt32(GIT_CLONE_OPTIONS_VERSION)), "git_clone_options_init")
        opts.fetch_opts.callbacks = try session.callbacks()
        opts.fetch_opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
        // The work tree is written afterwards by `populateWorkTree`, much faster than
        // libgit2's checkout for a new, empty work tree.
        opts.checkout_opts.checkout_strategy = GIT_CHECKOUT_NONE.rawValue
        var repo: OpaquePointer?
        do {
            try session.transfer {
                try check(git_clone(&repo, url, path, &opts), "git_clone")
            }
        } catch let e as GitError {
            throw session.unreachable(e)
        }
        let r = Repository(repo!)
        // The remote's HEAD may name another branch (a bare repository made by `git init
        // --bare` points at master): a ledger lives on main.
        if let head = r.headReferenceName, head != "refs/heads/main", let main = r.resolve("refs/remotes/origin/main") {
            // The branch the remote's HEAD named is not the ledger's: drop it and its settings.
            let other = String(head.dropFirst("refs/heads/".count))
            try r.removeConfig("branch.\(other).remote")
            try r.removeConfig("branch.\(other).merge")
            try r.updateReference("refs/heads/main", to: main, expecting: nil, message: "ledger: clone")
            try r.setConfig("branch.main.remote", "origin")
            try r.setConfig("branch.main.merge", "refs/heads/main")
            try r.setHead("refs/heads/main")
            try r.deleteReference(head)
        } else if r.headCommit() == nil {
            try r.setHead("refs/heads/main")
            try r.setConfig("branch.main.remote", "origin")
            try r.setConfig("branch.main.merge", "refs/heads/main")
        }
        if let head = r.headCommit() { try r.populateWorkTree(from: r.treeOf(commit: head)) }
        return r
    }
}
