import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// Completions read from the ledger as the user presses TAB: preset, recipe, session, entry
/// and brew-log ids (and names that are one word), Moments buckets, remote names, app names.
///
/// The shell runs `ledger ---completion …` with the words typed so far; the ledger is the one
/// the command would use (`--repo` among the words, else `$LEDGER_REPO`, the ledger around
/// the current directory, `$XDG_DATA_HOME/ledger`). Only file names and small documents are
/// read — never every session or log — and nothing is written, locked or reported: a
/// completion that cannot read the ledger offers nothing.
enum LiveCompletion {
    /// Preset ids and one-word names (`--preset`, `presets edit|delete`).
    static let presets = kind { store in
        try WaterlineStore(store).presetList().flatMap { [$0.id, $0.name] }
    }

    /// Recipe ids and one-word names, the starter included.
    static let recipes = kind { store in
        try BrewStore(store).recipeEntries().flatMap { [$0.id, $0.name] }
    }

    /// Session ids, from the file names.
    static let sessions = kind { store in
        try store.repository(Session.self).index().map(\.id).sorted()
    }

    /// The active session's entry ids, and `last`.
    static let entries = kind { store in
        ["last"] + ((try WaterlineStore(store).activeSession().active?.session.entries.map(\.id)) ?? [])
    }

    /// Brew log ids, from the file names.
    static let brewLogs = kind { store in
        try store.repository(BrewLog.self).index().map(\.id).sorted()
    }

    /// The years and months that hold experiences (`2026`, `2026-11`), from the folder names.
    static let momentBuckets = kind { store in
        guard case .collection(let directory, _) = Experience.kind.location else { return [] }
        let root = store.absolute(directory)
        var out: [String] = []
        for year in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where year.count == 4 && Int(year) != nil {
            out.append(year)
            for month in (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + year)) ?? [] where month.count == 2 && Int(month) != nil {
                out.append(year + "-" + month)
            }
        }
        return out.sorted()
    }

    /// The remotes of the ledger's repository.
    static let remotes = kind { store in
        try Repository.open(store.root).remoteNames()
    }

    /// The apps by name (`waterline`, `brew`, …), then the files and folders whose path begins
    /// with the word typed: what an APP|PATH|ID argument takes (`log`, `purge`). An app's name
    /// stands for its folder of the same name (in the ledger's root, both would be offered).
    static let appsAndPaths = CompletionKind.custom { _, _, prefix in
        let apps = Forgetting.apps.map(\.rawValue)
        return apps.filter { $0.hasPrefix(prefix) } + paths(prefix).filter { !($0.hasSuffix("/") && apps.contains(String($0.dropLast()))) }
    }

    /// The files and folders (these with a trailing `/`) whose path begins with `prefix`, as a
    /// shell's file completion offers them: relative to the current directory, `~/` for the
    /// home directory, hidden ones only when the name typed begins with a dot; names with
    /// spaces are left out, as everywhere here.
    static func paths(_ prefix: String) -> [String] {
        let folder = prefix.lastIndex(of: "/").map { String(prefix[...$0]) } ?? ""
        let name = prefix.dropFirst(folder.count)
        guard let entries = try? FileSystem.list(CLIContext.current.absolutePath(folder.isEmpty ? "." : folder)) else { return [] }
        return entries.filter { $0.name.hasPrefix(name) && (name.hasPrefix(".") || !$0.name.hasPrefix(".")) && !$0.name.contains(where: \.isWhitespace) }
            .map { folder + $0.name + ($0.type == .directory ? "/" : "") }
            .sorted()
    }

    /// A completion of `candidates` of the ledger named by the words typed, filtered by the
    /// word being typed; words with spaces are left out (the shells split them).
    private static func kind(_ candidates: @escaping @Sendable (LedgerStore) throws -> [String]) -> CompletionKind {
        .custom { words, _, prefix in
            let store = LedgerStore(gitWorkTree: ledger(words: words))
            guard store.exists, let all = try? candidates(store) else { return [] }
            var seen = Set<String>()
            return all.filter { !$0.contains(where: \.isWhitespace) && $0.hasPrefix(prefix) && seen.insert($0).inserted }
        }
    }

    /// The ledger the command being typed would use.
    static func ledger(words: [String]) -> String {
        var given: String?
        for (i, word) in words.enumerated() {
            if word == "--repo", i + 1 < words.count { given = words[i + 1] }
            if word.hasPrefix("--repo=") { given = String(word.dropFirst(7)) }
        }
        return GlobalOptions.repositoryPath(given: given)
    }
}
