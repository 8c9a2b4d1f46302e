import Foundation

/// Exponential backoff with jitter, for anything that retries: a push the remote keeps
/// refusing because other devices push at the same moment, and autosync's rounds while the
/// remote cannot be reached.
///
/// After `n` failures in a row the wait is drawn from `[d/2, d]`, where
/// `d = min(cap, base × 2^(n−1))` ("equal jitter"): it grows quickly to the cap, is never
/// zero (no spinning), and two devices that failed together do not retry in step.
public struct Backoff: Sendable, Hashable {
    /// The longest wait after the first failure, in seconds.
    public var base: Double
    /// The longest wait ever, in seconds.
    public var cap: Double

    public init(base: Double, cap: Double) {
        self.base = base
        self.cap = max(base, cap)
    }

    /// Seconds to wait after `failures` failures in a row (at least 1); `random` is a number in
    /// `0..<1` (the caller's generator, so that tests can choose it).
    public func delay(afterFailures failures: Int, random: Double) -> Double {
        let d = ceiling(afterFailures: failures)
        return d / 2 + d / 2 * min(max(random, 0), 1)
    }

    /// The upper bound of the wait after `failures` failures in a row.
    public func ceiling(afterFailures failures: Int) -> Double {
        let n = min(max(failures, 1), 62)
        return min(cap, base * pow(2, Double(n - 1)))
    }

    /// Waits of a push that the remote refused because it kept receiving other changes:
    /// a fraction of a second at first, a few seconds at most.
    public static let contention = Backoff(base: 0.2, cap: 4)
}
