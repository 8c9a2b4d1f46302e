/// How Water Reminder tells the changes of its documents: "Sat 21 Nov — 11:00 confirmed".
extension HydrationDay: NarratedDocument {
    package var subject: String { date.map(StoryWords.day) ?? id }

    package static var toldFields: Set<String> { ["confirmations", "completed", "total"] }

    package static func events(from old: HydrationDay?, to new: HydrationDay) -> [String] {
        let before = old?.confirmations ?? []
        var words = new.confirmations.filter { !before.contains($0) }.map { new.reminder(confirmedBy: $0) + " confirmed" }
        words += before.filter { !new.confirmations.contains($0) }.map { "confirmation of " + new.reminder(confirmedBy: $0) + " removed" }
        if old?.completed != new.completed || old?.total != new.total { words.append("\(new.completed) of \(new.total) done") }
        return words
    }

    package static func mergeEvents(ours: HydrationDay, theirs: HydrationDay, result: HydrationDay) -> [String] {
        let (o, t) = (Set(ours.confirmations.map { CanonicalJSON.compact($0.json) }), Set(theirs.confirmations.map { CanonicalJSON.compact($0.json) }))
        var words = [!o.subtracting(t).isEmpty && !t.subtracting(o).isEmpty ? "both devices confirmed reminders" : "confirmations united"]
        if result.completed != ours.completed, result.completed != theirs.completed { words.append("recomputed: \(result.completed) of \(result.total) done") }
        return words
    }

    /// "11:00", the reminder a confirmation confirms on this day's plan; "a reminder at 11:04"
    /// when it confirms none.
    func reminder(confirmedBy c: HydrationConfirmation) -> String {
        if let plan, let slot = plan.slot(confirmedBy: c) { return StoryWords.clock(plan.local(slot.time)) }
        return "a reminder at " + StoryWords.clock(c.confirmedAt)
    }
}

extension HydrationSchedule: NarratedDocument {
    package var subject: String { "reminder schedule" }

    package static var fieldWords: [String: FieldWords] {
        [
            "startTime": FieldWords("window start"), "endTime": FieldWords("window end"),
            "intervalMinutes": FieldWords("reminders every", unit: "min"), "followUpIntervalMinutes": FieldWords("follow-ups every", unit: "min"),
        ]
    }
}
