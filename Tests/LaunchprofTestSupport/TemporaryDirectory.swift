import Foundation
import Testing

/// Directories of the tests' own under the system's temporary directory, all in one per test process
/// (``root``), removed with everything in it when the process exits: ``make(prefix:)`` with
/// ``remove(_:)`` for one a test removes itself, the suite trait ``Testing/Trait/temporaryDirectory``
/// for one per test (named by ``path(_:)``), ``shared(_:)`` for what the process's tests share.
public enum TemporaryDirectory {
    /// `$TMPDIR/launchprof-tests-<pid>`, made on first use and removed when the process exits.
    private static let root: String = {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("launchprof-tests-\(getpid())")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TemporaryDirectory.root) }
        return path
    }()

    /// The directory of the test running now, made and removed by ``TemporaryDirectoryTrait``.
    @TaskLocal public static var current: String?

    /// `name` in the running test's directory (``TemporaryDirectoryTrait``), its parent directories
    /// made (the file itself is not).
    public static func path(_ name: String) -> String {
        guard let current else { preconditionFailure("TemporaryDirectory.path needs the suite's .temporaryDirectory trait") }
        let path = current + "/" + name
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return path
    }

    /// A new, empty directory of its own, named after `prefix`; removed by ``remove(_:)``.
    public static func make(prefix: String) throws -> String {
        let path = root + "/" + prefix + "-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Removes a directory ``make(prefix:)`` made, and everything in it.
    public static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `name` in the process's own directory, for what its tests share (a cache made once) or name
    /// themselves: removed when the process exits.
    public static func shared(_ name: String) -> String {
        root + "/" + name
    }

    /// A new path in the process's own directory, named after `name` (removed when the process exits).
    public static func uniquePath(_ name: String) -> String {
        shared("\(UInt32.random(in: 0...UInt32.max))-\(name)")
    }
}

/// A suite trait: each of the suite's tests runs with a new, empty ``TemporaryDirectory/current``,
/// removed with everything in it when the test ends, passed or failed.
public struct TemporaryDirectoryTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory.make(prefix: "test")
        defer { TemporaryDirectory.remove(directory) }
        try await TemporaryDirectory.$current.withValue(directory) { try await function() }
    }
}

extension Trait where Self == TemporaryDirectoryTrait {
    /// Each test of the suite in a temporary directory of its own (``TemporaryDirectory/path(_:)``).
    public static var temporaryDirectory: Self { Self() }
}
