/// How DotLife Moments' documents merge when two machines changed them (sync and the git
/// merge driver). The settings use the shared field-by-field rule (`FieldwiseMerge`); photos
/// are named by their content and never conflict. For experiences (SPEC §6: moments are
/// append-only):
///
/// New experiences never meet in a merge: each is its own file with a random id, so two
/// machines' captures are simply unioned. This rule is for the rare hand edit of the same
/// experience on both machines:
/// - changes to different fields are combined;
/// - a field changed differently on both sides keeps both versions: the later change
///   (by `updatedAt`, ties broken by canonical text) stays under the id, and the other
///   version becomes a new experience whose id derives from its content, so both machines
///   resolving the same conflict create the same copy. Duplicates are allowed; nothing is
///   lost.
package enum MomentsMerge {
    /// Same experience edited on two machines: see the type's documentation.
    package static func experience(base: Experience?, ours: Experience, theirs: Experience, context: MergeContext) -> Merged<Experience> {
        let oursWins = FieldwiseMerge.oursWins(ours, theirs)
        let (winner, other) = oursWins ? (ours, theirs) : (theirs, ours)
        var conflicts: [JSONPointer] = []
        var object = FieldwiseMerge.merge(base: base?.json.objectValue, ours: ours.json.objectValue ?? [:],
                                          theirs: theirs.json.objectValue ?? [:], preferOurs: oursWins,
                                          at: .root, conflicts: &conflicts)
        object["updatedAt"] = max(ours.updatedAt, theirs.updatedAt).json
        object["createdAt"] = min(ours.createdAt, theirs.createdAt).json
        var ignored: [DocumentIssue] = []
        let combined = Experience.decode(.object(object), at: .root, issues: &ignored).flatMap { $0.validate().hasErrors ? nil : $0 }
        let collided = conflicts.contains { $0.tokens != ["updatedAt"] && $0.tokens != ["createdAt"] }
        if !collided, let combined { return Merged(combined) }
        var copy = other
        copy.id = context.derivedID("moments.experience\n" + CanonicalJSON.string(other.json))
        return Merged(combined ?? winner, created: [copy],
                      notes: ["experience \(winner.id) was changed differently on both machines; kept both: the later version as \(winner.id), the other as \(copy.id)"])
    }
}

extension Experience {
    /// Same experience edited on two machines: see `MomentsMerge`.
    package static func merge(base: Experience?, ours: Experience, theirs: Experience, context: MergeContext) -> Merged<Experience> {
        MomentsMerge.experience(base: base, ours: ours, theirs: theirs, context: context)
    }
}
