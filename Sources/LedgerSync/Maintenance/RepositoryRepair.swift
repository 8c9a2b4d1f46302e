import CGit2
import Foundation
import LedgerKit

/// What a power cut leaves in a git repository that a writer did not flush (plain git with its
/// defaults, or ledger before it flushed), found and put right before ledger works there.
///
/// The damage seen after cuts: a reference file all zeros or empty; a reference naming an
/// object that is missing or empty; loose objects of zero bytes (which libgit2 would take as
/// present and never write again); a truncated index; `packed-refs` empty after `git gc`
/// removed the loose references (no branch left). The repairs never rewrite history: a
/// reference goes back to the newest commit its reflog (or HEAD's) names that can still be
/// read — the work tree keeps what came after, and the next sync commits it — or, for a
/// remote's branch, to the newest commit there that descends from what this ledger last saw
/// of it; objects come back from the work tree or from the other repository. What cannot be
/// repaired safely stops the command with one sentence naming the damage and the command that
/// repairs it.
package enum RepositoryRepair {
    // MARK: - Finding damage cheaply

    /// The damage a glance finds in the ledger's repository at `gitDirectory` (`repository`,
    /// when it is open already): HEAD and its branch readable, their commit and tree readable,
    /// the index readable. A phrase each; empty when healthy. Costs a few small reads.
    ///
    /// With a `record` (a device-local file: `check`, which runs after every hand edit), a
    /// commit found readable is written down with the stamps of its files, and is not looked at
    /// again while it is still HEAD's and they have not changed since (git's racy rule, as for
    /// documents): looking means loading libgit2 and its fifteen libraries, which parse the
    /// system's certificates — a few milliseconds of every check.
    package static func examine(gitDirectory: String, repository: Repository? = nil, record: String? = nil) -> [String] {
        var damage: [String] = []
        let branch: String
        switch Reference.read("HEAD", in: gitDirectory) {
        case .symbolic(let name): branch = name
        case .commit: branch = "HEAD"  // detached (a rebase): its commit is looked at below
        case .unreadable(let flaw): return ["HEAD (\(gitDirectory)/HEAD) \(flaw.present)"]
        case .absent: return ["HEAD (\(gitDirectory)/HEAD) is missing"]
        }
        switch Reference.read(branch, in: gitDirectory) {
        case .unreadable(let flaw):
            damage.append("\(branch) \(flaw.present)")
        case .absent:
            if historyExisted(gitDirectory: gitDirectory, branch: branch) { damage.append("\(branch) is gone") }
        case .commit(let id):
            if let record, ReadableCommit.vouched(id, gitDirectory: gitDirectory, record: record) { break }
            if let repo = repository ?? (try? Repository.open(gitDirectory)) {
                if let tree = repo.readableTree(ofCommit: id) {
                    if let record { ReadableCommit.write(id, tree: tree, gitDirectory: gitDirectory, record: record) }
                } else {
                    damage.append("\(branch) names the commit \(id.short), which cannot be read (\(repo.objectProblem(id)))")
                }
            }
        case .symbolic:
            damage.append("\(branch) is a symbolic reference")
        }
        if let problem = IndexFile.problem(at: gitDirectory + "/index") { damage.append(problem) }
        return damage
    }

    /// Whether the branch had commits: a reflog of it (or of HEAD) names one, or the
    /// repository holds packs (a clone's, a fetch's, `git gc`'s).
    package static func historyExisted(gitDirectory: String, branch: String) -> Bool {
        !Reference.reflog(branch, in: gitDirectory).isEmpty || !Reference.reflog("HEAD", in: gitDirectory).isEmpty
            || !ObjectStore.packs(in: gitDirectory).isEmpty
    }

    // MARK: - Repairing

    /// The git directory of the remote a ledger syncs with (`name`, else its branch's, else
    /// `origin`) when it is on a path, or nil: repairs may take objects from it, and repair it.
    package static func pathRemote(of repo: Repository, named name: String?) -> String? {
        let branch = repo.headReferenceName.map { String($0.dropFirst("refs/heads/".count)) } ?? "main"
        let remote = name ?? repo.config("branch.\(branch).remote") ?? "origin"
        return repo.config("remote.\(remote).url").flatMap { try? Remote.localGitDirectory($0) }
    }

    /// Repairs a ledger's repository (see the type's summary); the caller holds the writer
    /// lock. Returns a sentence per repair; throws a `.failure` naming the damage and its
    /// repair when one cannot be made safely. `remote` is the remote on a path the ledger
    /// syncs with, when it has one: missing objects are taken from there too.
    package static func repairLedger(_ repo: Repository, remote: String? = nil) throws -> [String] {
        var notes: [String] = []
        let gitDirectory = repo.gitDirectory
        let where_ = repo.workdir
        if let note = try repairHead(gitDirectory: gitDirectory) { notes.append(note) }
        // Every object folder is searched when a glance finds damage; else those changed since
        // the last search.
        let scan = ObjectScanRecord(path: gitDirectory + "/ledger/objects-scanned")
        let removed = scan.removeEmptyObjects(in: gitDirectory, everywhere: !examine(gitDirectory: gitDirectory, repository: repo).isEmpty)
        if !removed.isEmpty {
            let objects = removed.count == 1 ? "an empty loose object" : "\(removed.count) empty loose objects"
            notes.append("removed \(objects) (\(removed.map(\.short).sorted().joined(separator: ", "))) that a power cut left")
        }
        guard case .symbolic(let branch) = Reference.read("HEAD", in: gitDirectory) else { return notes }
        var restored = false
        switch try restoreReference(branch, in: repo) {
        case .healthy: break
        case .restored(let note): notes.append(note); restored = true
        case .unrecoverable(let damage):
            let tips = repo.commitsWithoutChildren()
            if let newest = tips.first {
                // (git's own update-ref refuses a reference it cannot read: the file is written.)
                let remain = tips.count == 1 ? "one commit without a branch remains" : "\(tips.count) commits without a branch remain, the newest"
                throw LedgerError.failure("the branch \(branch) of \(where_) \(damage), and no reflog names a commit that can be read; \(remain) \(newest.short): run `echo \(newest) > \(gitDirectory)/\(branch)` to put the branch there (see it first with `git -C \(where_) log -3 \(newest)`), then sync again; nothing was committed or pushed")
            }
            throw LedgerError.failure("the branch \(branch) of \(where_) \(damage), and no commit is left to restore it from; \(next: .sync(.cloneAgain)) and copy your files there; nothing was committed or pushed")
        }
        for tracking in Reference.names(under: "refs/remotes", in: gitDirectory) {
            switch try restoreReference(tracking, in: repo) {
            case .healthy: break
            case .restored(let note): notes.append(note)
            case .unrecoverable(let damage):
                // The next fetch writes it again; until then nothing relies on it.
                try repo.deleteDamagedReference(tracking)
                notes.append("removed \(tracking), which \(damage) (the next fetch writes it again)")
            }
        }
        notes += try restoreObjects(repo, removed: removed, from: remote)
        if let problem = IndexFile.problem(at: gitDirectory + "/index") ?? (restored ? "" : nil) {
            notes.append(try rebuildIndex(repo, because: problem))
        }
        return notes
    }

    /// Repairs a remote on a path (a bare repository) before a sync fetches from it and pushes
    /// to it; the caller holds its push lock. `branch` is the branch synced there, `known` what
    /// this ledger last fetched of it (its tracking reference), `ledger` this ledger's
    /// repository, where the objects the remote lost may still be.
    package static func repairRemote(gitDirectory: String, branch: String, known: ObjectID?, ledger: Repository) throws -> [String] {
        guard FileSystem.exists(gitDirectory + "/HEAD") || FileSystem.exists(gitDirectory + "/objects") else { return [] }
        var notes: [String] = []
        let name = "the remote \(gitDirectory)"
        if let note = try repairHead(gitDirectory: gitDirectory, branch: branch) { notes.append("\(name): " + note) }
        guard let repo = try? Repository.open(gitDirectory) else { return notes }
        // (Its record of searches is kept in the ledger: nothing of ledger's is written there.)
        let scan = ObjectScanRecord(path: ledger.gitDirectory + "/ledger/objects-scanned-" + String(FNV1a.hash(Array(gitDirectory.utf8)), radix: 36))
        let ref = "refs/heads/" + branch
        let damaged: Bool
        switch Reference.read(ref, in: gitDirectory) {
        case .commit(let id): damaged = !repo.isReadableCommit(id)
        case .absent: damaged = historyExisted(gitDirectory: gitDirectory, branch: ref)
        default: damaged = true
        }
        let removed = scan.removeEmptyObjects(in: gitDirectory, everywhere: damaged)
        // What the remote lost and this ledger has (it pushed it) is copied back first: the
        // branch may need it to be read.
        if !removed.isEmpty {
            let copied = removed.filter { ledger.copyObject($0, to: repo) }.count
            let objects = removed.count == 1 ? "an empty loose object" : "\(removed.count) empty loose objects"
            let which = copied == removed.count ? (removed.count == 1 ? "it" : "them") : "\(copied) of them"
            notes.append("\(name): removed \(objects) that a power cut left" + (copied == 0 ? "" : ", and wrote \(which) again from this ledger"))
        }
        switch try restoreReference(ref, in: repo) {
        case .healthy: break
        case .restored(let note): notes.append("\(name): " + note)
        case .unrecoverable(let damage):
            // The newest commit there that contains what this ledger last saw of the branch.
            // (Knowing nothing of it, only a history that is alone there is taken.)
            let tips = repo.commitsWithoutChildren()
            let candidates = known.map { known in tips.filter { $0 == known || (try? repo.isAncestor(known, of: $0)) ?? false } } ?? (tips.count == 1 ? tips : [])
            try repo.deleteDamagedReference(ref)
            if let tip = candidates.first {
                try repo.setReference(ref, to: tip, message: "ledger: restored after a power cut")
                notes.append("\(name): \(ref) \(damage); restored it to \(tip.short), the newest commit there that contains what this ledger last fetched (\(known!.short))")
            } else if let known, ledger.copyCommit(known, to: repo) {
                try repo.setReference(ref, to: known, message: "ledger: restored after a power cut")
                notes.append("\(name): \(ref) \(damage); restored it to \(known.short), what this ledger last fetched of it")
            } else if Reference.read(ref, in: gitDirectory) != .absent || known != nil {
                throw LedgerError.failure("\(ref) of \(name) \(damage), and neither that repository nor this ledger knows which commit it named; the device that synced last can repair it: there, run `git push --force-with-lease=\(branch) \(gitDirectory) \(branch)` (or restore the disk from a backup); nothing was committed or pushed")
            }
        }
        return notes
    }

    /// What `restoreReference` found: nothing wrong, a repair (a sentence), or damage it could
    /// not repair (a phrase: "holds only zeros").
    enum Restoration {
        case healthy
        case restored(String)
        case unrecoverable(String)
    }

    /// Puts `name` back on the newest commit its reflog (or, for a branch, HEAD's) names that
    /// can be read, when it is damaged: unreadable, naming an unreadable commit, or gone while
    /// its reflog shows it existed.
    static func restoreReference(_ name: String, in repo: Repository) throws -> Restoration {
        let gitDirectory = repo.gitDirectory
        let damage: (present: String, past: String)
        switch Reference.read(name, in: gitDirectory) {
        case .commit(let id):
            guard !repo.isReadableCommit(id) else { return .healthy }
            let commit = "the commit \(id.short), which cannot be read (\(repo.objectProblem(id)))"
            damage = ("names " + commit, "named " + commit)
        case .unreadable(let flaw):
            damage = (flaw.present, flaw.past)
        case .symbolic:
            return .healthy
        case .absent:
            guard historyExisted(gitDirectory: gitDirectory, branch: name) else { return .healthy }
            damage = ("is gone", "was gone")
        }
        var logs = Reference.reflog(name, in: gitDirectory)
        if name.hasPrefix("refs/heads/") { logs += Reference.reflog("HEAD", in: gitDirectory) }
        guard let target = logs.first(where: repo.isReadableCommit) else { return .unrecoverable(damage.present) }
        try repo.deleteDamagedReference(name)
        try repo.setReference(name, to: target, message: "ledger: restored after a power cut")
        let newest = logs.first == target ? "its newest" : "the newest readable"
        return .restored("\(name) \(damage.past); restored it to \(target.short), \(newest) commit in the reflog")
    }

    /// Rewrites HEAD when it no longer names a branch (an empty or garbled file): the ledger's
    /// branch is `main`, or `branch` for a remote.
    static func repairHead(gitDirectory: String, branch: String = "main") throws -> String? {
        switch Reference.read("HEAD", in: gitDirectory) {
        case .symbolic, .commit, .absent: return nil
        case .unreadable(let flaw):
            try FileSystem.writeAtomically(gitDirectory + "/HEAD", Array("ref: refs/heads/\(branch)\n".utf8))
            return "HEAD \(flaw.past); it names refs/heads/\(branch) again"
        }
    }

    /// Removes the loose objects of zero bytes (never a valid object) in the object folders
    /// `objects/00`…`ff` modified at or after `since` (nanoseconds since 1970; nil: all of them),
    /// and returns their ids: libgit2 counts an object as present when its file exists, so it
    /// would never write one of them again, and a later commit naming it could not be read.
    static func removeEmptyObjects(gitDirectory: String, since: Int64?) -> [ObjectID] {
        var removed: [ObjectID] = []
        let objects = gitDirectory + "/objects"
        for byte in 0..<256 {
            let dir = objects + "/" + NumberText.hex(UInt8(byte))
            if let since, (FileSystem.stamp(dir)?.modifiedNanoseconds ?? .min) < since { continue }
            _ = FileSystem.forEachStampedEntry(dir) { name, stamp in
                guard stamp.size == 0, stamp.type == .file, name.count == 38 else { return }
                let file = String(decoding: name, as: UTF8.self)
                guard ObjectStore.isLooseObjectName(file), let id = ObjectID(hex: NumberText.hex(UInt8(byte)) + file) else { return }
                if unlink(dir + "/" + file) == 0 { removed.append(id) }
            }
        }
        if !removed.isEmpty { Durability.flush(gitDirectory: gitDirectory) }
        return removed
    }

    /// Writes again the objects HEAD's tree needs that are missing — from the work tree when a
    /// file there holds exactly that blob, else from the remote on a path — and says which
    /// cannot be found (throws, naming the command that fetches them again).
    static func restoreObjects(_ repo: Repository, removed: [ObjectID], from remote: String?) throws -> [String] {
        guard !removed.isEmpty, let head = repo.headCommit(), repo.isReadableCommit(head), let tree = try? repo.treeOf(commit: head) else { return [] }
        let source = remote.flatMap { try? Repository.open($0) }
        var fromWorkTree = 0, fromRemote = 0
        // What the remote still has comes back whatever needs it (older commits too).
        if let source { fromRemote += removed.filter { source.copyObject($0, to: repo) }.count }
        var missing = repo.missingObjects(inTree: tree)
        for (path, id) in missing {
            if let path, repo.workTreeBlobID(path) == id, let bytes = try? FileSystem.read(repo.workdir + "/" + path), (try? repo.createBlob(bytes)) == id {
                fromWorkTree += 1
            } else if let source, source.copyObject(id, to: repo) {
                fromRemote += 1
            }
        }
        missing = repo.missingObjects(inTree: tree)
        if missing.isEmpty, let broken = repo.unreadableAncestor(of: head) { missing = [(nil, broken)] }
        if let (path, id) = missing.first {
            let what = path.map { "\($0) (\(id.short))" } ?? id.short
            throw LedgerError.failure("the repository of \(repo.workdir) lost \(missing.count == 1 ? "an object" : "\(missing.count) objects") that the last commit needs (\(what)\(missing.count > 1 ? ", …" : "")), and no copy was found here or in the remote; run `git -C \(repo.workdir) fetch --refetch` to fetch every object again, then sync again; nothing was committed or pushed")
        }
        guard fromWorkTree + fromRemote > 0 else { return [] }
        repo.flushObjectFolders()
        var sources: [String] = []
        if fromWorkTree > 0 { sources.append("\(fromWorkTree) from the work tree") }
        if fromRemote > 0 { sources.append("\(fromRemote) from the remote") }
        return ["wrote again the objects the last commit needs that a power cut had emptied (\(sources.joined(separator: ", ")))"]
    }

    /// Replaces an unreadable index (or one that no longer matches a restored branch) with
    /// HEAD's tree, recording the stat data of every file that holds exactly HEAD's version:
    /// the work tree is not touched, so whatever differs shows as a change (and is committed
    /// by the next sync).
    static func rebuildIndex(_ repo: Repository, because problem: String) throws -> String {
        guard let head = repo.headCommit() else { return "" }
        let tree = try repo.treeOf(commit: head)
        let path = repo.gitDirectory + "/index"
        if !problem.isEmpty { unlink(path) }
        let index = try repo.index()
        try index.readTree(tree)
        try index.refreshStatData()
        try index.write()
        return problem.isEmpty
            ? "reset the index to the restored \(head.short) (the work tree was kept as it is)"
            : "\(problem); rebuilt it from HEAD (\(head.short)), keeping the work tree as it is"
    }
}

