#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// How a run's process ended, and the waits that find out.
extension ProcessLauncher {
    /// How a process ended, from `wait4`.
    struct Ending {
        /// The exit status, when it exited; `nil` when a signal ended it.
        var status: Int32?
        var signal: Int32?
        /// Peak resident-set size in bytes.
        var peak: Int
        /// CPU seconds in user mode and in the kernel.
        var user: Double
        var system: Double
        /// `false` when the numbers above are not the program's (never reported then).
        var usageKnown = true
        /// The whole process's system counters (docs/counters.md), when known.
        var counters: PhaseCounters?
        /// The clock the moment its exit was seen, before its counters were read and it was reaped
        /// (``reap(_:deadline:exitFD:readsIO:)`` with `readsIO`); `nil` otherwise.
        var exitReading: UInt64?
    }

    /// Waits for the process (until `deadline`, or for ever when `nil`); returns how it ended, or
    /// `nil` when the deadline passed first. With its `exitFD` (``pidDescriptor(_:)``) the wait
    /// ends the moment it exits (its pipes often close a few microseconds before it can be reaped);
    /// without one it is checked every millisecond. `readsIO` (a program launchprof started itself):
    /// the clock is read the moment it has exited, then its bytes read and written
    /// (`/proc/<pid>/io`, while it is a zombie), then it is reaped.
    func reap(_ pid: pid_t, deadline: UInt64?, exitFD: Int32 = -1, readsIO: Bool = false) -> Ending? {
        var status: Int32 = 0
        var usage = rusage()
        var exitReading: UInt64?
        var io: (read: Int, written: Int)?
        while true {
            var flags: Int32 = deadline == nil ? 0 : WNOHANG
            if readsIO, Self.hasExited(pid, blocking: deadline == nil) {
                exitReading = MonotonicClock.nanoseconds()
                io = Self.exitedIO(pid)
                flags = 0
            }
            let result = wait4(pid, &status, flags, &usage)
            if result == pid { break }
            if result < 0 && errno != EINTR { return Ending(status: -1, signal: nil, peak: 0, user: 0, system: 0) }
            let now = MonotonicClock.nanoseconds()
            if let deadline, now >= deadline { return nil }
            guard result == 0 else { continue }
            if exitFD >= 0, let deadline {
                var entry = pollfd(fd: exitFD, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, Int32(min(1000, (deadline - now + 999_999) / 1_000_000)))
            } else {
                usleep(1000)
            }
        }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        let low = status & 0x7f
        var ending = Ending(
            status: low == 0 ? (status >> 8) & 0xff : nil, signal: low == 0 ? nil : low,
            peak: Int(usage.ru_maxrss) * 1024, user: seconds(usage.ru_utime), system: seconds(usage.ru_stime))
        ending.counters = PhaseCounters(
            cpuTime: ending.user + ending.system, minorFaults: usage.ru_minflt, majorFaults: usage.ru_majflt,
            voluntarySwitches: usage.ru_nvcsw, involuntarySwitches: usage.ru_nivcsw, bytesRead: io?.read, bytesWritten: io?.written)
        ending.exitReading = exitReading
        return ending
    }

    /// Whether the child `pid` has exited (`waitid` with `WNOWAIT`: it is left to be reaped).
    private static func hasExited(_ pid: pid_t, blocking: Bool) -> Bool {
        var info = siginfo_t()
        let flags = WEXITED | WNOWAIT | (blocking ? 0 : WNOHANG)
        while waitid(P_PID, id_t(pid), &info, flags) != 0 {
            if errno != EINTR { return false }
        }
        // With WNOHANG and nothing to report, waitid succeeds with si_pid 0 (Linux's siginfo_t:
        // si_signo, si_errno, si_code, then si_pid at byte 16).
        return withUnsafeBytes(of: &info) { $0.load(fromByteOffset: 16, as: Int32.self) } == pid
    }

    /// An exited, unreaped process's `rchar` and `wchar` (`/proc/<pid>/io`: every thread's, the
    /// zombie's own included), as the spawner reads them; `nil` when they cannot be read.
    static func exitedIO(_ pid: pid_t) -> (read: Int, written: Int)? {
        let fd = open("/proc/\(pid)/io", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        var values: [Substring: Int] = [:]
        for line in String(decoding: buffer[0..<n], as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1].drop { $0 == " " }), value >= 0 { values[parts[0]] = value }
        }
        guard let read = values["rchar"], let written = values["wchar"] else { return nil }
        return (read, written)
    }

    /// The program's end as the spawner saw it, `nil` before its `exit` line.
    func spawnerEnding(_ report: SpawnerReport) -> Ending? {
        guard let exit = report.exit else { return nil }
        let low = exit.status & 0x7f
        var ending = Ending(
            status: low == 0 ? (exit.status >> 8) & 0xff : nil, signal: low == 0 ? nil : low,
            peak: Int(clamping: exit.peakKibibytes) &* 1024,
            user: Double(exit.userMicroseconds) / 1e6, system: Double(exit.systemMicroseconds) / 1e6)
        ending.counters = exit.counters
        return ending
    }

    /// Stops a ready program: SIGTERM to its group, then SIGKILL after `grace` seconds; reaps it.
    func stop(_ pid: pid_t, grace: Double) -> Ending? {
        kill(-pid, SIGTERM)
        kill(pid, SIGTERM)
        let limit = MonotonicClock.nanoseconds() &+ UInt64(min(max(0, grace), 3_600) * 1e9)
        if let ending = reap(pid, deadline: limit) { return ending }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        return reap(pid, deadline: nil)
    }

    /// A descriptor that becomes readable when `pid` exits (`pidfd_open`, Linux 5.3), or -1 where
    /// the kernel or C library has none (the launcher then polls for the exit every 20 ms).
    static func pidDescriptor(_ pid: pid_t) -> Int32 {
        guard let open = pidfdOpen else { return -1 }
        let fd = open(pid, 0)
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return fd
    }

    typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
    static let pidfdOpen: PidfdOpen? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else { return nil }
        return unsafeBitCast(symbol, to: PidfdOpen.self)
    }()
}
