import CGit2
import Foundation
import LedgerKit

extension Repository {
    /// Clones `url` into `path` (which must not exist or be empty); `configure` sets the clone
    /// up (the merge driver) before its files are checked out. HEAD ends on
    /// `refs/heads/main` even when the remote is empty.
    package static func clone(_ url: String, to path: String, options: TransportOptions,
                              configure: (Repository) throws -> Void = { _ in }) throws -> Repository {
        let r = try RemoteHelper.transport(of: url) == nil ? fetchClone(url, to: path, options: options)
                                                          : fetchCloneThroughHelper(url, to: path, options: options)
        // The configuration (the remote, and what `configure` adds) and HEAD on the disk before
        // any file is checked out: a clone cut short is then known by its remote, and
        // `ledger clone` finishes it; the configuration is not written again afterwards.
        if r.headCommit() != nil { try configure(r) }
        Durability.flush(gitDirectory: r.gitDirectory)
        if let head = r.headCommit() { try r.populateWorkTree(from: r.treeOf(commit: head)) }
        return r
    }

    /// The clone's repository, with its commits and branch main but no file checked out yet.
    private static func fetchClone(_ url: String, to path: String, options: TransportOptions) throws -> Repository {
        _ = Libgit2.initialized
        let session = try TransportSession(url: url, options: options, gitDirectory: nil)
        var opts = git_clone_options()
        try check(git_clone_options_init(&opts, UInt32(GIT_CLONE_OPTIONS_VERSION)), "git_clone_options_init")
        opts.fetch_opts.callbacks = try session.callbacks()
        session.applyHTTPSettings(&opts.fetch_opts.proxy_opts, &opts.fetch_opts.custom_headers)
        opts.fetch_opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
        opts.fetch_opts.update_fetchhead = 0
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
        return r
    }

    /// `fetchClone` through a remote helper (`gcrypt::…`), which git runs: a new repository on
    /// main whose origin is `url`, and the remote's main fetched into it.
    private static func fetchCloneThroughHelper(_ url: String, to path: String, options: TransportOptions) throws -> Repository {
        let r = try initialize(at: path)
        try r.setConfig("remote.origin.url", url)
        try r.setConfig("remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*")
        try r.setConfig("branch.main.remote", "origin")
        try r.setConfig("branch.main.merge", "refs/heads/main")
        try Remote(r, url: url, name: "origin").fetch(["+refs/heads/main:refs/remotes/origin/main"], options: options)
        if let main = r.resolve("refs/remotes/origin/main") {
            try r.updateReference("refs/heads/main", to: main, expecting: nil, message: "ledger: clone")
        }
        return r
    }
}
