/// `ledger.json`: marks a directory as a ledger and records the on-disk format version.
package struct LedgerManifest: SingletonDocument, Equatable {
    /// The format this version of ledger reads and writes.
    package static let currentFormat = 1

    package static let kind = DocumentKind("ledger", app: .ledger, .singleton("ledger.json"))

    /// The on-disk format version (SPEC §3: `{"format": 1, ...}`).
    package var format = LedgerManifest.currentFormat
    package var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    package var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    /// When each app was last forgotten (absent until one is): see `Forgetting`.
    package var forgotten: ForgottenApps?
    package var unknownFields = JSONObject()

    package init() {}

    /// A manifest for a ledger created at `now`.
    package init(createdAt now: Timestamp) {
        createdAt = now
        updatedAt = now
    }

    package static let fields: [Field<LedgerManifest>] = [
        .required("format", { $0.format }, { $0.format = $1 }, .within(1...currentFormat) { format in
            format > currentFormat ? "this ledger uses format \(format), written by a newer version of ledger; upgrade ledger to read it"
                : "must be \(currentFormat) (found \(format))"
        }),
        .required("createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        .required("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
        .optional("forgotten", { $0.forgotten }, { $0.forgotten = $1 }),
    ]

    /// Field by field, as every settings-like document; the forgets made on both sides are
    /// merged app by app (the later instant), so that no device's forget is lost.
    package static func merge(base: LedgerManifest?, ours: LedgerManifest, theirs: LedgerManifest, context: MergeContext) -> Merged<LedgerManifest> {
        var merged = FieldwiseMerge.merge(base: base, ours: ours, theirs: theirs)
        let forgotten = ForgottenApps.merged(base: base?.forgotten ?? ForgottenApps(), ours: ours.forgotten ?? ForgottenApps(),
                                             theirs: theirs.forgotten ?? ForgottenApps())
        merged.document.forgotten = forgotten.isEmpty ? nil : forgotten
        return merged
    }

    package static var defaultValue: LedgerManifest { LedgerManifest() }


}
/// How `ledger.json` is told in the history: "ledger.json — Water Reminder forgotten at Sat 21
/// Nov 23:30", and an undo of that sync "— forget of Water Reminder taken back".
extension LedgerManifest: NarratedDocument {
    package var subject: String { "ledger.json" }

    package static var fieldWords: [String: FieldWords] { ["format": FieldWords("format")] }

    package static var toldFields: Set<String> { ["forgotten"] }

    package static func events(from old: LedgerManifest?, to new: LedgerManifest) -> [String] {
        guard let old else { return [] }
        let before = old.forgotten ?? ForgottenApps(), after = new.forgotten ?? ForgottenApps()
        return Forgetting.apps.compactMap { app in
            switch (before[app], after[app]) {
            case (let b, let a?) where b != a: "\(app.title) forgotten at \(StoryWords.day(a.local.date)) \(StoryWords.clock(a))"
            case (_?, nil): "forget of \(app.title) taken back"
            default: nil
            }
        }
    }
}
