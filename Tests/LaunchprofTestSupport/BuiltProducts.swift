import Foundation

/// Where the build put its products and where the package's sources are, the one way tests find
/// them: the products beside the running test bundle (swift-argument-parser's `debugURL`), so
/// `swift build -c release`, `--build-path` and `--scratch-path` are followed, never a hard-coded
/// `.build/debug`.
public enum BuiltProducts {
    /// The directory holding the built executables (`launchprof`, `launchprof-app`, …).
    public static let directory: String = {
        let bundle = Bundle.main.bundleURL
        let url = bundle.lastPathComponent.hasSuffix(".xctest") ? bundle.deletingLastPathComponent() : bundle
        return url.path
    }()

    /// The path of the built executable `name` (it may not exist: the test says so when it runs it).
    public static func executable(_ name: String) -> String {
        directory + "/" + name
    }

    /// The package's root directory (Package.swift's), for fixtures and examples read as data.
    public static let packageRoot: String = {
        // This file is Tests/LaunchprofTestSupport/BuiltProducts.swift.
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// A path under the package's root: `Fixtures/default/manifest.json`, `Examples/keypad.conf`.
    public static func source(_ relativePath: String) -> String {
        packageRoot + "/" + relativePath
    }
}
