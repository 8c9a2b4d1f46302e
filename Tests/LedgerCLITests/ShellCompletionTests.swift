import Foundation
import LedgerKit
import LedgerTestSupport
import ProcessRunner
import Testing

/// The zsh and fish completions `make install` puts in a temporary prefix, driven by the real
/// shells as a user's TAB drives them (no rc file of this machine's user: private HOME, ZDOTDIR
/// and XDG directories), against what bash's completion offers for the same line.
@Suite struct ShellCompletionTests {
    static let zsh = ProgramPath.find("zsh", path: "/usr/bin:/bin:/usr/local/bin")
    static let fish = ProgramPath.find("fish", path: "/usr/bin:/bin:/usr/local/bin")

    /// `make install` into a fresh prefix; a ledger with a preset of its own (`mezcal`) and a
    /// second ledger, the one the environment names, which does not have it.
    struct Setup {
        let tmp = TemporaryDirectory("ledger-shells")
        let prefix: String
        let ledger: TestLedger
        let other: TestLedger

        init() throws {
            prefix = tmp.path + "/prefix"
            let make = try Processes.run("/usr/bin/make", ["-C", MomentsFixture.packageRoot, "install", "PREFIX=" + prefix, "BIN=" + LedgerBinary.directory],
                                         environment: ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": tmp.path])
            try #require(make.status == 0, "\(make)")
            ledger = try TestLedger()
            let add = ledger.run("waterline", "presets", "add", "Mezcal", "--type", "liquor")
            try #require(add.status == 0, "\(add)")
            other = try TestLedger()
            try FileManager.default.createDirectory(atPath: tmp.path + "/pictures", withIntermediateDirectories: true)
            try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: other.root + "/" + photo))
        }

        /// A file in the directory the shells run in, for the arguments that take a path.
        let photo = "IMG_0412.JPEG"

        /// The environment of a shell started for the test: the installed `ledger` first on the
        /// PATH, the other ledger as `$LEDGER_REPO`, private home and configuration directories.
        func environment() throws -> [String: String] {
            var env = other.environment
            for (name, dir) in [("HOME", "home"), ("ZDOTDIR", "zdotdir"), ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache")] {
                env[name] = tmp.path + "/shell/" + dir
                try FileManager.default.createDirectory(atPath: env[name]!, withIntermediateDirectories: true)
            }
            env["PATH"] = prefix + "/bin:/usr/bin:/bin"
            env["TERM"] = "dumb"
            env["LEDGER_NOW"] = nil
            return env
        }

        /// What bash's completion offers for `line`, in `directory` (default: the other ledger's root).
        func bash(_ line: String, in directory: String? = nil) throws -> [String] {
            try InstallTests.complete(line, prefix: prefix, ledger: other, in: directory)
        }