/// When the object folders of a repository were last searched for empty objects, recorded in
/// a file of the ledger's: a search then reads only the folders modified since (a folder's
/// time changes when a file is added to it), instead of a `stat` of every loose object — half a
/// million in a repository git's own maintenance is kept from (`gc.auto = 0`). The record is
/// written unflushed: a cut that takes it back only makes the next search read more.
///
/// An object a writer that does not flush (plain git) added shortly before a search can still
/// be emptied by a cut after it: the search goes back `writeback` before the last one, the
/// time within which Linux writes a file's data to the disk unasked (`dirty_expire_centisecs`,
/// 30 s, and the flusher's 5 s period). A glance that finds damage makes a search read every
/// folder.
struct ObjectScanRecord {
    let path: String
    /// Nanoseconds a search reaches back before the last one.
    static let writeback: Int64 = 60_000_000_000

    /// Removes the empty objects of `gitDirectory` (`RepositoryRepair.removeEmptyObjects`): in
    /// every folder when `everywhere` or when no search was recorded, else in those modified
    /// since the last, less `writeback`; records this one.
    func removeEmptyObjects(in gitDirectory: String, everywhere: Bool) -> [ObjectID] {
        let started = Durability.now()
        let last = everywhere ? nil : (try? FileSystem.read(path, limit: 64)).flatMap { Int64(String(decoding: $0, as: UTF8.self)) }
        let removed = RepositoryRepair.removeEmptyObjects(gitDirectory: gitDirectory, since: last.map { $0 - Self.writeback })
        try? FileSystem.makeDirectories((path as NSString).deletingLastPathComponent)
        try? String(started).write(toFile: path, atomically: false, encoding: .utf8)
        return removed
    }
}

