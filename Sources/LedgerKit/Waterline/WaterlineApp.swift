/// Waterline — pacing drinks with water on a night out: its documents and rules, as a ledger sees them.
package enum WaterlineApp: LedgerApp {
    package static let app = AppID.waterline

    /// The tag an active session carries, for the "one active session" rule.
    package static let activeTag = "active"

    package static let documentTypes: [DocumentType] = [
        DocumentType(WaterlineSettings.self), DocumentType(DrinkPreset.self), DocumentType(Session.self),
    ]

    package static let crossDocumentRules: [CrossDocumentRule] = [oneActiveSession, noOverlappingSessions, uniquePresetNames]

    /// A check that found the active session elsewhere than the device-local hint says drops
    /// the hint (`WaterlineStore.checked`).
    package static let checkFollowUps: [CheckFollowUp] = [{ facts, store in WaterlineStore(store).checked(facts) }]

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

    /// At most one session is active. Each active session is reported once, naming the first
    /// few others (a ledger of thousands of copies of one night reports thousands of lines,
    /// not millions).
    static let oneActiveSession = CrossDocumentRule("waterline.one-active-session") { facts in
        let active = facts.filter { $0.kind == Session.kind.name && $0.tags.contains(activeTag) }.map(\.path).sorted()
        guard active.count > 1 else { return [] }
        return active.map { path in
            let others = active.lazy.filter { $0 != path }
            let named = Array(others.prefix(namedOthers)), more = active.count - 1 - named.count
            let list = named.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
            return Problem(path, .error(.root.appending("isActive"),
                "only one session may be active, but so \(active.count == 2 ? "is" : "are") \(list); \(next: .waterline(.mergeActiveSessions)), or end one by setting its endTime and isActive"))
        }
    }

    /// How many other sessions a problem across sessions names before "and N more".
    static let namedOthers = 3

    /// A session's span as `Session.tags` records it (`span:START/END`, END empty while it
    /// is active), for the rules across sessions.
    struct Span {
        var path: String
        var id: String
        var start: Timestamp
        /// Nil while the session is active.
        var end: Timestamp?

        /// The spans of the sessions among `facts`, sorted by start (then path).
        static func all(in facts: [DocumentFacts]) -> [Span] {
            var spans: [Span] = []
            for f in facts where f.kind == Session.kind.name {
                guard let tag = f.tags.first(where: { $0.hasPrefix(Session.spanTag) }) else { continue }
                let parts = tag.dropFirst(Session.spanTag.count).split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count == 2, let start = Timestamp(iso8601: String(parts[0])) else { continue }
                let end = parts[1].isEmpty ? nil : Timestamp(iso8601: String(parts[1]))
                if end == nil, !parts[1].isEmpty { continue }
                spans.append(Span(path: f.path, id: f.id ?? "", start: start, end: end))
            }
            return spans.sorted { ($0.start.epochMilliseconds, $0.path) < ($1.start.epochMilliseconds, $1.path) }
        }

        var description: String { end.map { "\(start.iso8601) to \($0.iso8601)" } ?? "from \(start.iso8601), active" }
    }

    /// Sessions do not overlap in time: a night out is one session. A hand edit can make
    /// ended ones overlap; a `git pull` that joins a night one device ended with the drinks
    /// another kept logging into it leaves an ended session overlapping the active one (a sync
    /// reconciles them, and so does the next Waterline command: `WaterlineStore.scanForActive`).
    ///
    /// Each session is reported once, with how many it overlaps and the first few of them:
    /// with the spans sorted by start, the sessions after one that overlap it are the ones
    /// right after it that start before it ends, and those before it that overlap it are
    /// counted among the ends seen so far (a Fenwick tree over their ranks), so the rule costs
    /// O(n log n) whatever the data — thousands of copies of one night included.
    static let noOverlappingSessions = CrossDocumentRule("waterline.no-overlapping-sessions") { facts in
        let spans = Span.all(in: facts)
        guard spans.count > 1 else { return [] }
        let starts = spans.map(\.start.epochMilliseconds)
        let ends = spans.map { $0.end?.epochMilliseconds ?? .max }
        let endRanks = Array(Set(ends)).sorted()
        var seenEnds = FenwickTree(count: endRanks.count)
        // An active span reaches every later start: the first one overlaps all after it.
        // Two active sessions are the other rule's (`oneActiveSession`), not counted here.
        let activeCount = spans.count { $0.end == nil }
        let firstActive = spans.firstIndex { $0.end == nil } ?? spans.count
        var nextActive = Array(repeating: spans.count, count: spans.count + 1)
        for i in spans.indices.reversed() { nextActive[i] = spans[i].end == nil ? i : nextActive[i + 1] }
        var problems: [Problem] = []
        for (i, span) in spans.enumerated() {
            let isActive = span.end == nil
            let laterEnd = firstIndex(in: starts, notBelow: ends[i])  // spans i+1..<laterEnd overlap i
            // Ends seen so far at or before this start do not reach it; the others overlap it.
            let earlier = i - seenEnds.total(through: firstIndex(in: endRanks, above: starts[i]))
            seenEnds.add(at: firstIndex(in: endRanks, notBelow: ends[i]))
            let count = max(0, laterEnd - i - 1) + earlier - (isActive ? activeCount - 1 : 0)
            guard count > 0 else { continue }
            // The nearest ones by start: before it (a bounded look back), then after it.
            func counts(_ j: Int) -> Bool { !(isActive && spans[j].end == nil) }
            var named: [Int] = []
            var j = i - 1
            while earlier > 0, j >= 0, named.count < namedOthers, i - j <= 64 * namedOthers {
                if ends[j] > starts[i], counts(j) { named.insert(j, at: 0) }
                j -= 1
            }
            var k = i + 1
            while named.count < namedOthers, k < laterEnd {
                if counts(k) { named.append(k) }
                k += 1
            }
            let more = count - named.count
            let list = named.map { "\(spans[$0].id) (\(spans[$0].description))" }.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
            let what: LedgerError.Sentence = isActive || firstActive < i || nextActive[i + 1] < laterEnd
                ? "a night out is one session; \(next: .waterline(.mergeActiveSessions))"
                : "a night out is one session — correct the times, or move the entries of one into the other and delete it"
            problems.append(Problem(span.path, .error(.root.appending("startTime"),
                "this session (\(span.description)) overlaps \(count == 1 ? "another" : "\(count) others"): \(list); \(what)" as LedgerError.Sentence)))
        }
        return problems
    }

    /// The first index of sorted `values` whose value is at least `bound`.
    static func firstIndex(in values: [Int64], notBelow bound: Int64) -> Int {
        var lo = 0, hi = values.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if values[mid] < bound { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The first index of sorted `values` whose value is above `bound`.
    static func firstIndex(in values: [Int64], above bound: Int64) -> Int {
        bound == .max ? values.count : firstIndex(in: values, notBelow: bound + 1)
    }

    /// Counts by position, with prefix totals, each in O(log n).
    struct FenwickTree {
        private var tree: [Int]

        init(count: Int) { tree = Array(repeating: 0, count: count + 1) }

        /// Adds one at position `i` (0-based).
        mutating func add(at i: Int) {
            var k = i + 1
            while k < tree.count {
                tree[k] += 1
                k += k & -k
            }
        }

        /// The count of positions below `end`.
        func total(through end: Int) -> Int {
            var k = end, sum = 0
            while k > 0 {
                sum += tree[k]
                k -= k & -k
            }
            return sum
        }
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
