import Foundation

/// A process that runs on this machine, as /proc tells it: for tests that look for what is
/// still running (and end it by its PID).
package struct RunningProcess: Sendable, CustomStringConvertible {
    package var pid: pid_t
    /// Its process group.
    package var group: pid_t
    /// Its command line.
    package var arguments: [String]

    package var description: String { "\(pid) (group \(group)): \(arguments.joined(separator: " "))" }

    /// Every process running now (a zombie, which has ended and waits for its parent, is not).
    package static func all() -> [RunningProcess] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            // "PID (comm) STATE PPID PGRP …"; comm may hold spaces and parentheses.
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", let group = pid_t(fields[2]) else { return nil }
            return RunningProcess(pid: pid, group: group, arguments: Self.strings(pid, "cmdline"))
        }
    }

    /// Its environment, one `NAME=value` each.
    package var environment: [String] { Self.strings(pid, "environ") }

    /// Its current directory.
    package var directory: String { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")) ?? "" }

    /// A /proc file of NUL-terminated strings.
    private static func strings(_ pid: pid_t, _ file: String) -> [String] {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/\(file)")) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\0").map(String.init)
    }
}