// MARK: - References read as files

/// A reference as its file says, without libgit2 (which refuses a damaged one outright).
enum Reference: Equatable {
    case commit(ObjectID)
    case symbolic(String)
    /// The file is there but names nothing.
    case unreadable(Flaw)
    case absent

    /// What is wrong with a reference file that names nothing.
    enum Flaw: Equatable {
        case unreadable, empty, zeros, garbage

        /// "holds only zeros", as it is found.
        var present: String {
            switch self {
            case .unreadable: "cannot be read"
            case .empty: "is empty"
            case .zeros: "holds only zeros"
            case .garbage: "holds no commit id"
            }
        }

        /// "held only zeros", once repaired.
        var past: String {
            switch self {
            case .unreadable: "could not be read"
            case .empty: "was empty"
            case .zeros: "held only zeros"
            case .garbage: "held no commit id"
            }
        }
    }

    /// The reference `name` (`HEAD`, `refs/heads/main`): its loose file, else `packed-refs`.
    static func read(_ name: String, in gitDirectory: String) -> Reference {
        let path = gitDirectory + "/" + name
        if let stamp = FileSystem.stamp(path), stamp.type == .file {
            guard let bytes = try? FileSystem.read(path, limit: 4096) else { return .unreadable(.unreadable) }
            if bytes.isEmpty { return .unreadable(.empty) }
            if bytes.allSatisfy({ $0 == 0 || $0 == UInt8(ascii: "0") || $0 == 0x0A }) { return .unreadable(.zeros) }
            let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace(newlines: true)
            if text.hasPrefix("ref: ") { return .symbolic(String(text.dropFirst(5))) }
            guard let id = ObjectID(hex: text) else { return .unreadable(.garbage) }
            return .commit(id)
        }
        guard name != "HEAD" else { return .absent }
        return packed(in: gitDirectory)[name].map { .commit($0) } ?? .absent
    }

