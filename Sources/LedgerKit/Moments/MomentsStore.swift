import Foundation

/// A ledger's DotLife Moments documents and photos, with the operations the app performs on
/// them: the only public way to change them.
///
/// Every operation that changes files takes the ledger's writer lock for its whole
/// read-modify-write; do not call them inside `withWriterLock`. `now` and the id source are
/// passed in.
public struct MomentsStore: Sendable {
    /// The ledger.
    let store: LedgerStore

    /// The Moments documents of `store`.
    public init(_ store: LedgerStore) {
        self.store = store
    }

    private var experiences: DocumentRepository<Experience> { store.repository(Experience.self) }
    private var settingsFile: SingletonRepository<MomentsSettings> { store.singleton(MomentsSettings.self) }

    // MARK: - Reads

    /// The settings (the defaults while the file does not exist). Invalid settings are
    /// refused with the problems `check` reports and, when the template is what is wrong, the
    /// command that repairs it.
    public func settings() throws -> MomentsSettings {
        do {
            return try settingsFile.load()
        } catch var e as LedgerError where e.code == .invalid && !e.problems.isEmpty
            && e.problems.allSatisfy({ $0.issue.pointer.tokens.first == "sentenceTemplate" }) {
            e.sentence = "\(MomentsSettings.kind.path()) is invalid; \(next: .moments(.repairTemplate)):"
            throw e
        }
    }

    /// The experiences whose recorded wall-clock time falls in `bucket`, newest first (by
    /// instant; then the later captured; then by id), reading only the month shards
    /// (`moments/experiences/<YYYY>/<MM>/`) the bucket overlaps: a day or a week is one or two
    /// directories, a year twelve, whatever the size of the ledger.
    ///
    /// Files are read and validated on the store's worker threads. An invalid experience is
    /// refused with the problems `ledger check` reports (all of them, for every invalid file in
    /// the shards read). A file in the wrong shard is not seen here; `ledger check --fix` moves it.
    public func experiences(in bucket: MomentBucket) throws -> [Experience] {
        // Each file is stamped before it is read; one the record of the last view vouches for
        // as unchanged, with a time outside the bucket, is not read at all (`MomentTimes`).
        let known = MomentTimes.read(store)
        var times = MomentTimes()
        var stamps: [String: FileSystem.Stamp] = [:]
        var paths: [String] = []
        var month = MomentBucket(containing: bucket.firstDay, scale: .month)
        while month.firstDay <= bucket.lastDay {
            let shard = experiences.files.shard(for: month.firstDay)
            let files = try experiences.files.files(in: shard)
            let directory = files.isEmpty ? nil : try? FileSystem.walk(shard, under: store.root, create: false)
            times.begin(shard)
            for file in files {
                let name = FileSystem.split(file.path).name
                if let stamp = directory?.stamp(name) {
                    stamps[file.path] = stamp
                    if let time = known.time(of: name, in: shard, stamped: stamp) {
                        times.keep(name, from: known)
                        if !bucket.contains(time) { continue }
                    }
                }
                paths.append(file.path)
            }
            month = month.next
        }
        paths.sort()
        var found: [Experience] = []
        var problems: [Problem] = []
        var invalid: [String] = []
        // A file whose `timestamp`, peeked as canonical JSON writes it, is outside the bucket is
        // not decoded: `today` reads one day's experiences of a month's files. Any other file is
        // decoded and judged, an invalid one refusing the view as before.
        let peeked = PeekedTimes()
        let outside: @Sendable (String, [UInt8]) -> Bool = { path, bytes in
            guard let text = MemberPeek.topLevelString("timestamp", in: bytes), let t = Timestamp(iso8601: text) else { return false }
            peeked[path] = t
            return !bucket.contains(t)
        }
        for (path, result) in zip(paths, experiences.read(paths, skip: outside)) {
            let split = FileSystem.split(path)
            switch result {
            case .success(let e?):
                if let stamp = stamps[path] { times.record(split.name, in: split.directory, stamped: stamp, at: e.timestamp) }
                if bucket.contains(e.timestamp) { found.append(e) }
            case .success(nil):  // outside the bucket, or removed while we were reading
                if let stamp = stamps[path], let time = peeked[path] { times.record(split.name, in: split.directory, stamped: stamp, at: time) }
            case .failure(let error as LedgerError) where error.code == .invalid && !error.problems.isEmpty:
                invalid.append(error.problems[0].path)
                problems += error.problems
            case .failure(let error): throw error
            }
        }
        times.write(store, replacing: known)
        if !problems.isEmpty {
            let what = invalid.count == 1 ? "\(invalid[0]) is invalid; fix it" : "\(invalid.count) experiences of \(bucket.label) are invalid; fix them"
            throw LedgerError.invalid("\(what) by hand and \(next: .checkLedger):", problems: problems)
        }
        return found.sorted(by: Self.newestFirst)
    }

