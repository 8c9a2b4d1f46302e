import Foundation
import LedgerKit

/// `ledger merge-driver BASE OURS THEIRS PATHNAME`: git's external merge-driver protocol
/// (`merge.ledger.driver = ledger merge-driver %O %A %B %P`), so that plain `git merge` and
/// `git pull` resolve documents exactly as `ledger sync` does.
///
/// git hands over three temporary files (BASE is empty when both sides added the file) and
/// the file's path in the work tree; the result is written to OURS. Files the resolution
/// creates (a recipe's conflicted copy, a conflict file keeping the other version) are
/// written into the work tree, where the next `ledger sync` (or `git add`) commits them.
///
/// During a rebase (`git rebase`, `git pull --rebase`) git replays this machine's commits on
/// top of the upstream: the file it calls "ours" (%A) then holds the upstream's version and
/// "theirs" (%B) this machine's. The driver swaps the roles back, so that a rebase reaches
/// what a merge (and `ledger sync`) reaches: this machine's recipe keeps its id, and a
/// conflict file holds the other machine's version. The result still goes to %A.
public enum MergeDriver {
    /// What the driver did, for its message on stderr.
    public struct Outcome: Sendable {
        public var resolution: FileResolution
        /// Files written into the work tree, relative to its root.
        public var written: [String]
        /// Whether the file is resolved (exit 0); false means git should report a conflict.
        public var resolved: Bool
    }

    /// Resolves one file. `workTree` is the root of the repository's work tree.
    public static func run(base: String, ours: String, theirs: String, pathname: String, workTree: String) throws -> Outcome {
        func read(_ path: String) throws -> [UInt8] {
            guard let bytes = try FileSystem.read(path, limit: LedgerStore.maximumDocumentBytes * 4) else {
                throw LedgerError.usage("\(path) does not exist; git passes the merge driver three temporary files (%O %A %B)")
            }
            return bytes
        }
        let b = try read(base), o = try read(ours), t = try read(theirs)
        let store = LedgerStore(gitWorkTree: workTree)
        let rebasing = (try? Repository.open(workTree))?.operationInProgress == .rebase
        let (mine, other) = rebasing ? (t, o) : (o, t)
        let resolution = FileMerge.resolve(path: pathname, base: b.isEmpty ? nil : b, ours: mine, theirs: other,
                                           siblings: siblings(of: pathname, in: store))
        guard let result = resolution.result else {
            return Outcome(resolution: resolution, written: [], resolved: false)
        }
        try FileSystem.writeAtomically(ours, result)
        var written: [String] = []
        for (path, bytes) in resolution.created where path != pathname {
            try FileSystem.writeAtomically(store.absolute(path), bytes)
            written.append(path)
        }
        return Outcome(resolution: resolution, written: written, resolved: true)
    }

    /// The other documents of `path`'s kind in the work tree.
    static func siblings(of path: String, in store: LedgerStore) -> @Sendable () -> [JSONValue] {
        guard case .document(let t) = PathRole(path: path), case .collection = t.kind.location else { return { [] } }
        return {
            ((try? CollectionFiles(t.kind, in: store).files()) ?? []).compactMap { file in
                guard file.path != path, let bytes = try? store.read(file.path) else { return nil }
                return try? JSONParser.parse(bytes)
            }
        }
    }

    /// The root of the work tree containing `directory` (git runs drivers from the top of
    /// the work tree; this also works from a subdirectory).
    public static func workTree(containing directory: String) -> String {
        var dir = directory
        while dir.count > 1 {
            if FileSystem.exists(dir + "/.git") { return dir }
            dir = (dir as NSString).deletingLastPathComponent
        }
        return directory
    }
}
