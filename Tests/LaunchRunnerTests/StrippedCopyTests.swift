#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchprofTestSupport
import Testing

@testable import LaunchRunner

/// Valgrind's stripped copies: one per executable in the cache, the copy of a new build replacing
/// the earlier builds' (the cache grew by one copy per rebuild: 1.9 GB here).
@Suite struct StrippedCopyTests {
    /// `/bin/true` copied to `path` (an ELF executable objcopy can strip).
    func executable(_ path: String) throws {
        let bytes = try FileIO.read("/bin/true", limit: 16 << 20)
        try FileIO.writeAtomically(bytes, to: path)
        #expect(chmod(path, 0o755) == 0)
    }

    @Test(.enabled(if: ExecutableSearch.find("objcopy") != nil, "needs binutils"))
    func aNewBuildReplacesTheEarlierBuildsCopyOnly() throws {
        let root = try TemporaryDirectory.make(prefix: "launchprof-stripped-")
        defer { FileIO.removeTree(root) }
        let cache = root + "/cache"
        try FileIO.createDirectories(root + "/a")
        try FileIO.createDirectories(root + "/b")
        let app = root + "/a/app", other = root + "/b/app"
        try executable(app)
        try executable(other)
        let first = try StrippedCopy.of(app, in: cache)
        #expect(access(first, X_OK) == 0)
        #expect(try StrippedCopy.of(app, in: cache) == first, "the same build: the same copy")
        let others = try StrippedCopy.of(other, in: cache)
        #expect(others != first, "another executable of the same name has its own copy")
        // A copy named before copies carried the path's hash, and a copy being made by another process.
        let legacy = cache + "/app-stripped-64769-123-456-1700000000-5"
        let making = first + ".4242.tmp"
        try FileIO.writeAtomically("x", to: legacy)
        try FileIO.writeAtomically("x", to: making)
        // A new build of `app` (another size and modification time).
        try executable(app)
        let bytes = try FileIO.read(app, limit: 16 << 20) + [0]
        try FileIO.writeAtomically(bytes, to: app)
        #expect(chmod(app, 0o755) == 0)
        let second = try StrippedCopy.of(app, in: cache)
        #expect(second != first)
        #expect(access(second, X_OK) == 0)
        #expect(access(first, F_OK) != 0, "the earlier build's copy is removed")
        #expect(access(legacy, F_OK) != 0, "an unhashed copy is removed")
        #expect(access(others, X_OK) == 0, "another executable's copy is kept")
        #expect(access(making, F_OK) == 0, "a copy being made is left to its process")
        #expect(FileIO.entries(of: cache).count == 3)
    }
}
