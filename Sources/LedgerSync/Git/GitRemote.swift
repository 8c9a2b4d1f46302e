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

/// What a transfer takes from the command's surroundings. LedgerSync reads no environment
/// variables itself: the caller passes its environment, from which git's configuration is
/// found and with which ssh and `git credential` run.
public struct TransportOptions: @unchecked Sendable {
    // @unchecked: `progress` is only called on the thread running the transfer.

    /// The command's environment: `HOME`, `XDG_CONFIG_HOME` and `GIT_CONFIG_*` locate git's
    /// configuration; `PATH`, `SSH_AUTH_SOCK`, `SSH_ASKPASS`, `GIT_SSH_COMMAND`, `GIT_SSH`,
    /// `GIT_TERMINAL_PROMPT`, `GIT_SSL_*` and the proxy variables are honoured as git does.
    public var environment: [String: String]
    /// A user name and password (or token) for HTTP(S) remotes, tried before git's
    /// credential helpers.
    public var httpUser: String?
    public var httpPassword: String?
    /// Called as objects are received or sent (for a progress line on a terminal).
    public var progress: ((TransferProgress) -> Void)?
    /// Seconds a network remote may stay silent before the transfer is given up (exit 3);
    /// zero waits forever. See `StallGuard`.
    public var stallTimeout: Double = 60

    public init(environment: [String: String] = [:], httpUser: String? = nil, httpPassword: String? = nil,
                progress: ((TransferProgress) -> Void)? = nil) {
        self.environment = environment
        self.httpUser = httpUser
        self.httpPassword = httpPassword
        self.progress = progress
    }
}

/// The state of one conversation with a remote, passed to libgit2's callbacks (and found by
/// the ssh subtransport through them).
final class TransportSession {
    /// The URL as configured (shown to the user), and the one git's `insteadOf` rules make of it.
    let url: String
    let effectiveURL: String
    let options: TransportOptions
    /// git's configuration for this repository (or for a clone).
    let configuration: GitConfiguration
    private var triedEnvironmentPassword = false
    /// The credential git's helpers gave, until the transfer says whether it worked.
    private var helperCredential: GitCredential?
    /// A clear message about why the transfer gave up (authentication, a missing program).
    var failure: String?
    /// What ssh (or the server through it) said when the conversation ended early.
    var sshSaid: String?
    /// The DER certificate of an HTTPS server the TLS library did not accept, and why.
    var refusedCertificate: [UInt8]?
    var tlsError: String?
    /// The proxy the transfer goes through, and the setting that names it.
    let proxy: (url: String, from: String)?
    /// `http.extraHeader` lines, as C strings for the transfer's options.
    private var headers: UnsafeMutableBufferPointer<UnsafeMutablePointer<CChar>?>?
    private var proxyURL: UnsafeMutablePointer<CChar>?
    /// References the server refused, with its reason.
    var rejected: [(reference: String, reason: String)] = []
    /// Set by a callback to abort the transfer (a test's kill point).
    var onTransfer: (() -> Void)?
    /// Cuts a network transfer that stops answering.
    let stall: StallGuard?

    /// A session for `url` of the repository at `gitDirectory` (nil for a clone), for a fetch
    /// or a push to the remote's URL (`pushInsteadOf` applies to those pushes).
    convenience init(url: String, options: TransportOptions, gitDirectory: String?, push: Bool = false) throws {
        try self.init(url: url, options: options, configuration: Self.configuration(options, gitDirectory: gitDirectory), pushInsteadOf: push)
    }

    /// A session for `url` with git's `configuration`; `pushInsteadOf` says whether those rules
    /// apply before the `insteadOf` ones (a push to the remote's URL, not to a `pushurl`).
    init(url: String, options: TransportOptions, configuration: GitConfiguration, pushInsteadOf: Bool) throws {
        _ = SSHTransport.registered
        self.url = url
        self.options = options
        self.configuration = configuration
        effectiveURL = configuration.rewrite(url, forPush: pushInsteadOf)
        proxy = Self.proxy(for: effectiveURL, configuration: configuration, environment: options.environment)
        // Through a proxy, the connections the watchdog cuts are the proxy's.
        stall = StallGuard(url: proxy?.url ?? effectiveURL, timeout: options.stallTimeout)
        try trustConfiguredCertificates()
    }

