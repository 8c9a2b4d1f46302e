import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// `ledger purge` on the power-cut disk (`PowerCutTests`): each round a moment holding a word of
/// its own is synced, then purged — the purge run to its end or killed at a random moment, and
/// the power cut. A purge that said it was done stays done: the word is in no object of the
/// ledger or of its remote, before anything repairs anything. Any other is finished or rolled
/// back by the next `ledger sync`: whole (the word in no object of either, the record in the
/// ledger) or nothing (the word in both, no record, the moment still there). `git fsck` is
/// clean and no other moment is lost.
extension PowerCutTests {
    @Test func purgeSurvivesACut() throws {
        var disk = try CutLedger(seed: Self.seed + 6, name: "purge")
        for round in 0..<(12 * Self.scale) {
            try disk.cutPurge(round: round)
        }
        disk.printTable()
        #expect(disk.cuts >= 12 * Self.scale)
    }
}

extension CutLedger {
    mutating func cutPurge(round: Int) throws {
        let command = "purge"
        let label = "[\(name), seed \(seed), cut \(fs.cuts + 1): purge]"
        let word = "w\(round)q\(seed)z"
        try write(["moments", "add", "a note to purge \(word)"], clock: round)
        try acknowledge(on: root, ["sync"], clock: round)
        let moment = try #require(momentFiles().first { (try? String(contentsOfFile: root + "/" + $0, encoding: .utf8))?.contains(word) == true })
        let others = momentFiles().count - 1

        let run = try ledger(["purge", moment, "--yes"], in: root, clock: round, killAfter: disk.killMoment(typical: typical[command]))
        var row = counts[command] ?? CutCounts()
        if let status = run.status {
            #expect(status == 0, "\(label) ended with exit status \(status): \(run.output)")
            if status == 0 {
                typical[command] = run.seconds
                row.acknowledged += 1
            }
        }
        try fs.cut()
        row.cuts += 1

        var lost = false
        if run.status == 0 {
            for repo in [root, remote] where try objects(in: repo, holding: word) > 0 {
                Issue.record("\(label) acknowledged, yet \(repo) holds the purged word after the cut")
                lost = true
            }
        }
        let corrupt = try fsckAfterCut([root, remote], label: label)
        let next = try nextSync(label: label, clock: round, row: &row)
        // Whole or nothing.
        let held = (local: try objects(in: root, holding: word), remote: try objects(in: remote, holding: word))
        let recorded = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/purges")) ?? []).contains {
            (try? String(contentsOfFile: root + "/purges/" + $0, encoding: .utf8))?.contains(moment) == true
        }
        let whole = held.local == 0 && held.remote == 0 && recorded && !FileSystem.exists(root + "/" + moment)
        let nothing = held.local > 0 && held.remote > 0 && !recorded && FileSystem.exists(root + "/" + moment)
        #expect(whole || nothing, "\(label) half a purge: objects holding the word here \(held.local), in the remote \(held.remote); record \(recorded); \(run.output)\(next.output)")
        if run.status == 0, !whole { lost = true }
        #expect(momentFiles().count == others + (whole ? 0 : 1), "\(label) other moments lost")
        #expect(try GitCLI.run(["rev-parse", "main"], in: root).stdout == GitCLI.run(["rev-parse", "main"], in: remote).stdout, "\(label) not in step")
        if lost { row.lost += 1 }
        if corrupt { row.corrupt += 1 }
        counts[command] = row
        acknowledged = Tally(root: root)
    }

    /// The moments of the ledger, relative to its root.
    func momentFiles() -> [String] {
        let base = root + "/moments/experiences"
        guard let e = FileManager.default.enumerator(atPath: base) else { return [] }
        return e.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }.map { "moments/experiences/" + $0 }.sorted()
    }

    /// How many objects of the repository at `repo` hold `needle`.
    func objects(in repo: String, holding needle: String) throws -> Int {
        try GitCLI.run(["cat-file", "--batch-all-objects", "--batch"], in: repo).stdout.components(separatedBy: needle).count - 1
    }
}
