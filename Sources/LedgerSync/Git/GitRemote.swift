import CGit2
import Foundation
import LedgerKit

/// A remote to fetch from and push to, made from its URL alone.
///
/// Each transfer makes an anonymous libgit2 remote (no config lookup, no default refspecs)
/// for the URL git would use: `url.<base>.insteadOf` (and for a push `pushInsteadOf`) are
/// applied by `GitConfiguration`, since libgit2 1.5.1 leaks about 80 KB on every
/// `git_remote_lookup` and its own rewriting, which matters to long-running processes that
/// sync many times.
package final class Remote {
    let repository: Repository
    /// The URL as configured (may hold credentials: print `redactedURL` instead).
    package let url: String

    /// The remote's name: its `remote.<name>.pushurl` settings, if any, take the pushes.
    package let name: String?

    /// The references the remote advertised on the last connection that listed them
    /// (`download`, `replace`), peeled tags left out.
    package private(set) var advertised: [String] = []

    /// A remote of `repository` at `url`, named `name` in git's configuration (nil for a URL
    /// alone).
    package init(_ repository: Repository, url: String, name: String? = nil) throws {
        self.repository = repository
        self.url = url
        self.name = name
    }

    /// The URL with any password replaced by `***`.
    package var redactedURL: String { Self.redact(url) }

    /// The remote helper git would run for this remote's URL (`gcrypt::…`), or nil for a URL
    /// libgit2 reaches itself.
    private func helper(_ options: TransportOptions) throws -> RemoteHelper? {
        try RemoteHelper(url: url, name: name, repository: repository, environment: options.environment)
    }

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
    package func fetch(_ refspecs: [String], options: TransportOptions, onTransfer: (() -> Void)? = nil) throws {
        if let helper = try helper(options) {
            onTransfer?()
            return try helper.fetch(refspecs)
        }
        try fetch(refspecs, options: options, onTransfer: onTransfer) { remote, specs, opts in
            try check(git_remote_fetch(remote, specs, &opts, "ledger: fetch"), "git_remote_fetch")
        }
    }

    /// Brings what the remote's `refs/heads/<branch>` holds that this repository lacks into its
    /// object database, and returns the commit that branch is at (nil when the remote has no
    /// such branch) — without updating any reference: no remote-tracking branch, no
    /// `FETCH_HEAD` (what a sync's preview needs; see `ScratchObjects` for the objects). Through
    /// a remote helper, git writes the objects into the repository's own object database (a
    /// helper keeps its own record of what it fetched — git-remote-gcrypt does — which objects
    /// thrown away afterwards would falsify); still no reference moves.
    func download(branch: String, options: TransportOptions, onTransfer: (() -> Void)? = nil) throws -> ObjectID? {
        let name = "refs/heads/" + branch
        if let helper = try helper(options) {
            onTransfer?()
            guard let tip = try helper.tip(of: branch) else { return nil }
            try helper.fetch([name])
            return tip
        }
        var tip: ObjectID?
        try fetch([name], options: options, onTransfer: onTransfer) { remote, specs, opts in
            try check(git_remote_download(remote, specs, &opts), "git_remote_download")
            var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
            var count = 0
            try check(git_remote_ls(&heads, &count, remote), "git_remote_ls")
            tip = record(heads, count)[name]
            git_remote_disconnect(remote)
        }
        return tip
    }

    /// The remote's branches and tags and the commits they point at, asked without fetching
    /// anything (`git ls-remote`). Throws as a fetch does when the remote cannot be reached.
    package func heads(options: TransportOptions) throws -> [String: ObjectID] {
        var heads: [String: ObjectID] = [:]
        try fetch([], options: options, onTransfer: nil) { remote, _, opts in
            try check(git_remote_connect(remote, GIT_DIRECTION_FETCH, &opts.callbacks, &opts.proxy_opts, &opts.custom_headers), "git_remote_connect")
            defer { git_remote_disconnect(remote) }
            var list: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
            var count = 0
            try check(git_remote_ls(&list, &count, remote), "git_remote_ls")
            heads = record(list, count)
        }
        return heads
    }

    /// The references of `git_remote_ls`'s list, by name (kept in `advertised`).
    private func record(_ heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?, _ count: Int) -> [String: ObjectID] {
        var out: [String: ObjectID] = [:]
        for i in 0..<count {
            if let h = heads?[i]?.pointee {
                let name = String(cString: h.name)
                if name.hasPrefix("refs/"), !name.hasSuffix("^{}") { out[name] = ObjectID(h.oid) }
            }
        }
        advertised = out.keys.sorted()
        return out
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
        // No FETCH_HEAD: nothing of ledger's reads it, and libgit2 writes it unflushed.
        opts.update_fetchhead = 0
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
    package enum PushOutcome: Sendable, Equatable {
        case pushed
        /// The remote has commits this one lacks (refused before sending, or by the server).
        case rejected(String)
    }

    /// Pushes `refspecs` where git would: to each `remote.<name>.pushurl` (rewritten by
    /// `insteadOf`, not `pushInsteadOf`), else to the URL (`pushInsteadOf` first). A
    /// non-fast-forward refusal (before sending, or by the server through the
    /// reference-status callback) and a server's error (`remote error: …`) are returned as
    /// `.rejected`; unreachable remotes throw (exit status 3).
    ///
    /// `expected` is where the remote's branch was at the last fetch (nil: it had none); only a
    /// push through a remote helper needs it (`RemoteHelper.push`): libgit2 and git's servers
    /// refuse a push that is not a fast-forward themselves.
    package func push(_ refspecs: [String], expected: ObjectID?, options: TransportOptions, onTransfer: (() -> Void)? = nil) throws -> PushOutcome {
        if let helper = try helper(options) {
            onTransfer?()
            for refspec in refspecs {
                let outcome = try helper.push(refspec, expected: expected)
                if outcome != .pushed { return outcome }
            }
            return .pushed
        }
        return try toEachPushURL(options, onTransfer: onTransfer, until: .pushed) { session in
            do {
                try pushing(session) { remote, opts in
                    try Self.withStrArray(refspecs) { specs in
                        try check(git_remote_push(remote, specs, &opts), "git_remote_push")
                    }
                }
            } catch let e as GitError {
                if e.code == GIT_ENONFASTFORWARD.rawValue { return .rejected(e.message) }
                // The server answered and refused, in its own words (git's protocol error: a
                // git daemon without receive-pack, a repository not exported for pushing).
                if e.message.hasPrefix("remote error:") { return .rejected(e.message) }
                throw session.unreachable(e)
            }
            if let r = session.rejected.first { return .rejected("\(r.reference): \(r.reason)") }
            return .pushed
        }
    }

    /// Runs `body` with a session for each URL git pushes to — each `remote.<name>.pushurl`
    /// (rewritten by `insteadOf`, not `pushInsteadOf`), else the URL (`pushInsteadOf` first) —
    /// until one returns another outcome than `done`, which it returns.
    private func toEachPushURL<T: Equatable>(_ options: TransportOptions, onTransfer: (() -> Void)?, until done: T,
                                             _ body: (TransportSession) throws -> T) throws -> T {
        let configuration = try TransportSession.configuration(options, gitDirectory: repository.gitDirectory)
        let pushURLs = name.map { configuration.values("remote.\($0).pushurl").filter { !$0.isEmpty } } ?? []
        let targets = pushURLs.isEmpty ? [(url: url, pushInsteadOf: true)] : pushURLs.map { (url: $0, pushInsteadOf: false) }
        for target in targets {
            let session = try TransportSession(url: target.url, options: options, configuration: configuration, pushInsteadOf: target.pushInsteadOf)
            session.onTransfer = onTransfer
            let outcome = try body(session)
            if outcome != done { return outcome }
        }
        return done
    }

    /// Runs `body` with a libgit2 remote for the session's URL and push options (callbacks,
    /// proxy, headers) in the session's transfer. A push to a local remote (a path or
    /// `file://`, after `insteadOf`) holds an exclusive lock on `ledger-push.lock` in it:
    /// libgit2 updates its refs without a compare-and-swap, so concurrent local pushes could
    /// otherwise lose commits.
    private func pushing<T>(_ session: TransportSession, _ body: (OpaquePointer, inout git_push_options) throws -> T) throws -> T {
        let lock = try Self.localGitDirectory(session.effectiveURL).map { try FileLock(path: $0 + "/" + LocalRemoteLock.fileName) }
        defer { lock?.release() }
        var opts = git_push_options()
        try check(git_push_options_init(&opts, UInt32(GIT_PUSH_OPTIONS_VERSION)), "git_push_options_init")
        opts.callbacks = try session.callbacks()
        session.applyHTTPSettings(&opts.proxy_opts, &opts.custom_headers)
        return try withRemote(session) { remote in try session.transfer { try body(remote, &opts) } }
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
        let name = "refs/heads/" + branch
        if let helper = try helper(options) {
            onTransfer?()
            return try helper.replace(branch: branch, with: source, expected: expected)
        }
        return try toEachPushURL(options, onTransfer: onTransfer, until: .replaced) { session in
            do {
                return try pushing(session) { remote, opts in
                    try check(git_remote_connect(remote, GIT_DIRECTION_PUSH, &opts.callbacks, &opts.proxy_opts, &opts.custom_headers), "git_remote_connect")
                    defer { git_remote_disconnect(remote) }
                    var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
                    var count = 0
                    try check(git_remote_ls(&heads, &count, remote), "git_remote_ls")
                    let current = record(heads, count)[name]
                    guard current == expected else { return .moved(current) }
                    try Self.withStrArray(["+\(source):\(name)"]) { specs in
                        try check(git_remote_upload(remote, specs, &opts), "git_remote_upload")
                    }
                    if let r = session.rejected.first { return .refused("\(r.reference): \(r.reason)") }
                    return .replaced
                }
            } catch let e as GitError {
                throw session.unreachable(e)
            }
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
}

extension Repository {
    /// The names of the remotes in the repository's configuration (`git remote`).
    package func remoteNames() throws -> [String] {
        var list = git_strarray()
        try check(git_remote_list(&list, pointer), "git_remote_list")
        defer { git_strarray_dispose(&list) }
        return (0..<list.count).compactMap { list.strings[$0].map { String(cString: $0) } }
    }
}
