import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync
import ProcessRunner
#if os(Linux)
import LedgerRemind
#endif

extension RemindCommand {
    /// `ledger remind install`: the systemd user service that keeps `ledger remind` running.
    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Write the systemd user service that runs `ledger remind` with your graphical session, and start it.",
            discussion: """
                Writes ~/.config/systemd/user/ledger-remind.service ($XDG_CONFIG_HOME when set) \
                for this ledger and this ledger binary, both resolved now, so the service does not \
                depend on your PATH or $LEDGER_REPO. When `systemctl --user` can reach your user \
                manager it runs `systemctl --user enable --now ledger-remind.service`; otherwise it \
                prints that command. Running it again rewrites the unit (another ledger, a moved \
                binary).
                """)

        @OptionGroup var global: GlobalOptions

        func run() throws {
            #if os(Linux)
            try UserService.install(.reminders, ledger: try global.store().root)
            #else
            throw LedgerError.failure("`ledger remind install` is not available on this system: it installs a systemd user service, on Linux")
            #endif
        }

        /// The `ledger` binary to run: this one when it is running as `ledger`, else the
        /// `ledger` found on the PATH (ledger run from another program, as in tests).
        static func ledgerExecutable() throws -> String {
            if let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), (me as NSString).lastPathComponent == "ledger" {
                return me
            }
            if let found = ProgramPath.find("ledger", path: CLIContext.current.environment["PATH"] ?? "") { return found }
            throw LedgerError.failure("cannot find the ledger binary to run from the service: it is not on the PATH")
        }
    }

    /// `ledger remind uninstall`: stops and removes the service.
    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uninstall",
            abstract: "Stop the reminder service and remove its unit file.",
            discussion: """
                Runs `systemctl --user disable --now ledger-remind.service` when your user manager \
                can be reached, then removes the unit file (and the link that enabled it, if \
                systemctl could not). Saying it is not installed is not an error.
                """)

        @OptionGroup var global: GlobalOptions

        func run() throws {
            #if os(Linux)
            try UserService.uninstall(.reminders)
            #else
            throw LedgerError.failure("`ledger remind uninstall` is not available on this system: it removes a systemd user service, on Linux")
            #endif
        }
    }
}

#if os(Linux)
/// Installing and removing a systemd user unit (`ledger remind install`, `ledger autosync install`).
enum UserService {
    /// Writes the unit of `kind` for the ledger at `ledger` and this binary, and starts it when
    /// the user manager can be reached (else prints the command that does).
    static func install(_ kind: ReminderUnit.Kind, ledger: String) throws {
        let ctx = CLIContext.current
        let unit: ReminderUnit
        let path: String
        let replaced: String?
        do {
            unit = try ReminderUnit.resolving(executable: try RemindCommand.Install.ledgerExecutable(), ledger: ledger, kind: kind)
            let directory = try ReminderUnit.directory(environment: ctx.environment)
            replaced = ReminderUnit.installedLedger(in: directory, kind: kind).flatMap { $0 == unit.ledger ? nil : $0 }
            path = try unit.install(in: directory)
        } catch let error as RemindError {
            throw LedgerError.failure(error.message)
        }
        Console.print("Wrote \(path) (\(kind.title) for \(unit.ledger)).")
        if let replaced {
            // One unit per device: saying so, since the other ledger stops without a word otherwise.
            Console.print(Style.yellow("It replaces the \(kind.title) service of \(replaced)") + ": one runs per device, so that ledger \(kind.lostWhenReplaced) "
                + "(`ledger \(kind.subcommand) install --repo \(SetupDoctor.shellQuoted(replaced))` moves it back).")
        }
        if Systemctl.reachesUserManager() {
            guard Systemctl.run(kind.startCommand) else {
                throw LedgerError.failure("`\(kind.startCommand)` failed (see its message above); the unit is written")
            }
            Console.print("Started it: \(kind.startCommand)")
        } else {
            Console.print(kind == .reminders ? "Start it now and with every graphical session with:" : "Start it now and at every login with:")
            Console.print("  " + kind.startCommand)
        }
    }

    /// Stops and disables the unit of `kind` when the user manager can be reached, then
    /// removes its file (and the link that enabled it, if systemctl could not).
    static func uninstall(_ kind: ReminderUnit.Kind) throws {
        let directory: String
        do {
            directory = try ReminderUnit.directory(environment: CLIContext.current.environment)
        } catch {
            throw LedgerError.failure(error.message)
        }
        if Systemctl.reachesUserManager(), FileSystem.exists(directory + "/" + kind.fileName) {
            _ = Systemctl.run(kind.stopCommand)
        }
        let served = ReminderUnit.installedLedger(in: directory, kind: kind)
        let removed = try ReminderUnit.uninstall(from: directory, kind: kind)
        if removed.isEmpty {
            Console.print("\(kind.fileName) is not installed (there is no \(directory)/\(kind.fileName)).")
        }
        for path in removed {
            let serving = served.map { " (\(kind.title) for \($0))" } ?? ""
            Console.print("Removed \(path)\(path.hasSuffix("/" + kind.fileName) ? serving : "").")
        }
    }
}
#endif

/// `systemctl --user`, run with the command's environment.
enum Systemctl {
    /// Whether `systemctl --user` reaches a running user manager.
    static func reachesUserManager() -> Bool {
        run("systemctl --user show-environment", quiet: true)
    }

    /// Runs `command` (words separated by spaces, the first `systemctl`); true when it exits 0.
    /// Its messages go to stderr unless `quiet`.
    @discardableResult
    static func run(_ command: String, quiet: Bool = false) -> Bool {
        let ctx = CLIContext.current
        let words = command.split(separator: " ").map(String.init)
        guard let program = ProgramPath.find(words[0], path: ctx.environment["PATH"] ?? "/usr/bin:/bin") else { return false }
        Console.flush()
        let child = try? ChildProcess(program, Array(words.dropFirst()), environment: ctx.environment,
                                      input: .null, output: .null, errors: quiet ? .null : .inherited)
        return child?.wait() == 0
    }
}