    /// git's configuration for the repository at `gitDirectory` (nil for a clone).
    static func configuration(_ options: TransportOptions, gitDirectory: String?) throws -> GitConfiguration {
        do {
            return try GitConfiguration(environment: options.environment, gitDirectory: gitDirectory)
        } catch let e as GitError {
            // git refuses to run with a broken configuration file too.
            throw LedgerError.usage("git's configuration cannot be read: \(e.message)")
        }
    }

    deinit {
        headers?.forEach { free($0) }
        headers?.deallocate()
        free(proxyURL)
    }

    /// Runs the blocking libgit2 transfer `body`, with the stall watchdog for network remotes;
    /// then tells git's credential helpers whether their credential worked.
    func transfer<T>(_ body: () throws -> T) rethrows -> T {
        try withExtendedLifetime(self) {
            do {
                // libgit2 tunnels only https:// through a proxy by itself.
                let plainHTTPProxy = effectiveURL.lowercased().hasPrefix("http://") ? proxy?.url : nil
                let result = try ProxiedHTTP.through(plainHTTPProxy) { try stall.map { try $0.watch(body) } ?? body() }
                helperCredential?.report(true, environment: options.environment)
                return result
            } catch let e as GitError where e.code == GIT_ENONFASTFORWARD.rawValue {
                // Refused for being behind: the credential itself worked.
                helperCredential?.report(true, environment: options.environment)
                throw e
            }
        }
    }

