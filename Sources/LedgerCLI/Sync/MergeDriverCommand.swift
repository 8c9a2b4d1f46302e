import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// `ledger merge-driver BASE OURS THEIRS PATHNAME` — git's external merge driver.
struct MergeDriverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-driver",
        abstract: "Merge one document the way `ledger sync` does, for plain `git merge`/`git pull`.",
        discussion: """
            Registered by `ledger init` and `ledger clone` as \
            merge.ledger.driver = "ledger merge-driver %O %A %B %P", with `*.json merge=ledger` \
            in .gitattributes. Writes the result to OURS and exits 0 when the file is resolved; \
            exits 1 when two versions of a document could not be merged (OURS is kept and the \
            other version written beside it as a conflict file), 2 when the arguments are not \
            what git passes (PATHNAME outside the work tree, an input that is not a regular file).
            """)

    @Argument(help: ArgumentHelp("The common ancestor's version (git's %O; empty when there is none).", valueName: "base"))
    var base: String
    @Argument(help: ArgumentHelp("This side's version (%A), replaced by the result.", valueName: "ours"))
    var ours: String
    @Argument(help: ArgumentHelp("The other side's version (%B).", valueName: "theirs"))
    var theirs: String
    @Argument(help: ArgumentHelp("The file's path in the repository (%P).", valueName: "pathname"))
    var pathname: String

    func run() throws {
        let ctx = CLIContext.current
        let workTree = MergeDriver.workTree(containing: ctx.currentDirectory)
        let outcome = try MergeDriver.run(base: ctx.absolutePath(base), ours: ctx.absolutePath(ours), theirs: ctx.absolutePath(theirs),
                                          pathname: pathname, workTree: workTree)
        for note in outcome.resolution.notes { Console.error("ledger merge-driver: \(pathname): \(note)") }
        for path in outcome.written where path != outcome.resolution.conflictFile {
            Console.error("ledger merge-driver: wrote \(path) into the work tree (created by merging \(pathname)); commit it with `ledger sync` or `git add`")
        }
        if let c = outcome.resolution.conflictFile {
            Console.error("ledger merge-driver: wrote \(c) into the work tree: compare it with \(pathname), keep what you want there, then delete it"
                + (outcome.resolved ? "" : " and mark \(pathname) resolved (`git add \(pathname)`)"))
        }
        // Unresolved: git reports a conflict and leaves the merge for the user to finish.
        if !outcome.resolved { throw ExitCode(1) }
    }
}
