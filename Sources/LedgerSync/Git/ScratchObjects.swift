import CGit2
import Foundation
import LedgerKit

/// Object writes of one repository handle diverted into a temporary directory, which is
/// removed with this value: the objects a sync's preview fetches and the commits, trees and
/// blobs it builds are read like any other through that handle, and leave the repository's
/// `.git` byte for byte as it was.
///
/// libgit2 writes an object (and a fetched pack) into the first backend of highest priority
/// that can write; the backends added here come before the repository's own: objects in
/// memory (libgit2's mempack: no compression, no file), and packs — what a fetch brings — in
/// the temporary directory.
final class ScratchObjects {
    let directory: String

    init(_ repo: Repository) throws {
        var template = Array((NSTemporaryDirectory() + "/ledger-preview-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw LedgerError.failure("cannot make a temporary directory for the preview: \(String(cString: strerror(errno)))") }
        directory = String(cString: made)
        try FileSystem.makeDirectories(directory + "/pack")
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, repo.pointer), "git_repository_odb")
        defer { git_odb_free(odb) }
        var memory: OpaquePointer?
        try check(git_mempack_new(&memory), "git_mempack_new")
        try check(git_odb_add_backend(odb, memory, Self.priority), "git_odb_add_backend")
        var packs: OpaquePointer?
        try check(git_odb_backend_pack(&packs, directory), "git_odb_backend_pack")
        try check(git_odb_add_backend(odb, packs, Self.priority + 1), "git_odb_add_backend")
    }

    /// Above libgit2's own (1 and 2).
    static let priority: Int32 = 100

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}
