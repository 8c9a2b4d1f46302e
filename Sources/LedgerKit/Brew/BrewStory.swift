/// How BrewGuide tells the changes of its documents: "recipe Morning V60 — dose 15 → 18 g".
extension Recipe: NarratedDocument {
    package var subject: String { "recipe \(name)" }

    package static var fieldWords: [String: FieldWords] {
        [
            "name": FieldWords("name"), "method": FieldWords("method"), "defaultDose": FieldWords("dose", unit: "g"),
            "defaultTargetYield": FieldWords("yield", unit: "g"), "defaultWaterTemperature": FieldWords("temperature", unit: "°C"),
            "defaultGrindLabel": FieldWords("grind"), "grindDescriptor": FieldWords("grind description"),
            "fixedStepWeights": FieldWords("fixed step weights"),
        ]
    }

    package static var toldFields: Set<String> { ["steps"] }

    package static func events(from old: Recipe?, to new: Recipe) -> [String] {
        guard let old else {
            let what = "dose \(FieldWords.show(.number(new.defaultDose))) g, yield \(FieldWords.show(.number(new.defaultTargetYield))) g"
            return isConflictedCopy(new.name) ? ["forked: the other device's version, changed differently on both devices, kept as this copy (\(what))"]
                                              : ["added (\(what))"]
        }
        guard old.steps != new.steps else { return [] }
        return [old.steps.count == new.steps.count ? "steps changed" : "steps \(old.steps.count) → \(new.steps.count)"]
    }

    package static func mergeEvents(ours: Recipe, theirs: Recipe, result: Recipe) -> [String] {
        var o = ours
        (o.createdAt, o.updatedAt) = (theirs.createdAt, theirs.updatedAt)
        return o == theirs ? ["the same change on both devices"]
                           : ["changed differently on both devices: one version kept, the other forked into a conflicted copy"]
    }

    /// Whether `name` is that of a recipe's conflicted copy: "<name> (Conflicted Copy)", "(Conflicted Copy 2)".
    package static func isConflictedCopy(_ name: String) -> Bool { conflictedCopyBase(name) != nil }

    /// The name a conflicted copy was made from ("Morning V60" for "Morning V60 (Conflicted Copy 2)"), or nil.
    package static func conflictedCopyBase(_ name: String) -> String? {
        guard let r = name.range(of: #" \(Conflicted Copy( \d+)?\)$"#, options: .regularExpression) else { return nil }
        return String(name[..<r.lowerBound])
    }
}

extension BrewLog: NarratedDocument {
    package var subject: String { "brew of \(recipeName) on \(StoryWords.day(timestamp.local.date)) \(StoryWords.clock(timestamp))" }

    package static var fieldWords: [String: FieldWords] {
        [
            "rating": FieldWords("rating"), "tasteTag": FieldWords("taste"), "note": FieldWords("note"), "dose": FieldWords("dose", unit: "g"),
            "targetYield": FieldWords("yield", unit: "g"), "waterTemperature": FieldWords("temperature", unit: "°C"),
            "grindLabel": FieldWords("grind"), "recipeName": FieldWords("recipe"),
        ]
    }

    package static func events(from old: BrewLog?, to new: BrewLog) -> [String] {
        guard old == nil else { return [] }
        return ["rated \(new.rating)" + (new.tasteTag.map { ", " + $0.rawValue.replacingOccurrences(of: "-", with: " ") } ?? "")]
    }
}

extension BrewPreferences: NarratedDocument {
    package var subject: String { "preferences" }

    package static var fieldWords: [String: FieldWords] { ["lastRecipeId": FieldWords("selected recipe")] }
}
