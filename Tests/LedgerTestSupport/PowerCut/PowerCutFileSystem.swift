import Foundation
import LedgerKit

/// The project's power-cut file system (`powercutfs.c` beside this file), compiled by the tests
/// and mounted over a backing folder: what a program writes stays in the file system's memory
/// until it flushes that file, metadata reaches the backing folder at once, and a cut drops
/// everything unflushed and mounts the folder again — what a disk holds after the power came
/// back (the model of LazyFS). See the C source for the details.
///
/// It needs FUSE (`/dev/fuse`, the right to mount) and Debian's `fuse3` and `libfuse3-dev`
/// (`make test-deps` installs them): where either is missing, the constructor throws with the
/// reason, so a test that needs it fails instead of passing unseen.
package final class PowerCutFileSystem: @unchecked Sendable {
    // @unchecked: used by the one test that owns it.
    /// Where programs under test work.
    package let mountPoint: String
    /// The "disk".
    package let backing: String
    private let scratch: String
    private var daemon: BackgroundProcess?
    /// How many cuts so far.
    package private(set) var cuts = 0

    /// Mounts a new, empty file system (in a memory file system's folder when there is one:
    /// the backing folder is never flushed itself; the model is what reaches it).
    package init() throws {
        scratch = Replica.scratchDirectory()
        backing = scratch + "/disk"
        mountPoint = scratch + "/mnt"
        for d in [backing, mountPoint] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        try mount()
    }

    deinit {
        if let daemon {
            kill(daemon.pid, SIGKILL)
            _ = daemon.isRunning
        }
        detach()
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// A power cut: every unflushed byte is dropped (the file system's process is killed
    /// before it writes anything more), the mount goes away with the kernel's caches, and the
    /// backing folder is mounted again. Programs working there must have been stopped first.
    package func cut() throws {
        cuts += 1
        if let daemon {
            kill(daemon.pid, SIGKILL)
            while daemon.isRunning { usleep(2000) }
        }
        daemon = nil
        detach()
        try mount()
    }

    /// A clean shutdown and mount: everything written is flushed first (nothing is lost).
    package func remount() throws {
        if let daemon {
            _ = try? Processes.run("/usr/bin/fusermount3", ["-u", mountPoint])
            let deadline = Date().addingTimeInterval(10)
            while daemon.isRunning, Date() < deadline { usleep(5000) }
            if daemon.isRunning { throw LedgerError.failure("powercutfs did not stop after `fusermount3 -u \(mountPoint)` (a process still works there?)") }
        }
        daemon = nil
        detach()
        try mount()
    }

    private func mount() throws {
        let exe = try Self.executable()
        let log = scratch + "/powercutfs.log"
        let process = try BackgroundProcess(exe, [backing, mountPoint, "-f", "-s", "-o", "fsname=powercutfs,subtype=powercutfs"], log: log)
        let deadline = Date().addingTimeInterval(10)
        while !Self.isMounted(mountPoint) {
            guard process.isRunning, Date() < deadline else {
                process.stop()
                throw LedgerError.failure("cannot mount the power-cut file system (FUSE) at \(mountPoint): \(process.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "it did not come up within 10 s" : process.output) — power-cut tests need /dev/fuse and the right to mount (root, or fuse3's fusermount3)")
            }
            usleep(5000)
        }
        daemon = process
    }

    /// Takes the mount away at once, whatever still uses it.
    private func detach() {
        guard Self.isMounted(mountPoint) else { return }
        if (try? Processes.run("/usr/bin/fusermount3", ["-u", "-z", mountPoint]))?.status != 0 {
            _ = try? Processes.run("/usr/bin/umount", ["-l", mountPoint])
        }
        let deadline = Date().addingTimeInterval(5)
        while Self.isMounted(mountPoint), Date() < deadline { usleep(5000) }
    }

    /// Whether `path` is a mount point of this file system (`/proc/self/mountinfo`).
    static func isMounted(_ path: String) -> Bool {
        guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return false }
        return text.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 4 && fields[4] == path && line.contains(" - fuse.powercutfs ")
        }
    }

    /// The compiled file system, built once per test process from `powercutfs.c` with the C
    /// compiler and fuse3's flags from pkg-config.
    package static func executable() throws -> String { try compiled.get() }

    private static let compiled: Result<String, LedgerError> = {
        let source = (#filePath as NSString).deletingLastPathComponent + "/powercutfs.c"
        guard let text = try? FileSystem.read(source) else { return .failure(.failure("the power-cut file system's source is missing: \(source)")) }
        let dir = NSTemporaryDirectory() + "/ledger-powercutfs-\(FNV1a.hash(text))"
        let exe = dir + "/powercutfs"
        if FileManager.default.isExecutableFile(atPath: exe) { return .success(exe) }
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (program, package) in [("cc", "gcc"), ("pkg-config", "pkg-config"), ("fusermount3", "fuse3")] {
            do { _ = try Processes.require(program, package: package) } catch { return .failure(error as? LedgerError ?? .failure("\(error)")) }
        }
        let build = try? Processes.run("/bin/sh", ["-c", "cc -O2 -Wall -o '\(exe).new' '\(source)' $(pkg-config --cflags --libs fuse3) && mv '\(exe).new' '\(exe)'"])
        guard let build, build.status == 0 else {
            return .failure(.failure("cannot build the power-cut file system (it needs Debian's fuse3 and libfuse3-dev: `make test-deps`): \(build?.description ?? "cc did not run")"))
        }
        return .success(exe)
    }()
}

/// A program run on the power-cut file system, in a process group of its own, to the end or
/// until it is killed — the whole group (a `git gc` it started too) — at a given moment.
package struct CutRun: Sendable {
    /// Its exit status, or nil when it was killed first.
    package var status: Int32?
    package var seconds: Double
    /// What it printed (stdout and stderr together).
    package var output: String

    /// Runs `executable` with `arguments`; kills its process group after `killAfter` seconds
    /// unless it ended before (nil: never).
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String], directory: String,
                           killAfter: Double?) throws -> CutRun {
        let log = NSTemporaryDirectory() + "/ledger-cutrun-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { unlink(log) }
        let start = Date()
        let process = try BackgroundProcess(executable, arguments, environment: environment, directory: directory, log: log, newProcessGroup: true)
        let deadline = killAfter.map { start.addingTimeInterval($0) }
        while process.isRunning, deadline.map({ Date() < $0 }) ?? true { usleep(1000) }
        var result = CutRun(status: process.exitStatus, seconds: Date().timeIntervalSince(start), output: "")
        // Killed, with whatever else the group started (a `git gc`): gone before the cut.
        killpg(process.pid, SIGKILL)
        process.stop()
        let end = Date().addingTimeInterval(2)
        while kill(-process.pid, 0) == 0, Date() < end { usleep(2000) }
        result.output = process.output
        return result
    }
}
