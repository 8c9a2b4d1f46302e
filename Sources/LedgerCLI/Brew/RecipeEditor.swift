import Foundation
import LedgerKit
import ProcessRunner

/// `recipe edit --editor`: the recipe's JSON in `$VISUAL`/`$EDITOR`, validated before it is
/// saved (`BrewStore.beginRecipeEdit` / `finishRecipeEdit`).
///
/// The text is edited in a device-local copy; nothing is saved unless it is a valid recipe
/// with the same id. On a terminal an invalid edit can be reopened; otherwise (or when
/// declined) the copy is kept and its path printed, so no typing is lost: the next `--editor`
/// reopens it. The writer lock is
/// not held while the editor is open: if the file changed meanwhile, the edit is refused (and
/// kept) rather than overwriting the other change.
struct RecipeEditor {
    let env: CommandEnvironment

    func edit(_ reference: String) throws {
        let brew = BrewStore(env.store)
        let copy = try brew.beginRecipeEdit(reference)
        if copy.reopened {
            Console.print("Reopening your unsaved edit of \"\(copy.entry.name)\", kept in \(copy.path); delete that file to start again from the saved recipe.")
        }
        while true {
            try runEditor(on: copy.path)
            switch try brew.finishRecipeEdit(copy, now: env.now) {
            case .unchanged:
                Console.print("No changes to \"\(copy.entry.name)\"" + (copy.entry.isValid ? "." : "; it is still invalid."))
                return
            case .saved(let recipe, let warnings):
                for p in warnings { Console.error(p.commandLineDescription) }
                Console.print("Saved \"\(recipe.name)\" (\(recipe.id)).")
                return
            case .invalid(let errors):
                Console.error("The edit is not valid:")
                for p in errors { Console.error("  " + p.commandLineDescription) }
                let again = CLIContext.current.stdinIsTerminal ? try Console.confirm("Edit it again?", action: "Editing it again", yes: false) : false
                if !again {
                    throw LedgerError.invalid("\"\(copy.entry.name)\" was not saved; your edit is kept in \(copy.path)")
                }
            }
        }
    }

    /// Runs the editor on `file` and waits for it (the editor gets the terminal).
    func runEditor(on file: String) throws {
        let ctx = CLIContext.current
        let editor = [ctx.environment["VISUAL"], ctx.environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        Console.flush()
        let status: Int32
        do {
            status = try ChildProcess("/bin/sh", ["-c", editor + " \"$1\"", editor, file], environment: ctx.environment,
                                      directory: ctx.currentDirectory, input: .inherited, output: .inherited, errors: .inherited).wait()
        } catch {
            throw LedgerError.failure("cannot start the editor \"\(editor)\": \(error); set $EDITOR")
        }
        guard status == 0 else {
            throw LedgerError.failure("the editor \"\(editor)\" failed (status \(status)); nothing was saved, your text is in \(file)")
        }
    }
}
