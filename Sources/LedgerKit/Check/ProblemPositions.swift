/// The line and column of each reported problem's value, for editors and `check --format gnu`.
///
/// Placed after the check, from the text of the files that have problems — each read once —
/// so a clean file, trusted from the record of the last check or just validated, is never
/// read again for it.
enum ProblemPositions {
    /// `problems` with `line` and `column` set on those in JSON documents: a syntax error's
    /// place, else the value the pointer names, or the closest value around it that is there
    /// (the object a missing field belongs in).
    static func place(_ problems: [Problem], in store: LedgerStore) -> [Problem] {
        var texts: [String: [UInt8]?] = [:]
        return problems.map { problem in
            var placed = problem
            if let line = problem.issue.line {
                (placed.line, placed.column) = (line, problem.issue.column ?? 1)
                return placed
            }
            guard problem.path.hasSuffix(".json") else { return problem }
            if texts[problem.path] == nil {
                texts[problem.path] = .some((try? store.read(problem.path, limit: LedgerStore.maximumDocumentBytes)) ?? nil)
            }
            guard let text = texts[problem.path] ?? nil else { return problem }
            (placed.line, placed.column) = JSONLocator.position(of: problem.issue.pointer, in: text)
            return placed
        }
    }
}
