import LaunchCore
import LaunchRunner

/// Where launchprof's helpers and data are, found from its own real path (`/proc/self/exe`, so symbolic
/// links and the working directory do not matter): a build directory (`.build/release`) holds the helpers
/// beside the binary; an installed prefix holds them in `PREFIX/libexec/launchprof` and the data in
/// `PREFIX/share/launchprof` (docs/install.md), so the prefix still works when moved.
enum InstallLayout {
    /// The helpers' directory of an installed prefix, relative to the prefix.
    static let libexec = "libexec/launchprof"
    /// The data directory of an installed prefix (the built-in app's fixtures), relative to the prefix.
    static let share = "share/launchprof"

    /// The directory of the running binary, links resolved.
    static func binDirectory() throws -> String {
        guard let me = SelfExecutable.path() else { throw InputError.program(.selfNotFound) }
        return FileIO.parentDirectory(of: me)
    }

    /// The directories a helper is looked for in, in order: beside the binary, then the prefix's libexec.
    static func helperDirectories() throws -> [String] {
        let bin = try binDirectory()
        return [bin, "\(prefix(ofBin: bin))/\(libexec)"]
    }

    /// The installed data directory (`PREFIX/share/launchprof`), not checked.
    static func dataDirectory() throws -> String {
        "\(prefix(ofBin: try binDirectory()))/\(share)"
    }

    /// The helper `name`: the first executable file among `helperDirectories()`, or `nil` with the paths tried.
    static func helper(_ name: String) throws -> (path: String?, tried: [String]) {
        let candidates = try helperDirectories().map { "\($0)/\(name)" }
        return (candidates.first(where: ExecutableSearch.isExecutableFile), candidates)
    }

    private static func prefix(ofBin bin: String) -> String {
        let parent = FileIO.parentDirectory(of: bin)
        return parent == "/" ? "" : parent
    }
}
