/// The line and column of each reported problem's value, for editors and `check --format gnu`.
///
/// Placed after the check, from the text of the files that have problems — each read once —
/// so a clean file, trusted from the record of the last check or just validated, is never
/// read again for it.
enum ProblemPositions {
    /// `problems` with `line` and `column` set on those in JSON documents: a syntax error's
    /// place, else the value the pointer names, or the closest value around it that is there
    /// (the object a missing field belongs in). `problems` come grouped by file, so only the
    /// text of the file at hand is held: memory stays that of one document however many
    /// files have problems.
    static func place(_ problems: [Problem], in store: LedgerStore) -> [Problem] {
        var current: (path: String, text: [UInt8]?)?
        return problems.map { problem in
            var placed = problem
            if let line = problem.issue.line {
                (placed.line, placed.column) = (line, problem.issue.column ?? 1)
                return placed
            }
            guard problem.path.hasSuffix(".json") else { return problem }
            if current?.path != problem.path {
                current = (problem.path, (try? store.read(problem.path, limit: LedgerStore.maximumDocumentBytes)) ?? nil)
            }
            guard let text = current?.text else { return problem }
            (placed.line, placed.column) = JSONLocator.position(of: problem.issue.pointer, in: text)
            return placed
        }
    }
}
