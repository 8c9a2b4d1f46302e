import ArgumentParser
import LedgerKit

/// `ledger waterline …`: Waterline — pacing drinks with water on a night out.
struct WaterlineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waterline",
        abstract: "Waterline — pacing drinks with water on a night out.",
        discussion: """
            A session is one night out. Each drink moves the Waterline up by its standard-drink \
            estimate (a double counts 2), each water moves it down by 1; water is due every N \
            drinks, and a warning shows at the threshold. This is a pacing tool: it does not \
            estimate intoxication or guarantee how you will feel tomorrow.
            """,
        subcommands: [
            Start.self, Drink.self, Water.self, Status.self, Entries.self, Edit.self, Delete.self, End.self, KeepGoing.self,
            Summary.self, Sessions.self, Presets.self, Settings.self, Reminders.self,
        ])

    /// This app's line on `ledger status`. An invalid Waterline document does not hide the
    /// other apps: the line says which file to fix. Works on a read-only ledger.
    static func status(_ env: CommandEnvironment) throws -> AppStatus {
        do {
            return try statusLine(env)
        } catch let e as LedgerError {
            return .invalid(.waterline, e)
        }
    }

    static func statusLine(_ env: CommandEnvironment) throws -> AppStatus {
        let current = try WaterlineStore(env.store).current()
        var json = WaterlineJSON.status(current, clock: env.clock).objectValue!
        json["activeSession"] = current.session.map { .string($0.id) } ?? .null
        guard let session = current.session else {
            return AppStatus(app: .waterline, summary: "no active session (`ledger waterline start`)", json: json)
        }
        let state = current.state
        var summary = "session \(session.id) active since \(WaterlineText.Times(session, env.clock, now: env.now).show(session.startTime)) · Waterline \(WaterlineText.value(state.waterlineValue))"
            + (state.isWarning ? " (drink water)" : "") + " · \(WaterlineText.count(state.totalAlcoholCount, "drink")), \(state.totalWaterCount) water"
        if WaterlineEngine.isAbandoned(session, now: env.now, afterHours: current.settings.abandonedAfterHours) {
            summary += " · running for \(WaterlineText.count(WaterlineEngine.hoursRunning(session, now: env.now), "hour")) (`ledger waterline end`)"
        }
        return AppStatus(app: .waterline, summary: summary, json: json)
    }
}
