import Foundation
import LedgerKit
import LedgerTestSupport

/// A private session bus: `dbus-daemon --session` on a socket in its own directory, with no
/// service activation (nothing is started on demand), stopped by its PID.
final class PrivateSessionBus: @unchecked Sendable {
    // @unchecked: owned by one test.
    let address: String
    let directory: TemporaryDirectory
    private let daemon: BackgroundProcess

    init() throws {
        let program = try Processes.require("dbus-daemon", package: "dbus-daemon")
        directory = TemporaryDirectory("ledger-bus")
        // The session bus's own policy (anyone may own and call anything), listening here only.
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(directory.path)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>

            """
        try config.write(toFile: directory.url("session.conf"), atomically: true, encoding: .utf8)
        daemon = try BackgroundProcess(program, ["--config-file=" + directory.url("session.conf"), "--nofork", "--print-address=1"],
                                       log: directory.url("dbus-daemon.log"))
        var found: String?
        for _ in 0..<200 where found == nil {
            found = daemon.output.split(separator: "\n").first { $0.hasPrefix("unix:") }.map(String.init)
            if found == nil { usleep(25_000) }
        }
        guard let found else {
            daemon.stop()
            throw LedgerError.failure("dbus-daemon printed no address: \(daemon.output)")
        }
        address = found
    }

    /// The environment of a program on this bus (and nothing of the machine's own session).
    var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": directory.path]
    }

    /// Stops the bus (as when the session ends).
    func stop() { daemon.stop() }

    deinit { daemon.stop() }
}

/// dunst, the notification server, showing notifications on an Xvfb display and owning
/// `org.freedesktop.Notifications` on a private session bus; stopped by their PIDs.
///
/// What it shows is read back by its own means: a rule runs a script for every notification it
/// displays (`shown`, the script's environment is dunst's view of the notification),
/// `dunstctl count displayed` and `dunstctl history`. A button is pressed through dunst's
/// context menu (`dunstctl context`), whose menu program is a script here that records the
/// menu and picks the line of the action key named in a file: dunst itself then emits
/// `ActionInvoked`, as when a person picks it.
final class NotificationServer: @unchecked Sendable {
    // @unchecked: owned by one test.
    let bus: PrivateSessionBus
    private let directory: TemporaryDirectory
    private let display: BackgroundProcess
    private let dunst: BackgroundProcess
    private let dunstctl: String

    init() throws {
        let xvfb = try Processes.require("Xvfb", package: "xvfb")
        let dunstProgram = try Processes.require("dunst", package: "dunst")
        dunstctl = try Processes.require("dunstctl", package: "dunst")
        _ = try Processes.require("dbus-send", package: "dbus-bin")
        _ = try Processes.require("busctl", package: "systemd")
        bus = try PrivateSessionBus()
        directory = TemporaryDirectory("ledger-dunst")

        // -displayfd: Xvfb picks a free display and writes its number.
        display = try BackgroundProcess(xvfb, ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "800x600x24"],
                                        log: directory.url("xvfb.log"))
        var number: String?
        for _ in 0..<400 where number == nil {
            number = display.output.split(separator: "\n").first { !$0.isEmpty && $0.allSatisfy(\.isNumber) }.map(String.init)
            if number == nil { usleep(25_000) }
        }
        guard let number else {
            display.stop()
            throw LedgerError.failure("Xvfb did not start: \(display.output)")
        }

        let dir = directory.path
        try """
            #!/bin/sh
            printf '%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\036\\n' "$DUNST_ID" "$DUNST_APP_NAME" "$DUNST_SUMMARY" "$DUNST_BODY" \\
                "$DUNST_URGENCY" "$DUNST_CATEGORY" "$DUNST_DESKTOP_ENTRY" "$DUNST_TIMEOUT" >> \(dir)/shown.tsv

            """.write(toFile: dir + "/record.sh", atomically: true, encoding: .utf8)
        chmod(dir + "/record.sh", 0o755)
        try """
            #!/bin/sh
            echo "$DUNST_ID" >> \(dir)/transient.txt

            """.write(toFile: dir + "/transient.sh", atomically: true, encoding: .utf8)
        chmod(dir + "/transient.sh", 0o755)
        try """
            cat > \(dir)/menu.txt
            grep -F "$(cat \(dir)/choice)]" \(dir)/menu.txt | head -n 1

            """.write(toFile: dir + "/menu.sh", atomically: true, encoding: .utf8)
        try """
            [global]
                dmenu = "/bin/sh \(dir)/menu.sh"
                idle_threshold = 0
                history_length = 50
                # Every notification sent is displayed (and recorded), a repeated one too.
                stack_duplicates = false
            [record]
                summary = "*"
                script = \(dir)/record.sh
            [transient]
                match_transient = yes
                script = \(dir)/transient.sh

            """.write(toFile: dir + "/dunstrc", atomically: true, encoding: .utf8)

        var env = bus.environment
        env["DISPLAY"] = ":" + number
        do {
            dunst = try BackgroundProcess(dunstProgram, ["-config", dir + "/dunstrc"], environment: env, log: dir + "/dunst.log")
        } catch {
            display.stop()
            throw error
        }
        var up = false
        for _ in 0..<200 where !up {
            up = (try? Processes.run(dunstctl, ["debug"], environment: bus.environment))?.status == 0
            if !up { usleep(50_000) }
        }
        guard up else {
            stop()
            throw LedgerError.failure("dunst did not take org.freedesktop.Notifications: \(dunst.output)")
        }
    }

    deinit { stop() }

    private func stop() {
        dunst.stop()
        display.stop()
    }

    /// One notification as dunst displayed it (its script's environment).
    struct Shown: Equatable {
        var id: UInt32
        var appName, summary, body, urgency, category, desktopEntry, timeout: String
    }

    /// Every notification displayed so far, in order (a replaced one again when replaced).
    /// Each record ends with an ASCII record separator and a newline: a body may hold lines.
    func shown() -> [Shown] {
        let text = (try? String(contentsOfFile: directory.url("shown.tsv"), encoding: .utf8)) ?? ""
        return text.components(separatedBy: "\u{1e}\n").compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 8, let id = UInt32(f[0]) else { return nil }
            return Shown(id: id, appName: f[1], summary: f[2], body: f[3], urgency: f[4], category: f[5], desktopEntry: f[6], timeout: f[7])
        }
    }

    /// Waits (at most five seconds) until dunst has displayed `count` notifications in all.
    func waitUntilShown(_ count: Int) -> [Shown] {
        for _ in 0..<100 where shown().count < count { usleep(50_000) }
        return shown()
    }

    /// The ids of the notifications dunst took as transient (its `match_transient` rule).
    func transientIDs() -> [UInt32] {
        ((try? String(contentsOfFile: directory.url("transient.txt"), encoding: .utf8)) ?? "").split(separator: "\n").compactMap { UInt32($0) }
    }

    /// `dunstctl count displayed`.
    func displayedCount() throws -> Int {
        let r = try Processes.run(dunstctl, ["count", "displayed"], environment: bus.environment)
        guard r.status == 0, let n = Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw LedgerError.failure("dunstctl count displayed failed: \(r)")
        }
        return n
    }

    /// The ids in `dunstctl history` (the notifications dunst closed), newest first.
    func historyIDs() throws -> [UInt32] {
        let r = try Processes.run(dunstctl, ["history"], environment: bus.environment)
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
              let data = json["data"] as? [[[String: Any]]], let list = data.first else {
            throw LedgerError.failure("dunstctl history failed: \(r)")
        }
        return list.compactMap { (($0["id"] as? [String: Any])?["data"] as? Int).map(UInt32.init) }
    }

    /// Asks dunst to open its context menu, whose menu program picks action `key` (of the
    /// notification `id`, else of the first that offers it); dunst then invokes it (emits
    /// `ActionInvoked`).
    func pick(action key: String, of id: UInt32? = nil) throws {
        // The menu's lines end with `[ID,KEY]`.
        try (id.map { "[\($0),\(key)" } ?? ",\(key)").write(toFile: directory.url("choice"), atomically: true, encoding: .utf8)
        let r = try Processes.run(dunstctl, ["context"], environment: bus.environment)
        guard r.status == 0 else { throw LedgerError.failure("dunstctl context failed: \(r)") }
    }

    /// Ends dunst, as when a desktop's notification server exits or crashes.
    func stopServer() { dunst.stop() }

    /// The context menu dunst offered the last time, one line per action (`#label (summary) [id,key]`).
    func offeredMenu() -> [String] {
        ((try? String(contentsOfFile: directory.url("menu.txt"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
