import Foundation

/// A directory of the test's own under the system's temporary directory, made once per name and
/// process (tests of one suite share it; parallel test processes do not).
public enum TemporaryDirectory {
    private static let root: String = {
        let path = NSTemporaryDirectory() + "/launchprof-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// `root/name`, its parent directories made (the file itself is not).
    public static func path(_ name: String) -> String {
        let path = root + "/" + name
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
}
