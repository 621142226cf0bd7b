import LaunchCore
import LaunchRunner

/// Where the built-in app's executable is: `--app PATH`, else `launchprof-app` in launchprof's own
/// directory (SwiftPM and `make` build both into the same one).
enum AppExecutable {
    static let name = "launchprof-app"

    /// The app to launch, checked to be an executable regular file.
    static func locate(override: String?) throws -> String {
        let path: String
        if let override {
            path = override
        } else {
            path = try sibling(name)
        }
        guard ExecutableSearch.isExecutableFile(path) else {
            if override != nil { throw InputError("--app \(path): not an executable file") }
            throw InputError("cannot find the built-in app at \(path): build it (swift build --product \(name), or make build) or pass --app PATH")
        }
        return path
    }

    /// `name` in launchprof's own directory (not checked).
    static func sibling(_ name: String) throws -> String {
        guard let me = SelfExecutable.path() else { throw InputError("cannot find the launchprof executable (/proc/self/exe)") }
        return FileIO.resolve(name, relativeTo: FileIO.parentDirectory(of: me))
    }

    /// `launchprof-spawn`, which `exec` spawns each program through, checked.
    static func spawner() throws -> String {
        let path = try sibling("launchprof-spawn")
        guard ExecutableSearch.isExecutableFile(path) else {
            throw InputError("cannot find launchprof-spawn at \(path): build it with launchprof (swift build --product launchprof, or make build)")
        }
        return path
    }
}
