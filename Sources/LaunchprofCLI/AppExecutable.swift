import LaunchCore
import LaunchRunner

/// Where the built-in app's executable is: `--app PATH`, else `launchprof-app` beside launchprof (SwiftPM and
/// `make` build both into the same directory) or in an installed prefix's libexec (InstallLayout).
enum AppExecutable {
    static let name = "launchprof-app"

    /// The app to launch, checked to be an executable regular file.
    static func locate(override: String?) throws -> String {
        if let override {
            guard ExecutableSearch.isExecutableFile(override) else { throw InputError.option("--app", value: override, problem: "not an executable file") }
            return override
        }
        let found = try InstallLayout.helper(name)
        guard let path = found.path else {
            throw InputError(
                "cannot find the built-in app (looked for \(found.tried.joined(separator: " and "))): build it (swift build --product \(name), or make build), install launchprof (make install), or pass --app PATH"
            )
        }
        return path
    }

    /// `launchprof-spawn`, which `exec` spawns each program through, checked.
    static func spawner() throws -> String {
        let name = "launchprof-spawn"
        let found = try InstallLayout.helper(name)
        guard let path = found.path else {
            throw InputError(
                "cannot find \(name) (looked for \(found.tried.joined(separator: " and "))): build it with launchprof (swift build --product launchprof, or make build) or install launchprof (make install)"
            )
        }
        return path
    }
}
