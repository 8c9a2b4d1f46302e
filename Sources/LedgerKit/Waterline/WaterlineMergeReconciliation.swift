extension WaterlineApp {
    /// After a sync merge, two sessions both active (each device started one offline) are
    /// made one by `SessionMerge.resolveActive`: every entry kept, exactly one left active,
    /// the same result on every machine.
    public static let mergeReconciliations: [MergeReconciliation] = [
        MergeReconciliation(kind: Session.kind) { documents in
            var sessions: [Session] = []
            var paths: [String: String] = [:]
            for (path, json) in documents {
                var issues: [DocumentIssue] = []
                guard let s = Session.decode(json, at: .root, issues: &issues) else { continue }
                sessions.append(s)
                paths[s.id] = path
            }
            let resolution = SessionMerge.resolveActive(sessions)
            var changes: [(path: String, document: JSONValue?)] = []
            for s in resolution.updated {
                if let old = paths[s.id], old != s.path { changes.append((old, nil)) }
                changes.append((s.path, s.json))
            }
            for id in resolution.removed { if let p = paths[id] { changes.append((p, nil)) } }
            return MergeReconciliation.Repair(changes: changes, notes: resolution.notes)
        },
    ]
}
