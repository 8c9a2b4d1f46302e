import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// What the power-cut file system cannot see (it makes a rename durable at once): the system
/// calls. A real `ledger sync` (a merge, a fetch and a push to a remote on a path) and a real
/// `ledger gc` run under strace; every rename (or first link) of a reference, of `packed-refs`
/// or of an index — in the ledger and in the remote — must come after a flush of the file
/// renamed, and be followed before the command ends by a flush of the folder it lands in.
/// Plain git's `commit` + `push` and `gc` are traced on the same setup for the comparison.
@Suite struct DurabilityTraceTests {
    static let at = ["LEDGER_NOW": "2026-11-21T21:00:00+01:00"]

    @Test func syncAndGcFlushEveryReferenceAndIndexAndTheirFolders() throws {
        let strace = try Processes.require("strace", package: "strace")
        let fixture = try SyncFixture()
        let a = try fixture.origin()
        let b = try fixture.clone()
        #expect(a.run("moments", "add", "from a", env: Self.at).status == 0)
        #expect(a.run("sync").status == 0)
        #expect(b.run("moments", "add", "from b", env: Self.at).status == 0)
        let gitDirectories = [b.root + "/.git", fixture.remote]

        let sync = try Trace.run(strace, LedgerBinary.path, ["sync"], environment: b.environment, directory: b.root)
        #expect(sync.status == 0, "\(sync.output)")
        let syncRenames = sync.renames(into: gitDirectories)
        // A merge moves main, the push moves the remote's main, the tracking reference follows,
        // and the index is written: all of them seen.
        #expect(syncRenames.contains { $0.target == b.root + "/.git/refs/heads/main" })
        #expect(syncRenames.contains { $0.target == fixture.remote + "/refs/heads/main" })
        #expect(syncRenames.contains { $0.target == b.root + "/.git/index" })
        for problem in sync.unflushed(syncRenames) { Issue.record("ledger sync: \(problem)") }

        let gc = try Trace.run(strace, LedgerBinary.path, ["gc"], environment: b.environment, directory: b.root)
        #expect(gc.status == 0, "\(gc.output)")
        let gcRenames = gc.renames(into: gitDirectories)
        #expect(gcRenames.contains { $0.target == b.root + "/.git/packed-refs" })
        #expect(gcRenames.contains { $0.target == fixture.remote + "/packed-refs" })
        for problem in gc.unflushed(gcRenames) { Issue.record("ledger gc: \(problem)") }

        // Plain git on the same setup, with its defaults: references renamed unflushed.
        try b.write("notes.json", "{}\n")
        let env = GitCLI.gitEnvironment
        let commit = try Trace.run(strace, "/bin/sh", ["-c", "git add -A && git commit -q -m notes && git push -q origin main && git gc -q"],
                                   environment: env, directory: b.root)
        #expect(commit.status == 0, "\(commit.output)")
        let gitProblems = commit.unflushed(commit.renames(into: gitDirectories))
        print("strace: ledger sync renamed \(syncRenames.count) references and indexes, ledger gc \(gcRenames.count), all flushed with their folders; plain git (commit, push, gc) with its defaults: \(gitProblems.count) of \(commit.renames(into: gitDirectories).count) not")
        #expect(!gitProblems.isEmpty, "plain git's defaults flush neither references nor folders; the trace should show it")
    }
}

/// A command run under `strace -f -y`: its renames, links and flushes, in order.
struct Trace {
    enum Event {
        case flush(String)
        case rename(from: String, to: String)
    }

    var status: Int32
    var output: String
    var events: [Event]

    static func run(_ strace: String, _ executable: String, _ arguments: [String], environment: [String: String], directory: String) throws -> Trace {
        let log = NSTemporaryDirectory() + "/ledger-strace-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { unlink(log) }
        let r = try Processes.run(strace, ["-f", "-y", "-qq", "-o", log, "-e", "trace=fsync,fdatasync,rename,renameat,renameat2,link,linkat",
                                           executable] + arguments, environment: environment, currentDirectory: directory)
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return Trace(status: r.status, output: r.description, events: parse(text))
    }

