import Foundation
import LedgerKit

/// What a repository's object database holds, counted as `git count-objects -v` counts it:
/// loose objects and packs, with the disk space they take.
public struct ObjectStoreUsage: Sendable, Equatable {
    public var looseObjects = 0
    /// Disk space of the loose objects (allocated blocks, as `du` counts them).
    public var looseBytes = 0
    public var packs = 0
    /// Objects inside the packs (from their indexes; an object in two packs counts twice).
    public var packedObjects = 0
    /// Disk space of the packs and their indexes.
    public var packBytes = 0

    public var objects: Int { looseObjects + packedObjects }
    public var bytes: Int { looseBytes + packBytes }

    /// The object database of the repository whose git directory is `gitDirectory`.
    public static func measure(gitDirectory: String) -> ObjectStoreUsage {
        var usage = ObjectStoreUsage()
        let objects = gitDirectory + "/objects"
        for byte in 0..<256 {
            let dir = objects + "/" + NumberText.hex(UInt8(byte))
            for entry in (try? FileSystem.list(dir)) ?? [] where ObjectStore.isLooseObjectName(entry.name) {
                usage.looseObjects += 1
                usage.looseBytes += ObjectStore.diskUsage(dir + "/" + entry.name)
            }
        }
        for pack in ObjectStore.packs(in: gitDirectory) {
            usage.packs += 1
            usage.packBytes += ObjectStore.diskUsage(pack.path) + ObjectStore.diskUsage(pack.index)
            usage.packedObjects += ObjectStore.objectCount(ofIndex: pack.index)
        }
        return usage
    }
}

/// When a repository is due for maintenance: git's `gc --auto` rule, with the repository's
/// own `gc.auto` and `gc.autoPackLimit`.
public struct MaintenancePolicy: Sendable, Equatable {
    /// More loose objects than this (estimated from one of the 256 object directories, as
    /// git does) make the repository due; 0 turns automatic maintenance off (git's `gc.auto`).
    public var looseObjectLimit: Int
    /// More packs than this make it due; 0 turns the pack count off (`gc.autoPackLimit`).
    public var packLimit: Int

    /// git's defaults.
    public static let gitDefaults = MaintenancePolicy(looseObjectLimit: 6700, packLimit: 50)

    public init(looseObjectLimit: Int, packLimit: Int) {
        self.looseObjectLimit = looseObjectLimit
        self.packLimit = packLimit
    }

    /// The policy a repository's configuration sets (git's defaults where it says nothing).
    package init(repository: Repository) {
        self = Self.gitDefaults
        if let n = repository.configInteger("gc.auto") { looseObjectLimit = n }
        if let n = repository.configInteger("gc.autoPackLimit") { packLimit = n }
    }

    /// Whether `git gc --auto` would do something in `gitDirectory`. Reads one object
    /// directory and the pack directory: cheap enough to ask after every sync.
    public func isDue(gitDirectory: String) -> Bool {
        guard looseObjectLimit > 0 else { return false }
        // git looks at objects/17 and scales by 256: more than ceil(limit / 256) there.
        let sample = ((try? FileSystem.list(gitDirectory + "/objects/17")) ?? []).count { ObjectStore.isLooseObjectName($0.name) }
        if sample > (looseObjectLimit + 255) / 256 { return true }
        return packLimit > 0 && ObjectStore.packs(in: gitDirectory).count > packLimit
    }
}

/// Reading the object database's files directly (names, sizes, index headers).
enum ObjectStore {
    /// The 38 hex digits of a loose object's file name.
    static func isLooseObjectName(_ name: String) -> Bool {
        name.utf8.count == 38 && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The packs git would count: every `pack-*.pack` with its index, except those kept by a
    /// `.keep` file.
    static func packs(in gitDirectory: String) -> [(path: String, index: String)] {
        let dir = gitDirectory + "/objects/pack"
        let entries = (try? FileSystem.list(dir)) ?? []
        let names = Set(entries.map(\.name))
        return entries.compactMap { e in
            guard e.name.hasPrefix("pack-"), e.name.hasSuffix(".pack") else { return nil }
            let stem = String(e.name.dropLast(5))
            guard names.contains(stem + ".idx"), !names.contains(stem + ".keep") else { return nil }
            return (dir + "/" + e.name, dir + "/" + stem + ".idx")
        }
    }

    /// Allocated disk space of a file, in bytes (0 when it is gone).
    static func diskUsage(_ path: String) -> Int {
        var st = stat()
        guard lstat(path, &st) == 0 else { return 0 }
        return Int(st.st_blocks) * 512
    }

    /// The number of objects a pack index (version 2, or the original version 1) lists: the
    /// last entry of its fan-out table.
    static func objectCount(ofIndex path: String) -> Int {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 8)
        guard pread(fd, &header, 8, 0) == 8 else { return 0 }
        // Version 2 starts with "\377tOc" and the version; version 1 with the fan-out table.
        let fanout: off_t = header[0...3] == [0xFF, 0x74, 0x4F, 0x63] ? 8 : 0
        var last = [UInt8](repeating: 0, count: 4)
        guard pread(fd, &last, 4, fanout + 255 * 4) == 4 else { return 0 }
        return last.reduce(0) { $0 << 8 | Int($1) }
    }
}
