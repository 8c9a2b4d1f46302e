import Foundation

extension DocumentRepository where D == Experience {
    /// The experiences whose recorded wall-clock time falls in `bucket`, reading only the
    /// month shards (`moments/experiences/<YYYY>/<MM>/`) the bucket overlaps: a day or a
    /// week is one or two directories, a year twelve, whatever the size of the ledger.
    ///
    /// Files are read and validated on the store's worker threads. An invalid experience is refused
    /// with the problems `ledger check` reports (all of them, for every invalid file in the
    /// shards read). A file in the wrong shard is not seen here; `ledger check --fix` moves it.
    public func experiences(in bucket: MomentBucket) throws -> [Experience] {
        var paths: [String] = []
        var month = MomentBucket(containing: bucket.firstDay, scale: .month)
        while month.firstDay <= bucket.lastDay {
            paths += try files.files(in: files.shard(for: month.firstDay)).map(\.path)
            month = month.next
        }
        var found: [Experience] = []
        var problems: [Problem] = []
        var invalid: [String] = []
        for result in read(paths.sorted()) {
            switch result {
            case .success(let e?): if bucket.contains(e.timestamp) { found.append(e) }
            case .success(nil): break  // removed while we were reading
            case .failure(let error as LedgerError) where error.code == .invalid && !error.problems.isEmpty:
                invalid.append(error.problems[0].path)
                problems += error.problems
            case .failure(let error): throw error
            }
        }
        if !problems.isEmpty {
            let what = invalid.count == 1 ? "\(invalid[0]) is invalid; fix it" : "\(invalid.count) experiences of \(bucket.label) are invalid; fix them"
            throw LedgerError.invalid("\(what) by hand and run `ledger check`:", problems: problems)
        }
        return found
    }
}
