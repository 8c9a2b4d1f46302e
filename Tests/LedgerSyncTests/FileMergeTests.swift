import Foundation
import LedgerKit
import LedgerSync
import Testing

/// The resolution shared by `ledger sync` and `ledger merge-driver`, on bytes.
@Suite struct FileMergeTests {
    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func unparseableDocumentsKeepOursAndPutTheirsInAConflictFile() throws {
        let r = FileMerge.resolve(path: "waterline/settings.json", base: Self.bytes("{}\n"),
                                  ours: Self.bytes("{\"broken\": \n"), theirs: Self.bytes("{\"other\": 1}\n"))
        #expect(r.result == Self.bytes("{\"broken\": \n"))
        let conflict = try #require(r.conflictFile as String?)
        #expect(conflict.hasPrefix("waterline/settings.conflict-"))
        #expect(conflict.hasSuffix(".json"))
        #expect(r.created.first?.bytes == Self.bytes("{\"other\": 1}\n"))
        #expect(!r.merged)
    }

    @Test func theConflictFileNameIsTheSameOnEveryMachine() {
        let theirs = Self.bytes("{\"v\": 2}\n")
        let name = FileMerge.conflictPath("notes/a.json", theirs: theirs)
        #expect(name == "notes/a.conflict-\(ObjectID.blob(hashing: theirs).description.prefix(8)).json")
        #expect(PathRole.conflictCopyPath(of: "README", tag: "abc") == "README.conflict-abc")
    }

    /// A new ledger's .gitignore met, with no history in common, by a new repository's own (a
    /// ledger synced onto it): the repository's lines, then the ledger's, as `ledger clone` of
    /// it makes them; with a history in common, or for another file, a conflict file as ever.
    @Test func aNewLedgersSetupFileGoesAfterANewRepositorysOwn() {
        let own = Self.bytes(LedgerSetup.gitignore), theirs = Self.bytes("*.log\n")
        for (ours, other) in [(own, theirs), (theirs, own)] {
            let r = FileMerge.resolve(path: ".gitignore", base: nil, ours: ours, theirs: other)
            #expect(r.merged && r.result == Self.bytes("*.log\n\n" + LedgerSetup.gitignore))
        }
        #expect(!FileMerge.resolve(path: ".gitignore", base: Self.bytes("*.tmp\n"), ours: own, theirs: theirs).merged)
        #expect(!FileMerge.resolve(path: "README.md", base: nil, ours: own, theirs: theirs).merged)
    }

    @Test func blobHashesAreGits() {
        // `printf 'hello\n' | git hash-object --stdin`
        #expect(ObjectID.blob(hashing: Self.bytes("hello\n")).description == "ce013625030ba8dba906f756967f9e9ca394464a")
    }

    @Test(arguments: [
        // base, ours, theirs → result (nil: deleted)
        ("a", "a", "b", "b"),
        ("a", "b", "a", "b"),
        ("a", nil, "b", "b"),     // deleted here, edited there: the edit
        ("a", "b", nil, "b"),     // edited here, deleted there: the edit
        (nil, "x", "x", "x"),
    ] as [(String?, String?, String?, String?)])
    func filesWithoutARuleFollowTheGenericRules(_ base: String?, _ ours: String?, _ theirs: String?, _ result: String?) {
        let r = FileMerge.resolve(path: "notes/todo.txt", base: base.map(Self.bytes), ours: ours.map(Self.bytes), theirs: theirs.map(Self.bytes))
        #expect(r.result == result.map(Self.bytes))
        #expect(r.conflictFile == nil)
    }

    @Test func photosChangedDifferentlyKeepBoth() {
        let r = FileMerge.resolve(path: "moments/photos/abc.png", base: nil, ours: [1, 2, 3], theirs: [4, 5, 6])
        #expect(r.result == [1, 2, 3])
        #expect(r.conflictFile != nil)
    }

    @Test func theManifestMergesFieldByField() throws {
        let base = """
            {"createdAt": "2026-11-21T22:30:00+01:00", "format": 1, "updatedAt": "2026-11-21T22:30:00+01:00"}
            """
        let ours = base.replacingOccurrences(of: "\"format\"", with: "\"a\": 1, \"format\"")
        let theirs = base.replacingOccurrences(of: "\"format\"", with: "\"b\": 2, \"format\"")
        let r = FileMerge.resolve(path: "ledger.json", base: Self.bytes(base), ours: Self.bytes(ours), theirs: Self.bytes(theirs))
        let merged = try JSONParser.parse(try #require(r.result))
        #expect(merged["a"] == .number(1))
        #expect(merged["b"] == .number(2))
        #expect(r.conflictFile == nil)
    }

    @Test func aMergeThatWouldBeInvalidKeepsBoth() {
        // Both valid JSON, but not valid manifests: no rule can merge them.
        let r = FileMerge.resolve(path: "ledger.json", base: nil, ours: Self.bytes("{\"format\": \"one\"}\n"), theirs: Self.bytes("{\"format\": 1}\n"))
        #expect(r.conflictFile != nil)
        #expect(r.result == Self.bytes("{\"format\": \"one\"}\n"))
    }
}

@Suite struct RemoteURLTests {
    @Test(arguments: [
        ("https://me:s3cret@host/x.git", "https://me:***@host/x.git"),
        ("https://host/x.git", "https://host/x.git"),
        ("cannot reach https://u:p@h/r: 401", "cannot reach https://u:***@h/r: 401"),
        ("git@host:me/ledger.git", "git@host:me/ledger.git"),
    ])
    func passwordsAreNeverShown(_ url: String, _ shown: String) {
        #expect(Remote.redact(url) == shown)
    }
}
