/// BrewGuide — guided V60 coffee: its documents and rules, as a ledger sees them.
package enum BrewApp: LedgerApp {
    package static let app = AppID.brew

    package static var documentTypes: [DocumentType] {
        [DocumentType(Recipe.self), DocumentType(BrewLog.self), DocumentType(BrewPreferences.self)]
    }

    package static var crossDocumentRules: [CrossDocumentRule] { [uniqueRecipeNames] }

    /// Recipes are referred to by name too, so two recipes with one name make that name
    /// ambiguous: a warning on each (the built-in starter's name counts as taken).
    static let uniqueRecipeNames = CrossDocumentRule("brew.unique-recipe-names") { facts in
        var byName: [String: [DocumentFacts]] = [:]
        for f in facts where f.kind == Recipe.kind.name {
            for tag in f.tags where tag.hasPrefix("recipe-name:") { byName[String(tag.dropFirst(12)), default: []].append(f) }
        }
        var problems: [Problem] = []
        for (name, docs) in byName {
            let starter = name == Recipe.starter.name.lowercased()
            guard docs.count > 1 || starter else { continue }
            for d in docs {
                let others = (docs.filter { $0.path != d.path }.map(\.path) + (starter ? ["the built-in starter"] : [])).joined(separator: ", ")
                problems.append(Problem(d.path, .warning(.root.appending("name"),
                    "another recipe has the same name (\(others)); rename one so the name picks a single recipe")))
            }
        }
        return problems
    }

    package static func initialDocuments(now: Timestamp) -> [(path: String, document: JSONValue)] {
        var prefs = BrewPreferences()
        prefs.lastRecipeId = Recipe.starterID
        prefs.createdAt = now
        prefs.updatedAt = now
        return [(BrewPreferences.kind.path(), prefs.json)]
    }
}
