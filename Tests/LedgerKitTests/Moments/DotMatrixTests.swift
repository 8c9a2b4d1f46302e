import Foundation
import LedgerKit
import Testing

@Suite struct DotMatrixTests {
    static func experience(_ timestamp: String, _ type: ExperienceType = .dot) -> Experience {
        let t = Timestamp(iso8601: timestamp)!
        return Experience(id: "e" + String(t.epochMilliseconds), timestamp: t, momentType: .now, experienceType: type,
                          payload: nil, createdAt: t)
    }

    @Test func countsByRecordedWallClockHour() throws {
        let day = try #require(MomentBucket("2026-11-21"))
        let m = DotMatrix(span: day, scale: .hour, experiences: [
            Self.experience("2026-11-21T09:05:00+01:00"),
            Self.experience("2026-11-21T09:55:00-05:00"),  // 09 on its own clock, although 15:55 in Paris
            Self.experience("2026-11-21T23:59:59+14:00"),
            Self.experience("2026-11-22T00:00:00+01:00"),  // the next day: not in this span
        ])
        #expect(m.buckets.count == 24)
        #expect(m.counts[9] == 2)
        #expect(m.counts[23] == 1)
        #expect(m.total == 3)
        #expect(m.marks[9] == .several)
        #expect(m.marks[23] == .filled)
        #expect(m.marks[0] == .texture)
    }

    /// Every experience of a year counted in its dot, at each scale a year is drawn with, as a
    /// look at every dot in turn would count it — the edges of the span included (the first
    /// and last minutes of the year) and an experience outside it left out.
    @Test(arguments: [BucketScale.day, .month])
    func aYearCountsEachExperienceInItsDot(scale: BucketScale) throws {
        let year = try #require(MomentBucket("2026"))
        var times = ["2026-01-01T00:00:00+01:00", "2026-12-31T23:59:59+01:00", "2025-12-31T23:59:59+01:00", "2027-01-01T00:00:00+01:00"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let day = Int.random(in: 1...28, using: &generator), month = Int.random(in: 1...12, using: &generator)
            let hour = Int.random(in: 0...23, using: &generator)
            times.append(String(format: "2026-%02d-%02dT%02d:30:00+01:00", month, day, hour))
        }
        let experiences = times.map { Self.experience($0) }
        let m = DotMatrix(span: year, scale: scale, experiences: experiences)
        let naive = m.buckets.map { b in experiences.filter { MomentBucket(containing: $0.timestamp, scale: scale) == b }.count }
        #expect(m.counts == naive)
        #expect(m.total == 302, "the two outside the year are left out")
    }

    @Test(arguments: [(0, DotMark.texture), (1, .filled), (2, .several), (40, .several)])
    func marks(count: Int, mark: DotMark) {
        #expect(DotMark(count: count) == mark)
    }

    @Test func aWeekAcrossTheYearBoundary() throws {
        let week = try #require(MomentBucket("2026-W53"))
        let m = DotMatrix(span: week, scale: .day, experiences: [
            Self.experience("2026-12-31T20:00:00+01:00"), Self.experience("2027-01-01T00:10:00+01:00"),
            Self.experience("2027-01-01T10:00:00+01:00"), Self.experience("2027-01-04T10:00:00+01:00"),
        ])
        #expect(m.counts == [0, 0, 0, 1, 2, 0, 0])
        #expect(m.count(of: MomentBucket("2027-01-01")!) == 2)
    }
}