    /// The references `packed-refs` lists (nothing when it is missing, empty or garbled).
    static func packed(in gitDirectory: String) -> [String: ObjectID] {
        guard let bytes = try? FileSystem.read(gitDirectory + "/packed-refs") else { return [:] }
        var out: [String: ObjectID] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("^") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2, let id = ObjectID(hex: String(parts[0])) { out[String(parts[1])] = id }
        }
        return out
    }

    /// The commits the reflog of `name` moved it to, newest first (none without a reflog).
    static func reflog(_ name: String, in gitDirectory: String) -> [ObjectID] {
        guard let bytes = try? FileSystem.read(gitDirectory + "/logs/" + name) else { return [] }
        var out: [ObjectID] = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").reversed() {
            let fields = line.split(separator: " ", maxSplits: 2)
            if fields.count == 3, let id = ObjectID(hex: String(fields[1])), !id.isZero, !out.contains(id) { out.append(id) }
        }
        return out
    }

    /// The references under `prefix` (`refs/remotes`), loose or packed, damaged or not, and
    /// those a reflog shows existed (gone since).
    static func names(under prefix: String, in gitDirectory: String) -> [String] {
        var out = Set(packed(in: gitDirectory).keys.filter { $0.hasPrefix(prefix + "/") })
        func walk(_ relative: String, under base: String) {
            for e in (try? FileSystem.list(base + "/" + relative)) ?? [] {
                if e.type == .directory { walk(relative + "/" + e.name, under: base) } else if e.type == .file, !e.name.hasSuffix(".lock") { out.insert(relative + "/" + e.name) }
            }
        }
        walk(prefix, under: gitDirectory)
        walk(prefix, under: gitDirectory + "/logs")
        // A remote's HEAD is symbolic (refs/remotes/origin/HEAD): nothing to restore.
        return out.filter { !$0.hasSuffix("/HEAD") }.sorted()
    }
}

