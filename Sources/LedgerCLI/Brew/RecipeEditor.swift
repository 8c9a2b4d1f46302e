import Foundation
import LedgerKit

/// `recipe edit --editor`: the recipe's JSON in `$VISUAL`/`$EDITOR`, validated before it is
/// saved.
///
/// The text is edited in a copy under `.git/ledger/edit/`; nothing is saved unless it is a
/// valid recipe with the same id. On a terminal an invalid edit can be reopened; otherwise
/// (or when declined) the copy is kept and its path printed, so no typing is lost. The
/// writer lock is not held while the editor is open: if the file changed meanwhile, the edit
/// is refused (and kept) rather than overwriting the other change.
struct RecipeEditor {
    let env: CommandEnvironment
    let library: RecipeLibrary

    func edit(_ reference: String) throws {
        let entry = try library.resolve(reference)
        if entry.isStarter { _ = try RecipeEditing.draft(entry, in: library) }  // refuses: read-only
        guard let path = entry.path, let before = try env.store.read(path) else {
            throw LedgerError.notFound("the recipe \"\(entry.name)\" has no file")
        }
        // The recipe as it was, when it still reads as one (a file broken by a hand edit is
        // exactly what the editor is for).
        let original = try? library.draft(entry)
        let copy = env.store.localState("edit/\(entry.id).json")
        try FileSystem.writeAtomically(copy, before)
        while true {
            try runEditor(on: copy)
            guard let text = try FileSystem.read(copy, limit: LedgerStore.maximumDocumentBytes) else {
                throw LedgerError.failure("the edited copy \(copy) disappeared; nothing was saved")
            }
            if text == before {
                _ = try? FileSystem.remove(copy)
                Console.print("No changes to \"\(entry.name)\"" + (entry.isValid ? "." : "; it is still invalid."))
                return
            }
            let (recipe, problems) = check(text, id: entry.id, original: original, path: path)
            if let recipe, problems.filter({ $0.severity == .error }).isEmpty {
                for p in problems { Console.error(p.description) }
                try env.store.withWriterLock {
                    guard try env.store.read(path) == before else {
                        throw LedgerError.invalid("\(path) changed while you were editing it, so your edit was not saved; it is kept in \(copy)")
                    }
                    try library.repository.save(recipe)
                }
                _ = try? FileSystem.remove(copy)
                Console.print("Saved \"\(recipe.name)\" (\(recipe.id)).")
                return
            }
            let errors = problems.filter { $0.severity == .error }
            Console.error("The edit is not valid:")
            for p in errors { Console.error("  " + p.description) }
            let again = CLIContext.current.stdinIsTerminal ? try Console.confirm("Edit it again?", action: "Editing it again", yes: false) : false
            if !again {
                throw LedgerError.invalid("\"\(entry.name)\" was not saved; your edit is kept in \(copy)")
            }
        }
    }

    /// The edited recipe and every problem with it (errors make it unsavable).
    func check(_ text: [UInt8], id: String, original: Recipe?, path: String) -> (Recipe?, [Problem]) {
        let json: JSONValue
        switch Result(catching: { () throws(JSONSyntaxError) -> JSONValue in try JSONParser.parse(text) }) {
        case .failure(let e):
            var issue = DocumentIssue.error(.root, e.message)
            issue.line = e.line
            issue.column = e.column
            return (nil, [Problem(path, issue)])
        case .success(let j): json = j
        }
        let (decoded, found) = Recipe.decodeDocument(json)
        var issues = found
        guard var recipe = decoded else { return (nil, issues.map { Problem(path, $0) }) }
        if recipe.id != id {
            issues.append(.error(.root.appending("id"), "the id cannot change (it is the file name); put it back to \"\(id)\", or duplicate the recipe"))
        }
        issues += recipe.validate()
        if let other = try? library.named(recipe.name, except: recipe.id) {
            issues.append(.error(.root.appending("name"), "a recipe named \"\(other.name)\" already exists (\(other.id)); choose another name"))
        }
        if let original { recipe.createdAt = original.createdAt }
        recipe.updatedAt = env.now
        return (recipe, issues.map { Problem(path, $0) })
    }

    /// Runs the editor on `file` and waits for it (the editor gets the terminal).
    func runEditor(on file: String) throws {
        let ctx = CLIContext.current
        let editor = [ctx.environment["VISUAL"], ctx.environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", editor + " \"$1\"", editor, file]
        p.environment = ctx.environment
        p.currentDirectoryURL = URL(fileURLWithPath: ctx.currentDirectory)
        Console.flush()
        do {
            try p.run()
        } catch {
            throw LedgerError.failure("cannot start the editor \"\(editor)\": \(error.localizedDescription); set $EDITOR")
        }
        p.waitUntilExit()
        guard p.terminationReason == .exit, p.terminationStatus == 0 else {
            throw LedgerError.failure("the editor \"\(editor)\" failed (status \(p.terminationStatus)); nothing was saved, your text is in \(file)")
        }
    }
}
