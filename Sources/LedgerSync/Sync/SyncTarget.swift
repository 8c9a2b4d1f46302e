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
    /// Refuses (exit 1, nothing written) git in the middle of an operation, a detached HEAD,
    /// another branch than the ledger's, and a missing remote (exit 2).
    init(_ repo: Repository, root: String, remoteName name: String?) throws {
        if let operation = repo.operationInProgress {
            throw LedgerError.invalid("git is in the middle of \(operation.name) in \(root) (`git status` says so too): \(operation.waysOut), then sync again; nothing was committed or pushed")
        }
        if let problem = try Self.headProblem(repo, root: root) {
            throw LedgerError.invalid(problem + "; nothing was committed or pushed")
        }
        branch = String(repo.headReferenceName!.dropFirst(11))
        let upstream = Self.upstreamBranch(repo, of: branch)
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

    /// The remote branch `branch` tracks (`branch.<name>.merge`), by its short name.
    static func upstreamBranch(_ repo: Repository, of branch: String) -> String? {
        repo.config("branch.\(branch).merge").map { $0.hasPrefix("refs/heads/") ? String($0.dropFirst(11)) : $0 }
    }

    /// The branch a ledger syncs: `main`, or — in a clone whose remote names its branch
    /// otherwise and that has no `main` — a branch that tracks a remote branch; nil when there
    /// is neither.
    static func ledgerBranch(_ repo: Repository) -> String? {
        if repo.resolve("refs/heads/main") != nil { return "main" }
        let branches = (try? repo.references(under: "refs/heads/")) ?? []
        return branches.map { String($0.name.dropFirst(11)) }.first { upstreamBranch(repo, of: $0) != nil }
    }

    /// Why `ledger sync` will not sync HEAD where it is — detached, or on another branch than
    /// the ledger's (a branch of its own would reach no other device) — with git's way back
    /// that works from here (`wayBack`); nil when HEAD is on the ledger's branch. `changes`
    /// are the work tree's uncommitted changes (read when not given).
    package static func headProblem(_ repo: Repository, root: String, changes: [PathChange]? = nil) throws -> LedgerError.Sentence? {
        let target = ledgerBranch(repo)
        guard let head = repo.headReferenceName, head.hasPrefix("refs/heads/") else {
            let at = repo.headCommit().map { " at \($0.short)" } ?? ""
            return "HEAD of \(root) is detached\(at) (a checkout of a commit, on no branch), but ledger syncs \(target ?? "a branch"); "
                + (try wayBack(repo, root: root, from: nil, to: target, changes: changes))
        }
        let branch = String(head.dropFirst(11))
        if branch == "main" || (target != "main" && upstreamBranch(repo, of: branch) != nil) { return nil }
        return "\(root) is on the branch \(branch), but ledger syncs \(target ?? "a branch that tracks the remote's") (a branch of its own "
            + "would reach no other device); " + (try wayBack(repo, root: root, from: branch, to: target, changes: changes))
    }

    /// git's way from HEAD (on the branch `here`, or detached when nil) back to the ledger's
    /// branch `target`, naming `git switch` alone only when it works: when no uncommitted
    /// change is to a file that differs on `target` (git refuses to overwrite it) and no
    /// commit would be left behind on a detached HEAD. Otherwise the work is kept on a branch,
    /// committed and merged — or dropped, on purpose.
    static func wayBack(_ repo: Repository, root: String, from here: String?, to target: String?, changes: [PathChange]?) throws -> LedgerError.Sentence {
        let git = "git -C \(root)"
        guard let target, let targetCommit = repo.resolve("refs/heads/\(target)") else {
            return "switch to the branch the ledger syncs (`\(git) switch BRANCH`)"
        }
        let head = repo.headCommit()
        let changed = try changes ?? repo.workTreeChanges()
        let differing = try Set(repo.diff(from: head.map { try repo.treeOf(commit: $0) }, to: repo.treeOf(commit: targetCommit)).map(\.path))
        let blocked = changed.map(\.path).filter(differing.contains).sorted()
        let unmerged = try head.map { try repo.aheadBehind($0, targetCommit).ahead } ?? 0
        let along = changed.isEmpty ? "" : " (your uncommitted changes come along)"
        let commit = changed.isEmpty ? "" : ", `\(git) add -A`, `\(git) commit -m \"\(here.map { "made on \($0)" } ?? "kept from a detached checkout")\"`"
        let drop = "; or drop \(changed.isEmpty ? "them" : "the changes") with `\(git) switch --discard-changes \(target)`"
        let waiting = blocked.isEmpty ? "" : "`\(git) switch \(target)` would refuse while uncommitted changes to \(Self.list(blocked)) differ from \(target), so "
        if let here {
            guard blocked.isEmpty else {
                return "\(waiting)commit them on \(here) first\(commit), then `\(git) switch \(target)` and `\(git) merge \(here)` to have them synced\(drop)"
            }
            return "switch back with `\(git) switch \(target)`\(along)"
                + (unmerged == 0 ? "" : ", then `\(git) merge \(here)` if you want its \(unmerged == 1 ? "commit" : "\(unmerged) commits") synced")
        }
        guard blocked.isEmpty, unmerged == 0 else {
            let kept = "detached-\(head?.short ?? "work")"
            let what = unmerged == 0 ? "" : "\(unmerged == 1 ? "the commit" : "the \(unmerged) commits") made there" + (changed.isEmpty ? "" : " and ")
            return "\(waiting)keep \(what)\(changed.isEmpty ? "" : "the uncommitted changes") on a branch: `\(git) switch -c \(kept)`\(commit), "
                + "`\(git) switch \(target)` and `\(git) merge \(kept)`\(drop)"
        }
        return "switch back with `\(git) switch \(target)`\(along)"
    }

    /// "a.json", "a.json and b.json", "a.json, b.json and 3 more files".
    static func list(_ paths: [String]) -> String {
        switch paths.count {
        case 1: paths[0]
        case 2: "\(paths[0]) and \(paths[1])"
        default: "\(paths[0]), \(paths[1]) and \(paths.count - 2) more files"
        }
    }
}
