import Foundation

/// A directory that exists for the lifetime of the value and is removed afterwards.
package final class TemporaryDirectory: @unchecked Sendable {
    // @unchecked: immutable after init.
    package let path: String

    package init(_ prefix: String = "ledger-test") {
        let base = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
        var template = Array((base + prefix + "-XXXXXX").utf8CString)
        guard let p = mkdtemp(&template) else { fatalError("mkdtemp failed") }
        path = String(cString: p)
    }

    /// The path of `relative` inside the directory.
    package func url(_ relative: String) -> String { path + "/" + relative }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
