/// The views of DotLife Moments: one span of time drawn as dots.
public enum MomentView: String, Sendable, CaseIterable {
    /// A day as 24 hour dots.
    case today
    /// An ISO week (Monday to Sunday) as 7 day dots.
    case week
    /// A month as a calendar of day dots.
    case month
    /// A year as its days (or, asked for, its 12 months).
    case year

    /// The span the view shows around `date`.
    public func span(around date: LocalDate) -> MomentBucket {
        switch self {
        case .today: MomentBucket(containing: date, scale: .day)
        case .week: MomentBucket(containing: date, scale: .week)
        case .month: MomentBucket(containing: date, scale: .month)
        case .year: MomentBucket(containing: date, scale: .year)
        }
    }

    /// The scale of the view's dots (`byMonth` only changes the year view).
    public func dotScale(byMonth: Bool = false) -> BucketScale {
        switch self {
        case .today: .hour
        case .week, .month: .day
        case .year: byMonth ? .month : .day
        }
    }
}

/// How a dot is drawn. Monochrome, and never a judgement: a bucket without experiences is
/// background texture, one with an experience is filled, one with several is a subtle variant.
public enum DotMark: Sendable, Hashable {
    /// No experience here: a faint background texture.
    case texture
    /// One experience.
    case filled
    /// Two or more.
    case several

    public init(count: Int) {
        self = count <= 0 ? .texture : count == 1 ? .filled : .several
    }
}

/// A span of time divided into dots, each with the number of experiences it holds.
public struct DotMatrix: Sendable {
    /// The span shown (a day, week, month or year).
    public let span: MomentBucket
    /// The dots, in time order.
    public let buckets: [MomentBucket]
    /// Experiences per dot, parallel to `buckets`.
    public private(set) var counts: [Int]

    /// The dots of `span` at `scale`, counting `experiences` by their recorded wall-clock time
    /// (experiences outside the span are ignored).
    public init(span: MomentBucket, scale: BucketScale, experiences: some Sequence<Experience>) {
        self.span = span
        let buckets = span.divided(into: scale)
        self.buckets = buckets
        var counts = [Int](repeating: 0, count: buckets.count)
        for e in experiences {
            // The dot by a binary search of the dots in time order (not a dictionary of them:
            // its first use costs the runtime a scan for the key's Hashable, a tenth of a view).
            let b = MomentBucket(containing: e.timestamp, scale: scale)
            var low = 0, high = buckets.count
            while low < high {
                let mid = (low + high) / 2
                if buckets[mid] < b { low = mid + 1 } else { high = mid }
            }
            if low < buckets.count, buckets[low] == b { counts[low] += 1 }
        }
        self.counts = counts
    }

    /// The experiences in the span.
    public var total: Int { counts.reduce(0, +) }

    /// The mark of each dot, parallel to `buckets`.
    public var marks: [DotMark] { counts.map(DotMark.init(count:)) }

    /// The count of `bucket`'s dot (0 when it is not one of them).
    public func count(of bucket: MomentBucket) -> Int {
        buckets.firstIndex(of: bucket).map { counts[$0] } ?? 0
    }
}
