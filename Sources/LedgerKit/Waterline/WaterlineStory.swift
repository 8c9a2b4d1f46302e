/// How Waterline tells the changes of its documents (`ledger log`, a sync's preview, undo):
/// "night of Sat 21 Nov — 2 drinks added, ended 01:10".
extension Session: NarratedDocument {
    package var subject: String { "night of " + StoryWords.day(startTime.local.date) }

    package static var fieldWords: [String: FieldWords] {
        ["waterEveryNDrinks": FieldWords("water every", unit: "drinks"), "warningThreshold": FieldWords("warning threshold")]
    }

    package static var toldFields: Set<String> { ["entries", "startTime", "endTime", "isActive", "state", "computedSummary", "keptGoingAt"] }

    package static func events(from old: Session?, to new: Session) -> [String] {
        guard let old else {
            var words = ["started " + StoryWords.clock(new.startTime)]
            words += tally(new.entries, "")
            if let end = new.endTime { words.append("ended " + StoryWords.clock(end)) }
            return words
        }
        var words: [String] = []
        if old.startTime != new.startTime { words.append("start \(StoryWords.clock(old.startTime)) → \(StoryWords.clock(new.startTime))") }
        let before = Dictionary(old.entries.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let after = Set(new.entries.map(\.id))
        words += tally(new.entries.filter { before[$0.id] == nil }, " added")
        let edited = new.entries.filter { e in before[e.id].map { $0 != e } ?? false }
        if !edited.isEmpty {
            words.append(edited.count <= 2 ? edited.map { "\($0.noun) at \(StoryWords.clock($0.timestamp)) edited" }.joined(separator: ", ")
                                           : StoryWords.count(edited.count, "entry", "entries") + " edited")
        }
        let removed = old.entries.filter { !after.contains($0.id) }
        if !removed.isEmpty {
            words.append(removed.count <= 2 ? removed.map { "\($0.noun) at \(StoryWords.clock($0.timestamp)) deleted" }.joined(separator: ", ")
                                            : StoryWords.count(removed.count, "entry", "entries") + " deleted")
        }
        if let kept = new.keptGoingAt, kept != old.keptGoingAt { words.append("kept going at " + StoryWords.clock(kept)) }
        switch (old.endTime, new.endTime) {
        case (nil, let end?): words.append("ended " + StoryWords.clock(end))
        case (_?, nil): words.append("reopened")
        case (let a?, let b?) where a != b: words.append("end \(StoryWords.clock(a)) → \(StoryWords.clock(b))")
        default: break
        }
        return words
    }

    package static func mergeEvents(ours: Session, theirs: Session, result: Session) -> [String] {
        let o = Set(ours.entries.map(\.id)), t = Set(theirs.entries.map(\.id))
        var words: [String] = []
        let (onlyOurs, onlyTheirs) = (!o.subtracting(t).isEmpty, !t.subtracting(o).isEmpty)
        if onlyOurs, onlyTheirs { words.append("both devices added entries") } else if onlyOurs || onlyTheirs {
            words.append("entries added on one device")
        }
        let theirsByID = Dictionary(theirs.entries.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let editedOnBoth = ours.entries.filter { e in theirsByID[e.id].map { $0 != e } ?? false }.count
        if editedOnBoth > 0 { words.append(StoryWords.count(editedOnBoth, "entry", "entries") + " edited on both devices: the later edit kept") }
        if ours.endTime != theirs.endTime, let end = result.endTime { words.append("ended " + StoryWords.clock(end)) }
        if words.isEmpty { words.append("both devices changed it") }
        if result.storedState != ours.storedState, result.storedState != theirs.storedState { words.append("recomputed") }
        return words
    }

    /// "2 drinks added, 1 water added" (`suffix` " added"), or "2 drinks, 1 water".
    static func tally(_ entries: [LogEntry], _ suffix: String) -> [String] {
        let drinks = entries.filter { $0.type == .alcohol }.count, water = entries.count - drinks
        return (drinks > 0 ? [StoryWords.count(drinks, "drink") + suffix] : []) + (water > 0 ? [StoryWords.count(water, "water", "water") + suffix] : [])
    }
}

extension LogEntry {
    /// "drink", "water".
    var noun: String { type == .alcohol ? "drink" : "water" }
}

extension WaterlineSettings: NarratedDocument {
    package var subject: String { "settings" }

    package static var fieldWords: [String: FieldWords] {
        [
            "waterEveryNDrinks": FieldWords("water every", unit: "drinks"), "timeRemindersEnabled": FieldWords("time reminders"),
            "timeReminderIntervalMinutes": FieldWords("time reminders every", unit: "min"), "warningThreshold": FieldWords("warning threshold"),
            "defaultWaterAmount": FieldWords("default water amount"), "units": FieldWords("units"),
            "discreetNotifications": FieldWords("discreet notifications"), "abandonedAfterHours": FieldWords("abandoned after", unit: "h"),
        ]
    }
}

extension DrinkPreset: NarratedDocument {
    package var subject: String { "preset \(name)" }

    package static var fieldWords: [String: FieldWords] {
        [
            "name": FieldWords("name"), "drinkType": FieldWords("type"), "sizeOz": FieldWords("size", unit: "oz"),
            "abv": FieldWords("ABV", unit: "%"), "standardDrinkEstimate": FieldWords("standard drinks"),
        ]
    }
}
