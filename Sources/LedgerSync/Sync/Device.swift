import Foundation
import LedgerKit

/// This clone as sync names it in commit messages: `.git/ledger/device.json`
/// (`{"id": "…", "name": "…"}`), device-local and never synced. Created on first use with a
/// random id and a name made of the host name and the id's first characters (`laptop-k3f9`),
/// so that two clones on one host are told apart; edit `name` to rename the device.
public struct Device: Sendable, Hashable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// The device file's path in `store`.
    public static func path(in store: LedgerStore) -> String { store.localState("device.json") }

    /// This ledger's device, created (with `defaultName` and a fresh id) when missing or
    /// unreadable, and recorded unless the ledger cannot be written or `record` is false (a
    /// preview writes nothing).
    public static func current(in store: LedgerStore, defaultName: String, ids: any IDSource = RandomIDSource(),
                               record: Bool = true) throws -> Device {
        let path = Self.path(in: store)
        if let bytes = try? FileSystem.read(path, limit: 1 << 16), let json = try? JSONParser.parse(bytes),
           let id = json["id"]?.stringValue, let name = json["name"]?.stringValue, !id.isEmpty, !name.isEmpty {
            return Device(id: id, name: name)
        }
        let id = ids.next()
        let device = Device(id: id, name: (defaultName.isEmpty ? "device" : defaultName) + "-" + id.prefix(shortIDLength))
        // A ledger that cannot be written (a read-only copy) is still shown with a name; the
        // device is recorded the first time the ledger can be written.
        guard record, FileSystem.isWritable(path) else { return device }
        try FileSystem.writeAtomically(path, CanonicalJSON.encode(.object(["id": .string(device.id), "name": .string(device.name)])))
        return device
    }

    /// How many characters of the id the default name carries.
    public static let shortIDLength = 4

    /// The host name without its domain.
    public static var hostName: String {
        ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "device"
    }
}
