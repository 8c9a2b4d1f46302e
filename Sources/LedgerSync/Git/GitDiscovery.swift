import Foundation
import LedgerKit

/// Finding the repository around a directory without libgit2, in the cases where the answer is
/// plain: every command without `--repo` or `$LEDGER_REPO` asks which ledger contains the
/// current directory, and starting libgit2 for that (loading it, and its TLS library parsing
/// the system's certificate bundle) cost a quick command 64 M instructions, five times the rest
/// of its work.
///
/// Walking up from the directory's real path (as git and libgit2 do), a repository can only be
/// where a `.git` entry is, or in a directory holding `HEAD` (a bare repository, or the inside
/// of a git directory). So:
/// - no such entry in the directory or any directory above it: there is no repository
///   (whatever the ceilings and file systems, which only shorten the search);
/// - the first one met is a `.git` directory of the current user, holding `HEAD`, `objects`
///   and `refs`, whose config sets neither `core.worktree`, `core.bare` (other than false) nor
///   an include, with no `GIT_CEILING_DIRECTORIES` and no file-system boundary on the way: its
///   work tree is that directory;
/// - anything else (a `.git` file or link, a ceiling, a mount point, another owner, a `HEAD`
///   on the way) is left to libgit2.
/// GitDiscoveryTests compare both with `git rev-parse --show-toplevel` on each of those layouts.
enum GitDiscovery {
    enum Answer: Equatable {
        /// No repository contains the directory.
        case none
        /// The work tree of the repository that contains it.
        case workTree(String)
        /// Only libgit2 can tell.
        case unsure
    }

    static func discover(from directory: String, ceilings: String?, acrossFileSystems: Bool) -> Answer {
        guard let resolved = realpath(directory, nil) else { return .unsure }
        var dir = String(cString: resolved)
        free(resolved)
        var device: dev_t?
        var crossed = false
        while true {
            var st = stat()
            guard stat(dir, &st) == 0 else { return .unsure }
            if let device, st.st_dev != device { crossed = true }
            device = device ?? st.st_dev
            var git = stat()
            if lstat(dir + "/.git", &git) == 0 {
                let plain = (ceilings ?? "").isEmpty && (!crossed || acrossFileSystems) && git.st_mode & S_IFMT == S_IFDIR
                    && git.st_uid == geteuid() && isPlainGitDirectory(dir + "/.git")
                return plain ? .workTree(dir) : .unsure
            }
            if FileSystem.exists(dir + "/HEAD") { return .unsure }
            guard dir != "/" else { return .none }
            let parent = dir[..<(dir.lastIndex(of: "/") ?? dir.startIndex)]
            dir = parent.isEmpty ? "/" : String(parent)
        }
    }

    /// Whether `gitDirectory` is a repository's git directory whose work tree is its parent:
    /// `HEAD`, `objects` and `refs` in it, and a config that moves no work tree.
    private static func isPlainGitDirectory(_ gitDirectory: String) -> Bool {
        guard FileSystem.exists(gitDirectory + "/HEAD"), FileSystem.exists(gitDirectory + "/objects"),
              FileSystem.exists(gitDirectory + "/refs"),
              let config = try? FileSystem.read(gitDirectory + "/config", limit: 1 << 20) else { return false }
        for line in String(decoding: config, as: UTF8.self).lowercased().split(whereSeparator: \.isNewline) {
            let words = line.filter { $0 != " " && $0 != "\t" }
            if words.hasPrefix("worktree") || words.hasPrefix("[include") || (words.hasPrefix("bare") && words != "bare=false") { return false }
        }
        return true
    }
}
