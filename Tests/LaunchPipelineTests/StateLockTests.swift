import LaunchprofTestSupport
import Testing
@testable import LaunchPipeline
import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

/// The saved state's lock: a launch reads the snapshot under a shared lock, the background step
/// saves under an exclusive one, and neither fails where no state was ever saved.
@Suite struct StateLockTests {
    @Test func aLaunchNeedsNoLockWhereNothingWasEverSaved() throws {
        let snapshot = TemporaryDirectory.uniquePath("lock-missing") + "/deeper/Loading.png"
        #expect(try StateLock.shared(snapshot: snapshot) == nil)
        #expect(!FileIO.exists(snapshot + ".lock"))
    }

    @Test func theBackgroundStepCreatesTheDirectoryAndHoldsTheLockExclusively() throws {
        let directory = TemporaryDirectory.uniquePath("lock")
        defer { _ = system("rm -rf '\(directory)'") }
        let snapshot = directory + "/state/Loading.png"
        var held: StateLock? = try StateLock.exclusive(snapshot: snapshot)
        #expect(FileIO.exists(snapshot + ".lock"))
        // flock locks belong to an open file: another descriptor of this process is refused while held.
        let other = open(snapshot + ".lock", O_RDONLY)
        defer { close(other) }
        #expect(flock(other, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK)
        withExtendedLifetime(held) {}
        held = nil
        #expect(flock(other, LOCK_SH | LOCK_NB) == 0)
        _ = held
    }

    @Test func sharedLocksDoNotWaitForEachOther() throws {
        let directory = TemporaryDirectory.uniquePath("lock")
        defer { _ = system("rm -rf '\(directory)'") }
        try FileIO.createDirectories(directory)
        let first = try #require(try StateLock.shared(snapshot: directory + "/Loading.png"))
        let second = try #require(try StateLock.shared(snapshot: directory + "/Loading.png"))
        withExtendedLifetime((first, second)) {}
    }
}
