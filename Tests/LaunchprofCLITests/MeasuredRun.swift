import Foundation
import LaunchCore

/// Runs `launchprof` as ``CLI/run(_:in:environment:)`` does, and also reports what `wait4` says of
/// it: its peak resident memory and its wall time (for tests of bounded memory and honoured timeouts).
extension CLI {
    struct MeasuredOutcome {
        var outcome: Outcome
        /// Peak resident set of the launchprof process itself (`ru_maxrss`), in bytes.
        var peakBytes: Int
        var seconds: Double
    }

    /// Runs through a small Python parent, whose `RUSAGE_CHILDREN` is launchprof's own peak (a child
    /// spawned straight from this large test process would report the test process's memory: Linux
    /// keeps the high-water mark of the address space a `vfork`ed child starts in across its exec).
    static func runMeasured(_ arguments: [String]) throws -> MeasuredOutcome {
        let usage = temporaryPath("usage")
        defer { unlink(usage) }
        let wrapper = """
            import resource, subprocess, sys, time
            start = time.monotonic()
            p = subprocess.run(sys.argv[2:], stdin=subprocess.DEVNULL, capture_output=True)
            seconds = time.monotonic() - start
            sys.stdout.buffer.write(p.stdout)
            sys.stderr.buffer.write(p.stderr)
            with open(sys.argv[1], "w") as f:
                f.write("%d %d %f" % (p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, seconds))
            """
        let outcome = try run(["-c", wrapper, usage, executable] + arguments, program: "/usr/bin/env", prefix: ["python3"])
        let fields = try FileIO.readText(usage).split(separator: " ")
        guard fields.count == 3, let status = Int32(fields[0]), let kib = Int(fields[1]), let seconds = Double(fields[2]) else {
            throw POSIXError(.EINVAL)
        }
        return MeasuredOutcome(
            outcome: Outcome(status: status < 0 ? 128 - status : status, stdout: outcome.stdout, stderr: outcome.stderr),
            peakBytes: kib * 1024, seconds: seconds)
    }

    /// Writes `source` to a temporary Python script and returns its path.
    static func pythonScript(_ source: String) throws -> String {
        let path = temporaryPath("program.py")
        try FileIO.writeAtomically(source, to: path)
        return path
    }
}
