import ArgumentParser
import Foundation
import LedgerKit

/// `ledger moments add [TEXT] [--moment now|today|week] [--dot | --link URL | --photo PATH] [--at WHEN]`
struct MomentsAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Capture an experience: a note (the default), a dot, a link or a photo.",
        discussion: "Prints the sentence of your template, filled in. A photo is copied into the ledger "
            + "(moments/photos/<SHA-256>.<ext>); adding the same photo again reuses the file. "
            + "Photos are JPEG, PNG, GIF, WebP, HEIC or AVIF files of at most 10 MiB.")

    @Argument(help: ArgumentHelp("The note: what you appreciate (several words are joined with spaces).", valueName: "text"))
    var text: [String] = []

    @Option(help: ArgumentHelp("The moment it is for: now, today or week.", valueName: "moment"))
    var moment = "now"

    @Flag(help: "Just a dot, without words.")
    var dot = false

    @Option(help: ArgumentHelp("A link (http or https).", valueName: "url"))
    var link: String?

    @Option(help: ArgumentHelp("A photo file to copy into the ledger.", valueName: "path"))
    var photo: String?

    @Option(help: ArgumentHelp("When it happened, if not now: 15:30, 2026-11-18T15:30 or a timestamp with its offset.", valueName: "when"))
    var at: String?

    @Flag(help: "Print the new experience as JSON.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let env = try global.environment()
        guard let momentType = MomentType(argument: moment) else {
            throw LedgerError.usage("--moment is now, today or week (found \"\(moment)\")"
                + Suggestion.didYouMean(moment, among: ["now", "today", "week"]))
        }
        let kinds = [dot ? "--dot" : nil, link.map { _ in "--link" }, photo.map { _ in "--photo" }].compactMap { $0 }
        if kinds.count > 1 { throw LedgerError.usage("give one of \(kinds.joined(separator: ", ")) at a time") }
        let note = text.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
        if let kind = kinds.first, !text.isEmpty {
            throw LedgerError.usage("an experience is a note or a \(kind.dropFirst(2)), so TEXT cannot go with \(kind); add the note on its own")
        }
        if kinds.isEmpty, note.isEmpty {
            throw LedgerError.usage("say what you appreciate: ledger moments add TEXT (or --dot, --link URL, --photo PATH)")
        }
        let timestamp = try captureTime(env)
        if let link, let problem = LinkURL.problem(link) { throw LedgerError.usage("--link: \(problem)") }
        let photoFile = try photo.map { try readPhoto($0) }

        let repository = env.store.repository(Experience.self)
        let (experience, sentence, photoAdded) = try env.store.withWriterLock { () -> (Experience, String, Bool) in
            let settings = try env.store.singleton(MomentsSettings.self).load()
            var type = ExperienceType.note
            var payload: String? = note
            var written: String?
            if dot {
                type = .dot
                payload = nil
            } else if let link {
                type = .link
                payload = link
            } else if let photoFile {
                let stored = try MomentsPhotos.store(photoFile.bytes, in: env.store, source: photoFile.shown)
                type = .photo
                payload = MomentsPhotos.payload(forFile: stored.name)
                if stored.written { written = payload }
            }
            let experience = Experience(id: env.ids.next(), timestamp: timestamp, momentType: momentType,
                                        experienceType: type, payload: payload, createdAt: env.now)
            do {
                try repository.save(experience)
            } catch {
                if let written { try? env.store.remove(written) }
                throw error
            }
            return (experience, SentenceTemplate.sentence(settings.sentenceTemplate, for: experience), written != nil)
        }
        if json {
            var o: JSONObject = ["id": .string(experience.id), "path": .string(experience.path),
                                 "sentence": .string(sentence), "experience": experience.json]
            if experience.experienceType == .photo { o["photoAdded"] = .bool(photoAdded) }
            Output.json(.object(o))
            return
        }
        Console.print(Style.bold(sentence))
        let local = experience.timestamp.local
        var detail = "\(experience.experienceType.rawValue) · \(MomentsText.shortDate(local.date)) \(MomentsText.clock(local)) · \(experience.path)"
        if let payload = experience.payload, experience.experienceType == .photo {
            detail += " · " + payload + (photoAdded ? "" : " (this photo was already in the ledger)")
        }
        Console.print(Style.dim("  " + detail))
    }

    /// `--at`, or now; never later than now.
    func captureTime(_ env: CommandEnvironment) throws -> Timestamp {
        try at.map { try TimeArgument.parse($0, option: "--at", clock: env.clock) } ?? env.now
    }

    /// The photo file's bytes, refusing what is not a regular file or is over the size limit.
    func readPhoto(_ path: String) throws -> (bytes: [UInt8], shown: String) {
        let absolute = CLIContext.current.absolutePath(path)
        let resolved = URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path
        guard let stamp = FileSystem.stamp(resolved) else {
            throw LedgerError.usage("--photo: there is no file at \(path)")
        }
        guard stamp.type == .file else { throw LedgerError.usage("--photo: \(path) is not a regular file") }
        if let problem = MomentsPhotos.sizeProblem(path, bytes: Int(stamp.size)) { throw LedgerError.invalid("--photo: " + problem) }
        guard let bytes = try FileSystem.read(resolved, limit: MomentsPhotos.maximumBytes) else {
            throw LedgerError.usage("--photo: there is no file at \(path)")
        }
        if ImageFormat.detect(bytes) == nil { throw LedgerError.invalid("--photo: " + MomentsPhotos.notAnImage(path)) }
        return (bytes, path)
    }
}
