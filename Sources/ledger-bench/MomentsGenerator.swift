import Foundation
import LedgerKit

/// Moments data for the benchmark ledger: about ten experiences a day (36,500 every ten years:
/// 365,000 at scale 10) of every type, a few referring to a handful of
/// small real photos.
enum MomentsGenerator {
    static let notes = ["coffee with Sam", "the first frost", "a long call with Mum", "fresh bread", "finishing the chapter",
                        "a quiet run", "soup that tasted like home", "a kind note", "the light at 5pm", "laughing at dinner"]

    static func generate(_ g: inout BenchGenerator) throws {
        let photos = (0..<8).map { tinyPNG(seed: UInt8($0)) }
        var stored: [String] = []
        for photo in photos {
            let name = MomentsPhotos.fileName(for: photo)!
            let path = g.root + "/" + MomentsPhotos.payload(forFile: name)
            try FileManager.default.createDirectory(atPath: g.root + "/" + MomentsPhotos.directory, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: path, contents: Data(photo)) else { throw LedgerError.failure("cannot write \(path)") }
            stored.append(MomentsPhotos.payload(forFile: name))
        }
        for day in g.days {
            let count = Int.random(in: 6...14, using: &g.random)
            for _ in 0..<count {
                let t = g.timestamp(day, hour: Int.random(in: 7...23, using: &g.random),
                                    minute: Int.random(in: 0...59, using: &g.random), second: Int.random(in: 0...59, using: &g.random))
                let roll = Int.random(in: 0..<100, using: &g.random)
                let (type, payload): (ExperienceType, String?) =
                    roll < 60 ? (.note, notes[Int.random(in: 0..<notes.count, using: &g.random)])
                    : roll < 85 ? (.dot, nil)
                    : roll < 95 ? (.link, "https://example.com/\(Int.random(in: 1...999, using: &g.random))")
                    : (.photo, stored[Int.random(in: 0..<stored.count, using: &g.random)])
                let m = Int.random(in: 0..<10, using: &g.random)
                let moment: MomentType = m < 6 ? .now : m < 9 ? .today : .thisWeek
                try g.save(Experience(id: g.id(), timestamp: t, momentType: moment, experienceType: type, payload: payload, createdAt: t))
            }
        }
    }

    /// A valid 4×4 PNG of one colour (uncompressed deflate), different for each seed.
    static func tinyPNG(seed: UInt8) -> [UInt8] {
        var raw: [UInt8] = []
        for _ in 0..<4 { raw += [0] + [seed &* 40, 200 &- seed &* 20, 90 &+ seed &* 17].repeated(4) }
        var adlerA: UInt32 = 1, adlerB: UInt32 = 0
        for b in raw { adlerA = (adlerA + UInt32(b)) % 65521; adlerB = (adlerB + adlerA) % 65521 }
        let n = UInt16(raw.count)
        let zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)] + raw
            + bigEndian((adlerB << 16) | adlerA)
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", bigEndian(4) + bigEndian(4) + [8, 2, 0, 0, 0]) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }
}

extension Array {
    fileprivate func repeated(_ n: Int) -> [Element] { (0..<n).flatMap { _ in self } }
}
