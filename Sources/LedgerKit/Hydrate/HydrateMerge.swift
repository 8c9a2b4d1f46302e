/// How Water Reminder's documents merge when two machines changed them (sync and the git
/// merge driver).
///
/// - `hydrate/schedule.json` uses the shared field-by-field rule (`FieldwiseMerge`): the later
///   change wins per field, and when the fields so combined would break a rule of the
///   schedule, the later version is kept whole.
/// - A day's confirmations are united (`HydrateMerge.confirmations`); its other fields — the
///   recorded schedule and zone — merge field by field; `completed` and `total` are then
///   recomputed.
package enum HydrateMerge {
    /// The three-way union of two versions' confirmations, in time order: both machines'
    /// taps are kept, the same confirmation (instant and slot) on both sides once, and one
    /// removed on one side and untouched on the other stays removed.
    package static func confirmations(base: [HydrationConfirmation]?, ours: [HydrationConfirmation], theirs: [HydrationConfirmation]) -> [HydrationConfirmation] {
        struct Key: Hashable {
            let confirmedAt: Timestamp
            let slot: Timestamp?
        }
        func key(_ c: HydrationConfirmation) -> Key { Key(confirmedAt: c.confirmedAt, slot: c.slot) }
        let baseKeys = Set((base ?? []).map(key))
        let ourKeys = Set(ours.map(key)), theirKeys = Set(theirs.map(key))
        var result: [Key: HydrationConfirmation] = [:]
        for c in theirs where ourKeys.contains(key(c)) || !baseKeys.contains(key(c)) { result[key(c)] = c }
        // Ours second, so our copy wins when both sides hold the same confirmation.
        for c in ours where theirKeys.contains(key(c)) || !baseKeys.contains(key(c)) { result[key(c)] = c }
        return result.values.sorted(by: HydrationConfirmation.inTimeOrder)
    }
}

extension HydrationDay {
    /// Confirmations are united (see `HydrateMerge.confirmations`); every other field merges
    /// field by field, the later change winning; the derived counts are recomputed.
    package static func merge(base: HydrationDay?, ours: HydrationDay, theirs: HydrationDay, context: MergeContext) -> Merged<HydrationDay> {
        let confirmations = HydrateMerge.confirmations(base: base?.confirmations, ours: ours.confirmations, theirs: theirs.confirmations)
        // Derived counts are left out too: they are recomputed, not merged.
        func withoutConfirmations(_ d: HydrationDay) -> HydrationDay {
            var d = d
            d.confirmations = []
            d.completed = 0
            d.total = 0
            return d
        }
        var merged = FieldwiseMerge.merge(base: base.map(withoutConfirmations), ours: withoutConfirmations(ours),
                                          theirs: withoutConfirmations(theirs))
        merged.document.confirmations = confirmations
        merged.document.recomputeDerived()
        return merged
    }
}