// MARK: - The index file

/// A cheap look at an index file: its header and a size that can hold its entries.
enum IndexFile {
    /// Why the index at `path` cannot be read, or nil when it looks whole (or is absent: a
    /// repository may have none yet).
    static func problem(at path: String) -> String? {
        guard let stamp = FileSystem.stamp(path), stamp.type == .file else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "the index (\(path)) cannot be opened" }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 12)
        let n = pread(fd, &header, 12, 0)
        // The signature, a version git writes (2, 3 or 4), and room for the entries: at least
        // 62 bytes each before its path, and the 20-byte checksum at the end.
        let version = n == 12 ? UInt32(header[4]) << 24 | UInt32(header[5]) << 16 | UInt32(header[6]) << 8 | UInt32(header[7]) : 0
        let count = n == 12 ? Int64(header[8]) << 24 | Int64(header[9]) << 16 | Int64(header[10]) << 8 | Int64(header[11]) : 0
        guard n == 12, header[0..<4] == [0x44, 0x49, 0x52, 0x43], (2...4).contains(version), stamp.size >= 12 + count * 62 + 20 else {
            return stamp.size == 0 ? "the index (\(path)) is empty" : "the index (\(path)) is truncated or garbled"
        }
        return nil
    }
}

// MARK: - Objects

