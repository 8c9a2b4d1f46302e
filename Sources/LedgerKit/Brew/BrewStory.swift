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
            // A copy whose recipe is not beside it (renamed, deleted) is told by what it is.
            let what = "dose \(FieldWords.show(.number(new.defaultDose))) g, yield \(FieldWords.show(.number(new.defaultTargetYield))) g"
            return isConflictedCopy(new.name) ? [forked(what)] : ["added (\(what))"]
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

    static func forked(_ what: String) -> String {
        "forked: the other device's version, changed differently on both devices, kept as this copy (\(what))"
    }

    /// A conflicted copy told by where it differs from the recipe it was forked from —
    /// `difference`, from the recipe to the copy, as `ConflictStore.copyDifference` finds it
    /// (what `ledger conflicts` lists): "… kept as this copy (temperature 93 °C, the recipe's
    /// 95 °C)". A field the app names is told in its words, others by name ("steps differ").
    package static func forkEvents(_ difference: [FieldChange]) -> [String] {
        var keys: [String] = []
        for c in difference {
            let key = c.pointer.tokens.first ?? ""
            if !keys.contains(key) { keys.append(key) }
        }
        guard !keys.isEmpty else { return [forked("the same as the recipe now")] }
        let told = keys.prefix(DocumentStory.fieldsShown).map { key -> String in
            guard let words = fieldWords[key], let c = difference.first(where: { $0.pointer.tokens == [key] }) else {
                return key == "steps" ? "steps differ from the recipe's" : "\(key) differs from the recipe's"
            }
            let value = { (v: JSONValue?) -> String? in
                guard let v, v != .null else { return nil }
                return FieldWords.show(v) + (words.unit.map { " " + $0 } ?? "")
            }
            return (value(c.new).map { "\(words.label) \($0)" } ?? "no \(words.label)") + ", "
                + (value(c.old).map { "the recipe's \($0)" } ?? "none in the recipe")
        }
        let more = keys.count > DocumentStory.fieldsShown ? "; and \(keys.count - DocumentStory.fieldsShown) more" : ""
        return [forked(told.joined(separator: "; ") + more)]
    }

    /// Whether `name` is that of a recipe's conflicted copy: "<name> (Conflicted Copy)", "(Conflicted Copy 2)".
    package static func isConflictedCopy(_ name: String) -> Bool { conflictedCopyBase(name) != nil }

    /// The name a conflicted copy was made from ("Morning V60" for "Morning V60 (Conflicted Copy 2)"), or nil.
    package static func conflictedCopyBase(_ name: String) -> String? {
        guard let r = name.range(of: #" \(Conflicted Copy( \d+)?\)$"#, options: .regularExpression) else { return nil }
        return String(name[..<r.lowerBound])
    }

    /// Whether the recipe named `name` is the one the conflicted copy named `copyName` was
    /// forked from: the copy's name without its suffix, case aside.
    package static func isForkOrigin(_ name: String, ofCopyNamed copyName: String) -> Bool {
        conflictedCopyBase(copyName).map { $0.lowercased() == name.lowercased() } ?? false
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
