/// Waterline — pacing drinks with water on a night out: its documents and rules, as a ledger sees them.
package enum WaterlineApp: LedgerApp {
    package static let app = AppID.waterline

    /// The tag an active session carries, for the "one active session" rule.
    package static let activeTag = "active"

    package static let documentTypes: [DocumentType] = [
        DocumentType(WaterlineSettings.self), DocumentType(DrinkPreset.self), DocumentType(Session.self),
    ]

    package static let crossDocumentRules: [CrossDocumentRule] = [oneActiveSession, noOverlappingSessions, uniquePresetNames]

    /// Presets are named on the command line by name too (case-insensitively), so two with
    /// one name (a hand edit: `presets add` refuses it) make that name ambiguous: a warning on
    /// each, as for recipes.
    static let uniquePresetNames = CrossDocumentRule("waterline.unique-preset-names") { facts in
        var byName: [String: [DocumentFacts]] = [:]
        for f in facts where f.kind == DrinkPreset.kind.name {
            for tag in f.tags where tag.hasPrefix(DrinkPreset.nameTag) { byName[String(tag.dropFirst(DrinkPreset.nameTag.count)), default: []].append(f) }
        }
        return byName.values.filter { $0.count > 1 }.flatMap { docs in
            docs.map { d in
                let others = docs.filter { $0.path != d.path }.map(\.path).sorted().joined(separator: ", ")
                return Problem(d.path, .warning(.root.appending("name"),
                    "another preset has the same name (\(others)); rename one so the name picks a single preset (until then, give the id)"))
            }
        }
    }

    /// At most one session is active.
    static let oneActiveSession = CrossDocumentRule("waterline.one-active-session") { facts in
        let active = facts.filter { $0.kind == Session.kind.name && $0.tags.contains(activeTag) }.map(\.path).sorted()
        guard active.count > 1 else { return [] }
        return active.map { path in
            let others = active.filter { $0 != path }.joined(separator: ", ")
            return Problem(path, .error(.root.appending("isActive"),
                "only one session may be active, but so is \(others); \(next: .waterline(.mergeActiveSessions)), or end one by setting its endTime and isActive"))
        }
    }

    /// Ended sessions do not overlap in time (a hand edit can make them; a sync reconciles the
    /// ones two devices made). An active one is left to `start`, which refuses to overlap.
    static let noOverlappingSessions = CrossDocumentRule("waterline.no-overlapping-sessions") { facts in
        struct Span { var path: String; var id: String; var start: Timestamp; var end: Timestamp }
        var spans: [Span] = []
        for f in facts where f.kind == Session.kind.name {
            guard let tag = f.tags.first(where: { $0.hasPrefix(Session.spanTag) }) else { continue }
            let parts = tag.dropFirst(Session.spanTag.count).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let start = Timestamp(iso8601: String(parts[0])) else { continue }
            guard let end = Timestamp(iso8601: String(parts[1])) else { continue }
            spans.append(Span(path: f.path, id: f.id ?? "", start: start, end: end))
        }
        spans.sort { ($0.start.epochMilliseconds, $0.path) < ($1.start.epochMilliseconds, $1.path) }
        func describe(_ s: Span) -> String { "\(s.start.iso8601) to \(s.end.iso8601)" }
        var problems: [Problem] = []
        for (i, a) in spans.enumerated() {
            // Sorted by start: the sessions after `a` that start before it ends overlap it.
            for b in spans[(i + 1)...] {
                if b.start >= a.end { break }
                let message = "sessions \(a.id) (\(describe(a))) and \(b.id) (\(describe(b))) overlap; a night out is one session — correct the times, or move the entries of one into the other and delete it"
                problems.append(Problem(a.path, .error(.root.appending("startTime"), message)))
                problems.append(Problem(b.path, .error(.root.appending("startTime"), message)))
            }
        }
        return problems
    }

    /// After a sync merge, sessions that cannot both stand (two active, or overlapping) are
    /// made one by `SessionMerge.reconcile`: every entry kept, the same result on every machine.
    package static let mergeReconciliations: [MergeReconciliation] = [SessionMerge.reconciliation]

    /// The settings with the seeds' defaults and the five default presets (US-016).
    package static func initialDocuments(now: Timestamp) -> [(path: String, document: JSONValue)] {
        [(WaterlineSettings.kind.path(), WaterlineSettings(createdAt: now).json)]
            + DrinkPreset.defaults(createdAt: now).map { ($0.path, $0.json) }
    }
}