extension Repository {
    /// Whether `id` is a commit whose object and tree can be read.
    func isReadableCommit(_ id: ObjectID) -> Bool { readableTree(ofCommit: id) != nil }

    /// The tree of the commit `id` when both can be read; nil otherwise.
    func readableTree(ofCommit id: ObjectID) -> ObjectID? {
        var c: OpaquePointer?
        var oid = id.raw
        guard git_commit_lookup(&c, pointer, &oid) == 0 else { return nil }
        defer { git_commit_free(c) }
        var t: OpaquePointer?
        guard git_commit_tree(&t, c) == 0 else { return nil }
        git_tree_free(t)
        return ObjectID(git_commit_tree_id(c).pointee)
    }

    /// Why the object `id` (a commit) cannot be read: missing, or its file damaged.
    func objectProblem(_ id: ObjectID) -> String {
        let hex = id.description
        let loose = gitDirectory + "/objects/" + hex.prefix(2) + "/" + hex.dropFirst(2)
        switch FileSystem.stamp(loose)?.size {
        case 0?: return "its file is empty"
        case .some: return "its file is damaged, or its tree is"
        case nil: return "it is missing"
        }
    }

    /// Removes a reference whatever its file holds (libgit2 refuses to open a damaged one),
    /// from `packed-refs` too.
    func deleteDamagedReference(_ name: String) throws {
        let path = gitDirectory + "/" + name
        if unlink(path) != 0, errno != ENOENT {
            throw LedgerError.failure("cannot remove the damaged \(path): \(String(cString: strerror(errno)))")
        }
        if Reference.packed(in: gitDirectory)[name] != nil {
            var ref: OpaquePointer?
            if git_reference_lookup(&ref, pointer, name) == 0 {
                defer { git_reference_free(ref) }
                try check(git_reference_delete(ref), "git_reference_delete")
            }
        }
    }

