import Foundation
import LedgerKit
import Testing

@Suite struct HydrationDocumentTests {
    static func inspect(_ type: DocumentType, _ text: String) throws -> Inspection {
        type.inspect(try JSONParser.parse(text))
    }

    static func scheduleJSON(start: String = "\"09:00\"", end: String = "\"17:00\"", interval: String = "60", followUp: String = "15") -> String {
        """
        {"createdAt": "2026-11-01T09:00:00+01:00", "updatedAt": "2026-11-01T09:00:00+01:00",
         "startTime": \(start), "endTime": \(end), "intervalMinutes": \(interval), "followUpIntervalMinutes": \(followUp)}
        """
    }

    // MARK: - Schedule rules

    @Test(arguments: [
        // field values, the pointer of the error, a phrase of its message
        (#""9:00""#, #""17:00""#, "60", "15", "/startTime", "HH:MM"),
        (#""24:00""#, #""17:00""#, "60", "15", "/startTime", "HH:MM"),
        (#""09:60""#, #""17:00""#, "60", "15", "/startTime", "HH:MM"),
        (#""09:00""#, #""5pm""#, "60", "15", "/endTime", "HH:MM"),
        (#""09:00""#, "1700", "60", "15", "/endTime", "found an integer"),
        (#""09:00""#, #""09:00""#, "60", "15", "/endTime", "must differ from startTime"),
        (#""09:00""#, #""17:00""#, "0", "15", "/intervalMinutes", "at least 1 minute"),
        (#""09:00""#, #""17:00""#, "-5", "15", "/intervalMinutes", "at least 1 minute"),
        (#""09:00""#, #""17:00""#, "1441", "15", "/intervalMinutes", "at most 1440"),
        (#""09:00""#, #""17:00""#, "60.5", "15", "/intervalMinutes", "whole number"),
        (#""09:00""#, #""17:00""#, #""60""#, "15", "/intervalMinutes", "must be an integer"),
        (#""09:00""#, #""17:00""#, "60", "0", "/followUpIntervalMinutes", "at least 1 minute"),
        (#""09:00""#, #""17:00""#, "60", "60", "/followUpIntervalMinutes", "shorter than intervalMinutes (60)"),
        (#""09:00""#, #""17:00""#, "60", "90", "/followUpIntervalMinutes", "shorter than intervalMinutes (60)"),
    ])
    func scheduleRules(start: String, end: String, interval: String, followUp: String, pointer: String, phrase: String) throws {
        let i = try Self.inspect(DocumentType(HydrationSchedule.self), Self.scheduleJSON(start: start, end: end, interval: interval, followUp: followUp))
        let errors = i.issues.filter { $0.severity == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.pointer.description == pointer)
        #expect(errors.first?.message.contains(phrase) == true, "\(errors)")
    }

    @Test(arguments: [("09:00", "17:00", 60, 15), ("22:00", "06:00", 120, 30), ("00:00", "23:59", 1440, 1439), ("23:59", "00:00", 2, 1)])
    func validSchedules(start: String, end: String, interval: Int, followUp: Int) throws {
        let i = try Self.inspect(DocumentType(HydrationSchedule.self),
                                 Self.scheduleJSON(start: "\"\(start)\"", end: "\"\(end)\"", interval: "\(interval)", followUp: "\(followUp)"))
        #expect(i.issues.filter { $0.severity == .error }.isEmpty, "\(i.issues)")
    }

    @Test func theScheduleKeepsUnknownFieldsAndSuggestsTheRightName() throws {
        let text = Self.scheduleJSON().replacingOccurrences(of: "\"intervalMinutes\"", with: "\"intervalMinute\": 45, \"intervalMinutes\"")
        let i = try Self.inspect(DocumentType(HydrationSchedule.self), text)
        #expect(i.issues.contains { $0.severity == .warning && $0.message.contains("did you mean 'intervalMinutes'") })
        #expect(i.normalized?["intervalMinute"] == .number(45))
    }

    @Test func theDefaultsAreTheSeedsExamples() {
        let d = ReminderSchedule()
        #expect((d.startTime.description, d.endTime.description, d.intervalMinutes, d.followUpIntervalMinutes) == ("09:00", "17:00", 60, 15))
        #expect(d.validate(at: .root).isEmpty)
        #expect(d.nominalSlotOffsets.count == 8)
        let initial = HydrateApp.initialDocuments(now: H.t("2026-11-21T09:00:00+01:00"))
        #expect(initial.map(\.path) == ["hydrate/schedule.json"])
        #expect(initial.first?.document["intervalMinutes"] == .number(60))
    }

    // MARK: - Day documents

    static func dayJSON(id: String = "2026-11-21", zone: String = "Europe/Paris", confirmations: [String], completed: Int = 0, total: Int = 8) -> String {
        let list = confirmations.map { "{\"confirmedAt\": \"\($0)\"}" }.joined(separator: ", ")
        return """
            {"id": "\(id)", "timeZone": "\(zone)", "createdAt": "2026-11-21T09:05:00+01:00", "updatedAt": "2026-11-21T09:05:00+01:00",
             "schedule": {"startTime": "09:00", "endTime": "17:00", "intervalMinutes": 60, "followUpIntervalMinutes": 15},
             "confirmations": [\(list)], "completed": \(completed), "total": \(total)}
            """
    }

    @Test func aValidDayHasNoProblems() throws {
        let i = try Self.inspect(DocumentType(HydrationDay.self), Self.dayJSON(confirmations: ["2026-11-21T09:05:00+01:00", "2026-11-21T10:40:00+01:00"], completed: 2))
        #expect(i.issues.isEmpty, "\(i.issues)")
        #expect(i.shardDate == LocalDate("2026-11-21"))
    }

    @Test func storedTotalsAreDerivedAndRecomputed() throws {
        // Three confirmations in two slots: completed is 2, not 3 (a slot counts once).
        let i = try Self.inspect(DocumentType(HydrationDay.self), Self.dayJSON(
            confirmations: ["2026-11-21T09:05:00+01:00", "2026-11-21T09:30:00+01:00", "2026-11-21T10:40:00+01:00"], completed: 3, total: 9))
        let stale = i.issues.filter { $0.message.hasPrefix("derived value is stale") }
        #expect(stale.map(\.pointer.description).sorted() == ["/completed", "/total"])
        #expect(stale.allSatisfy { $0.fixable })
        #expect(i.normalized?["completed"] == .number(2))
        #expect(i.normalized?["total"] == .number(8))
    }

    @Test func dayRulesNameTheField() throws {
        let badID = try Self.inspect(DocumentType(HydrationDay.self), Self.dayJSON(id: "monday", confirmations: []))
        #expect(badID.issues.contains { $0.severity == .error && $0.pointer.description == "/id" && $0.message.contains("YYYY-MM-DD") })
        let badZone = try Self.inspect(DocumentType(HydrationDay.self), Self.dayJSON(zone: "Europe/Pariss", confirmations: []))
        #expect(badZone.issues.contains { $0.severity == .error && $0.pointer.description == "/timeZone" })
        let badTime = try Self.inspect(DocumentType(HydrationDay.self), Self.dayJSON(confirmations: ["2026-11-21 09:05"]))
        #expect(badTime.issues.contains { $0.severity == .error && $0.pointer.description == "/confirmations/0/confirmedAt" })
        let badSchedule = try Self.inspect(DocumentType(HydrationDay.self),
                                           Self.dayJSON(confirmations: []).replacingOccurrences(of: "\"followUpIntervalMinutes\": 15", with: "\"followUpIntervalMinutes\": 75"))
        #expect(badSchedule.issues.contains { $0.severity == .error && $0.pointer.description == "/schedule/followUpIntervalMinutes" })
    }

    @Test func aConfirmationFromAnotherDayIsReported() throws {
        let i = try Self.inspect(DocumentType(HydrationDay.self), Self.dayJSON(
            confirmations: ["2026-11-21T09:05:00+01:00", "2026-11-22T01:00:00+01:00", "2026-11-23T09:05:00+01:00"], completed: 1))
        #expect(i.issues.map(\.pointer.description) == ["/confirmations/2/confirmedAt"])
        #expect(i.issues.first?.severity == .warning)
        #expect(i.issues.first?.message.contains("2026-11-23") == true)
    }

    @Test func aConfirmationsSlotIsChecked() {
        var day = HydrationDay(date: LocalDate("2026-11-21")!, schedule: ReminderSchedule(), timeZone: H.paris, createdAt: H.t("2026-11-21T09:05:00+01:00"))
        day.confirm(at: H.t("2026-11-21T10:05:00+01:00"), slot: H.t("2026-11-21T09:00:00+01:00"))
        #expect(day.validate().isEmpty)
        day.confirm(at: H.t("2026-11-21T11:05:00+01:00"), slot: H.t("2026-11-21T12:00:00+01:00"))  // before its reminder
        day.confirm(at: H.t("2026-11-21T19:05:00+01:00"), slot: H.t("2026-11-21T18:00:00+01:00"))  // no reminder of the day
        let issues = day.validate()
        #expect(issues.map(\.pointer.description) == ["/confirmations/1/slot", "/confirmations/2/slot"])
        #expect(issues.map(\.severity) == [.error, .warning])
        #expect(issues[0].message.contains("a reminder is confirmed after it comes"))
    }

    @Test func aDayRemembersTheScheduleItWasPlannedWith() {
        var day = HydrationDay(date: LocalDate("2026-11-21")!, schedule: H.schedule("22:00", "06:00", every: 120, followUp: 30),
                               timeZone: H.paris, createdAt: H.t("2026-11-21T22:05:00+01:00"))
        day.confirm(at: H.t("2026-11-22T02:10:00+01:00"))
        day.confirm(at: H.t("2026-11-21T22:05:00+01:00"))
        day.recomputeDerived()
        #expect((day.completed, day.total) == (2, 4))
        #expect(day.confirmations.map(\.confirmedAt.iso8601) == ["2026-11-21T22:05:00+01:00", "2026-11-22T02:10:00+01:00"])
        #expect(day.path == "hydrate/days/2026/2026-11-21.json")
        #expect(day.json["timeZone"] == .string("Europe/Paris"))
    }
}