        /// What zsh offers when TAB is pressed at the end of `line`: an interactive zsh on a
        /// pseudo-terminal (zpty) loads `_ledger` from the installed site-functions with
        /// compinit; every `compadd` records the matches it adds, and the shell exits once the
        /// completion is done, so reading its output to the end is the wait (no timing).
        func zsh(_ line: String, zsh: String, in directory: String? = nil) throws -> [String] {
            var env = try environment()
            let zdotdir = env["ZDOTDIR"]!, candidates = zdotdir + "/candidates"
            try "".write(toFile: candidates, atomically: false, encoding: .utf8)
            env["COMPLETION_PREFIX"] = prefix
            env["CANDIDATES"] = candidates
            try #"""
                PS1='' RPROMPT=''
                fpath=("$COMPLETION_PREFIX/share/zsh/site-functions" $fpath)
                autoload -Uz compinit && compinit -u -D
                compadd() {
                    # Calls that only ask for matches (-O, -A, -D) are the completion's own.
                    if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
                    local -a hits
                    builtin compadd -A hits "$@"
                    (( $#hits )) && print -rl -- $hits >> "$CANDIDATES"
                    builtin compadd "$@"
                }
                comppostfuncs=(exit)
                bindkey '^I' complete-word
                """#.write(toFile: zdotdir + "/.zshrc", atomically: false, encoding: .utf8)
            // zsh -d: no /etc/zsh/zshrc; `timeout` only bounds a shell that never completes.
            let driver = #"zmodload zsh/zpty && zpty z zsh -d -i && zpty -w -n z "$1"$'\t' && { while zpty -r z chunk; do :; done; zpty -d z }"#
            let r = try Processes.run("/usr/bin/timeout", ["60", zsh, "-f", "-c", driver, "zsh", line], environment: env, currentDirectory: directory ?? other.root)
            guard r.status == 0 else { throw LedgerError.failure("zsh: \(r)") }
            let words = try String(contentsOfFile: candidates, encoding: .utf8).split(separator: "\n").map(String.init)
            return Array(Set(words)).sorted()
        }

        /// What fish offers for `line` (`complete -C`), with the installed file on
        /// fish_complete_path before fish's own completions, in the order fish's default has them.
        func fish(_ line: String, fish: String, in directory: String? = nil) throws -> [String] {
            let r = try Processes.run(fish, ["--no-config", "-c", "set fish_complete_path $argv[1] $__fish_data_dir/completions; complete -C $argv[2]",
                                             prefix + "/share/fish/vendor_completions.d", line],
                                      environment: try environment(), currentDirectory: directory ?? other.root)
            guard r.status == 0, r.stderr.isEmpty else { throw LedgerError.failure("fish: \(r)") }
            return r.stdout.split(separator: "\n").map { String($0.split(separator: "\t", maxSplits: 1)[0]) }.sorted()
        }
    }

    /// The lines both shells complete, with what each must offer (a preset id from the
    /// ledger named by `--repo`, not from the one in the environment).
    static func lines(_ s: Setup) -> [(line: String, expected: [String])] {
        [("ledger wat", ["waterline"]),
         ("ledger waterline drink --pre", ["--preset"]),
         ("ledger waterline drink --repo \(s.ledger.root) --preset mez", ["mezcal"]),
         ("ledger waterline drink --preset mez", []),
         // A path is completed from the file system (no fallback of the shell does it).
         ("ledger moments add --photo IMG", [s.photo]),
         ("ledger check IMG", [s.photo]),
         // An app by its name, a file or folder by its path (`log`, `purge`); an app's
         // folder in the ledger's root is offered once, by the app's name.
         ("ledger log wat", ["waterline"]),
         ("ledger log IMG", [s.photo]),
         ("ledger log waterline/pre", ["waterline/presets/"]),
         ("ledger purge mo", ["moments"]),
         // Fixed sets of words.
         ("ledger forget h", ["hydrate"]),
         ("ledger moments add --moment to", ["today"]),
         ("ledger autosync settings s", ["set"]),
         ("ledger autosync settings --json set inter", ["interval"]),
         ("ledger autosync settings set interval 1", [])]
    }

    /// bash: the completion is installed without a fallback to file names, so the arguments
    /// that take a path complete them themselves — files, or directories for a ledger.
    @Test func bashCompletesFilesAndDirectoriesWhereAPathIsAsked() throws {
        let s = try Setup()
        let photo = s.other.root + "/" + s.photo
        for line in ["ledger moments add --photo \(s.other.root)/IMG", "ledger check \(s.other.root)/IMG", "ledger purge \(s.other.root)/IMG",
                     "ledger log \(s.other.root)/IMG"] {
            #expect(try s.bash(line) == [photo], "\(line)")
        }
        for line in ["ledger status --repo \(s.tmp.path)/pic", "ledger init \(s.tmp.path)/pic", "ledger clone URL \(s.tmp.path)/pic"] {
            #expect(try s.bash(line) == [s.tmp.path + "/pictures"], "\(line)")
        }
        #expect(try s.bash("ledger status --repo \(s.other.root)/IMG") == [], "directories only")
        #expect(try s.bash("ledger log \(s.tmp.path)/pic") == [s.tmp.path + "/pictures/"], "a folder, to go on into")
        #expect(try s.bash("ledger log wat", in: s.tmp.path) == ["waterline"], "an app, away from its folder")
    }

    @Test(.enabled(if: zsh != nil, "zsh is not installed (Debian package zsh; make test-deps installs it)"))
    func zshCompletesCommandsOptionsAndPresetsAsBashDoes() throws {
        let s = try Setup()
        try Self.completesAsBash("zsh", s) { try s.zsh($0, zsh: Self.zsh!, in: $1) }
    }

    /// Each of `lines` as expected and as bash completes it; and every preset of the ledger,
    /// ids and one-word names, as bash offers them; `complete` runs in the directory given
    /// (nil: the other ledger's root).
    static func completesAsBash(_ shell: String, _ s: Setup, _ complete: (String, String?) throws -> [String]) throws {
        for (line, expected) in lines(s) {
            let offered = try complete(line, nil)
            #expect(offered == expected, "\(shell), \(line)")
            #expect(offered == (try s.bash(line)), "\(shell) and bash, \(line)")
        }
        // Away from the ledger's folders, an app by its name all the same.
        for line in ["ledger log wat", "ledger purge hyd"] {
            let offered = try complete(line, s.tmp.path)
            #expect(offered == [line.hasSuffix("wat") ? "waterline" : "hydrate"], "\(shell), \(line)")
            #expect(offered == (try s.bash(line, in: s.tmp.path)), "\(shell) and bash, \(line)")
        }
        let all = try complete("ledger waterline drink --repo \(s.ledger.root) --preset ", nil)
        #expect(all.contains("mezcal") && all.contains("beer"), "\(shell): \(all)")
        #expect(Set(all) == Set(try s.bash("ledger waterline drink --repo \(s.ledger.root) --preset ")), "\(shell): every preset")
    }

    @Test(.enabled(if: fish != nil, "fish is not installed (Debian package fish; make test-deps installs it)"))
    func fishCompletesCommandsOptionsAndPresetsAsBashDoes() throws {
        let s = try Setup()
        try Self.completesAsBash("fish", s) { try s.fish($0, fish: Self.fish!, in: $1) }
        // Completed through another command, as `env ledger …` (fish's own `complete -C`).
        #expect(try s.fish("env ledger waterline drink --repo \(s.ledger.root) --preset mez", fish: Self.fish!) == ["mezcal"])
    }
}
