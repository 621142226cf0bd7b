#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// A copy of an executable without debug information, for Valgrind: Debian 12's Valgrind 3.19
/// cannot read the DWARF 5 that Swift 6.3 emits ("unhandled dwarf2 abbrev form") and gives up, but
/// runs a copy without it. The copy is made once per build of the executable (`objcopy
/// --strip-debug`) and kept in the user's cache directory, named by the original's path (a hash)
/// and its device, inode, size and modification time; a new copy replaces the copies of the same
/// path's earlier builds, so the cache holds one copy per executable, not one per build.
public enum StrippedCopy {
    /// The executable Valgrind is given: the stripped copy (``of(_:)``) of a Swift binary with debug
    /// information, else `executable` itself (a script, a C program, a distribution's binary), which
    /// then keeps its own path as `argv[0]` and `/proc/self/exe`.
    public static func ifNeeded(_ executable: String) throws(RunnerError) -> String {
        ELFDebugSections.present(in: executable, swift: true) ? try of(executable) : executable
    }

    /// The path of the stripped copy of `executable` in `directory`, made now if there is none yet.
    public static func of(_ executable: String, in directory: String = cacheDirectory()) throws(RunnerError) -> String {
        var info = stat()
        guard stat(executable, &info) == 0 else {
            throw .instructionsNotCounted("cannot read \(executable): \(String(cString: strerror(errno)))")
        }
        let build = "\(info.st_dev)-\(info.st_ino)-\(info.st_size)-\(info.st_mtim.tv_sec)-\(info.st_mtim.tv_nsec)"
        let family = "\(executable.split(separator: "/").last.map(String.init) ?? "app")-stripped-"
        let prefix = "\(family)\(pathHash(of: executable))-"
        let copy = "\(directory)/\(prefix)\(build)"
        if access(copy, X_OK) == 0 { return copy }
        let made = try make(copy, of: executable, in: directory)
        removeEarlierBuilds(family: family, prefix: prefix, keeping: made, in: directory)
        return made
    }

    /// 8 hex digits of the SHA-256 of `executable`'s absolute path: what tells the copies of one
    /// executable's builds (`<name>-stripped-<hash>-<build>`) from another executable's of that name.
    static func pathHash(of executable: String) -> String {
        let absolute = realpath(executable, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        }
        return String(SHA256.hex(of: SHA256.digest(Array((absolute ?? executable).utf8))).prefix(8))
    }

    /// Removes the copies named `prefix…` (the same executable's earlier builds) and the copies of
    /// `family` named before they carried the path's hash (`<name>-stripped-<dev>-<ino>-<size>-<sec>-<nsec>`:
    /// a copy of another executable of that name is made again when it is next needed), but `copy` and
    /// copies another process is still making. A process running an earlier copy keeps it until it ends.
    static func removeEarlierBuilds(family: String, prefix: String, keeping copy: String, in directory: String) {
        for entry in FileIO.entries(of: directory) where "\(directory)/\(entry)" != copy && !entry.hasSuffix(".tmp") {
            let fields = entry.hasPrefix(family) ? entry.dropFirst(family.count).split(separator: "-") : []
            let unhashed = fields.count == 5 && fields.allSatisfy { $0.allSatisfy(\.isNumber) }
            if entry.hasPrefix(prefix) || unhashed { unlink("\(directory)/\(entry)") }
        }
    }

    /// Makes `copy` (atomically: a temporary file renamed into place) with objcopy, else strip.
    static func make(_ copy: String, of executable: String, in directory: String) throws(RunnerError) -> String {
        do { try FileIO.createDirectories(directory) } catch {
            throw .instructionsNotCounted("cannot make a copy of \(executable) without debug information: \(error.description)")
        }
        let temporary = "\(copy).\(getpid()).tmp"
        // Removed if launchprof ends while the copy is being made.
        let leftover = ExitCleanup.register { unlink(temporary) }
        defer { ExitCleanup.unregister(leftover) }
        let tools: [[String]] = [
            ["objcopy", "--strip-debug", executable, temporary],
            ["strip", "--strip-debug", "-o", temporary, executable]
        ]
        for tool in tools {
            guard let path = ExecutableSearch.find(tool[0]) else { continue }
            if run(path, Array(tool.dropFirst())) == 0, chmod(temporary, 0o755) == 0, rename(temporary, copy) == 0 {
                return copy
            }
            unlink(temporary)
        }
        throw .instructionsNotCounted("cannot make a copy of \(executable) without debug information for Valgrind: install binutils (objcopy)")
    }

    /// `$XDG_CACHE_HOME/launchprof`, else `~/.cache/launchprof`, else the temporary directory's.
    public static func cacheDirectory() -> String {
        if let xdg = getenv("XDG_CACHE_HOME").map({ String(cString: $0) }), xdg.hasPrefix("/") { return "\(xdg)/launchprof" }
        if let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") { return "\(home)/.cache/launchprof" }
        return "\(FileIO.temporaryDirectory)/launchprof-cache-\(getuid())"
    }

    /// Runs a tool to completion with its output discarded; returns its exit status (-1 when it could not run).
    static func run(_ executable: String, _ arguments: [String]) -> Int32 {
        ToolProcess.run(executable, arguments)
    }
}
