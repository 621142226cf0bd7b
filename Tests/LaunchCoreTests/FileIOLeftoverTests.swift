import Testing
@testable import LaunchCore
#if canImport(Glibc)
import Glibc
import LaunchprofTestSupport
#endif

/// A writer killed between naming its finished temporary file and renaming it leaves the file; the
/// next write to the same directory removes it, and never a live writer's.
@Suite(.temporaryDirectory) struct FileIOLeftoverTests {
    @Test func theNextWriteRemovesADeadWritersTemporaryFileOnly() throws {
        var template = Array(TemporaryDirectory.path("leftover-XXXXXX").utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        // A pid that is not running: above any pid_max Linux allows (4,194,304). No child is forked:
        // a transient zombie would trip the launcher tests that look for zombies meanwhile.
        let child: Int32 = 2_000_000_000
        #expect(kill(child, 0) != 0 && errno == ESRCH)
        let dead = "\(directory)/.out.json.\(child).1234.tmp"
        let live = "\(directory)/.out.json.1.99.tmp"  // pid 1 is always running
        let other = "\(directory)/.another.json.\(child).5.tmp"
        for path in [dead, live, other] { try FileIO.writeAtomically(Array("x".utf8), to: path) }
        try FileIO.writeAtomically(Array("{}".utf8), to: directory + "/out.json")
        #expect(!FileIO.exists(dead))
        #expect(FileIO.exists(live))
        #expect(FileIO.exists(other))
        #expect(try FileIO.read(directory + "/out.json") == Array("{}".utf8))
    }
}
