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
    /// Where ledger's own ssh runs share one connection per server (OpenSSH's ControlMaster;
    /// `SSHConnectionSharing`), while the process that made it runs; nil: each transfer opens
    /// its own.
    package var sshSharing: SSHConnectionSharing?

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
    /// Whether the helpers were asked during the current attempt; the credential to give
    /// again, unasked, when the attempt is retried (see `transfer`).
    private var filledInThisAttempt = false
    private var retryCredential: GitCredential?
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
            throw LedgerError.invalidArgument("git's configuration cannot be read: \(e.message)")
        }
    }

    deinit {
        headers?.forEach { free($0) }
        headers?.deallocate()
        free(proxyURL)
    }

    /// Runs the blocking libgit2 transfer `body`, with the stall watchdog for network remotes;
    /// then tells git's credential helpers whether their credential worked.
    ///
    /// A server may close its idle connection while git's credential helper asks a person
    /// (lighttpd after 5 s, nginx after 75 s): libgit2 then reads the closed connection and
    /// fails, where git's curl reconnects. So a network failure right after a credential was
    /// filled is tried once more, with the credential already typed (nobody is asked twice).
    func transfer<T>(_ body: () throws -> T) rethrows -> T {
        do {
            return try attempt(body)
        } catch let e as GitError where e.isNetwork && e.code != GIT_EAUTH.rawValue && failure == nil
            && !(stall?.stalled ?? false) && filledInThisAttempt {
            retryCredential = helperCredential
            helperCredential = nil
            return try attempt(body)
        }
    }

    private func attempt<T>(_ body: () throws -> T) rethrows -> T {
        filledInThisAttempt = false
        return try withExtendedLifetime(self) {
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
        if let typed = retryCredential {
            retryCredential = nil
            helperCredential = typed
            return git_credential_userpass_plaintext_new(out, typed.username, typed.password)
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
            filledInThisAttempt = true
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
            throw LedgerError.invalidArgument("the certificate authority \(s.value) named by \(s.from) does not exist; correct or unset \(s.from)")
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
        let noProxy = (env["no_proxy"] ?? env["NO_PROXY"] ?? "").split(separator: ",").map { $0.trimmingWhitespace().lowercased() }
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
