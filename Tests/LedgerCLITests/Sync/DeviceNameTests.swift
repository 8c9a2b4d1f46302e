import Foundation
import LedgerKit
import LedgerSync
import LedgerTestSupport
import Testing

/// Two clones on one host are two devices, told apart in commit messages and by `ledger status`.
@Suite struct DeviceNameTests {
    @Test func clonesOnOneHostHaveDifferentNamesThatStatusAndCommitsShow() throws {
        let fixture = try SyncFixture()
        _ = try fixture.origin()
        let b = try fixture.clone()
        let c = try fixture.clone()
        let names = try [b, c].map { l -> String in
            let device = try #require(l.run("status", "--json").json["device"])
            let name = try #require(device["name"]?.stringValue)
            let id = try #require(device["id"]?.stringValue)
            // The host name and the start of the clone's own id.
            #expect(name == Device.hostName + "-" + id.prefix(Device.shortIDLength))
            #expect(l.run("status").stdout.hasPrefix("ledger at \(l.root), device \(name)\n"))
            return name
        }
        #expect(names[0] != names[1])
        for (l, name) in zip([b, c], names) {
            try l.write("waterline/\(name).json", "{}\n")
            #expect(l.run("sync").status == 0)
            let subject = try GitCLI.run(["log", "-1", "--format=%s", "--no-merges"], in: l.root).stdout
            #expect(subject.hasPrefix("ledger sync on \(name): "), "\(subject)")
        }
        // The name stays what it is.
        #expect(b.run("status", "--json").json["device"]?["name"] == .string(names[0]))
    }
}
