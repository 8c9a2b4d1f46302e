import Foundation
import LedgerKit

extension LedgerStore {
    /// The ledger in the work tree of a git repository at `root`: its device-local state in
    /// `.git/ledger/` (never synced), and git's index as the witness of bulk changes (every
    /// checkout, pull or commit rewrites it). A `.git` file (a linked work tree or a
    /// submodule) is followed to the git directory it names.
    public init(gitWorkTree root: String) {
        let gitDirectory = Self.gitDirectory(ofWorkTree: root)
        self.init(root: root, localStateDirectory: gitDirectory + "/ledger")
        bulkChangeWitnesses = [gitDirectory == root + "/.git" ? ".git/index" : gitDirectory + "/index"]
    }

    /// The git directory of the work tree at `root`: `.git`, or where a `.git` file's
    /// `gitdir:` line points.
    package static func gitDirectory(ofWorkTree root: String) -> String {
        let dotGit = root + "/.git"
        guard FileSystem.stamp(dotGit)?.type == .file, let bytes = try? FileSystem.read(dotGit, limit: 4096) else { return dotGit }
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace(newlines: true)
        guard text.hasPrefix("gitdir:") else { return dotGit }
        let target = text.dropFirst(7).trimmingWhitespace()
        return target.hasPrefix("/") ? target : FileSystem.standardized(root + "/" + target)
    }
}
