#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// The CPU time a throttled program has used, all its threads together, to the nanosecond: its
/// process CPU clock (`clock_getcpuclockid`), which the kernel keeps up to date even while it runs
/// on another CPU. ``DutyCycle`` stops a program for what it computed, not for how long it was let run.
struct ProgramCPUClock {
    let process: pid_t
    private let clock: clockid_t

    /// The clock of `process` (a child of this process, or of its spawner), or `nil`.
    init?(process: pid_t) {
        guard process > 1 else { return nil }
        var clock = clockid_t()
        guard clock_getcpuclockid(process, &clock) == 0 else { return nil }
        self.process = process
        self.clock = clock
    }

    /// The clock of the first child of `spawner` (the program it started), or `nil` while it has
    /// none (`/proc/PID/task/PID/children`).
    init?(childOf spawner: pid_t) {
        guard spawner > 1, let text = try? FileIO.readText("/proc/\(spawner)/task/\(spawner)/children"),
            let first = text.split(whereSeparator: \.isWhitespace).first, let child = pid_t(first)
        else { return nil }
        self.init(process: child)
    }

    /// Whether the process has started children (its main thread's, `/proc/PID/task/PID/children`):
    /// their CPU time is not on its clock, so it no longer tells what the program computed.
    func hasChildren() -> Bool {
        guard let text = try? FileIO.readText("/proc/\(process)/task/\(process)/children") else { return false }
        return text.contains { $0.isNumber }
    }

    /// Nanoseconds of CPU the process has used since its start, or `nil` once it is gone.
    func nanoseconds() -> UInt64? {
        var time = timespec()
        guard clock_gettime(clock, &time) == 0, time.tv_sec >= 0 else { return nil }
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
