#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// How perf samples a session (`--sample`, docs/sampling.md): which perf, which event, how often.
/// ``check(rate:)`` says, before any work, whether perf can record here and what to change if not.
public struct SamplingSetup: Equatable, Sendable {
    /// The default of `--sample-rate`: samples per second of each thread's CPU time. Each sample
    /// costs the sampled thread a timer interrupt (a VM exit on a virtual machine) and perf a copy;
    /// up to 1000 Hz that is below the noise of the fixed cost of being sampled at all (BENCHMARKS.md (f)).
    public static let defaultRate = 1000
    /// The rates `--sample-rate` accepts.
    public static let rates: ClosedRange<Int> = 100...20_000

    /// The `perf` executable.
    public var perf: String
    /// `cpu-clock`, or `cpu-clock:u` (user space only) where this user may not sample the kernel.
    public var event: String
    /// Samples per second of CPU time.
    public var rate: Int

    public init(perf: String, event: String, rate: Int) {
        self.perf = perf
        self.event = event
        self.rate = rate
    }

    /// The sampling period in nanoseconds of CPU time (`cpu-clock` counts nanoseconds).
    public var periodNanoseconds: Int { 1_000_000_000 / max(1, rate) }

    /// The setup on this machine: `perf` on `PATH`, and `kernel.perf_event_paranoid` allowing this
    /// user to sample their own processes (root always may; others need 2 or lower, and 1 or lower
    /// for the kernel's frames). The error says what to change.
    public static func check(rate: Int, path: String? = nil, paranoidFile: String = "/proc/sys/kernel/perf_event_paranoid", root: Bool = geteuid() == 0)
        -> Result<SamplingSetup, SamplingError>
    {
        guard let perf = find("perf", path: path) else {
            return .failure(
                .unavailable(
                    "--sample records the launch with perf, and perf is not installed: install it with `sudo apt-get install linux-perf` (or `make setup`)"
                ))
        }
        let paranoid = (try? FileIO.readText(paranoidFile, limit: 64)).flatMap { Int($0.trimmingCharacters(in: " \n")) }
        if !root, let paranoid, paranoid > 2 {
            return .failure(
                .unavailable(
                    "--sample: perf may not record here: kernel.perf_event_paranoid is \(paranoid), and a user's own processes need 2 or lower: `sudo sysctl kernel.perf_event_paranoid=2` (1 to see the kernel's frames too), or run as root"
                ))
        }
        let kernel = root || (paranoid ?? 2) <= 1
        return .success(SamplingSetup(perf: perf, event: kernel ? "cpu-clock" : "cpu-clock:u", rate: rate))
    }

    /// `name`'s path in `path` (`PATH` when `nil`), if it is there and executable.
    static func find(_ name: String, path: String?) -> String? {
        let directories = path ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return directories.split(separator: ":").lazy.map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
