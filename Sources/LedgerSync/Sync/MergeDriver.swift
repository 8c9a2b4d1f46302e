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
package enum MergeDriver {
    /// What the driver did, for its message on stderr.
    package struct Outcome: Sendable {
        package var resolution: FileResolution
        /// Files written into the work tree, relative to its root.
        package var written: [String]
        /// Whether the file is resolved (exit 0); false means git should report a conflict.
        package var resolved: Bool
    }

    /// Resolves one file. `workTree` is the root of the repository's work tree.
    ///
    /// Refused before anything is read or written (exit status 2): a PATHNAME that is not a
    /// relative path inside the work tree (absolute, with a `..` component, or in `.git`), and
    /// inputs that are not regular files (a FIFO is never opened for reading, a device never
    /// opened). A file the resolution would write behind a symbolic link is refused (exit
    /// status 1) before OURS is written. Two versions of a document that could not be merged
    /// — different documents at one path, or one that is not a valid document of its kind —
    /// leave OURS as it is, the other version in a conflict file, and the file unresolved.
    package static func run(base: String, ours: String, theirs: String, pathname: String, workTree: String) throws -> Outcome {
        try validate(pathname: pathname)
        for (input, name) in [(base, "BASE"), (ours, "OURS"), (theirs, "THEIRS")] {
            switch FileSystem.stamp(input)?.type {
            case .file?: continue
            case nil: throw LedgerError.invalidArgument("\(name) (\(input)) does not exist; git passes the merge driver three temporary files (%O %A %B)")
            case .some(let type):
                throw LedgerError.invalidArgument("\(name) (\(input)) is \(type == .directory ? "a directory" : type == .symlink ? "a symbolic link" : "not a regular file (a FIFO or a device?)"); git passes the merge driver three regular temporary files (%O %A %B)")
            }
        }
        // Nothing larger than a document may be (4 MiB) is merged: git reports a conflict.
        func read(_ path: String) throws -> [UInt8] {
            guard let bytes = try FileSystem.read(path, limit: LedgerStore.maximumDocumentBytes) else {
                throw LedgerError.invalidArgument("\(path) does not exist; git passes the merge driver three temporary files (%O %A %B)")
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
        let created = resolution.created.filter { $0.path != pathname }
        try store.refuseSymbolicLinks(writing: created.map(\.path))
        // A conflict file — for a document or any other file — means two versions stand: git
        // must report the conflict, not take the merge as clean.
        let unmerged = resolution.conflictFile != nil
        // Unmerged, OURS keeps this machine's version: as it is, or (in a rebase, where %A holds
        // the upstream's) written there.
        if !unmerged || rebasing { try FileSystem.writeAtomically(ours, result) }
        var written: [String] = []
        for (path, bytes) in created {
            try store.write(path, bytes: bytes)
            written.append(path)
        }
        return Outcome(resolution: resolution, written: written, resolved: !unmerged)
    }

    /// Refuses a PATHNAME that is not a relative path inside the work tree (exit status 2).
    static func validate(pathname: String) throws {
        let parts = pathname.split(separator: "/", omittingEmptySubsequences: false)
        guard !pathname.isEmpty, !pathname.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
              parts.first?.lowercased() != ".git" else {
            throw LedgerError.invalidArgument("PATHNAME must be the file's path relative to the top of the work tree, as git passes it (%P), such as brew/recipes/morning.json; got \"\(pathname)\"")
        }
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
    package static func workTree(containing directory: String) -> String {
        var dir = directory
        while dir.count > 1 {
            if FileSystem.exists(dir + "/.git") { return dir }
            dir = (dir as NSString).deletingLastPathComponent
        }
        return directory
    }
}
