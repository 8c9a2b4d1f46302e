import Foundation

/// The apps whose data a ledger holds; each owns the top-level directory of its name.
public enum AppID: String, Sendable, CaseIterable, Comparable {
    case ledger, waterline, brew, hydrate, moments

    /// The name people know the app by.
    public var title: String {
        switch self {
        case .ledger: "Ledger"
        case .waterline: "Waterline"
        case .brew: "BrewGuide"
        case .hydrate: "Water Reminder"
        case .moments: "DotLife Moments"
        }
    }

    public static func < (a: AppID, b: AppID) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One kind of document and where its files live (SPEC §3).
package struct DocumentKind: Sendable, Hashable, CustomStringConvertible {
    /// How documents of a collection are spread over sub-directories.
    package enum Sharding: Sendable, Hashable {
        /// `<directory>/<id>.json`
        case none
        /// `<directory>/<YYYY>/<id>.json`
        case year
        /// `<directory>/<YYYY>/<MM>/<id>.json`
        case yearMonth
    }

    /// Where the files are.
    package enum Location: Sendable, Hashable {
        /// A single document at this relative path.
        case singleton(String)
        /// Many documents, one per id, under this relative directory.
        case collection(String, Sharding)
    }

    /// A stable name used in messages and sync reports, such as `waterline.session`.
    package let name: String
    package let app: AppID
    package let location: Location

    package init(_ name: String, app: AppID, _ location: Location) {
        self.name = name
        self.app = app
        self.location = location
    }

    package var description: String { name }

    /// The relative path of a singleton, or of document `id` of a collection sharded by `date`.
    package func path(id: String? = nil, date: LocalDate? = nil) -> String {
        switch location {
        case .singleton(let path): return path
        case .collection(let dir, let sharding):
            let name = (id ?? "") + ".json"
            switch sharding {
            case .none: return "\(dir)/\(name)"
            case .year: return "\(dir)/\(pad(date?.year ?? 0, 4))/\(name)"
            case .yearMonth: return "\(dir)/\(pad(date?.year ?? 0, 4))/\(pad(date?.month ?? 0))/\(name)"
            }
        }
    }

    /// Whether `name` is a shard directory's name at `level` below a collection's directory:
    /// a four-digit year at level 0, a month `01`–`12` at level 1.
    package static func isShardName(_ name: String, level: Int) -> Bool {
        let u = name.utf8
        guard u.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        switch level {
        case 0: return u.count == 4
        case 1: return u.count == 2 && (1...12).contains(Int(name) ?? 0)
        default: return false
        }
    }

    /// The number of directory levels between a collection's directory and its files.
    var shardDepth: Int {
        guard case .collection(_, let sharding) = location else { return 0 }
        switch sharding {
        case .none: return 0
        case .year: return 1
        case .yearMonth: return 2
        }
    }
}

/// Document ids: `[a-z0-9][a-z0-9-]{0,63}` (SPEC §3). Anything else is refused, so that no id
/// can name a path outside its directory.
package enum DocumentID {
    /// The rule, for messages.
    package static let rule = "ids are 1–64 characters of a–z, 0–9 and '-', not starting with '-'"

    /// The sentence for an id that breaks the rule.
    package static func problem(_ id: String) -> String {
        "\"\(id)\" is not a valid id: \(rule)"
    }

    /// Whether `id` is a valid document id.
    package static func isValid(_ id: some StringProtocol) -> Bool { isValid(utf8: id.utf8) }

    /// Whether the UTF-8 bytes `id` are a valid document id: the one place the rule is written.
    @inline(__always)
    package static func isValid(utf8 id: some Collection<UInt8>) -> Bool {
        guard (1...64).contains(id.count), let first = id.first, first != UInt8(ascii: "-") else { return false }
        return id.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    /// The id of a document's file name `<id>.json`, or nil when the name is not one.
    package static func inFileName(_ name: String) -> String? {
        guard name.hasSuffix(".json") else { return nil }
        let id = name.dropLast(5)
        return isValid(id) ? String(id) : nil
    }

    /// A readable id made from a name ("My V60!" → "my-v60"), in any script: letters are
    /// spelt in Latin first ("Kölsch" → "kolsch", "Пиво" → "pivo"); nil when nothing is left.
    package static func slug(_ name: String, maxLength: Int = 40) -> String? {
        var out = ""
        var dash = false
        let latin = name.applyingTransform(StringTransform("Any-Latin; Latin-ASCII"), reverse: false) ?? name
        for ch in latin.lowercased().unicodeScalars {
            if (ch >= "a" && ch <= "z") || (ch >= "0" && ch <= "9") {
                if dash, !out.isEmpty { out.append("-") }
                out.unicodeScalars.append(ch)
                dash = false
            } else {
                dash = true
            }
            if out.count >= maxLength { break }
        }
        return out.isEmpty ? nil : out
    }
}

/// Where new ids come from: random in normal use, seeded in tests and benchmarks.
public protocol IDSource: Sendable {
    /// A fresh id, valid by `DocumentID.isValid`.
    func next() -> String
}

/// Ten random characters of `a–z0-9` (51 bits): collisions between two offline machines are
/// not a practical concern.
public struct RandomIDSource: IDSource {
    public init() {}
    /// How many ids there are: 36^10.
    static let space: UInt64 = 3_656_158_440_062_976

    /// One draw of the system's generator for the whole id (a system call each), its ten
    /// base-36 digits uniform as ten draws would be.
    public func next() -> String {
        var n = UInt64.random(in: 0..<Self.space)
        return IDAlphabet.make(count: 10) {
            defer { n /= 36 }
            return n % 36
        }
    }
}

/// A reproducible id sequence from a seed; thread-safe.
public final class SeededIDSource: IDSource, @unchecked Sendable {
    // @unchecked: `random` is only touched under `lock`.
    private var random: SplitMix64
    private let lock = NSLock()

    public init(seed: UInt64) { random = SplitMix64(seed: seed) }

    public func next() -> String {
        lock.withLock { IDAlphabet.make(count: 10) { random.next() % 36 } }
    }
}

/// A small, fast random number generator whose sequence is fixed by its seed (SplitMix64),
/// for reproducible ids, benchmark data and randomized tests.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum IDAlphabet {
    static let characters = Array("abcdefghijklmnopqrstuvwxyz0123456789".unicodeScalars)
    static func make(count: Int, _ next: () -> UInt64) -> String {
        var s = String.UnicodeScalarView()
        for _ in 0..<count { s.append(characters[Int(next())]) }
        return String(s)
    }
}
