// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ledger",
    platforms: [.macOS(.v13), .iOS(.v17)],
    products: [
        .library(name: "LedgerKit", targets: ["LedgerKit"]),
        .library(name: "LedgerSync", targets: ["LedgerSync"]),
        .executable(name: "ledger", targets: ["ledger"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // libgit2 from the system (Debian: libgit2-dev).
        .systemLibrary(name: "CGit2", pkgConfig: "libgit2", providers: [.apt(["libgit2-dev"])]),
        // Documents and all domain logic: Foundation only — no git, no terminal, no wall clock.
        .target(name: "LedgerKit"),
        // The one way to run a program (ssh, git's helpers and gc, the editor, systemctl, the
        // tests' tools and servers) and the one PATH search; fork and exec in C (CSpawn).
        .systemLibrary(name: "CSpawn"),
        .target(name: "ProcessRunner", dependencies: ["CSpawn"]),
        // Git storage and sync on libgit2.
        .target(name: "LedgerSync", dependencies: ["LedgerKit", "CGit2", "ProcessRunner"]),
        // The command-line interface as a library, so tests can run it in-process.
        .target(name: "LedgerCLI", dependencies: [
            "LedgerKit", "LedgerSync", "ProcessRunner",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Stubs that load libgit2 and libdbus on first use (Linux on x86-64; empty elsewhere):
        // `make release` then drops them from what the loader loads at start (docs/DESIGN.md,
        // "Start-up").
        .target(name: "LazyLibraries"),
        .executableTarget(name: "ledger", dependencies: ["LedgerCLI", "LazyLibraries"]),
        // Benchmark data generator and runner (`make bench`).
        .executableTarget(name: "ledger-bench", dependencies: ["LedgerKit"]),
        // Helpers shared by the test targets: temporary ledgers, in-process and binary CLI runs.
        // (`PowerCut/powercutfs.c` is the power-cut file system the tests compile and mount.)
        .target(name: "LedgerTestSupport", dependencies: ["LedgerCLI", "LedgerKit", "LedgerSync", "ProcessRunner"], path: "Tests/LedgerTestSupport",
                exclude: ["PowerCut/powercutfs.c"]),
        .testTarget(name: "LedgerKitTests", dependencies: ["LedgerKit", "LedgerTestSupport"]),
        .testTarget(name: "LedgerSyncTests", dependencies: ["LedgerSync", "LedgerKit", "LedgerTestSupport"]),
        .testTarget(name: "LedgerCLITests", dependencies: ["LedgerCLI", "LedgerKit", "LedgerSync", "LedgerTestSupport", "ProcessRunner"]),
        // LedgerKit used as an app on Apple platforms would use it: LedgerKit alone, and the
        // names those platforms' frameworks declare (a compile-time list, nothing that runs).
        .target(name: "ApplePlatformNames", path: "Tests/ApplePlatformNames"),
        .testTarget(name: "LedgerKitConsumerTests", dependencies: ["LedgerKit", "ApplePlatformNames"]),
    ],
    swiftLanguageModes: [.v6]
)

#if os(Linux)
// Reminders on the Linux desktop: notifications over D-Bus, an event loop on timerfd and
// inotify, the systemd user unit. Linux only, so the rest builds on Apple platforms too.
package.products.append(.library(name: "LedgerRemind", targets: ["LedgerRemind"]))
package.targets += [
    // libdbus from the system (Debian: libdbus-1-dev); docs/DESIGN.md says why not sd-bus.
    .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
    // Linux headers Swift's Glibc module leaves out (timerfd, clock_adjtime, mallinfo2).
    .systemLibrary(name: "CLinux"),
    .target(name: "LedgerRemind", dependencies: ["LedgerKit", "CDBus", "CLinux"]),
    .testTarget(name: "LedgerRemindTests", dependencies: ["LedgerRemind", "LedgerKit", "CLinux", "LedgerTestSupport"]),
]
// `ledger remind` runs the reminder process (elsewhere it says it is not available).
package.targets.first { $0.name == "LedgerCLI" }!.dependencies.append("LedgerRemind")
// The allocator's statistics (mallinfo2), for the test that reading git's configuration keeps no memory.
package.targets.first { $0.name == "LedgerSyncTests" }!.dependencies.append("CLinux")
#endif
