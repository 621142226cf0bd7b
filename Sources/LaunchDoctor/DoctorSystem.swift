#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// What `doctor` reads of the machine, behind a protocol so that every finding can be tested with
/// a made-up machine (``FakeSystem`` in the tests) as well as measured on this one (``LiveSystem``).
public protocol DoctorSystem {
    /// A small text file's contents (`/proc/loadavg`, a `/sys` setting), or `nil` when it cannot be read.
    func read(_ path: String) -> String?
    /// The names in a directory (empty when it cannot be listed).
    func entries(of directory: String) -> [String]
    /// The path of an executable on `$PATH`, or `nil`.
    func executable(_ name: String) -> String?
    /// Online CPUs.
    var cores: Int { get }
    /// Whether dropping a file's pages from the page cache works here: writes a file, reads it,
    /// evicts it (`posix_fadvise(DONTNEED)`), and counts its pages still resident (`mincore`).
    /// `nil` when the probe itself could not run.
    func pageCacheEvictionWorks() -> Bool?
    /// Which mechanism `--tier` would throttle a program with, and why not a cgroup when it falls back.
    func throttleProbe() -> (mechanism: String, usesCgroup: Bool, fallback: String?)
    /// Each process's pid, command name and CPU time so far in clock ticks (`/proc/<pid>/stat`).
    func processes() -> [ProcessSample]
    /// Waits `seconds`.
    func pause(_ seconds: Double)
    /// Clock ticks a second (`sysconf(_SC_CLK_TCK)`).
    var ticksPerSecond: Double { get }
    /// The core's clock in GHz (a dependent chain of additions, the fastest of a few probes:
    /// ``LaunchTiers/HostClock``), read `count` times spread over about `seconds`; empty where the
    /// thread's CPU time cannot be read.
    func clockReadings(count: Int, seconds: Double) -> [Double]
    /// The fastest core clock (GHz) the processes of this host's cached calibration saw, and when it
    /// was made; `nil` without a cached calibration that recorded its clock.
    func calibrationClock() -> (gigahertz: Double, made: String)?
}

/// A process's CPU time at one moment.
public struct ProcessSample: Equatable, Sendable {
    public var pid: Int32
    public var name: String
    /// User plus system time, in clock ticks.
    public var ticks: Int

    /// Parses a `/proc/<pid>/stat` line: `pid (comm) state ppid … utime(14) stime(15) …`.
    public static func parse(stat line: String) -> ProcessSample? {
        guard let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")"), open < close,
            let pid = Int32(String(line[..<open]).trimmed)
        else { return nil }
        let name = String(line[line.index(after: open)..<close])
        let rest = line[line.index(after: close)...].split(separator: " ")
        // After the name: state(3) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime(14) stime(15).
        guard rest.count > 12, let user = Int(rest[11]), let system = Int(rest[12]) else { return nil }
        return ProcessSample(pid: pid, name: name, ticks: user + system)
    }
}