    /// The lines of `strace -f -y`, with calls a thread switch split (`<unfinished ...>`,
    /// `<... rename resumed>`) joined again; only calls that succeeded.
    static func parse(_ text: String) -> [Event] {
        var pending: [String: String] = [:]
        var events: [Event] = []
        for raw in text.split(separator: "\n").map(String.init) {
            guard let space = raw.firstIndex(of: " ") else { continue }
            let pid = String(raw[..<space])
            var line = raw[raw.index(after: space)...].trimmingCharacters(in: .whitespaces)
            if line.hasSuffix("<unfinished ...>") {
                pending[pid] = String(line.dropLast("<unfinished ...>".count))
                continue
            }
            if line.hasPrefix("<..."), let resumed = line.range(of: "resumed>") {
                line = (pending.removeValue(forKey: pid) ?? "") + line[resumed.upperBound...]
            }
            guard line.hasSuffix("= 0") else { continue }
            let quoted = strings(in: line)
            let fds = fdPaths(in: line)
            if line.hasPrefix("fsync(") || line.hasPrefix("fdatasync(") {
                if let path = fds.first { events.append(.flush(path)) }
            } else if line.hasPrefix("rename(") || line.hasPrefix("link("), quoted.count == 2 {
                events.append(.rename(from: quoted[0], to: quoted[1]))
            } else if line.hasPrefix("renameat") || line.hasPrefix("linkat("), quoted.count == 2 {
                // renameat(3</dir>, "name", 3</dir>, "name2"): relative to the folders given.
                let dirs = line.hasPrefix("linkat(") || line.hasPrefix("renameat") ? fds : []
                func resolve(_ name: String, _ i: Int) -> String { name.hasPrefix("/") || dirs.count <= i ? name : dirs[i] + "/" + name }
                events.append(.rename(from: resolve(quoted[0], 0), to: resolve(quoted[1], 1)))
            }
        }
        return events
    }

    static func strings(in line: String) -> [String] {
        line.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The paths strace -y shows after descriptors: `4</a/b>`.
    static func fdPaths(in line: String) -> [String] {
        var out: [String] = []
        var rest = Substring(line)
        while let open = rest.range(of: "</"), let close = rest[open.upperBound...].firstIndex(of: ">") {
            out.append("/" + rest[open.upperBound..<close])
            rest = rest[rest.index(after: close)...]
        }
        return out
    }

    /// The renames (and first links) of references, `packed-refs` and indexes in `gitDirectories`.
    func renames(into gitDirectories: [String]) -> [(index: Int, source: String, target: String)] {
        events.enumerated().compactMap { i, e in
            guard case .rename(let from, let to) = e else { return nil }
            for dir in gitDirectories where to.hasPrefix(dir + "/") {
                let relative = String(to.dropFirst(dir.count + 1))
                if relative.hasPrefix("refs/") || relative == "packed-refs" || relative == "index" { return (i, from, to) }
            }
            return nil
        }
    }

    /// For each rename: whether its file was flushed before it, and its folder after it.
    func unflushed(_ renames: [(index: Int, source: String, target: String)]) -> [String] {
        renames.compactMap { r in
            let before = events[..<r.index].contains { if case .flush(let p) = $0 { return p == r.source } else { return false } }
            let folder = (r.target as NSString).deletingLastPathComponent
            let after = events[(r.index + 1)...].contains { if case .flush(let p) = $0 { return p == folder } else { return false } }
            if before && after { return nil }
            return "\(r.source) → \(r.target): " + [before ? nil : "not flushed before its rename", after ? nil : "its folder not flushed after"].compactMap { $0 }.joined(separator: ", ")
        }
    }
}
