import Foundation
import LedgerKit
import LedgerSync

/// How history, previews and undos show the documents they change: one line per document in
/// its app's words, and the same in JSON with every field change.
enum HistoryFormat {
    /// "  Waterline: night of Sat 21 Nov — 2 drinks added, ended 01:10", ten per app, then
    /// "… and N more".
    static func printChanges(_ changes: [TreeChange], indent: String = "  ") {
        let groups = Dictionary(grouping: changes) { $0.story.app }
        for app in AppID.allCases.map(Optional.some) + [nil] {
            guard let list = groups[app] else { continue }
            for c in list.prefix(10) { Console.print(indent + c.story.sentence) }
            if list.count > 10 { Console.print(indent + "… and \(list.count - 10) more in \(app?.title ?? "other files")") }
        }
    }

    /// A change as `--json` shows it.
    static func json(_ c: TreeChange) -> JSONValue {
        var o = c.document.json.objectValue ?? [:]
        o["document"] = .string(c.story.subject)
        o["details"] = .array(c.story.details.map(JSONValue.string))
        o["merged"] = .bool(c.story.merged)
        o["text"] = .string(c.story.sentence)
        o["fields"] = .array(c.story.fields.map { f in
            .object(["pointer": .string(f.pointer.description), "old": f.old ?? .null, "new": f.new ?? .null])
        })
        return .object(o)
    }

    /// "2026-11-21 23:41 +01:00": the commit's time as it was recorded (with its offset).
    static func time(_ t: Timestamp) -> String {
        "\(t.local.date) \(StoryWords.clock(t)) \(Timestamp.formatOffset(t.utcOffsetSeconds))"
    }

    /// The commit line of a history entry: "1a2b3c4  2026-11-21 23:41 +01:00  laptop  sync".
    static func heading(_ e: HistoryEntry) -> String {
        let who = e.device ?? "\(e.commit.authorName) <\(e.commit.authorEmail)>"
        let what: String
        switch e.kind {
        case .sync: what = "sync"
        case .merge: what = e.device == nil ? "git merge: \(e.commit.subject)" : "merge"
        case .undo: what = e.undoes.map { "undo of \($0.short)" } ?? "undo: brought back kept work"
        case .initial: what = "new ledger"
        case .purge: what = "purge"
        case .commit: what = "git commit: \(e.commit.subject)"
        }
        return Style.yellow(e.commit.id.short) + "  " + time(e.commit.time) + "  " + Style.bold(who) + "  " + what
    }
}
