import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// `ledger forget APP|--all [--dry-run] [--yes] [--json]`
struct ForgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Delete every document of an app (or of every app), here and on every device at its next sync.",
        discussion: """
            Deletes everything in the app's folder — Waterline's sessions, presets and settings, \
            BrewGuide's recipes, logs and preferences, Water Reminder's days and schedule, \
            DotLife Moments' moments, photos and template — and writes back what a new ledger \
            has (the default settings, Waterline's five drink presets), as one change that \
            `ledger sync` takes to every device. What another device recorded offline before \
            the forget goes too when it syncs; what it recorded after stays. The history keeps \
            earlier versions: `ledger purge APP` removes them from every device's history. \
            Shows what goes and asks on a terminal; --yes answers for scripts.
            """)

    @Argument(help: ArgumentHelp("The app: waterline, brew, hydrate or moments.", valueName: "app"), completion: .list(Forgetting.apps.map(\.rawValue)))
    var app: String?

    @Flag(help: "Forget every app.")
    var all = false

    @OptionGroup var change: ConfirmedChangeOptions

    @OptionGroup var global: GlobalOptions

    func run() throws { try change.reporting(perform) }

    func perform() throws {
        let apps = try Self.apps(app, all: all)
        let env = try global.environment()
        let plan = try env.store.forgetPlan(apps)
        let names = plan.apps.map(\.title).joined(separator: ", ")
        // The forget only writes the work tree, so it goes ahead; what would keep the sync
        // that carries it from running (a filter driver git runs on the files) is said first.
        let obstacles = Self.syncObstacles(env.store.root)
        for obstacle in obstacles { Console.error("ledger: warning: cannot sync: " + obstacle) }
        if change.json, change.dryRun {
            Output.json(Self.json(plan, instant: nil))
            return
        }
        if !change.json {
            Console.print("Forgetting \(names) deletes here, and on every other device at its next `ledger sync`:")
            Self.printPlan(plan)
            Console.print(Style.dim("What another device recorded offline before now goes too when it syncs; what it records from now on stays. "
                + "Earlier versions stay in the history: `ledger purge \(app ?? "APP")` removes them from every device's history."))
        }
        if change.dryRun {
            Console.print(Style.dim("Dry run: nothing was changed."))
            return
        }
        if let busy = RemoteActivity.syncInProgress(env.store) {
            throw LedgerError.failure(busy + "; forget again once it is done (nothing was changed)")
        }
        guard try Console.confirm("Forget \(names)?", action: "Forgetting \(names)", yes: change.yes) else {
            Console.print("Nothing was changed.")
            return
        }
        let done = try env.store.forget(plan.apps, now: env.now)
        if change.json {
            Output.json(Self.json(done, instant: env.now))
            return
        }
        Console.print("Forgot \(names) at \(HistoryFormat.time(env.now)); " + (obstacles.isEmpty
            ? "`ledger sync` takes it to your other devices."
            : "it stays on this device until `ledger sync` can run (see the warning above; plain `git commit` and `git push` run git's filters)."))
    }

    /// What keeps `ledger sync` from taking the forget to the other devices, as `ledger
    /// status` says it ("Cannot sync: …"): a filter driver git runs on the ledger's files, a
    /// remote helper that is not installed.
    static func syncObstacles(_ root: String) -> [String] {
        ((try? RepositoryStatus.syncObstacles(at: root, environment: CLIContext.current.environment)) ?? []).map(Words.text)
    }

    /// The apps named: APP (its folder's name or its title), or every one with --all.
    static func apps(_ name: String?, all: Bool) throws -> [AppID] {
        switch (name, all) {
        case (nil, true): return Forgetting.apps
        case (_?, true): throw LedgerError.usage("name one app or give --all, not both")
        case (nil, false): throw LedgerError.usage("name the app to forget (waterline, brew, hydrate or moments), or give --all")
        case (let name?, false):
            guard let app = Self.app(named: name) else {
                throw LedgerError.usage("\(name) is not an app: name waterline, brew, hydrate or moments (or give --all)")
            }
            return [app]
        }
    }

    /// The app whose folder or title is `name` (case-insensitively).
    static func app(named name: String) -> AppID? {
        let lower = name.lowercased()
        return Forgetting.apps.first { $0.rawValue == lower || $0.title.lowercased() == lower }
    }

    static func printPlan(_ plan: ForgetPlan) {
        /// "1 session, 5 presets" for the files of `app` among `paths`.
        func counted(_ paths: [String], _ app: AppID, as change: FileChange) -> String? {
            let changes = paths.filter { $0.hasPrefix(app.rawValue + "/") }.map { DocumentChange(PathChange($0, change)) }
            return DocumentChange.summary(changes).first?.text.replacingOccurrences(of: " " + change.rawValue, with: "")
        }
        for app in plan.apps {
            let back = counted(plan.restored, app, as: .added)
            Console.print("  \(app.title): " + (counted(plan.removed, app, as: .deleted) ?? "nothing recorded yet")
                + (back.map { " — then, as a new ledger has them: " + $0 } ?? ""))
        }
    }

    static func json(_ plan: ForgetPlan, instant: Timestamp?) -> JSONValue {
        var o: JSONObject = [
            "dryRun": .bool(instant == nil), "apps": .array(plan.apps.map { .string($0.rawValue) }),
            "removed": .array(plan.removed.map(JSONValue.string)), "restored": .array(plan.restored.map(JSONValue.string)),
        ]
        o["instant"] = instant.map { .string($0.iso8601) } ?? .null
        return .object(o)
    }
}
