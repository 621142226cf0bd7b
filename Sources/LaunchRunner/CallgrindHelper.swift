#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// A tiny shared library that issues Callgrind's client requests for a program that cannot compile
/// `valgrind/callgrind.h`'s macros itself: the Python client loads it with ctypes. `launchprof exec
/// --metric instructions` compiles it once (with `cc`, into the cache directory ``StrippedCopy``
/// uses, named by its source's hash) before any run, so no run pays for it, and names it in
/// ``variable``. Without a C compiler or Valgrind's headers there is none: such a program is then
/// counted as a whole.
public enum CallgrindHelper {
    /// The environment variable naming the helper's path.
    public static let variable = "LAUNCHPROF_CALLGRIND_HELPER"

    /// The helper's source: two functions, `launchprof_running_on_valgrind()` and `launchprof_dump(label)`.
    static let source = """
        /* launchprof's Callgrind helper (Sources/LaunchRunner/CallgrindHelper.swift). */
        #include <valgrind/callgrind.h>
        unsigned launchprof_running_on_valgrind(void) { return RUNNING_ON_VALGRIND; }
        void launchprof_dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }

        """

    /// `[variable: path]` with the helper made now if needed, or nothing when it cannot be made.
    public static func environment() -> [String: String] {
        path().map { [variable: $0] } ?? [:]
    }

    /// The helper's path in the cache, compiled now if it is not there yet; `nil` when it cannot be.
    public static func path() -> String? {
        let key = SHA256.hex(of: SHA256.digest(Array(source.utf8))).prefix(16)
        let directory = StrippedCopy.cacheDirectory()
        let library = "\(directory)/launchprof-callgrind-\(key).so"
        if access(library, R_OK) == 0 { return library }
        guard FileIO.exists("/usr/include/valgrind/callgrind.h") || ExecutableSearch.find("valgrind") != nil,
            let compiler = ["cc", "gcc", "clang"].lazy.compactMap(ExecutableSearch.find).first
        else { return nil }
        do { try FileIO.createDirectories(directory) } catch { return nil }
        let sourceFile = "\(library).\(getpid()).c", temporary = "\(library).\(getpid()).tmp"
        defer {
            unlink(sourceFile)
            unlink(temporary)
        }
        do { try FileIO.writeAtomically(source, to: sourceFile) } catch { return nil }
        guard StrippedCopy.run(compiler, ["-shared", "-fPIC", "-O2", "-o", temporary, sourceFile]) == 0,
            rename(temporary, library) == 0
        else { return nil }
        return library
    }
}
