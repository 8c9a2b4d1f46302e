/// How BrewGuide's documents merge when two machines changed them (BrewGuide §3.2.4,
/// SPEC §6): a recipe changed differently on both forks into a "(Conflicted Copy)"; brew logs
/// are append-only, an edit never dropped. The preferences use the shared field-wise rule.
extension Recipe {
    /// SPEC §6: a recipe changed differently on two machines survives twice. The local
    /// version keeps its id; the other becomes a new custom recipe "<name> (Conflicted Copy)"
    /// ("(Conflicted Copy 2)" when that name is taken), with an id derived from the conflict so
    /// that resolving it again gives the same document. Versions that differ only in their
    /// timestamps are one change, and merge to the later one.
    package static func merge(base: Recipe?, ours: Recipe, theirs: Recipe, context: MergeContext) -> Merged<Recipe> {
        var o = ours
        (o.createdAt, o.updatedAt) = (theirs.createdAt, theirs.updatedAt)
        if o == theirs {
            var merged = ours.updatedAt >= theirs.updatedAt ? ours : theirs
            merged.createdAt = min(ours.createdAt, theirs.createdAt)
            return Merged(merged)
        }
        var copy = theirs
        let taken = Set(context.siblings().compactMap { $0["name"]?.stringValue?.lowercased() } + [ours.name.lowercased()])
        copy.name = conflictedCopyName(theirs.name, taken: taken)
        copy.id = context.derivedID("brew.recipe conflict \(ours.id) " + CanonicalJSON.compact(theirs.json))
        return Merged(ours, created: [copy], notes: [
            "recipe \"\(ours.name)\" (\(ours.id)) was changed on both machines: this machine's version keeps its id; the other one is now \"\(copy.name)\" (\(copy.id))",
        ])
    }

    /// "<name> (Conflicted Copy)", or "(Conflicted Copy N)" with the smallest N ≥ 2 whose name
    /// is not in `taken` (lowercased names). A name that already ends in such a suffix is
    /// numbered rather than suffixed twice.
    package static func conflictedCopyName(_ name: String, taken: Set<String>) -> String {
        var base = name
        if let r = base.range(of: #" \(Conflicted Copy( \d+)?\)$"#, options: .regularExpression) { base.removeSubrange(r) }
        var n = 1
        while true {
            let suffix = n == 1 ? " (Conflicted Copy)" : " (Conflicted Copy \(n))"
            let candidate = String(base.prefix(maximumNameLength - suffix.count)) + suffix
            if !taken.contains(candidate.lowercased()) { return candidate }
            n += 1
        }
    }
}

extension BrewLog {
    /// Brew logs are append-only (SPEC §6). Distinct logs never meet here (they have distinct
    /// ids); this is the same log edited by hand on two machines. Edits to different fields are
    /// combined. When the same field was changed differently on both sides, both versions are
    /// kept: this machine's in place, the other's as a new log with an id derived from the
    /// conflict (the seed allows duplicate logs; losing an edit is not allowed).
    package static func merge(base: BrewLog?, ours: BrewLog, theirs: BrewLog, context: MergeContext) -> Merged<BrewLog> {
        if let base, case .object(let b) = base.json, case .object(let o) = ours.json, case .object(let t) = theirs.json {
            var conflicts: [JSONPointer] = []
            var merged = FieldwiseMerge.merge(base: b, ours: o, theirs: t, preferOurs: true, at: .root, conflicts: &conflicts)
            let real = conflicts.filter { $0.tokens != ["updatedAt"] && $0.tokens != ["createdAt"] }
            if real.isEmpty {
                merged["updatedAt"] = max(ours.updatedAt, theirs.updatedAt).json
                merged["createdAt"] = min(ours.createdAt, theirs.createdAt).json
                var issues: [DocumentIssue] = []
                if let log = decode(.object(merged), at: .root, issues: &issues), !log.validate().hasErrors {
                    return Merged(log, notes: ["brew log \(ours.id) was edited on both machines; the edits were combined"])
                }
            }
        }
        var copy = theirs
        copy.id = context.derivedID("brew.log conflict \(ours.id) " + CanonicalJSON.compact(theirs.json))
        return Merged(ours, created: [copy], notes: [
            "brew log \(ours.id) was edited differently on both machines: kept this machine's version and the other as brew log \(copy.id)",
        ])
    }
}
