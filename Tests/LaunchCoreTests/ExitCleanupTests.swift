import LaunchprofTestSupport
import Testing
@testable import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

/// What ``ExitCleanup`` holds: a temporary directory is registered while it exists, and forgotten
/// once removed. (Running the actions ends the process; the CLI tests interrupt launchprof for that.)
@Suite struct ExitCleanupTests {
    @Test func aTemporaryDirectoryIsRegisteredUntilItIsRemoved() throws {
        let directory = try FileIO.makeTemporaryDirectory(in: TemporaryDirectory.make(prefix: "cleanup"), prefix: "launchprof-cleanup-")
        try FileIO.writeAtomically("x", to: directory + "/file")
        let registration = try #require(FileIO.temporaryRegistration(of: directory))
        #expect(ExitCleanup.isRegistered(registration))
        FileIO.removeTemporaryDirectory(directory)
        #expect(access(directory, F_OK) != 0)
        #expect(FileIO.temporaryRegistration(of: directory) == nil)
        #expect(!ExitCleanup.isRegistered(registration))
    }

    @Test func anUnregisteredActionIsForgottenAndOthersKept() {
        let first = ExitCleanup.register {}
        let second = ExitCleanup.register {}
        #expect(first != second)
        ExitCleanup.unregister(first)
        #expect(!ExitCleanup.isRegistered(first) && ExitCleanup.isRegistered(second))
        ExitCleanup.unregister(second)
        ExitCleanup.unregister(second)  // twice: a no-op
        #expect(!ExitCleanup.isRegistered(second))
    }
}
