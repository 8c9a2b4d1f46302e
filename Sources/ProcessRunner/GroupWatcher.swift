import CSpawn
import Foundation

/// The watcher of a watched process group (`ChildProcess.Group.watched`): a fork of ours that
/// leads the group and holds the read end of a pipe whose write end only we hold (C:
/// `ledger_watch_group`). `release` (the job is done) writes a byte and the watcher exits;
/// the pipe closing without it — `abandon`, or our death, even by SIGKILL — makes the watcher
/// end its group: SIGTERM (git then removes its lock and temporary files), and one `grace`
/// later SIGKILL. Ctrl-C on a terminal reaches our group alone: ledger stops, the pipe closes,
/// the group is ended the same way.
final class GroupWatcher {
    /// The watcher's PID, which is the group's id.
    let pid: pid_t
    /// Our end of the pipe (-1 once closed).
    private var pipe: Int32

    /// How long the group's members have to stop after SIGTERM before SIGKILL, in milliseconds.
    static let grace: Int32 = 1000

    init() throws(ProcessError) {
        var fds: [Int32] = [-1, -1]
        guard ChildProcess.pipe(&fds) else { throw ProcessError(String(cString: strerror(errno))) }
        let pid = ledger_watch_group(fds[0], Self.grace)
        close(fds[0])
        guard pid > 0 else {
            close(fds[1])
            throw ProcessError(String(cString: strerror(-pid)))
        }
        self.pid = pid
        pipe = fds[1]
    }

    /// The job is done: the watcher exits without signalling anyone; reaped.
    func release() {
        guard pipe >= 0 else { return }
        var done: UInt8 = 1
        _ = Glibc.write(pipe, &done, 1)
        end()
    }

    /// The job is given up: the watcher ends the group; reaped once it has.
    func abandon() { end() }

    private func end() {
        if pipe >= 0 { close(pipe) }
        pipe = -1
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    deinit { release() }
}
