import Foundation
import LedgerTestSupport
import ProcessRunner
import Testing

/// `ChildProcess.Group.watched` on its own, with the shell: what runs in the group, and that
/// its watcher goes away. (A `ledger` killed while git works in such a group: MaintenanceTests.)
@Suite struct WatchedProcessGroupTests {
    /// The processes of process group `group` that have not ended.
    static func members(of group: pid_t) -> [pid_t] { RunningProcess.all().filter { $0.group == group }.map(\.pid) }

    /// Waits (at most five seconds) until no process of `group` is left; whether none is.
    static func emptied(_ group: pid_t) -> Bool {
        for _ in 0..<250 where !members(of: group).isEmpty { usleep(20_000) }
        return members(of: group).isEmpty
    }

    /// The child runs in a group that is neither ours nor its own (its watcher leads it), and
    /// when it ends the watcher leaves too: nothing of the group is left.
    @Test func theWatcherLeavesWithTheChild() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "cut -d' ' -f5 /proc/$$/stat; exit 3"], environment: [:], group: .watched)
        child.closeInput()
        let group = try #require(pid_t(String(decoding: child.readOutput(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(child.wait() == 3)
        #expect(group != getpgrp() && group != child.handle.pid)
        #expect(Self.emptied(group), "left in the group: \(Self.members(of: group))")
    }

    /// A child given up (`terminate`) takes what it started with it: the watcher ends the
    /// group, the shell's background programs included (which signals to the shell's PID and
    /// the parent-death signal do not reach).
    @Test func aChildGivenUpTakesWhatItStartedWithIt() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "sleep 60 & sleep 60 & cut -d' ' -f5 /proc/$$/stat; wait"], environment: [:],
                                     output: .pipe, group: .watched)
        child.closeInput()
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.last != 0x0A, child.read(into: &byte, count: 1) == 1 { line.append(byte) }
        let group = try #require(pid_t(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(Self.members(of: group).count == 4, "the watcher, the shell and its two sleeps: \(Self.members(of: group))")
        child.terminate()
        #expect(Self.emptied(group), "left in the group: \(Self.members(of: group))")
    }
}
