import ArgumentParser
import Foundation
import LedgerKit
import LedgerSync

/// Options every command takes.
public struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The ledger to use (default: $LEDGER_REPO, else the ledger you are in, else $XDG_DATA_HOME/ledger).", valueName: "path"), completion: .directory)
    var repo: String?

    public init() {}

    /// `--repo` as given, for what depends on it (`LedgerChoice`).
    var choice: LedgerChoice { LedgerChoice(repo: repo) }

    func repositoryPath() -> String { choice.repositoryPath() }

    /// The ledger directory when `--repo` gives `given` (nil: not given).
    static func repositoryPath(given: String?) -> String {
        let ctx = CLIContext.current
        if let r = given ?? ctx.repoOverride { return ctx.absolutePath(r) }
        if let r = ctx.environment["LEDGER_REPO"], !r.isEmpty { return ctx.absolutePath(r) }
        if let r = Self.enclosingLedger(of: ctx.currentDirectory, environment: ctx.environment) { return r }
        if let xdg = ctx.environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/ledger" }
        return ctx.absolutePath("~/.local/share/ledger")
    }

    /// The ledger containing `directory`: the work tree of the repository git would find from
    /// there (the nearest `.git` above, within `GIT_CEILING_DIRECTORIES` and, unless
    /// `GIT_DISCOVERY_ACROSS_FILESYSTEM` is set, on the same file system), when it holds a
    /// ledger. Nil when that repository is not a ledger (a dotfiles repository around the
    /// directory does not hide the default ledger).
    static func enclosingLedger(of directory: String, environment: [String: String]) -> String? {
        let across = ["1", "true", "yes", "on"].contains((environment["GIT_DISCOVERY_ACROSS_FILESYSTEM"] ?? "").lowercased())
        guard let root = Repository.workTree(containing: directory, ceilings: environment["GIT_CEILING_DIRECTORIES"], acrossFileSystems: across)
        else { return nil }
        return LedgerStore(gitWorkTree: root).exists ? root : nil
    }

    func store(readable: Bool = true) throws -> LedgerStore { try choice.store(readable: readable) }

    /// The ledger in the git work tree at `root`, set up for this process: every core reads,
    /// the lock file names this command, and a wait for another holder is explained.
    static func store(at root: String) -> LedgerStore {
        let ctx = CLIContext.current
        var store = LedgerStore(gitWorkTree: root)
        store.workerThreads = 0
        store.lockHolder = ctx.commandLine.reduce("\(getpid())") { $0 + " " + $1 }
        store.lockWait = { holder in
            // The holder wrote "PID ARGV…": name it as "process 4242 (`ledger sync`)".
            var words = holder.split(separator: " ").map(String.init)
            guard let pid = words.first, let n = Int32(pid), kill(n, 0) == 0 || errno == EPERM else {
                Console.error("ledger: waiting for another process to finish with this ledger (it holds .git/ledger/lock)…")
                return
            }
            words.removeFirst()
            if let program = words.first { words[0] = (program as NSString).lastPathComponent }
            Console.error("ledger: waiting for process \(pid) (`\(words.prefix(4).joined(separator: " "))`) to finish with this ledger…")
        }
        return store
    }

    /// Repairs after a crash and the merge driver for plain git (`Housekeeping`), before any
    /// command reads the ledger; what was done is said on stderr.
    static func housekeep(_ store: LedgerStore) {
        for note in Housekeeping.prepare(store, git: GitTool.find(in: CLIContext.current.environment)) { Console.error("ledger: " + Words.text(note)) }
    }

    func environment() throws -> CommandEnvironment { try choice.environment() }
}

/// Which ledger a command works on — `--repo` as given — and the set-up that follows from it:
/// `GlobalOptions` without argument-parser's wrapper, for the quick commands (`QuickLine`),
/// which build no argument-parser value.
struct LedgerChoice {
    var repo: String?

    /// The ledger directory (SPEC §2): `--repo`, else `$LEDGER_REPO`, else the ledger that
    /// contains the current directory, else `$XDG_DATA_HOME/ledger`.
    func repositoryPath() -> String { GlobalOptions.repositoryPath(given: repo) }

    /// The ledger, which must exist. Unless `readable` is false (for `check`, which reports
    /// it), a ledger whose `ledger.json` is invalid — or of a newer format than this version
    /// of ledger knows — is refused: nothing is read or written in it.
    func store(readable: Bool = true) throws -> LedgerStore {
        let path = repositoryPath()
        let store = GlobalOptions.store(at: path)
        GlobalOptions.housekeep(store)
        guard store.exists else {
            if FileSystem.exists(path) {
                throw LedgerError.notFound("\(path) is not a ledger (it has no ledger.json); create one with `ledger init \(path)`")
            }
            throw LedgerError.notFound("there is no ledger at \(path); create one with `ledger init`, or point --repo or $LEDGER_REPO at yours")
        }
        if readable { _ = try store.load(LedgerManifest.self, at: LedgerManifest.kind.path()) }
        return store
    }

    /// The clock and ids for this run.
    func environment() throws -> CommandEnvironment {
        try CommandEnvironment(store: store(), clock: CommandClock.current(), ids: RandomIDSource())
    }
}

/// "Now" and the time zone, from `$LEDGER_NOW` and `$TZ` (SPEC §2).
public struct CommandClock: Sendable {
    /// The current instant, with the UTC offset it has here.
    public let now: Timestamp
    /// The zone for calendar questions (which day, next 09:00).
    public let timeZone: TimeZone

    public init(now: Timestamp, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
    }

    /// `$LEDGER_NOW` when set, else the system clock; in `$TZ`'s zone when `$TZ` names one
    /// (the instant `$LEDGER_NOW` names is then seen on that zone's clock, whatever offset it
    /// was written with), else in the system's zone — or, when `$LEDGER_NOW`'s offset is not
    /// the system zone's at that instant, at that fixed offset (a script that sets only
    /// `LEDGER_NOW=…+01:00` means +01:00).
    static func current() throws -> CommandClock {
        let env = CLIContext.current.environment
        var chosen: TimeZone?
        if let tz = env["TZ"], !tz.isEmpty { chosen = zone(named: tz) }
        var zone = chosen ?? TimeZone.current
        if let text = env["LEDGER_NOW"], !text.isEmpty {
            guard let given = Timestamp(iso8601: text) else {
                throw LedgerError.usage("LEDGER_NOW must be an ISO-8601 timestamp with a UTC offset, like 2026-11-21T22:30:00+01:00 (found \"\(text)\")")
            }
            if chosen == nil, zone.secondsFromGMT(for: given.date) != given.utcOffsetSeconds {
                zone = TimeZone(secondsFromGMT: given.utcOffsetSeconds) ?? zone
            }
            return CommandClock(now: ZonedClock.timestamp(given.epochMilliseconds, in: zone), timeZone: zone)
        }
        return CommandClock(now: Timestamp(Date(), in: zone), timeZone: zone)
    }

    /// The zone `$TZ` names (`Europe/Paris`, `:Europe/Paris`, `UTC`), or nil.
    static func zone(named tz: String) -> TimeZone? {
        let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
        return TimeZone(identifier: name) ?? TimeZone(abbreviation: name)
    }

    /// The instant `date` as recorded here (with this zone's offset at that instant).
    public func timestamp(_ date: Date) -> Timestamp { Timestamp(date, in: timeZone) }
}

/// What a command works with once its arguments are parsed.
public struct CommandEnvironment: Sendable {
    public let store: LedgerStore
    public let clock: CommandClock
    public let ids: any IDSource

    public var now: Timestamp { clock.now }
}
