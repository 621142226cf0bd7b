import Foundation
import Testing
import LaunchCore

/// Programs that send a hostile protocol stream through a real `launchprof exec`: each is refused
/// with an error naming the limit, and launchprof's own peak memory stays far below the stream's
/// worst case (what it keeps is bounded, not what it was sent).
@Suite(.serialized, .timeLimit(.minutes(3))) struct HostileProgramTests {
    /// A program writing `lines` (Python expressions yielding protocol lines) to fd 3.
    func program(_ body: String) throws -> String {
        try CLI.pythonScript(
            """
            import os
            f = os.fdopen(3, "w", buffering=1 << 20)
            f.write("launchprof 1\\n")
            \(body)
            f.close()
            """)
    }

    /// Runs the program whose protocol `body` writes: refused with `message`, launchprof's peak under `peakMiB`.
    func expectRefused(_ body: String, saying message: String, peakMiB: Int) throws {
        let script = try program(body)
        defer { unlink(script) }
        let run = try CLI.runMeasured(["exec", "--runs", "1", "--warmup", "0", "--", "python3", script])
        #expect(run.outcome.status == 2)
        #expect(run.outcome.stderr.contains(message), "\(run.outcome.stderr)")
        #expect(run.peakBytes < peakMiB << 20, "peak \(run.peakBytes >> 20) MiB")
    }

    @Test func nestedPhasesWithHugeNamesAreRefusedInBoundedMemory() throws {
        // The example of issue 28: 256 nested phases of 100 KB names (51 MB), 2.3 GiB before.
        try expectRefused(
            """
            names = ["n%d" % i + "x" * 100000 for i in range(256)]
            for n in names: f.write("begin - 0 - %s\\n" % n)
            for n in reversed(names): f.write("end - 0 %s\\n" % n)
            f.write("done -\\n")
            """, saying: "protocol line 2: a phase name of 100002 bytes", peakMiB: 150)
    }

    @Test func deepChainsOnManyThreadsStopAtThePathTotal() throws {
        // Every name within its limit, but each phase's path holds its 255 parents' names.
        try expectRefused(
            """
            for t in range(64):
                names = [("t%dn%d" % (t, i)).ljust(1000, "x") for i in range(256)]
                for n in names: f.write("begin - %d - %s\\n" % (t, n))
                for n in reversed(names): f.write("end - %d %s\\n" % (t, n))
            f.write("done -\\n")
            """, saying: "more than 64 MiB of phase paths", peakMiB: 200)
    }

    @Test func aFloodOfMarksStopsAtItsLimit() throws {
        try expectRefused(
            """
            for i in range(100001): f.write("mark - 0 m%d\\n" % i)
            f.write("done -\\n")
            """, saying: "protocol line 100002: more than 100000 marks in one run", peakMiB: 200)
    }

    @Test func oneEndlessLineIsCutAtItsLimitWithoutRescanning() throws {
        // 60 MB without a newline, written in small pieces: refused at 1 MiB.
        try expectRefused(
            """
            for i in range(60000): f.write("x" * 1000)
            """, saying: "a line longer than 1 MiB", peakMiB: 150)
    }

    @Test func aRunOnAHundredThousandThreadsIsExportedInEveryFormat() throws {
        // Issue 28: 44 s before, the SVG export walking every phase once per thread.
        let script = try program(
            """
            for t in range(100000): f.write("begin - %d - work\\nend - %d work\\n" % (t, t))
            f.write("done -\\n")
            """)
        let directory = CLI.temporaryPath("exports")
        try FileIO.createDirectories(directory)
        defer { unlink(script); FileIO.removeTree(directory) }
        let formats = ["json", "csv", "markdown", "chrome-trace", "svg"]
        let run = try CLI.runMeasured(
            ["exec", "--runs", "1", "--warmup", "0", "--quiet"] + formats.flatMap { ["--export-\($0)", "\(directory)/run.\($0)"] } + [
                "--", "python3", script
            ])
        #expect(run.outcome.status == 0, "\(run.outcome.stderr)")
        let svg = try FileIO.readText(directory + "/run.svg", limit: 64 << 20)
        #expect(svg.contains("95000 more phases on 95000 threads not drawn"))
        #expect(try FileIO.read(directory + "/run.csv", limit: 64 << 20).count > 100_000)
    }
}
