import Foundation

/// Finding a program as a shell does: the one `PATH` search.
package enum ProgramPath {
    /// The path of `program`: itself when it names a path (holds a `/`) of an executable file,
    /// else the first executable regular file (links followed) called so in the absolute
    /// directories of `path` (`PATH`'s syntax; `/usr/local/bin:/usr/bin:/bin` when nil).
    /// Relative and empty entries are passed over: what they find depends on the directory a
    /// command happens to run in. Nil when there is none.
    package static func find(_ program: String, path: String?) -> String? {
        if program.contains("/") { return isExecutableFile(program) ? program : nil }
        for dir in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where dir.hasPrefix("/") {
            let candidate = dir.hasSuffix("/") ? "\(dir)\(program)" : "\(dir)/\(program)"
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var st = stat()
        return access(path, X_OK) == 0 && stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }
}

/// Why a program could not be started or talked to.
package struct ProcessError: Error, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
