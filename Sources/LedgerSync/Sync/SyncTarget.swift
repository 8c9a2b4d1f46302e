import Foundation
import LedgerKit

/// What a ledger syncs: its branch, and the remote and remote branch it syncs with — checked
/// before anything is written (by a sync, its preview, and a reset to the remote).
struct SyncTarget {
    /// The local branch synced, and its name on the remote (the same unless the branch's
    /// upstream says otherwise).
    let branch: String
    let remoteBranch: String
    let remoteName: String
    /// The remote's URL as configured.
    let url: String

    var branchRef: String { "refs/heads/\(branch)" }
    var trackingRef: String { "refs/remotes/\(remoteName)/\(remoteBranch)" }

    /// The target of the repository at `root`; `remoteName` overrides the branch's remote.
    /// Refuses (nothing written) git in the middle of an operation, a detached HEAD, another
    /// branch than the ledger's, and a missing remote.
    init(_ repo: Repository, root: String, remoteName name: String?) throws {
        if let operation = repo.operationInProgress {
            throw LedgerError.invalid("git is in the middle of \(operation.name) in \(root) (`git status` says so too): \(operation.waysOut), then sync again; nothing was committed or pushed")
        }
        guard let head = repo.headReferenceName, head.hasPrefix("refs/heads/") else {
            throw LedgerError.failure("HEAD of \(root) is not on a branch (a detached checkout?); run `git -C \(root) switch main`, then sync again")
        }
        branch = String(head.dropFirst(11))
        let upstream = repo.config("branch.\(branch).merge").map { $0.hasPrefix("refs/heads/") ? String($0.dropFirst(11)) : $0 }
        try Self.checkBranch(branch, upstream: upstream, repo: repo, root: root)
        remoteBranch = upstream ?? branch
        remoteName = name ?? repo.config("branch.\(branch).remote") ?? "origin"
        guard let url = repo.config("remote.\(remoteName).url") else {
            if name != nil {
                throw LedgerError.invalidArgument("this ledger has no remote named \(remoteName); `git -C \(root) remote -v` lists them")
            }
            throw LedgerError.invalidArgument("this ledger has no remote to sync with; \(next: .sync(.addRemote(root: root)))")
        }
        self.url = url
    }

    /// A ledger syncs one branch: `main`, or — in a clone whose remote names its branch
    /// otherwise and that has no `main` — the branch HEAD is on, if it tracks one. Anything
    /// else (a branch made to try something) is refused: syncing it would publish it as a
    /// new branch that no other device looks at.
    static func checkBranch(_ branch: String, upstream: String?, repo: Repository, root: String) throws {
        guard branch != "main" else { return }
        let hasMain = repo.resolve("refs/heads/main") != nil
        if !hasMain, upstream != nil { return }
        let target = hasMain ? "main" : "a branch that tracks the remote's"
        throw LedgerError.invalid("""
            \(root) is on the branch \(branch), but ledger syncs \(target) (a branch of its own would reach no other \
            device); switch back with `git -C \(root) switch main`, after merging what \(branch) holds if you want it \
            synced (`git -C \(root) merge \(branch)` there); nothing was committed or pushed
            """)
    }
}
