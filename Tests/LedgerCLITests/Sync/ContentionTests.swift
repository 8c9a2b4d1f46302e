import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// Many devices syncing at the same moment against one remote.
@Suite(.serialized) struct ContentionTests {
    /// Ten devices change a document each and sync at once against a remote on a path, five
    /// rounds: every sync exits 0 (a refused push is fetched, merged and pushed again after a
    /// random wait) and every device ends with the same tree, which holds every change. Plain
    /// git on the same setup: of ten `git push` at once, one gets through.
    @Test func tenDevicesAtOnceAllSucceed() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let devices = try (0..<10).map { _ in try fixture.clone() }
        var contended = 0
        for round in 0..<5 {
            for (i, d) in devices.enumerated() { try d.write("waterline/r\(round)-d\(i).json", "{}\n") }
            let results = try devices.map { d in
                try Processes.spawn(LedgerBinary.path, ["sync", "--json"], environment: d.environment, currentDirectory: d.root)
            }.map { $0.wait() }
            for r in results { #expect(r.status == 0, "\(r)") }
            if results.contains(where: { $0.json["pushAttempts"] != .number(1) }) { contended += 1 }
        }
        // Not every round contends (the syncs may happen to take turns), but some must.
        #expect(contended > 0, "no push was refused in five rounds: nothing contended")
        for d in devices { #expect(d.run("sync").status == 0) }
        let tree = try devices[0].headTree()
        for round in 0..<5 {
            for i in 0..<10 { #expect(tree["waterline/r\(round)-d\(i).json"] != nil, "lost r\(round)-d\(i)") }
        }
        for d in devices.dropFirst() { #expect(try d.headTree() == tree) }
        #expect(try GitCLI.fsck(fixture.remote) == nil)

        // Plain git, the same setup: ten clones commit a file each and push at once.
        let clones = try (0..<10).map { i -> String in
            let path = fixture.directory.path + "/git-\(i)"
            try GitCLI.run(["clone", "-q", fixture.remote, path], in: "/")
            try "{}\n".write(toFile: path + "/waterline/git-\(i).json", atomically: true, encoding: .utf8)
            try GitCLI.run(["add", "-A"], in: path)
            try GitCLI.run(["commit", "-q", "-m", "git \(i)"], in: path)
            return path
        }
        let pushes = try clones.map { path in
            try Processes.spawn("/usr/bin/git", ["push", "-q", "origin", "HEAD:main"], environment: GitCLI.gitEnvironment, currentDirectory: path)
        }.map { $0.wait() }
        #expect(pushes.filter { $0.status == 0 }.count == 1, "\(pushes.map(\.status))")
    }
}
