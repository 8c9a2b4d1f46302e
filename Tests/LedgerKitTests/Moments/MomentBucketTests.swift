import LedgerKit
import Testing

@Suite struct MomentBucketTests {
    /// Buckets come from the recorded wall-clock time, in the timestamp's own offset — even
    /// when the same instant is another day in UTC.
    @Test(arguments: [
        ("2026-11-18T15:42:00+01:00", "2026-11-18T15", "2026-11-18", "2026-W47", "2026-11", "2026"),
        ("2026-11-18T15:42:00-08:00", "2026-11-18T15", "2026-11-18", "2026-W47", "2026-11", "2026"),
        ("2026-11-18T00:00:00+00:00", "2026-11-18T00", "2026-11-18", "2026-W47", "2026-11", "2026"),
        ("2026-11-22T23:59:59+05:30", "2026-11-22T23", "2026-11-22", "2026-W47", "2026-11", "2026"),
        ("2026-11-23T00:00:00+05:30", "2026-11-23T00", "2026-11-23", "2026-W48", "2026-11", "2026"),
        // The ISO week-numbering year: 2026 has 53 weeks, and 2027-01-01 (a Friday) is in 2026-W53.
        ("2026-12-31T23:59:59-10:00", "2026-12-31T23", "2026-12-31", "2026-W53", "2026-12", "2026"),
        ("2027-01-01T00:30:00+14:00", "2027-01-01T00", "2027-01-01", "2026-W53", "2027-01", "2027"),
        ("2027-01-03T22:00:00+01:00", "2027-01-03T22", "2027-01-03", "2026-W53", "2027-01", "2027"),
        ("2027-01-04T08:00:00+01:00", "2027-01-04T08", "2027-01-04", "2027-W01", "2027-01", "2027"),
        // A Monday in December that belongs to the next ISO year, and a Sunday in January to the last.
        ("2024-12-30T12:00:00Z", "2024-12-30T12", "2024-12-30", "2025-W01", "2024-12", "2024"),
        ("2021-01-03T12:00:00+00:00", "2021-01-03T12", "2021-01-03", "2020-W53", "2021-01", "2021"),
        ("2020-02-29T23:59:00-08:00", "2020-02-29T23", "2020-02-29", "2020-W09", "2020-02", "2020"),
        ("2026-03-29T02:30:00+01:00", "2026-03-29T02", "2026-03-29", "2026-W13", "2026-03", "2026"),
        ("2026-06-15T00:10:00+12:45", "2026-06-15T00", "2026-06-15", "2026-W25", "2026-06", "2026"),
    ])
    func bucketsOfARecordedTime(timestamp: String, hour: String, day: String, week: String, month: String, year: String) throws {
        let t = try #require(Timestamp(iso8601: timestamp))
        #expect(MomentBucket(containing: t, scale: .hour).label == hour)
        #expect(MomentBucket(containing: t, scale: .day).label == day)
        #expect(MomentBucket(containing: t, scale: .week).label == week)
        #expect(MomentBucket(containing: t, scale: .month).label == month)
        #expect(MomentBucket(containing: t, scale: .year).label == year)
        for scale in BucketScale.allCases {
            let b = MomentBucket(containing: t, scale: scale)
            #expect(b.contains(t))
            #expect(MomentBucket(b.label) == b, "the label \(b.label) reads back")
        }
    }

    @Test func theSameInstantRecordedInAnotherZoneIsInThatZonesBuckets() throws {
        let paris = try #require(Timestamp(iso8601: "2026-12-31T23:30:00+01:00"))
        let tokyo = paris.withOffset(9 * 3600)  // 2027-01-01T07:30+09:00
        #expect(MomentBucket(containing: paris, scale: .day).label == "2026-12-31")
        #expect(MomentBucket(containing: tokyo, scale: .day).label == "2027-01-01")
        #expect(MomentBucket(containing: tokyo, scale: .week).label == "2026-W53")
    }

