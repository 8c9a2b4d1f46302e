import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// Randomized, seeded convergence: three replicas of one ledger do random operations of every
/// kind while offline and sync in random orders; every time, all replicas end with the same
/// tree, nothing created and not deleted is missing, every derived value equals a recompute
/// (`check` is clean: no errors, no warnings but references to documents another machine
/// deleted) and at most one session is active.
///
/// `LEDGER_CONVERGENCE_HISTORIES` sets the number of histories (default 20, for a plain
/// `swift test`; `make test`, which CI runs, sets 200; 10000 for a long run),
/// `LEDGER_CONVERGENCE_SEED` the first seed (default 1). A failure names its seed:
/// rerun it alone with `LEDGER_CONVERGENCE_SEED=<seed> LEDGER_CONVERGENCE_HISTORIES=1`.
@Suite struct ConvergenceTests {
    static let seeds: [UInt64] = {
        let env = ProcessInfo.processInfo.environment
        let count = env["LEDGER_CONVERGENCE_HISTORIES"].flatMap { Int($0) } ?? 20
        let first = env["LEDGER_CONVERGENCE_SEED"].flatMap { UInt64($0) } ?? 1
        return (0..<UInt64(max(1, count))).map { first + $0 }
    }()

    @Test(arguments: seeds)
    func replicasConverge(seed: UInt64) throws {
        var history = try History(seed: seed)
        try history.run()
        // Kept for inspection when the history failed.
        if !history.failed { try? FileManager.default.removeItem(atPath: history.directory) }
    }
}

/// One randomized history.
struct History {
    var random: SplitMix64
    let directory: String
    let replicas: [Replica]
    /// Minutes since 18:00 on the day of the history.
    var minute = 0
    var created: Set<String> = []
    /// Moments created (append-only: every one must survive).
    var moments: Set<String> = []
    var deleted: Set<String> = []
    /// Brew logs and custom recipes created, and those deleted on purpose.
    var brewLogs: Set<String> = []
    var recipes: Set<String> = []
    var brewDeleted: Set<String> = []
    var notes = 0
    var log: [String] = []
    let seed: UInt64
    var failed = false

    init(seed: UInt64) throws {
        self.seed = seed
        random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        directory = Replica.scratchDirectory()
        let remote = directory + "/remote.git"
        try GitCLI.initBare(remote)
        let now = "2026-11-21T17:00:00+01:00"
        let a = try Replica(in: directory, name: "a", now: now)
        let b = try Replica(in: directory, name: "b", now: now)
        let c = try Replica(in: directory, name: "c", now: now)
        replicas = [a, b, c]
        for (r, args) in [(a, ["init", a.root, "--remote", remote]), (a, ["sync"]), (b, ["clone", remote, b.root]), (c, ["clone", remote, c.root])] {
            let res = r.run(arguments: args)
            guard res.status == 0 else { throw LedgerError.failure("\(args): \(res)") }
        }
    }

    var now: String {
        let h = 18 + minute / 60, m = minute % 60
        return "2026-11-21T\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m):00+01:00"
    }

    @discardableResult
    mutating func run(_ r: Int, _ args: String...) -> CommandResult {
        minute += Int(random.next() % 4) + 1
        let result = replicas[r].run(arguments: args, env: ["LEDGER_NOW": now])
        log.append("\(["a", "b", "c"][r]) \(now.dropFirst(11).prefix(5)) \(args.joined(separator: " ")) → \(result.status)")
        return result
    }

    mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[Int(random.next() % UInt64(items.count))] }

    mutating func operate(_ r: Int) {
        switch random.next() % 22 {
        case 0, 1: run(r, "waterline", "start")
        case 2, 3, 4:
            let res = random.next() % 3 == 0 ? run(r, "waterline", "drink", "--std", "2", "--json") : run(r, "waterline", "drink", "--json")
            if res.status == 0, let id = res.json["entry"]?["id"]?.stringValue { created.insert(id) }
        case 5:
            let res = run(r, "waterline", "water", "--json")
            if res.status == 0, let id = res.json["entry"]?["id"]?.stringValue { created.insert(id) }
        case 6:
            if let id = pick(created.sorted()), run(r, "waterline", "delete", id).status == 0 { deleted.insert(id) }
        case 7:
            if let id = pick(created.sorted()) { run(r, "waterline", "edit", id, "--std", String(random.next() % 3 + 1)) }
        case 8: run(r, "waterline", "end", "--yes")
        case 9: run(r, "waterline", "settings", "set", "waterEveryNDrinks", String(random.next() % 4 + 1))
        case 10:
            if random.next() % 2 == 0 {
                run(r, "hydrate", "drank")
            } else {
                run(r, "hydrate", "setup", "--start", "08:00", "--end", "22:00", "--interval", String([30, 60, 90][Int(random.next() % 3)]), "--follow-up", "15")
            }
        case 11, 12:
            let res = random.next() % 4 == 0 ? run(r, "moments", "add", "--dot", "--json") : run(r, "moments", "add", "moment \(minute)", "--json")
            if res.status == 0, let id = res.json["id"]?.stringValue { moments.insert(id) }
        case 13, 14:
            let tag = ["too-sour", "too-bitter", "perfect"][Int(random.next() % 3)]
            let recipe = pick(recipes.sorted()).map { [$0] } ?? []
            let res = replicas[r].run(arguments: ["brew", "save"] + recipe + ["--rating", String(random.next() % 5 + 1), "--tag", tag, "--json"],
                                      env: ["LEDGER_NOW": now])
            log.append("\(["a", "b", "c"][r]) \(now.dropFirst(11).prefix(5)) brew save \(recipe) → \(res.status)")
            if res.status == 0, let id = res.json["id"]?.stringValue { brewLogs.insert(id) }
        case 15, 16:
            let res = run(r, "brew", "recipe", "duplicate", "v60-starter", "--name", "Recipe \(minute)")
            let id = res.stdout.split(separator: "\n").first.map(String.init) ?? ""
            if res.status == 0, DocumentID.isValid(id) { recipes.insert(id) }
        case 17, 18, 19:
            // Edited on several replicas before a sync: a conflicted copy on merge.
            if let id = pick(recipes.sorted()) { run(r, "brew", "recipe", "edit", id, "--dose", String(12 + random.next() % 10)) }
        case 20:
            if random.next() % 2 == 0, let id = pick(recipes.sorted()) {
                if run(r, "brew", "recipe", "delete", id, "--yes").status == 0 { brewDeleted.insert(id) }
            } else if let id = pick(brewLogs.sorted()) {
                if run(r, "brew", "log", "delete", id, "--yes").status == 0 { brewDeleted.insert(id) }
            }
        default:
            // A file of the user's own, outside the apps: written, rewritten or deleted.
            notes += 1
            let name = "notes/n\(random.next() % 4).txt"
            if random.next() % 3 == 0 {
                try? replicas[r].remove(name)
                log.append("\(["a", "b", "c"][r]) rm \(name)")
            } else {
                try? replicas[r].write(name, "note \(notes)\n")
                log.append("\(["a", "b", "c"][r]) write \(name)")
            }
        }
    }

    mutating func sync(_ r: Int) {
        let res = run(r, "sync")
        if res.status != 0 { failed = true }
        #expect(res.status == 0, "seed \(seed) (replicas kept in \(directory)): sync failed: \(res)\n\(log.joined(separator: "\n"))")
    }

    mutating func run() throws {
        let rounds = Int(random.next() % 3) + 2
        for _ in 0..<rounds {
            for r in 0..<3 {
                for _ in 0..<Int(random.next() % 4) { operate(r) }
            }
            var order = [0, 1, 2]
            for i in stride(from: 2, to: 0, by: -1) { order.swapAt(i, Int(random.next() % UInt64(i + 1))) }
            for r in order.prefix(Int(random.next() % 3) + 1) { sync(r) }
        }
        for r in [0, 1, 2, 0, 1] { sync(r) }
        try verify()
    }

    /// Checks the invariants; a failure keeps the replicas on disk and names them.
    mutating func verify() throws {
        var problems: [String] = []
        let tree = try replicas[0].headTree()
        for (i, l) in replicas.enumerated() {
            if try l.headTree() != tree { problems.append("replica \(i) has another tree") }
            let status = try l.gitStatus()
            if !status.isEmpty { problems.append("replica \(i) has uncommitted changes: \(status)") }
        }
        let a = replicas[0]
        // Clean: no errors, and no warnings but references to what another machine deleted (a
        // brew logged with a recipe deleted elsewhere) — legitimate data, reported as such.
        let check = a.run(arguments: ["check", "--json", "--no-cache"])
        let unexpected = (check.json["problems"]?.arrayValue ?? []).filter { p in
            !(p["severity"] == .string("warning") && p["message"]?.stringValue?.hasSuffix("which does not exist") == true)
        }
        if check.status != 0 || !unexpected.isEmpty { problems.append("check is not clean: \(check.stdout)") }
        var present: Set<String> = []
        var active = 0
        for path in a.files(under: "waterline/sessions") {
            guard let doc = a.document(path) else { continue }
            if doc["isActive"] == .bool(true) { active += 1 }
            for e in doc["entries"]?.arrayValue ?? [] { if let id = e["id"]?.stringValue { present.insert(id) } }
        }
        if active > 1 { problems.append("\(active) sessions are active") }
        let missing = created.subtracting(deleted).subtracting(present)
        if !missing.isEmpty { problems.append("missing entries \(missing.sorted())") }
        let experiences = Set(a.files(under: "moments/experiences").map { ($0 as NSString).lastPathComponent.replacingOccurrences(of: ".json", with: "") })
        let lost = moments.subtracting(experiences)
        if !lost.isEmpty { problems.append("missing moments \(lost.sorted())") }
        // Brew logs are append-only and recipes edited on two machines fork: every log and
        // recipe created and not deleted is there (a recipe deleted on one machine and
        // edited on another may come back: the edit wins).
        let logs = Set(a.files(under: "brew/logs").map { ($0 as NSString).lastPathComponent.replacingOccurrences(of: ".json", with: "") })
        let lostLogs = brewLogs.subtracting(brewDeleted).subtracting(logs)
        if !lostLogs.isEmpty { problems.append("missing brew logs \(lostLogs.sorted())") }
        let recipeFiles = Set(a.files(under: "brew/recipes").map { ($0 as NSString).lastPathComponent.replacingOccurrences(of: ".json", with: "") })
        let lostRecipes = recipes.subtracting(brewDeleted).subtracting(recipeFiles)
        if !lostRecipes.isEmpty { problems.append("missing recipes \(lostRecipes.sorted())") }
        let conflicts = tree.keys.filter { $0.contains(".conflict-") && !$0.hasPrefix("notes/") }
        if !conflicts.isEmpty { problems.append("conflict files: \(conflicts)") }
        failed = !problems.isEmpty
        #expect(problems.isEmpty, "seed \(seed) (replicas kept in \(directory)):\n\(problems.joined(separator: "\n"))\n\(log.joined(separator: "\n"))")
    }
}
