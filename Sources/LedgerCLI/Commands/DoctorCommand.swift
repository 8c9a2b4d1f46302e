import ArgumentParser
import Foundation
import LedgerKit
import LedgerRemind
import LedgerSync
import ProcessRunner

/// `ledger doctor [--json]`: the setup, not the data.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the setup (not the data): PATH, merge driver, .gitattributes, remote, units, clock, disk.",
        discussion: """
            Looks at what other commands and plain git rely on and no document check sees: \
            ledger on the PATH (git runs it as the merge driver), the driver registered, \
            .gitattributes sending *.json to it, filters ledger does not run, the remote \
            (asked read-only for its branches, which also tries the credentials; --offline \
            skips it), the reminder and autosync units, the libgit2 and git versions, the \
            clock and time zone, and free disk space. Each problem comes with the command \
            that fixes it. Exits 0 only when nothing is a warning or an error, else 1. \
            `ledger check` checks the documents.
            """)

    @OptionGroup var output: JSONOption

    @Flag(help: "Do not ask the remote (no network).")
    var offline = false

    @OptionGroup var global: GlobalOptions

    /// Below this, a sync or an edit may fail to write (bytes).
    static let lowDiskBytes: UInt64 = 100 << 20

    func run() throws {
        let root = global.repositoryPath()
        let executable = try? RemindCommand.Install.ledgerExecutable()
        var findings: [SetupFinding] = []
        findings.append(pathFinding(executable: executable))
        findings += SetupDoctor.findings(root: root, transport: try SyncEnvironment.transport(), ledgerExecutable: executable,
                                         probeRemote: !offline)
        findings += unitFindings(root: root)
        findings.append(clockFinding())
        findings.append(diskFinding(root))
        let problems = findings.filter { $0.status >= .warning }
        if output.json {
            Output.json([
                ("healthy", .bool(problems.isEmpty)),
                ("findings", .array(findings.map { f in
                    var o: JSONObject = ["check": .string(f.check), "status": .string(f.status.rawValue), "message": .string(Words.text(f.message))]
                    o["fix"] = f.fix.map(JSONValue.string) ?? .null
                    return .object(o)
                })),
            ])
        } else {
            for f in findings {
                let label = f.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                let colored = f.status == .error ? Style.red(label) : f.status == .ok ? Style.green(label) : label
                Console.print("\(colored)\(f.check): \(Words.text(f.message))")
                if f.status >= .warning, let fix = f.fix { Console.print("        fix: \(fix)") }
            }
            let errors = problems.filter { $0.status == .error }.count
            Console.print(problems.isEmpty ? "All is well."
                : "\(Output.plural(problems.count, "problem")): \(Output.plural(errors, "error")), \(Output.plural(problems.count - errors, "warning")).")
        }
        if !problems.isEmpty { throw ExitCode(1) }
    }

    /// Whether `ledger` is on the PATH, as git needs it to run the merge driver.
    func pathFinding(executable: String?) -> SetupFinding {
        let path = CLIContext.current.environment["PATH"] ?? ""
        if let found = ProgramPath.find("ledger", path: path) { return SetupFinding("PATH", .ok, "ledger is on the PATH: \(found)") }
        return SetupFinding("PATH", .warning, "ledger is not on the PATH\(executable.map { " (this one is \($0))" } ?? ""), so git cannot run it as the merge driver, nor cron or a shell find it",
                            fix: "make install   (from the source tree; PREFIX=~/.local for your own bin)")
    }

    /// Each `ledger-*` systemd user unit installed (reminders, autosync): running, or how to
    /// start it; and, when it serves another ledger than `root` (one per device), which.
    func unitFindings(root: String) -> [SetupFinding] {
        let env = CLIContext.current.environment
        guard let dir = try? ReminderUnit.directory(environment: env),
              let names = try? FileManager.default.contentsOfDirectory(atPath: dir).filter({ $0.hasPrefix("ledger") && ($0.hasSuffix(".service") || $0.hasSuffix(".timer")) }).sorted(),
              !names.isEmpty
        else {
            return [SetupFinding("units", .info, "no reminder or autosync unit is installed", fix: "ledger remind install")]
        }
        let reachable = Systemctl.reachesUserManager()
        let real = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        return names.map { name in
            var elsewhere = ""
            if let kind = [ReminderUnit.Kind.reminders, .autosync].first(where: { $0.fileName == name }),
               let served = ReminderUnit.installedLedger(in: dir, kind: kind), served != real {
                elsewhere = "; it serves \(served), not this ledger (one per device: `ledger \(kind.subcommand) install` moves it here)"
            }
            guard reachable else {
                return SetupFinding(name, .warning, "\(name) is installed in \(dir), but systemd's user manager cannot be reached to say whether it runs\(elsewhere)",
                                    fix: "systemctl --user status \(name)   (in your desktop session)")
            }
            if Systemctl.run("systemctl --user is-active --quiet \(name)", quiet: true) {
                return SetupFinding(name, .ok, "\(name) is running\(elsewhere)")
            }
            return SetupFinding(name, .warning, "\(name) is installed but not running\(elsewhere)", fix: "systemctl --user enable --now \(name)")
        }
    }

    /// The clock and zone commands use: `$LEDGER_NOW` overriding it, a `$TZ` no zone has, a
    /// system clock that was never set.
    func clockFinding() -> SetupFinding {
        let env = CLIContext.current.environment
        if let fixed = env["LEDGER_NOW"], !fixed.isEmpty {
            return SetupFinding("clock", .warning, "LEDGER_NOW=\(fixed) is set, so every command stamps that time instead of the clock's",
                                fix: "unset LEDGER_NOW")
        }
        if let tz = env["TZ"], !tz.isEmpty {
            if CommandClock.zone(named: tz) == nil {
                return SetupFinding("clock", .warning, "TZ=\(tz) names no time zone, so times are stamped in the system's zone",
                                    fix: "export TZ=Europe/Paris   (a name from `timedatectl list-timezones`), or unset TZ")
            }
        }
        guard let clock = try? CommandClock.current() else { return SetupFinding("clock", .error, "the clock cannot be read") }
        if clock.now.date < Date(timeIntervalSince1970: 1_577_836_800) {
            return SetupFinding("clock", .error, "the clock says \(clock.now.iso8601), before 2020: it was never set, and every stamp would be wrong",
                                fix: "sudo timedatectl set-ntp true")
        }
        return SetupFinding("clock", .ok, "\(clock.now.iso8601) in \(clock.timeZone.identifier)")
    }

    /// Free space on the disk holding the ledger (or the nearest folder that exists).
    func diskFinding(_ root: String) -> SetupFinding {
        var path = root
        while !FileManager.default.fileExists(atPath: path), path != "/" { path = (path as NSString).deletingLastPathComponent }
        guard let attributes = try? FileManager.default.attributesOfFileSystem(forPath: path),
              let free = (attributes[.systemFreeSize] as? NSNumber)?.uint64Value
        else { return SetupFinding("disk", .warning, "the free space of the disk holding \(path) cannot be read") }
        let shown = ByteCountFormatter.string(fromByteCount: Int64(free), countStyle: .binary)
        if free < Self.lowDiskBytes {
            return SetupFinding("disk", .error, "only \(shown) free on the disk holding \(path): a sync or an edit may fail to write",
                                fix: "free space on that disk (`du -sh \(SetupDoctor.shellQuoted(path))/.git`; `ledger gc` packs the history)")
        }
        return SetupFinding("disk", .ok, "\(shown) free on the disk holding \(path)")
    }
}
