import LaunchCore
import LaunchRunner

/// Where the built-in app's executable is: `--app PATH`, else `launchprof-app` beside launchprof (SwiftPM and
/// `make` build both into the same directory) or in an installed prefix's libexec (InstallLayout).
enum AppExecutable {
    static let name = "launchprof-app"

    /// The app to launch, checked to be an executable regular file.
    static func locate(override: String?) throws -> String {
        if let override {
            guard ExecutableSearch.isExecutableFile(override) else { throw InputError.program(.appNotExecutable(path: override)) }
            return override
        }
        return try helper(name)
    }

    /// `launchprof-spawn`, which `exec` spawns each program through, checked.
    static func spawner() throws -> String {
        try helper("launchprof-spawn")
    }

    /// Where launchprof's helper `name` is (``InstallLayout/helper(_:)``), else an error naming the paths tried.
    private static func helper(_ name: String) throws -> String {
        let found = try InstallLayout.helper(name)
        guard let path = found.path else {
            throw InputError.program(.helperNotFound(name: name, tried: found.tried))
        }
        return path
    }
}
