import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// `ledger gc [--auto] [--remote NAME] [--json]`
struct GcCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: "Pack and prune the ledger's repository (and its remote on a path), with figures before and after.",
        discussion: """
            Runs `git gc` in the ledger's repository and, when the remote it syncs with is a \
            path (a USB disk, a directory), in that remote too, holding ledger's locks: loose \
            objects are packed, packs consolidated, unreachable objects older than two weeks \
            pruned. `ledger sync` does the same by itself when git's thresholds are passed \
            (gc.auto, gc.autoPackLimit); --auto does only that here.
            """,
        aliases: ["maintenance"])

    @Flag(help: "Only what is due by git's thresholds (gc.auto, gc.autoPackLimit), as `ledger sync` does.")
    var auto = false

    @Option(help: ArgumentHelp("The remote whose repository to maintain when it is a path (default: the branch's remote, else origin).", valueName: "name"))
    var remote: String?

    @OptionGroup var output: JSONOption

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let store = try global.store(readable: false)
        let outcome = try Maintenance.maintain(store, remoteName: remote, git: GitTool.find(in: CLIContext.current.environment), onlyIfDue: auto)
        if output.json {
            Output.json([
                ("maintenance", .array(outcome.reports.map { $0.json(ledgerRoot: store.root) })),
                ("notes", .array(outcome.notes.map(JSONValue.string))),
            ])
            return
        }
        for note in outcome.notes { Console.print(Output.sentence(note)) }
        for r in outcome.reports { Console.print(r.sentence(ledgerRoot: store.root)) }
        if outcome.reports.isEmpty { Console.print("Nothing was due.") }
    }
}

extension Maintenance.Report {
    /// "this ledger's repository" or "the remote /media/usb/ledger.git".
    func subject(ledgerRoot: String) -> String {
        gitDirectory == ledgerRoot + "/.git" ? "this ledger's repository" : "the remote \(gitDirectory)"
    }

    /// "Packed this ledger's repository: 17,602 loose objects and 1,599 packs, 88.0 MiB → 0
    /// loose objects and 1 pack, 6.2 MiB (3.1 s)."
    func sentence(ledgerRoot: String) -> String {
        "Packed \(subject(ledgerRoot: ledgerRoot)): \(before.text) → \(after.text) (\(NumberText.fixed(seconds, decimals: 1)) s)."
    }

    func json(ledgerRoot: String) -> JSONValue {
        .object([
            "repository": .string(gitDirectory == ledgerRoot + "/.git" ? "local" : "remote"), "path": .string(gitDirectory),
            "before": before.json, "after": after.json, "seconds": .number((seconds * 1000).rounded() / 1000),
        ])
    }
}

extension ObjectStoreUsage {
    /// "17,602 loose objects and 1,599 packs, 88.0 MiB".
    var text: String {
        "\(Output.plural(looseObjects, "loose object")) and \(Output.plural(packs, "pack")), \(FileSystem.formatBytes(bytes))"
    }

    var json: JSONValue {
        .object([
            "objects": .number(Double(objects)), "looseObjects": .number(Double(looseObjects)), "packs": .number(Double(packs)),
            "packedObjects": .number(Double(packedObjects)), "bytes": .number(Double(bytes)),
        ])
    }
}

extension Output {
    /// A note as a sentence: capitalized, with a full stop.
    static func sentence(_ note: String) -> String {
        guard let first = note.first else { return note }
        return first.uppercased() + note.dropFirst() + (note.hasSuffix(".") ? "" : ".")
    }
}
