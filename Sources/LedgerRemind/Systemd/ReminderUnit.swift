import Foundation
import LedgerKit

/// The systemd user units that keep ledger's resident processes running:
/// `~/.config/systemd/user/ledger-remind.service` (`ledger remind`, with the graphical session)
/// and `ledger-autosync.service` (`ledger autosync`, from login: it needs no desktop).
///
/// The binary and the ledger are absolute paths resolved when it is installed, so the service
/// does not depend on the session's `PATH`, working directory or `LEDGER_REPO`. It is
/// restarted when it fails (the bus or the notification server went away) but not when it
/// exits cleanly.
public struct ReminderUnit: Sendable, Hashable {
    /// Which process a unit runs.
    public enum Kind: Sendable, Hashable {
        case reminders, autosync

        /// The unit's file name.
        public var fileName: String { self == .reminders ? "ledger-remind.service" : "ledger-autosync.service" }
        /// The `ledger` subcommand it runs.
        public var subcommand: String { self == .reminders ? "remind" : "autosync" }
        /// What the unit is, in a sentence: "reminders", "autosync".
        public var title: String { self == .reminders ? "reminders" : "autosync" }
        /// What a ledger whose unit another one's replaced no longer does.
        public var lostWhenReplaced: String { self == .reminders ? "no longer reminds you" : "no longer syncs by itself" }
        var summary: String {
            self == .reminders ? "ledger reminders (Water Reminder and Waterline notifications)" : "ledger autosync (syncs the ledger by itself)"
        }
        /// The target that starts it: reminders need the graphical session (its bus and
        /// notification server); autosync runs from login, with or without a desktop.
        public var target: String { self == .reminders ? "graphical-session.target" : "default.target" }
        /// Starts the service now and at every login (and makes systemd read the unit file
        /// again: `enable` reloads).
        public var startCommand: String { "systemctl --user enable --now \(fileName)" }
        /// Stops the service and disables it; run it before `uninstall(from:)` — systemd
        /// cannot disable a unit whose file is gone.
        public var stopCommand: String { "systemctl --user disable --now \(fileName)" }
    }

    /// The `ledger` binary, absolute.
    public var executable: String
    /// The ledger it serves, absolute.
    public var ledger: String
    public var kind: Kind

    public init(executable: String, ledger: String, kind: Kind = .reminders) {
        self.executable = executable
        self.ledger = ledger
        self.kind = kind
    }

    /// The unit file's text.
    public var text: String {
        let session = kind == .reminders ? "PartOf=graphical-session.target\nAfter=graphical-session.target\n" : ""
        return """
        [Unit]
        Description=\(kind.summary)
        \(session)
        [Service]
        Type=exec
        ExecStart=\([executable, kind.subcommand, "--repo", ledger].map(Self.quoted).joined(separator: " "))
        Restart=on-failure
        RestartSec=10s

        [Install]
        WantedBy=\(kind.target)

        """
    }

    /// One `ExecStart=` word: quoted when it holds a space, a quote or a backslash (with C-style
    /// escapes inside), `%` doubled (specifiers) and `$` doubled (variable expansion).
    static func quoted(_ word: String) -> String {
        var text = word.replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: "$", with: "$$")
        guard text.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "'" || $0 == "\\" || $0 == ";" }) || text.isEmpty else {
            return text
        }
        text = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"" + text + "\""
    }

    /// The ledger the unit of `kind` installed in `directory` serves (the word after `--repo`
    /// on its `ExecStart=` line, as `text` writes it), or nil when none is installed or the
    /// line is not ours.
    public static func installedLedger(in directory: String, kind: Kind) -> String? {
        guard let text = try? String(contentsOfFile: directory + "/" + kind.fileName, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ExecStart=") }) else { return nil }
        let words = unquoted(line.dropFirst("ExecStart=".count))
        guard let i = words.firstIndex(of: "--repo"), i + 1 < words.count else { return nil }
        return words[i + 1]
    }

    /// The words of an `ExecStart=` value `quoted` wrote: double-quoted ones with their
    /// backslash escapes undone, `%%` and `$$` single again.
    static func unquoted(_ value: Substring) -> [String] {
        var words: [String] = [], word = "", inQuotes = false, escaped = false, started = false
        for c in value {
            if escaped { word.append(c); escaped = false; continue }
            switch c {
            case "\\" where inQuotes: escaped = true
            case "\"": inQuotes.toggle(); started = true
            case " " where !inQuotes, "\t" where !inQuotes:
                if started || !word.isEmpty { words.append(word) }
                word = ""; started = false
            default: word.append(c)
            }
        }
        if started || !word.isEmpty { words.append(word) }
        return words.map { $0.replacingOccurrences(of: "%%", with: "%").replacingOccurrences(of: "$$", with: "$") }
    }

    /// The directory of the user's own units: `$XDG_CONFIG_HOME/systemd/user`, else
    /// `$HOME/.config/systemd/user`.
    public static func directory(environment: [String: String]) throws(RemindError) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/systemd/user" }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw RemindError(.system, "cannot find the systemd user unit directory: neither XDG_CONFIG_HOME nor HOME is an absolute path")
        }
        return home + "/.config/systemd/user"
    }

    /// The unit for the binary and ledger at these paths, both resolved now (symbolic links,
    /// `..`, a relative path) so the unit keeps working whatever the session's directory.
    public static func resolving(executable: String, ledger: String, kind: Kind = .reminders) throws(RemindError) -> ReminderUnit {
        ReminderUnit(executable: try resolved(executable, "the ledger binary"), ledger: try resolved(ledger, "the ledger"), kind: kind)
    }

    private static func resolved(_ path: String, _ what: String) throws(RemindError) -> String {
        guard let real = realpath(path, nil) else {
            throw RemindError(.system, "cannot resolve \(what) at \(path): \(String(cString: strerror(errno)))")
        }
        defer { free(real) }
        let text = String(cString: real)
        guard !text.contains("\n") else { throw RemindError(.system, "\(what) at \(path) has a line break in its path, which a unit file cannot hold") }
        return text
    }

    /// Writes the unit into `directory` atomically (creating the directory) and returns its path.
    @discardableResult
    public func install(in directory: String) throws -> String {
        let path = directory + "/" + kind.fileName
        try FileSystem.writeAtomically(path, Array(text.utf8))
        return path
    }

    /// Removes the unit from `directory`, and the link that enables it when `stopCommand` could
    /// not remove it (no user manager running), and returns the paths removed.
    public static func uninstall(from directory: String, kind: Kind = .reminders) throws -> [String] {
        let unit = directory + "/" + kind.fileName
        let link = directory + "/" + kind.target + ".wants/" + kind.fileName
        var removed: [String] = []
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link), target == unit, try FileSystem.remove(link) {
            removed.append(link)
        }
        if try FileSystem.remove(unit) { removed.append(unit) }
        return removed
    }
}
