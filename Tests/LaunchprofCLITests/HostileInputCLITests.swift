import Foundation
import Testing
import LaunchCore

/// Inputs that are not regular files, through the real command: exit 2 with a message naming the
/// file, never a hang (a FIFO would block an open for reading until a writer came) or an OOM.
///
/// A hang is caught by each launchprof's own deadline (`CLI.run(deadline:)`, 60 s for a command that
/// refuses its input at once), not by a time limit on the test: that also counted the calibration the
/// first `CLI.run` of the process makes, and a loaded machine's (load 12–15) went past a minute.
@Suite(.serialized) struct HostileInputCLITests {
    static let deadline = 60.0

    @Test func runWithAFIFOManifestExitsTwo() throws {
        let path = CLI.temporaryPath("manifest.json")
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let outcome = try CLI.run(["run", "--manifest", path, "--runs", "1", "--warmup", "0"], deadline: Self.deadline)
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains("\(path): is a FIFO (named pipe), not a regular file: launchprof reads inputs from regular files only"), "\(outcome.stderr)"
        )
    }

    @Test func runWithAManifestLinkedToDevZeroExitsTwo() throws {
        let path = CLI.temporaryPath("manifest.json")
        #expect(symlink("/dev/zero", path) == 0)
        defer { unlink(path) }
        let outcome = try CLI.run(["run", "--manifest", path, "--runs", "1", "--warmup", "0"], deadline: Self.deadline)
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains("\(path): is a character device, not a regular file: launchprof reads inputs from regular files only"), "\(outcome.stderr)")
    }

    @Test func runWithAFIFOTiersFileExitsTwo() throws {
        let path = CLI.temporaryPath("tiers.json")
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let manifest = try TestManifest.make()
        let outcome = try CLI.run(
            ["run", "--manifest", manifest, "--tiers", path, "--tier", "iphone-3gs", "--runs", "1", "--warmup", "0"], deadline: Self.deadline)
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains("\(path): is a FIFO (named pipe), not a regular file: launchprof reads inputs from regular files only"), "\(outcome.stderr)"
        )
    }
}
