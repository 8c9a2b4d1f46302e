import ArgumentParser
import LedgerKit

/// `ledger moments …`: DotLife Moments — a tiny gratitude journal drawn as dots.
struct MomentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moments",
        abstract: "DotLife Moments — a tiny gratitude journal drawn as dots.",
        discussion: "Capture an experience in one command; see time as soft dots; show a dot to relive it. "
            + "Dots come from the wall-clock time each experience was recorded at, so they look the same in every time zone. "
            + "Without a subcommand, shows today.",
        subcommands: [Add.self, Today.self, Week.self, Month.self, Year.self, Show.self, Delete.self, Template.self],
        defaultSubcommand: Today.self)

    /// This app's line on `ledger status`: today's and this week's experiences (reading only
    /// this week's shards).
    static func status(_ env: CommandEnvironment) throws -> AppStatus {
        let today = MomentBucket(containing: env.now.local.date, scale: .day)
        let week = MomentBucket(containing: env.now.local.date, scale: .week)
        let experiences: [Experience]
        do {
            experiences = try MomentsStore(env.store).experiences(in: week)
        } catch let e as LedgerError {
            return .invalid(.moments, e)
        }
        let todayCount = experiences.count { today.contains($0.timestamp) }
        var parts: [String] = []
        if todayCount > 0 { parts.append(MomentsFormat.experiences(todayCount) + " today") }
        if experiences.count > todayCount {
            parts.append(todayCount > 0 ? "\(experiences.count) this week" : MomentsFormat.experiences(experiences.count) + " this week")
        }
        let summary = parts.isEmpty ? "capture one with `ledger moments add TEXT`" : parts.joined(separator: " · ")
        let latest = experiences.max { $0.timestamp < $1.timestamp }
        return AppStatus(app: .moments, summary: summary, json: [
            "today": .number(Double(todayCount)), "thisWeek": .number(Double(experiences.count)),
            "latest": latest.map { $0.timestamp.json } ?? .null,
        ])
    }
}