    /// The order detail lists show experiences in: newest first.
    static func newestFirst(_ a: Experience, _ b: Experience) -> Bool {
        (a.timestamp.epochMilliseconds, a.createdAt.epochMilliseconds, a.id) > (b.timestamp.epochMilliseconds, b.createdAt.epochMilliseconds, b.id)
    }

    /// The shortest id prefix `experience(_:)` accepts: shorter ones match too much by chance.
    public static let minimumPrefixLength = 4

    /// The experience `reference` names: its id, a unique prefix of at least four characters
    /// of it, or its file's path in the ledger (`moments/experiences/2026/11/<id>.json`, as
    /// `add` prints it). Throws `.notFound` when there is none, `.usage` when a prefix is too
    /// short or matches several, `.invalid` when the file is invalid.
    public func experience(_ reference: String) throws -> Experience {
        try experiences.load(id: experienceID(reference))
    }

    /// The id of the experience `reference` names (as for `experience(_:)`), from the file
    /// names alone: the file is not read.
    func experienceID(_ reference: String) throws -> String {
        var ref = reference.trimmingWhitespace()
        let directory = experiences.files.directory
        if ref.hasSuffix(".json"), ref.hasPrefix(directory + "/") || ref.hasPrefix("./" + directory + "/") {
            ref = FileSystem.stem(ref)
        }
        if try experiences.contains(id: ref.lowercased()) { return ref.lowercased() }
        guard ref.count >= Self.minimumPrefixLength else {
            throw LedgerError.invalidArgument("there is no moment with id \"\(reference)\"; give its whole id or at least \(Self.minimumPrefixLength) characters of it (\(next: .moments(.listMoments)))")
        }
        return try experiences.resolve(ref, describe: "moment")
    }

    // MARK: - Intents

    /// What to capture.
    public struct Capture: Sendable {
        /// An experience's content.
        public enum Content: Sendable {
            case note(String)
            case dot
            case link(String)
            /// A photo's bytes; `source` names the file in messages.
            case photo(bytes: [UInt8], source: String)
        }

        public var content: Content
        public var moment: MomentType
        /// When it happened.
        public var timestamp: Timestamp

        public init(_ content: Content, moment: MomentType, at timestamp: Timestamp) {
            self.content = content
            self.moment = moment
            self.timestamp = timestamp
        }
    }

    /// What a capture wrote.
    public struct Captured: Sendable {
        public let experience: Experience
        /// The sentence of the template, filled in.
        public let sentence: String
        /// For a photo: whether its file was written (false when the same photo was already there).
        public let photoAdded: Bool
        /// Why the settings could not be read, when they could not (a hand edit): the
        /// experience was captured all the same, its sentence with the default template.
        public let settingsProblem: LedgerError?
    }

    /// Captures an experience at `now` (its `createdAt`) for the instant the capture gives. A
    /// photo is stored under its content's name first (`moments/photos/<sha256>.<ext>`); if the
    /// experience cannot be written, a photo file written for it is removed again. An invalid
    /// note, link or photo is refused and nothing is written. Settings that cannot be read
    /// never stop a capture (the seed's capture in one step): the sentence then uses the
    /// default template, and `settingsProblem` says why.
    public func capture(_ capture: Capture, at now: Timestamp, ids: any IDSource) throws -> Captured {
        try store.withWriterLock {
            var template = SentenceTemplate.defaultText
            var settingsProblem: LedgerError?
            do {
                template = try settings().sentenceTemplate
            } catch let e as LedgerError where e.code == .invalid {
                settingsProblem = e
            }
            var type = ExperienceType.note
            var payload: String?
            var written: String?
            switch capture.content {
            case .note(let text): payload = text
            case .dot: type = .dot
            case .link(let url):
                type = .link
                payload = url
            case .photo(let bytes, let source):
                let stored = try storePhoto(bytes, source: source)
                type = .photo
                payload = MomentsPhotos.payload(forFile: stored.name)
                if stored.written { written = payload }
            }
            let experience = Experience(id: ids.next(), timestamp: capture.timestamp, momentType: capture.moment,
                                        experienceType: type, payload: payload, createdAt: now)
            do {
                try experiences.save(experience, new: true)
            } catch {
                if let written { try? store.remove(written) }
                throw error
            }
            return Captured(experience: experience, sentence: SentenceTemplate.sentence(template, for: experience), photoAdded: written != nil,
                            settingsProblem: settingsProblem)
        }
    }