    /// The commits of the object database that no other commit names as a parent (the tips
    /// of every history there, branch or not), newest first. Reads every object's header: for
    /// repairs only.
    func commitsWithoutChildren() -> [ObjectID] {
        var odb: OpaquePointer?
        guard git_repository_odb(&odb, pointer) == 0 else { return [] }
        defer { git_odb_free(odb) }
        final class Collector {
            var ids: [git_oid] = []
        }
        let all = Collector()
        _ = withExtendedLifetime(all) {
            git_odb_foreach(odb, { oid, payload in
                guard let oid, let payload else { return 0 }
                Unmanaged<Collector>.fromOpaque(payload).takeUnretainedValue().ids.append(oid.pointee)
                return 0
            }, Unmanaged.passUnretained(all).toOpaque())
        }
        var commits: [(id: ObjectID, time: Int64)] = []
        var parents = Set<ObjectID>()
        for var oid in all.ids {
            var size = 0
            var type = GIT_OBJECT_INVALID
            guard git_odb_read_header(&size, &type, odb, &oid) == 0, type == GIT_OBJECT_COMMIT else { continue }
            var c: OpaquePointer?
            guard git_commit_lookup(&c, pointer, &oid) == 0 else { continue }
            defer { git_commit_free(c) }
            commits.append((ObjectID(oid), git_commit_time(c)))
            for i in 0..<git_commit_parentcount(c) {
                if let p = git_commit_parent_id(c, i) { parents.insert(ObjectID(p.pointee)) }
            }
        }
        return commits.filter { !parents.contains($0.id) && isReadableCommit($0.id) }.sorted { $0.time > $1.time }.map(\.id)
    }

    /// Copies the object `id` from this repository into `other`; false when it cannot be read here.
    func copyObject(_ id: ObjectID, to other: Repository) -> Bool {
        var source: OpaquePointer?, target: OpaquePointer?
        guard git_repository_odb(&source, pointer) == 0 else { return false }
        defer { git_odb_free(source) }
        guard git_repository_odb(&target, other.pointer) == 0 else { return false }
        defer { git_odb_free(target) }
        var oid = id.raw
        var object: OpaquePointer?
        guard git_odb_read(&object, source, &oid) == 0 else { return false }
        defer { git_odb_object_free(object) }
        var written = git_oid()
        guard git_odb_write(&written, target, git_odb_object_data(object), git_odb_object_size(object), git_odb_object_type(object)) == 0 else { return false }
        return git_oid_equal(&written, &oid) != 0
    }

    /// Copies into `other` what it lacks of the commit `id` and its tree (a bare remote that
    /// lost objects this ledger has); whether `other` can read the commit then.
    func copyCommit(_ id: ObjectID, to other: Repository) -> Bool {
        if other.isReadableCommit(id) { return true }
        _ = copyObject(id, to: other)
        for missing in other.missingObjects(ofCommit: id) { _ = copyObject(missing, to: other) }
        return other.isReadableCommit(id)
    }

    /// The first commit in the history of `head` that cannot be read, or nil when all can.
    func unreadableAncestor(of head: ObjectID) -> ObjectID? {
        var walk: OpaquePointer?
        guard git_revwalk_new(&walk, pointer) == 0 else { return nil }
        defer { git_revwalk_free(walk) }
        var start = head.raw
        guard git_revwalk_push(walk, &start) == 0 else { return head }
        var next = git_oid()
        while true {
            let rc = git_revwalk_next(&next, walk)
            if rc == GIT_ITEROVER.rawValue { return nil }
            if rc != 0 { return ObjectID(next) }
            if !isReadableCommit(ObjectID(next)) { return ObjectID(next) }
        }
    }

