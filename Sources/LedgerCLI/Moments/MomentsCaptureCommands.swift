import ArgumentParser
import Foundation
import LedgerKit

extension MomentsCommand {
    /// `ledger moments add [TEXT] [--moment now|today|week] [--dot | --link URL | --photo PATH] [--at WHEN]`
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Capture an experience: a note (the default), a dot, a link or a photo.",
            discussion: "Prints the sentence of your template, filled in. A photo is copied into the ledger "
                + "(moments/photos/<SHA-256>.<ext>); adding the same photo again reuses the file. "
                + "Photos are JPEG, PNG, GIF, WebP, HEIC or AVIF files of at most 10 MiB.")

        @Argument(help: ArgumentHelp("The note: what you appreciate (several words are joined with spaces).", valueName: "text"))
        var text: [String] = []

        @Option(help: ArgumentHelp("The moment it is for: now, today or week.", valueName: "moment"), completion: .list(["now", "today", "week"]), transform: MomentChoice.parse)
        var moment = Self.defaultMoment

        /// The moment an experience is for unless --moment says: now.
        static let defaultMoment = MomentChoice(type: .now)

        @Flag(help: "Just a dot, without words.")
        var dot = false

        @Option(help: ArgumentHelp("A link (http or https).", valueName: "url"))
        var link: String?

        @Option(help: ArgumentHelp("A photo file to copy into the ledger.", valueName: "path"), completion: .file())
        var photo: String?

        @Option(help: ArgumentHelp("When it happened, if not now: 15:30, 2026-11-18T15:30 or a timestamp with its offset.", valueName: "when"), transform: ClockText.parse)
        var at: ClockText?

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws { try line.run() }
    }

    /// `ledger moments delete REF [--json]`
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete an experience (and its photo, when no other experience shows it).",
            discussion: "REF is the experience's id, at least 4 characters of it, or the path `add` printed "
                + "(`ledger moments show BUCKET --json` lists ids). The deletion syncs: another machine's "
                + "unchanged copy does not bring it back. Git keeps it in the history until you remove it "
                + "for good with `ledger purge ID`, on every device (docs/deleting.md).")

        @Argument(help: ArgumentHelp("The experience: its id, a 4-character prefix or more, or its file's path.", valueName: "ref"), completion: .file())
        var reference: String

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            // The path `add` printed, also absolute or from where you stand (a TAB-completed file).
            let deleted = try MomentsStore(env.store).delete(CLIContext.current.pathInLedger(reference, root: env.store.root) ?? reference)
            if output.json {
                Output.json(.object(["id": .string(deleted.id), "path": .string(deleted.path), "experience": deleted.experience?.json ?? .null,
                                     "photo": deleted.photo.map(JSONValue.string) ?? .null]))
                return
            }
            if let e = deleted.experience {
                let local = e.timestamp.local
                let words = e.experienceType == .note || e.experienceType == .link ? ": " + e.sentencePhrase : ""
                Console.print("Deleted the \(e.experienceType.rawValue) of \(MomentsFormat.shortDate(local.date)) \(MomentsFormat.clock(local)) (\(e.path))" + words)
            } else {
                Console.print("Deleted the invalid experience \(deleted.path) (\(deleted.problems.first.map { Words.text($0.issue.sentence) } ?? "it could not be read")).")
            }
            if let photo = deleted.photo { Console.print("Removed its photo, which no other experience shows: \(photo).") }
            Console.print(Style.dim("Git keeps it in the history; `ledger purge \(deleted.id)` removes it from there, on every device."))
        }
    }
}

/// `--moment`: the moment an experience is for (now, today or week).
struct MomentChoice: OptionValue, CustomStringConvertible {
    let type: MomentType

    static func parse(_ text: String) throws -> MomentChoice {
        guard let t = MomentType(typed: text) else {
            throw OptionProblem(text: "is now, today or week (found \"\(text)\")" + Suggestion.didYouMean(text, among: ["now", "today", "week"]))
        }
        return MomentChoice(type: t)
    }

    var description: String { type == .thisWeek ? "week" : type.rawValue }
}

extension MomentsCommand.Add: QuickCommand {
    static let path = ["moments", "add"]
    static let valueOptions = ["moment", "link", "photo", "at"]
    static let flags = ["dot"]
    static let positionals = Int.max

    var line: Line { Line(text: text, moment: moment, dot: dot, link: link, photo: photo, at: at, json: output.json, global: global.choice) }

    static func read(_ words: QuickLine.Words) throws -> Line {
        Line(text: words.positionals, moment: try words.value("moment") ?? Self.defaultMoment, dot: words.flag("dot"),
             link: words["link"], photo: words["photo"], at: try words.value("at"), json: words.flag("json"), global: LedgerChoice.read(words))
    }

    struct Line: QuickRun {
        var text: [String]
        var moment: MomentChoice
        var dot: Bool
        var link: String?
        var photo: String?
        var at: ClockText?
        var json: Bool
        var global: LedgerChoice

        func run() throws {
            let env = try global.environment()
            let momentType = moment.type
            let kinds = [dot ? "--dot" : nil, link.map { _ in "--link" }, photo.map { _ in "--photo" }].compactMap { $0 }
            if kinds.count > 1 { throw LedgerError.usage("give one of \(kinds.joined(separator: ", ")) at a time") }
            let note = text.joined(separator: " ").trimmingWhitespace(newlines: true)
            if let kind = kinds.first, !text.isEmpty {
                throw LedgerError.usage("an experience is a note or a \(kind.dropFirst(2)), so TEXT cannot go with \(kind); add the note on its own")
            }
            if kinds.isEmpty, note.isEmpty {
                throw LedgerError.usage("say what you appreciate: ledger moments add TEXT (or --dot, --link URL, --photo PATH)")
            }
            if kinds.isEmpty, let problem = Experience.noteProblem(note) { throw LedgerError.usage("TEXT: \(problem)") }
            let timestamp = try captureTime(env)
            if let link, let problem = LinkURL.problem(link) { throw LedgerError.usage("--link: \(problem)") }
            let content: MomentsStore.Capture.Content
            if dot {
                content = .dot
            } else if let link {
                content = .link(link)
            } else if let photo {
                let file = try readPhoto(photo)
                content = .photo(bytes: file.bytes, source: file.shown)
            } else {
                content = .note(note)
            }
            let captured = try MomentsStore(env.store).capture(.init(content, moment: momentType, at: timestamp), at: env.now, ids: env.ids)
            let experience = captured.experience
            if let problem = captured.settingsProblem {
                Console.error(problem, prefix: "ledger: warning: recorded with the default template, because ")
            }
            if json {
                var o: JSONObject = ["id": .string(experience.id), "path": .string(experience.path),
                                     "sentence": .string(captured.sentence), "experience": experience.json]
                if experience.experienceType == .photo { o["photoAdded"] = .bool(captured.photoAdded) }
                Output.json(.object(o))
                return
            }
            Console.print(Style.bold(captured.sentence))
            let local = experience.timestamp.local
            var detail = "\(experience.experienceType.rawValue) · \(MomentsFormat.shortDate(local.date)) \(MomentsFormat.clock(local)) · \(experience.path)"
            if let payload = experience.payload, experience.experienceType == .photo {
                detail += " · " + payload + (captured.photoAdded ? "" : " (this photo was already in the ledger)")
            }
            Console.print(Style.dim("  " + detail))
        }

        /// `--at`, or now; never later than now.
        func captureTime(_ env: CommandEnvironment) throws -> Timestamp {
            try at.map { try TimeArgument.parse($0.text, option: "--at", clock: env.clock) } ?? env.now
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
}