    /// Stores a photo's bytes under its content's name, unless an identical file is already
    /// there; the file name and whether it was written. Refuses what is not a recognised
    /// image or is larger than `MomentsPhotos.maximumBytes`.
    private func storePhoto(_ contents: [UInt8], source: String) throws -> (name: String, written: Bool) {
        if let problem = MomentsPhotos.sizeProblem(source, bytes: contents.count) { throw LedgerError.invalid(problem) }
        guard let name = MomentsPhotos.fileName(for: contents) else { throw LedgerError.invalid(MomentsPhotos.notAnImage(source)) }
        let relative = MomentsPhotos.payload(forFile: name)
        if let existing = try? store.read(relative, limit: MomentsPhotos.maximumBytes), existing == contents {
            return (name, false)
        }
        try store.write(relative, bytes: contents)
        return (name, true)
    }

    /// What a deletion removed.
    public struct Deleted: Sendable {
        public let id: String
        /// The file's path in the ledger.
        public let path: String
        /// The experience; nil when it was invalid (a hand edit: deleting it is one way to
        /// fix it), with `problems` saying why.
        public let experience: Experience?
        public let problems: [Problem]
        /// The photo file removed with it (its path in the ledger): the experience's photo
        /// when no other experience shows it; nil otherwise (and for an invalid experience,
        /// whose photo is left for `ledger check` to report if nothing shows it).
        public let photo: String?
    }

    /// Deletes the experience `reference` names (see `experience(_:)`), an invalid one
    /// included, and, for a photo no other experience shows, its file. The deletion travels
    /// with the next sync: another machine's unchanged copy does not bring it back (an edit
    /// there does, as edits beat deletions).
    public func delete(_ reference: String) throws -> Deleted {
        try store.withWriterLock {
            let id = try experienceID(reference)
            guard let path = try experiences.path(of: id) else { throw LedgerError.notFound("there is no moment with id \"\(id)\"") }
            let experience: Experience?, problems: [Problem]
            do {
                (experience, problems) = (try experiences.load(id: id), [])
            } catch let e as LedgerError where e.code == .invalid {
                (experience, problems) = (nil, e.problems)
            }
            try store.remove(path)
            var photo: String?
            if let experience, experience.experienceType == .photo, let payload = experience.payload,
               let name = MomentsPhotos.fileName(fromPayload: payload), try !isShown(name),
               try FileSystem.remove(payload, under: store.root, keep: 2) {
                photo = payload
            }
            return Deleted(id: id, path: path, experience: experience, problems: problems, photo: photo)
        }
    }

    /// Whether any experience's file mentions the photo `name` (a byte search, so that a file
    /// hand-written in any form counts: a photo is kept rather than orphan an experience).
    private func isShown(_ name: String) throws -> Bool {
        let needle = Array(name.utf8.prefix(64))
        let store = store
        let found = Parallel.map(try experiences.files.files().map(\.path), threads: store.readerThreads) { path in
            guard let bytes = try? store.read(path) else { return false }
            return Bytes.firstIndex(of: needle, in: bytes) != nil
        }
        return found.contains(true)
    }

    /// Sets the sentence template at `now`; the settings as saved. Works while the stored
    /// settings are invalid because of their template — it is how they are repaired: only the
    /// template is replaced, every other member is kept. A template without both placeholders
    /// is refused, and so are settings broken in another way (fix those by hand).
    public func setTemplate(_ text: String, at now: Timestamp) throws -> MomentsSettings {
        try store.withWriterLock {
            var settings: MomentsSettings
            do {
                settings = try settingsFile.load()
            } catch LedgerError.Code.invalid {
                settings = try settingsReplacingTemplate(text)
            }
            if !settingsFile.exists { settings.createdAt = now }
            settings.sentenceTemplate = text
            settings.updatedAt = now
            try settingsFile.save(settings)
            return settings
        }
    }

    /// The stored settings with `template` in place of theirs, for a repair: nil members and
    /// unknown fields kept. Throws what loading them throws when the template is not all
    /// that is wrong.
    private func settingsReplacingTemplate(_ template: String) throws -> MomentsSettings {
        let path = MomentsSettings.kind.path()
        guard let bytes = try store.read(path), case .object(var members)? = try? JSONParser.parse(bytes) else {
            return try settingsFile.load()  // not an object: the same refusal as any reader's
        }
        members["sentenceTemplate"] = .string(template)
        var issues: [DocumentIssue] = []
        guard let settings = MomentsSettings.decode(.object(members), at: .root, issues: &issues), !issues.hasErrors else {
            return try settingsFile.load()
        }
        return settings
    }
}