    /// The objects of `commit` (itself, its tree and everything in it) missing here.
    func missingObjects(ofCommit commit: ObjectID) -> [ObjectID] {
        var odb: OpaquePointer?
        guard git_repository_odb(&odb, pointer) == 0 else { return [commit] }
        defer { git_odb_free(odb) }
        var oid = commit.raw
        guard git_odb_exists(odb, &oid) != 0, let tree = try? treeOf(commit: commit) else { return [commit] }
        return [tree].filter { var t = $0.raw; return git_odb_exists(odb, &t) == 0 } + missingObjects(inTree: tree).map(\.id)
    }

    /// The objects `tree` needs (its subtrees and blobs) that this repository lacks, with the
    /// path of each (nil for a tree that cannot be read, so nothing below it is known).
    func missingObjects(inTree tree: ObjectID) -> [(path: String?, id: ObjectID)] {
        var odb: OpaquePointer?
        guard git_repository_odb(&odb, pointer) == 0 else { return [] }
        defer { git_odb_free(odb) }
        var missing: [(path: String?, id: ObjectID)] = []
        func visit(_ id: ObjectID, _ prefix: String) {
            var t: OpaquePointer?
            var oid = id.raw
            guard git_tree_lookup(&t, pointer, &oid) == 0 else {
                missing.append((nil, id))
                return
            }
            defer { git_tree_free(t) }
            for i in 0..<git_tree_entrycount(t) {
                guard let e = git_tree_entry_byindex(t, i) else { continue }
                let entryID = ObjectID(git_tree_entry_id(e)!.pointee)
                let path = prefix + String(cString: git_tree_entry_name(e))
                switch git_tree_entry_type(e) {
                case GIT_OBJECT_TREE: visit(entryID, path + "/")
                case GIT_OBJECT_BLOB:
                    var b = entryID.raw
                    var size = 0
                    var type = GIT_OBJECT_INVALID
                    if git_odb_read_header(&size, &type, odb, &b) != 0 { missing.append((path, entryID)) }
                default: continue
                }
            }
        }
        visit(tree, "")
        return missing
    }
}

/// The record of the last commit `RepositoryRepair.examine` found readable: one line, the
/// commit's and its tree's ids, then the stamps of the commit's loose file, of its tree's and of
/// `objects/pack` (`-` for a file that is not there: the object is packed).
enum ReadableCommit {
    static func line(_ commit: ObjectID, tree: ObjectID, gitDirectory: String) -> [String] {
        let objects = gitDirectory + "/objects/"
        func loose(_ id: ObjectID) -> String {
            let hex = id.description
            return objects + hex.prefix(2) + "/" + hex.dropFirst(2)
        }
        let stamps = [loose(commit), loose(tree), objects + "pack"].map { FileSystem.stamp($0)?.encoded ?? "-" }
        return [commit.description, tree.description] + stamps
    }

    /// Whether `record` vouches for `commit`: it names it, and its files are as recorded and
    /// were not changing when it was written (modified more than 2 s before). Never where the
    /// objects are elsewhere (a linked work tree's git directory): no stamp would tell.
    static func vouched(_ commit: ObjectID, gitDirectory: String, record: String) -> Bool {
        guard FileSystem.stamp(gitDirectory + "/objects")?.type == .directory,
              let stamp = FileSystem.stamp(record), let bytes = try? FileSystem.read(record, limit: 4096) else { return false }
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ").map(String.init)
        guard fields.count == 5, fields[0] == commit.description, let tree = ObjectID(hex: fields[1]) else { return false }
        let racy = stamp.modifiedNanoseconds - 2_000_000_000
        let now = line(commit, tree: tree, gitDirectory: gitDirectory)
        guard now[2...] == fields[2...] else { return false }
        // A file modified within the racy window could change again without its stamp changing.
        return !now[2...].contains { $0 != "-" && (Int64($0.split(separator: ":")[1]) ?? .max) >= racy }
    }

    static func write(_ commit: ObjectID, tree: ObjectID, gitDirectory: String, record: String) {
        try? FileSystem.writeAtomically(record, Array(line(commit, tree: tree, gitDirectory: gitDirectory).joined(separator: " ").utf8))
    }
}