    var payload: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ payload: UnsafeMutableRawPointer?) -> TransportSession {
        Unmanaged<TransportSession>.fromOpaque(payload!).takeUnretainedValue()
    }

    // MARK: - Credentials

    /// Answers libgit2's request for an HTTP(S) password; called again after each refusal.
    /// (ssh authentication is OpenSSH's: see `SSHTransport`.) A password in the URL is tried
    /// by libgit2 first; then `LEDGER_HTTP_USER`/`LEDGER_HTTP_PASSWORD`; then git's helpers.
    func credential(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>?, _ allowed: UInt32) -> Int32 {
        guard allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0 else {
            failure = "\(Remote.redact(url)) asks for a kind of authentication ledger does not offer (HTTP servers get a user name and password)"
            return GIT_EAUTH.rawValue
        }
        if URLComponents(string: effectiveURL)?.password != nil {
            failure = "\(Remote.redact(url)) refused the user name and password in its URL: correct them with `git remote set-url`, or take them out of the URL and let a git credential helper keep them"
            return GIT_EAUTH.rawValue
        }
        if !triedEnvironmentPassword, let u = options.httpUser, let p = options.httpPassword {
            triedEnvironmentPassword = true
            return git_credential_userpass_plaintext_new(out, u, p)
        }
        if triedEnvironmentPassword, helperCredential == nil, options.httpUser != nil {
            failure = "\(Remote.redact(url)) refused the user name and password from LEDGER_HTTP_USER and LEDGER_HTTP_PASSWORD"
            return GIT_EAUTH.rawValue
        }
        if let refused = helperCredential {
            refused.report(false, environment: options.environment)
            helperCredential = nil
            failure = "\(Remote.redact(url)) refused the user name and password git's credential helper gave for \(refused.username ?? "you"), so the helper was told to forget them; sync again on a terminal to be asked, or store the right ones with your helper (credential.helper)"
            return GIT_EAUTH.rawValue
        }
        do {
            let c = try GitCredential.fill(for: effectiveURL, environment: options.environment)
            stall?.alive()  // a person may have typed for a while
            helperCredential = c
            return git_credential_userpass_plaintext_new(out, c.username, c.password)
        } catch {
            failure = (error as? LedgerError)?.message ?? "\(error)"
            return GIT_EAUTH.rawValue
        }
    }

    // MARK: - HTTPS and proxies

    /// Trusts the certificate authorities git would for an HTTPS remote: `GIT_SSL_CAINFO` or
    /// `http.sslCAInfo` (else OpenSSL's `SSL_CERT_FILE`), `GIT_SSL_CAPATH` or
    /// `http.sslCAPath` (else `SSL_CERT_DIR`); the system's bundle when none is set.
    /// Process-wide in libgit2, so set before each transfer.
    private func trustConfiguredCertificates() throws {
        guard effectiveURL.lowercased().hasPrefix("https://") else { return }
        let env = options.environment
        func setting(_ variable: String, _ key: String, _ fallback: String) -> (value: String, from: String)? {
            if let v = env[variable], !v.isEmpty { return (v, variable) }
            if let v = configuration.http(key, for: effectiveURL).last, !v.isEmpty { return (configuration.expandingHome(v), "http.\(key)") }
            if let v = env[fallback], !v.isEmpty { return (v, fallback) }
            return nil
        }
        let file = setting("GIT_SSL_CAINFO", "sslCAInfo", "SSL_CERT_FILE")
        let directory = setting("GIT_SSL_CAPATH", "sslCAPath", "SSL_CERT_DIR")
        guard file != nil || directory != nil else { return }
        for s in [file, directory].compactMap({ $0 }) where !FileSystem.exists(s.value) {
            throw LedgerError.usage("the certificate authority \(s.value) named by \(s.from) does not exist; correct or unset \(s.from)")
        }
        if ledger_git_set_ssl_cert_locations(file?.value, directory?.value) < 0 {
            let named = [file, directory].compactMap { $0.map { "\($0.value) (\($0.from))" } }.joined(separator: " and ")
            if let f = file?.value, Certificates.usesEd25519(pemFile: f) {
                throw LedgerError(.unreachable, "the certificate authority in \(named) is signed with Ed25519, which ledger's TLS library (mbedTLS, in libgit2 1.5) cannot read although git can: ask for an ECDSA (P-256) or RSA certificate authority, or reach this remote over ssh")
            }
            throw LedgerError(.unreachable, "ledger's TLS library cannot read the certificate authorities in \(named) (\(Self.lastError())): check that they are PEM certificates")
        }
    }

    /// `http.sslVerify false` or `GIT_SSL_NO_VERIFY`: the server's certificate is not checked.
    var verifiesCertificates: Bool {
        if let v = options.environment["GIT_SSL_NO_VERIFY"], !v.isEmpty { return false }
        return configuration.http("sslVerify", for: effectiveURL).last.flatMap(GitConfiguration.boolean) ?? true
    }

    /// The proxy git would use for `url` and the setting that names it: `http.proxy` (for
    /// this URL), else `https_proxy`/`http_proxy`/`all_proxy` — none for hosts in `no_proxy`.
    /// A proxy without a scheme is an HTTP one, and without a port listens on 1080, as for git.
    static func proxy(for url: String, configuration: GitConfiguration, environment env: [String: String]) -> (url: String, from: String)? {
        guard let u = URLComponents(string: url), let scheme = u.scheme?.lowercased(), scheme.hasPrefix("http"),
              let host = u.host?.lowercased() else { return nil }
        let noProxy = (env["no_proxy"] ?? env["NO_PROXY"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if noProxy.contains(where: { $0 == "*" || host == $0 || (!$0.isEmpty && host.hasSuffix($0.hasPrefix(".") ? $0 : "." + $0)) }) { return nil }
        let names = scheme == "https" ? ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] : ["http_proxy", "all_proxy", "ALL_PROXY"]
        let found: (String, String)?
        if let p = configuration.http("proxy", for: url).last {
            found = p.isEmpty ? nil : (p, "http.proxy")
        } else {
            found = names.lazy.compactMap { name in env[name].flatMap { $0.isEmpty ? nil : ($0, name) } }.first
        }
        return found.map { value, from in
            var proxy = URLComponents(string: value.contains("://") ? value : "http://" + value)
            if proxy?.port == nil { proxy?.port = 1080 }
            return (proxy?.string ?? value, from)
        }
    }

    /// Puts the proxy and `http.extraHeader` lines into a transfer's options.
    func applyHTTPSettings(_ proxyOptions: inout git_proxy_options, _ customHeaders: inout git_strarray) {
        if let p = proxy {
            proxyURL = strdup(p.url)
            proxyOptions.type = GIT_PROXY_SPECIFIED
            proxyOptions.url = UnsafePointer(proxyURL)
        }
        // An empty value clears the lines set before it, as in git.
        var lines: [String] = []
        for h in configuration.http("extraHeader", for: effectiveURL) {
            if h.isEmpty { lines.removeAll() } else { lines.append(h) }
        }
        guard !lines.isEmpty, URLComponents(string: effectiveURL)?.scheme?.lowercased().hasPrefix("http") == true else { return }
        let h = UnsafeMutableBufferPointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: lines.count)
        _ = h.initialize(from: lines.map { strdup($0) })
        headers = h
        customHeaders = git_strarray(strings: h.baseAddress, count: h.count)
    }

    static func lastError() -> String {
        git_error_last().map { String(cString: $0.pointee.message) } ?? "unknown error"
    }

    /// The callbacks of a fetch, clone or push talking through this session.
    func callbacks() throws -> git_remote_callbacks {
        var cb = git_remote_callbacks()
        try check(git_remote_init_callbacks(&cb, UInt32(GIT_REMOTE_CALLBACKS_VERSION)), "git_remote_init_callbacks")
        cb.payload = payload
        cb.credentials = { out, _, _, allowed, payload in
            let s = TransportSession.from(payload)
            s.stall?.alive()
            return s.credential(out, allowed)
        }
        cb.certificate_check = { cert, valid, _, payload in
            let s = TransportSession.from(payload)
            guard valid == 0 else { return 0 }
            if !s.verifiesCertificates { return 0 }
            s.tlsError = TransportSession.lastError()
            if let cert, cert.pointee.cert_type == GIT_CERT_X509 {
                let x509 = UnsafeRawPointer(cert).assumingMemoryBound(to: git_cert_x509.self).pointee
                if let data = x509.data { s.refusedCertificate = Array(UnsafeRawBufferPointer(start: data, count: x509.len)) }
            }
            return GIT_PASSTHROUGH.rawValue
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

    /// A `LedgerError` (exit 3) for a failed transfer, in words a user can act on, naming the
    /// setting to change.
    func unreachable(_ error: GitError) -> LedgerError {
        var shown = Remote.redact(url)
        if effectiveURL != url { shown += " (\(Remote.redact(effectiveURL)) by url.<base>.insteadOf)" }
        if let p = proxy { shown += " through the proxy \(Remote.redact(p.url)) (\(p.from))" }
        if let stall, stall.stalled {
            let seconds = stall.timeout.rounded() == stall.timeout ? String(Int(stall.timeout)) : String(stall.timeout)
            return LedgerError(.unreachable, "\(shown) stopped answering (nothing came for \(seconds) s), so ledger gave up; LEDGER_NETWORK_TIMEOUT sets how many seconds to wait")
        }
        if let failure { return LedgerError(.unreachable, failure) }
        if let said = sshSaid {
            let advice = Self.sshAdvice(said, SSHTarget(effectiveURL))
            let words = advice.isEmpty || !said.hasSuffix(".") ? said : String(said.dropLast())
            return LedgerError(.unreachable, "cannot reach \(shown) through ssh: \(words)" + advice)
        }
        if error.code == GIT_ECERTIFICATE.rawValue || refusedCertificate != nil {
            let host = URLComponents(string: effectiveURL)?.host ?? ""
            if let der = refusedCertificate, Certificates.certificate(der, listsOnlyAsIPAddress: host) {
                return LedgerError(.unreachable, "the TLS certificate of \(shown) names \(host) only as an IP address, which ledger's TLS library (mbedTLS, in libgit2 1.5) cannot check although git can: have the certificate list the address as a DNS name too (subjectAltName DNS:\(host)), or reach the server by a host name its certificate lists")
            }
            let reason = Remote.redact(tlsError ?? error.message)
            return LedgerError(.unreachable, "the TLS certificate of \(shown) is not trusted (\(reason)); if the server uses your own certificate authority, name it with `git config --global http.sslCAInfo FILE` (or GIT_SSL_CAINFO)")
        }
        if let path = Remote.localPath(effectiveURL) {
            guard FileSystem.exists(path) else {
                return LedgerError(.unreachable, "there is no git repository at \(path) (nothing is there: is the disk mounted?)")
            }
            if !Repository.exists(at: path), !FileSystem.exists(path + "/HEAD") {
                return LedgerError(.unreachable, "\(path) is not a git repository; a remote on a disk is made with `git init --bare \(path)`")
            }
        }
        return LedgerError(.unreachable, "cannot reach \(shown): \(Remote.redact(error.message))")
    }

    /// What to change after ssh said `said`, as `"; …"` (empty when ssh's words say it all).
    static func sshAdvice(_ said: String, _ target: SSHTarget?) -> String {
        let lower = said.lowercased()
        let host = target?.host ?? "the host"
        let command = "ssh " + (target.map { ($0.port.map { "-p \($0) " } ?? "") + $0.destination } ?? host)
        if lower.contains("host key verification failed") || lower.contains("host identification has changed") {
            return "; the server's host key is not in your known_hosts (or has changed): check its fingerprint, then accept it by connecting once with `\(command)`"
        }
        if lower.contains("permission denied") {
            return "; ssh had no key \(host) accepts: load yours into ssh-agent (`ssh-add`) or name it with IdentityFile in ~/.ssh/config (or `ssh -i KEY` in GIT_SSH_COMMAND), and add its public key to the server's authorized_keys; a key with a passphrase needs a terminal, ssh-agent or SSH_ASKPASS (`\(command)` shows the same)"
        }
        if lower.contains("could not resolve hostname") {
            return "; define \(host) as a Host in ~/.ssh/config, or correct the remote's URL"
        }
        if lower.contains("connection refused") || lower.contains("timed out") || lower.contains("no route to host") {
            return "; check that the ssh server is running and which port it listens on (Port in ~/.ssh/config, or ssh://\(host):PORT/path)"
        }
        if lower.contains("does not appear to be a git repository") || lower.contains("not a git repository") {
            return "; check the path in the remote's URL"
        }
        return ""
    }
}

/// A remote to fetch from and push to, made from its URL alone.
///
/// Each transfer makes an anonymous libgit2 remote (no config lookup, no default refspecs)
/// for the URL git would use: `url.<base>.insteadOf` (and for a push `pushInsteadOf`) are
/// applied by `GitConfiguration`, since libgit2 1.5.1 leaks about 80 KB on every
/// `git_remote_lookup` and its own rewriting, which matters to long-running processes that
/// sync many times.
public final class Remote {
    let repository: Repository
    /// The URL as configured (may hold credentials: print `redactedURL` instead).
    public let url: String

    /// The remote's name: its `remote.<name>.pushurl` settings, if any, take the pushes.
    public let name: String?

    /// A remote of `repository` at `url`, named `name` in git's configuration (nil for a URL
    /// alone).
    public init(_ repository: Repository, url: String, name: String? = nil) throws {
        self.repository = repository
        self.url = url
        self.name = name
    }

    /// The URL with any password replaced by `***`.
    public var redactedURL: String { Self.redact(url) }

    /// Runs `body` with a libgit2 remote for the session's URL.
    private func withRemote<T>(_ session: TransportSession, _ body: (OpaquePointer) throws -> T) throws -> T {
        var opts = git_remote_create_options()
        try check(git_remote_create_options_init(&opts, UInt32(GIT_REMOTE_CREATE_OPTIONS_VERSION)), "git_remote_create_options_init")
        opts.repository = repository.pointer
        opts.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF.rawValue | GIT_REMOTE_CREATE_SKIP_DEFAULT_FETCHSPEC.rawValue
        var r: OpaquePointer?
        try check(git_remote_create_with_opts(&r, session.effectiveURL, &opts), "git_remote_create_with_opts")
        defer { git_remote_free(r) }
        return try body(r!)
    }

    /// Fetches with explicit refspecs (`+refs/heads/main:refs/remotes/origin/main`).
    /// Throws a `LedgerError` with exit status 3 when the remote cannot be reached.
    public func fetch(_ refspecs: [String], options: TransportOptions, onTransfer: (() -> Void)? = nil) throws {
        try fetch(refspecs, options: options, onTransfer: onTransfer) { remote, specs, opts in
            try check(git_remote_fetch(remote, specs, &opts, "ledger: fetch"), "git_remote_fetch")
        }
    }

    /// Brings what the remote's `refs/heads/<branch>` holds that this repository lacks into its
    /// object database, and returns the commit that branch is at (nil when the remote has no
    /// such branch) — without updating any reference: no remote-tracking branch, no
    /// `FETCH_HEAD` (what a sync's preview needs; see `ScratchObjects` for the objects).
    func download(branch: String, options: TransportOptions, onTransfer: (() -> Void)? = nil) throws -> ObjectID? {
        let name = "refs/heads/" + branch
        var tip: ObjectID?
        try fetch([name], options: options, onTransfer: onTransfer) { remote, specs, opts in
            try check(git_remote_download(remote, specs, &opts), "git_remote_download")
            var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
            var count = 0
            try check(git_remote_ls(&heads, &count, remote), "git_remote_ls")
            for i in 0..<count {
                if let h = heads?[i]?.pointee, String(cString: h.name) == name { tip = ObjectID(h.oid) }
            }
            git_remote_disconnect(remote)
        }
        return tip
    }

    /// A fetch's transfer: `body` runs libgit2's call with the remote, the refspecs and the
    /// options (callbacks, proxy, headers; no tags, no pruning).
    private func fetch(_ refspecs: [String], options: TransportOptions, onTransfer: (() -> Void)?,
                       _ body: (OpaquePointer, UnsafeMutablePointer<git_strarray>, inout git_fetch_options) throws -> Void) throws {
        let session = try TransportSession(url: url, options: options, gitDirectory: repository.gitDirectory)
        session.onTransfer = onTransfer
        var opts = git_fetch_options()
        try check(git_fetch_options_init(&opts, UInt32(GIT_FETCH_OPTIONS_VERSION)), "git_fetch_options_init")
        opts.callbacks = try session.callbacks()
        session.applyHTTPSettings(&opts.proxy_opts, &opts.custom_headers)
        opts.prune = GIT_FETCH_NO_PRUNE
        opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
        do {
            try withRemote(session) { remote in
                try session.transfer {
                    try Self.withStrArray(refspecs) { specs in try body(remote, specs, &opts) }
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

    /// Pushes `refspecs` where git would: to each `remote.<name>.pushurl` (rewritten by
    /// `insteadOf`, not `pushInsteadOf`), else to the URL (`pushInsteadOf` first). A
    /// non-fast-forward refusal (before sending, or by the server through the
    /// reference-status callback) is returned as `.rejected`; unreachable remotes throw (exit
    /// status 3).
    public func push(_ refspecs: [String], options: TransportOptions, onTransfer: (() -> Void)? = nil) throws -> PushOutcome {
        let configuration = try TransportSession.configuration(options, gitDirectory: repository.gitDirectory)
        let pushURLs = name.map { configuration.values("remote.\($0).pushurl").filter { !$0.isEmpty } } ?? []
        let targets = pushURLs.isEmpty ? [(url: url, pushInsteadOf: true)] : pushURLs.map { (url: $0, pushInsteadOf: false) }
        for target in targets {
            let session = try TransportSession(url: target.url, options: options, configuration: configuration, pushInsteadOf: target.pushInsteadOf)
            session.onTransfer = onTransfer
            let outcome = try push(refspecs, session: session)
            if outcome != .pushed { return outcome }
        }
        return .pushed
    }

    /// Pushes to the session's URL. A push to a local remote (a path or `file://`, after
    /// `insteadOf`) holds an exclusive lock on `ledger-push.lock` in it: libgit2 updates its
    /// refs without a compare-and-swap, so concurrent local pushes could otherwise lose commits.
    private func push(_ refspecs: [String], session: TransportSession) throws -> PushOutcome {
        let lock = try Self.localGitDirectory(session.effectiveURL).map { try FileLock(path: $0 + "/" + LocalRemoteLock.fileName) }
        defer { lock?.release() }
        var opts = git_push_options()
        try check(git_push_options_init(&opts, UInt32(GIT_PUSH_OPTIONS_VERSION)), "git_push_options_init")
        opts.callbacks = try session.callbacks()
        session.applyHTTPSettings(&opts.proxy_opts, &opts.custom_headers)
        do {
            try withRemote(session) { remote in
                try session.transfer {
                    try Self.withStrArray(refspecs) { specs in
                        try check(git_remote_push(remote, specs, &opts), "git_remote_push")
                    }
                }
            }
        } catch let e as GitError {
            if e.code == GIT_ENONFASTFORWARD.rawValue { return .rejected(e.message) }
            throw session.unreachable(e)
        }
        if let r = session.rejected.first { return .rejected("\(r.reference): \(r.reason)") }
        return .pushed
    }

    /// Whether a replacement of a remote branch happened (`replace`).
    package enum Replacement: Sendable, Equatable {
        case replaced
        /// The branch was not where it was expected: it is at this commit (nil: absent).
        case moved(ObjectID?)
        /// The remote refused the update, in its own words.
        case refused(String)
    }

    /// Replaces the remote's `branch` with the commit of the local reference `source`, whatever it holds — but only if it is
    /// still at `expected` (nil: absent), as `git push --force-with-lease` does: the branch's
    /// commit is read from what the remote advertises on the connection that sends the update,
    /// and a git server applies the update only if the branch has not moved since (it compares
    /// the old value under its own lock); a remote on a path is held by its push lock meanwhile.
    /// To each `remote.<name>.pushurl`, else to the URL, as `push` does.
    package func replace(branch: String, with source: String, expecting expected: ObjectID?, options: TransportOptions,
                         onTransfer: (() -> Void)? = nil) throws -> Replacement {
        let configuration = try TransportSession.configuration(options, gitDirectory: repository.gitDirectory)
        let pushURLs = name.map { configuration.values("remote.\($0).pushurl").filter { !$0.isEmpty } } ?? []
        let targets = pushURLs.isEmpty ? [(url: url, pushInsteadOf: true)] : pushURLs.map { (url: $0, pushInsteadOf: false) }
        for target in targets {
            let session = try TransportSession(url: target.url, options: options, configuration: configuration, pushInsteadOf: target.pushInsteadOf)
            session.onTransfer = onTransfer
            let outcome = try replace(branch: branch, with: source, expecting: expected, session: session)
            if outcome != .replaced { return outcome }
        }
        return .replaced
    }

    private func replace(branch: String, with source: String, expecting expected: ObjectID?, session: TransportSession) throws -> Replacement {
        let lock = try Self.localGitDirectory(session.effectiveURL).map { try FileLock(path: $0 + "/" + LocalRemoteLock.fileName) }
        defer { lock?.release() }
        var opts = git_push_options()
        try check(git_push_options_init(&opts, UInt32(GIT_PUSH_OPTIONS_VERSION)), "git_push_options_init")
        opts.callbacks = try session.callbacks()
        session.applyHTTPSettings(&opts.proxy_opts, &opts.custom_headers)
        let name = "refs/heads/" + branch
        do {
            return try withRemote(session) { remote in
                try session.transfer {
                    try check(git_remote_connect(remote, GIT_DIRECTION_PUSH, &opts.callbacks, &opts.proxy_opts, &opts.custom_headers), "git_remote_connect")
                    defer { git_remote_disconnect(remote) }
                    var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
                    var count = 0
                    try check(git_remote_ls(&heads, &count, remote), "git_remote_ls")
                    var current: ObjectID?
                    for i in 0..<count {
                        if let h = heads?[i]?.pointee, String(cString: h.name) == name { current = ObjectID(h.oid) }
                    }
                    guard current == expected else { return .moved(current) }
                    try Self.withStrArray(["+\(source):\(name)"]) { specs in
                        try check(git_remote_upload(remote, specs, &opts), "git_remote_upload")
                    }
                    if let r = session.rejected.first { return .refused("\(r.reference): \(r.reason)") }
                    return .replaced
                }
            }
        } catch let e as GitError {
            throw session.unreachable(e)
        }
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

    /// The directory a local remote names (a plain path or a `file://` URL), or nil.
    static func localPath(_ url: String) -> String? {
        if url.hasPrefix("file://") { return String(url.dropFirst(7)).removingPercentEncoding }
        return url.contains("://") || isSSH(url) ? nil : url
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
    public static func withoutPassword(_ url: String) -> String {
        redact(url).replacingOccurrences(of: ":***@", with: "@")
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
        let session = try TransportSession(url: url, options: options, gitDirectory: nil)
        var opts = git_clone_options()
        try check(git_clone_options_init(&opts, UInt32(GIT_CLONE_OPTIONS_VERSION)), "git_clone_options_init")
        opts.fetch_opts.callbacks = try session.callbacks()
        session.applyHTTPSettings(&opts.fetch_opts.proxy_opts, &opts.fetch_opts.custom_headers)
        opts.fetch_opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
        // The work tree is written afterwards by `populateWorkTree`, much faster than
        // libgit2's checkout for a new, empty work tree.
        opts.checkout_opts.checkout_strategy = GIT_CHECKOUT_NONE.rawValue
        var repo: OpaquePointer?
        do {
            try session.transfer {
                try check(git_clone(&repo, session.effectiveURL, path, &opts), "git_clone")
            }
        } catch let e as GitError {
            throw session.unreachable(e)
        }
        let r = Repository(repo!)
        // Like git, the clone keeps the URL as given; insteadOf applies at each transfer.
        if session.effectiveURL != url { try r.setConfig("remote.origin.url", url) }
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