    @Test(arguments: [(2015, 53), (2020, 53), (2024, 52), (2025, 52), (2026, 53), (2027, 52), (2032, 53)])
    func weeksInAnISOYear(year: Int, weeks: Int) {
        #expect(MomentBucket.isoWeeks(in: year) == weeks)
    }

    @Test func week53Of2026RunsFromMonday28DecemberToSunday3January() throws {
        let w = try #require(MomentBucket("2026-W53"))
        #expect(w.firstDay == LocalDate("2026-12-28"))
        #expect(w.lastDay == LocalDate("2027-01-03"))
        #expect(w.firstDay.isoWeekday == 1)
        #expect(w.divided(into: .day).map(\.label) == ["2026-12-28", "2026-12-29", "2026-12-30", "2026-12-31",
                                                      "2027-01-01", "2027-01-02", "2027-01-03"])
        #expect(w.next.label == "2027-W01")
    }

    @Test(arguments: ["2026-W54", "2025-W53", "2026-W00", "2026-W7", "2026-13", "2026-11-31", "2026-11-18T24",
                      "2026-11-18T5", "26-11", "2026-11-18T15:00x", "", "W47", "20261", "2026-1-18"])
    func labelsThatAreNotBuckets(label: String) {
        #expect(MomentBucket(label) == nil)
    }

    @Test(arguments: [("2026-11-18T15", BucketScale.hour), ("2026-11-18", .day), ("2026-W47", .week), ("2026-w47", .week),
                      ("2026-11", .month), ("2026", .year)])
    func labelsName(label: String, scale: BucketScale) throws {
        let b = try #require(MomentBucket(label))
        #expect(b.scale == scale)
        #expect(b.label == label.uppercased())
    }

    @Test(arguments: [("2026-11-21", BucketScale.day, BucketScale.hour, 24), ("2026-W47", .week, .day, 7),
                      ("2028-02", .month, .day, 29), ("2026-02", .month, .day, 28), ("2026", .year, .day, 365),
                      ("2028", .year, .day, 366), ("2026", .year, .month, 12), ("2026-11", .month, .day, 30),
                      // The last buckets a date can be in: the view steps past them to stop.
                      ("9999", .year, .day, 365), ("9999", .year, .month, 12), ("9999-12", .month, .day, 31), ("9999-W52", .week, .day, 7),
                      ("9999-12-31", .day, .hour, 24)])
    func divisions(label: String, scale: BucketScale, into: BucketScale, count: Int) throws {
        let b = try #require(MomentBucket(label))
        #expect(b.scale == scale)
        let parts = b.divided(into: into)
        #expect(parts.count == count)
        #expect(parts.first?.start == b.start)
        #expect(parts.allSatisfy { b.contains($0.start) })
        #expect(zip(parts, parts.dropFirst()).allSatisfy { $0.next == $1 })
    }

    @Test func theViewsSpans() throws {
        let d = try #require(LocalDate("2026-11-21"))
        #expect(MomentView.today.span(around: d).label == "2026-11-21")
        #expect(MomentView.week.span(around: d).label == "2026-W47")
        #expect(MomentView.month.span(around: d).label == "2026-11")
        #expect(MomentView.year.span(around: d).label == "2026")
        #expect(MomentView.year.dotScale(byMonth: true) == .month)
    }

    /// December 9999 is the last month a date can name; the buckets after it are still
    /// counted (a view of it steps there to know where to stop).
    @Test func theLastBucketsHaveASuccessor() throws {
        for label in ["9999-12-31T23", "9999-12-31", "9999-W52", "9999-12", "9999"] {
            let b = try #require(MomentBucket(label))
            #expect(b.next.firstDay == b.lastDay.adding(days: 1), "\(label)")
            #expect(b.next > b)
        }
        #expect(MomentBucket(containing: try #require(LocalDate("9999-12-31")), scale: .year).lastDay.description == "9999-12-31")
    }
}
